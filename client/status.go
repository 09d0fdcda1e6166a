package client

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// StatusText is an HTTP status code with its reason phrase, as messages
// write it: "503 Service Unavailable", or the bare number for a code
// without one.
func StatusText(code int) string {
	if t := http.StatusText(code); t != "" {
		return strconv.Itoa(code) + " " + t
	}
	return strconv.Itoa(code)
}

// RetryAfter reads how long the server asks the client to wait:
// retry-after-ms (OpenAI's, milliseconds) first, then Retry-After as
// seconds or as an HTTP date relative to now. It returns 0 when there is
// none or it cannot be read, and never a negative wait.
func RetryAfter(h http.Header, now time.Time) time.Duration {
	if h == nil {
		return 0
	}
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 && !math.IsInf(ms, 0) {
			return durationOf(ms / 1000)
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s <= 0 || math.IsNaN(s) {
			return 0
		}
		return durationOf(s)
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// durationOf converts seconds to a Duration, saturating instead of
// overflowing.
func durationOf(seconds float64) time.Duration {
	if seconds >= float64(math.MaxInt64)/float64(time.Second) {
		return time.Duration(math.MaxInt64)
	}
	return time.Duration(seconds * float64(time.Second))
}
