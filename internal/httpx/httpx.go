// Package httpx holds what the model clients share over HTTP: bounded
// reads, the coded errors of failed requests, and the server's message read
// from an answer (client.RetryAfter reads the wait it asks for).
package httpx

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
)

// MaxErrorBody bounds what is read of an HTTP error body.
const MaxErrorBody = 64 << 10

// MaxServerMessage bounds the server message kept in a client.TransportError.
const MaxServerMessage = 4 << 10

// ErrTooLarge is the read error of a body past its size limit.
var ErrTooLarge = errors.New("answer larger than the size limit")

// ResponseLimit returns the configured limit, or the default.
func ResponseLimit(n int64) int64 {
	if n <= 0 {
		return client.DefaultMaxResponseBytes
	}
	return n
}

// LimitedReader reads at most n bytes and then fails with ErrTooLarge,
// unlike io.LimitReader, which would end quietly as if the answer were
// complete.
type LimitedReader struct {
	r io.Reader
	n int64
}

// NewLimitedReader returns a reader of at most n bytes of r.
func NewLimitedReader(r io.Reader, n int64) *LimitedReader {
	return &LimitedReader{r: r, n: n}
}

// Read reads from the underlying reader, failing with ErrTooLarge past the
// limit.
func (l *LimitedReader) Read(p []byte) (int, error) {
	if l.n <= 0 {
		// One byte more tells a body of exactly n bytes from a longer one.
		var one [1]byte
		if n, err := l.r.Read(one[:]); n == 0 {
			return 0, err
		}
		return 0, ErrTooLarge
	}
	if int64(len(p)) > l.n {
		p = p[:l.n]
	}
	n, err := l.r.Read(p)
	l.n -= int64(n)
	return n, err
}

// CanceledError is the error of a request whose context ended.
func CanceledError(ctx context.Context) *toolcall.Error {
	msg := "the request was cancelled"
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		msg = "the request ran past its deadline"
	}
	return toolcall.Errorf(toolcall.CodeCanceled, ctx.Err(), msg)
}

// ConnectionError is the error of a request that got no complete answer
// from the network: CodeCanceled when ctx ended (the network error is then
// only a consequence), CodeTransport with status 0 otherwise.
func ConnectionError(ctx context.Context, err error, what string) *toolcall.Error {
	if ctx.Err() != nil {
		return CanceledError(ctx)
	}
	return toolcall.Errorf(toolcall.CodeTransport, &client.TransportError{Err: err}, what)
}

// StatusError is the error of an HTTP answer with status >= 400. msg is the
// server's message (kept in the client.TransportError, never in the Error's own
// text, since servers quote the request and model output in it).
//
// 400 and 422 say the request itself is wrong: CodeRequestRejected, which
// the loop reflects rather than repeats. Everything else is CodeTransport;
// client.TransportError.Retryable tells 408, 429 and 5xx (worth a wait and another
// try) from the rest (401, 403, 404: trying again will not help).
func StatusError(status int, retryAfter time.Duration, msg string) *toolcall.Error {
	cause := &client.TransportError{StatusCode: status, RetryAfter: retryAfter, Message: msg}
	st := client.StatusText(status)
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

// ReadErrorBody reads a bounded error body and returns the server's
// message from it.
func ReadErrorBody(body io.Reader) string {
	data, _ := io.ReadAll(io.LimitReader(body, MaxErrorBody))
	return ServerMessage(data)
}

// ServerMessage finds the message in an error body, whatever its shape:
// Ollama's {"error": "…"}, OpenAI's {"error": {"message": "…"}}, vLLM's
// {"message": "…"}, FastAPI's {"detail": "…"}, or plain text.
func ServerMessage(body []byte) string {
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
			msg = ErrorFieldText(probe.Error)
		case probe.Message != "":
			msg = probe.Message
		case len(probe.Detail) > 0:
			msg = ErrorFieldText(probe.Detail)
		}
	}
	return ClipMessage(msg, MaxServerMessage)
}

// ErrorFieldText reads an "error" value: a string, or an object with a
// message.
func ErrorFieldText(raw json.RawMessage) string {
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

// ClipMessage cuts s to at most n bytes on a UTF-8 boundary.
func ClipMessage(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// InconsistentCalls is the error of an answer whose tool call fragments do
// not fit together: a broken stream, reported like any other, with the
// accumulator's error (which names the call and the problem) as its cause.
func InconsistentCalls(e *toolcall.Error, status int) *toolcall.Error {
	out := toolcall.Errorf(toolcall.CodeStream, &client.TransportError{StatusCode: status, Message: e.Message, Err: e},
		"the server's tool call fragments are inconsistent: "+e.Message)
	out.CallIndex, out.CallID, out.Tool = e.CallIndex, e.CallID, e.Tool
	return out
}
