package retry

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/dialectkit/toolcall"
)

// DefaultMaxResponseBytes is how many bytes of one answer an adapter reads
// unless told otherwise: far more than any answer, little enough that a
// runaway stream cannot exhaust memory.
const DefaultMaxResponseBytes = 64 << 20

// maxErrorBody bounds what is read of an HTTP error body.
const maxErrorBody = 64 << 10

// maxServerMessage bounds the server message kept in a TransportError.
const maxServerMessage = 4 << 10

// errTooLarge is the read error of a body past its size limit.
var errTooLarge = errors.New("answer larger than the size limit")

// responseLimit returns the configured limit, or the default.
func responseLimit(n int64) int64 {
	if n <= 0 {
		return DefaultMaxResponseBytes
	}
	return n
}

// limitedReader reads at most n bytes and then fails with errTooLarge,
// unlike io.LimitReader, which would end quietly as if the answer were
// complete.
type limitedReader struct {
	r io.Reader
	n int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.n <= 0 {
		// One byte more tells a body of exactly n bytes from a longer one.
		var one [1]byte
		if n, err := l.r.Read(one[:]); n == 0 {
			return 0, err
		}
		return 0, errTooLarge
	}
	if int64(len(p)) > l.n {
		p = p[:l.n]
	}
	n, err := l.r.Read(p)
	l.n -= int64(n)
	return n, err
}

// canceledError is the error of a request whose context ended.
func canceledError(ctx context.Context) *toolcall.Error {
	msg := "the request was cancelled"
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		msg = "the request ran past its deadline"
	}
	return toolcall.Errorf(toolcall.CodeCanceled, ctx.Err(), msg)
}

// connectionError is the error of a request that got no complete answer
// from the network: CodeCanceled when ctx ended (the network error is then
// only a consequence), CodeTransport with status 0 otherwise.
func connectionError(ctx context.Context, err error, what string) *toolcall.Error {
	if ctx.Err() != nil {
		return canceledError(ctx)
	}
	return toolcall.Errorf(toolcall.CodeTransport, &TransportError{Err: err}, what)
}

// statusError is the error of an HTTP answer with status >= 400. msg is the
// server's message (kept in the TransportError, never in the Error's own
// text, since servers quote the request and model output in it).
//
// 400 and 422 say the request itself is wrong: CodeRequestRejected, which
// the loop reflects rather than repeats. Everything else is CodeTransport;
// TransportError.Retryable tells 408, 429 and 5xx (worth a wait and another
// try) from the rest (401, 403, 404: trying again will not help).
func statusError(status int, retryAfter time.Duration, msg string) *toolcall.Error {
	cause := &TransportError{StatusCode: status, RetryAfter: retryAfter, Message: msg}
	st := statusText(status)
	var code toolcall.Code = toolcall.CodeTransport
	var what string
	switch {
	case status == http.StatusBadRequest || status == http.StatusUnprocessableEntity:
		code, what = toolcall.CodeRequestRejected, "the server rejected the request ("+st+")"
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		what = "the server refused the credentials (" + st + ")"
	case status == http.StatusNotFound:
		what = "the server has no such model or endpoint (" + st + ")"
	case status == http.StatusTooManyRequests:
		what = "the server is rate limiting requests (" + st + ")"
	case status == http.StatusRequestTimeout || status == http.StatusGatewayTimeout:
		what = "the server timed out (" + st + ")"
	case status >= 500:
		what = "the server failed (" + st + ")"
	default:
		what = "the server answered " + st
	}
	return toolcall.Errorf(code, cause, what)
}

// readErrorBody reads a bounded error body and returns the server's
// message from it.
func readErrorBody(body io.Reader) string {
	data, _ := io.ReadAll(io.LimitReader(body, maxErrorBody))
	return serverMessage(data)
}

// serverMessage finds the message in an error body, whatever its shape:
// Ollama's {"error": "…"}, OpenAI's {"error": {"message": "…"}}, vLLM's
// {"message": "…"}, FastAPI's {"detail": "…"}, or plain text.
func serverMessage(body []byte) string {
	body = bytes.TrimSpace(body)
	var probe struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	msg := string(body)
	if json.Unmarshal(body, &probe) == nil {
		switch {
		case len(probe.Error) > 0 && string(probe.Error) != "null":
			msg = errorFieldText(probe.Error)
		case probe.Message != "":
			msg = probe.Message
		case len(probe.Detail) > 0:
			msg = errorFieldText(probe.Detail)
		}
	}
	return clipMessage(msg, maxServerMessage)
}

// errorFieldText reads an "error" value: a string, or an object with a
// message.
func errorFieldText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var obj struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &obj) == nil && obj.Message != "" {
		return obj.Message
	}
	return string(raw)
}

// clipMessage cuts s to at most n bytes on a UTF-8 boundary.
func clipMessage(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// retryAfter reads how long the server asks the client to wait:
// retry-after-ms (OpenAI's, milliseconds) first, then Retry-After as
// seconds or as an HTTP date relative to now. It returns 0 when there is
// none or it cannot be read, and never a negative wait.
func retryAfter(h http.Header, now time.Time) time.Duration {
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
