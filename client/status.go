package client

import (
	"net/http"
	"strconv"
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
