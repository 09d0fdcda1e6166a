package proxy

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/dialectkit/toolcall"
)

// DefaultRequestBodyTimeout bounds the reading of a client's request body:
// a body trickled in slower than that does not hold a place among the
// upstream requests in flight.
const DefaultRequestBodyTimeout = time.Minute

// errBodyTimeout is the cause of a request body that did not arrive in
// time.
var errBodyTimeout = errors.New("the request body did not arrive in time")

// bodyTimeoutError is the error answered for a request body that did not
// arrive within RequestBodyTimeout.
func (c *core) bodyTimeoutError(err error) *toolcall.Error {
	return toolcall.Errorf(toolcall.CodeLimit, err, "the request body did not arrive within "+
		c.opts.RequestBodyTimeout.String()+" (request_body_timeout)")
}

// readBody reads up to max bytes of r's body (max+1 to tell a larger one)
// within RequestBodyTimeout, before the request takes a place among those
// in flight. A Handler sets a read deadline on the client's connection; a
// Transport, whose bodies come from the program itself, closes a body that
// is late. A late body is errBodyTimeout.
func (c *core) readBody(w http.ResponseWriter, r *http.Request, max int64) ([]byte, error) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	d := c.opts.RequestBodyTimeout
	rc := http.NewResponseController(w)
	if err := rc.SetReadDeadline(time.Now().Add(d)); err == nil {
		data, err := io.ReadAll(io.LimitReader(r.Body, max+1))
		if errors.Is(err, os.ErrDeadlineExceeded) {
			// The deadline stays: the server would otherwise wait for
			// the rest of the body before answering. The connection
			// ends with this request.
			w.Header().Set("Connection", "close")
			return data, errBodyTimeout
		}
		rc.SetReadDeadline(time.Time{})
		return data, err
	}
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		data, err := io.ReadAll(io.LimitReader(r.Body, max+1))
		done <- result{data, err}
	}()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case res := <-done:
		return res.data, res.err
	case <-t.C:
		r.Body.Close()
		return nil, errBodyTimeout
	case <-r.Context().Done():
		r.Body.Close()
		return nil, r.Context().Err()
	}
}

// chatBody reads a chat request's body, within MaxRequestBytes and
// RequestBodyTimeout; on failure it has answered, and returns the error.
func (q *chatCtx) readChatBody() ([]byte, *toolcall.Error) {
	c := q.c
	body, err := c.readBody(q.w, q.in, c.opts.MaxRequestBytes)
	switch {
	case errors.Is(err, errBodyTimeout):
		return nil, q.fail(http.StatusRequestTimeout, c.bodyTimeoutError(err))
	case err != nil:
		return nil, q.fail(http.StatusBadRequest, toolcall.Errorf(toolcall.CodeInvalidInput, err, "cannot read the request body"))
	case int64(len(body)) > c.opts.MaxRequestBytes:
		return nil, q.fail(http.StatusRequestEntityTooLarge, toolcall.NewError(toolcall.CodeLimit,
			"the request body is larger than "+strconv.FormatInt(c.opts.MaxRequestBytes, 10)+" bytes (max_request_bytes)"))
	}
	return body, nil
}

// passThroughBody reads the body of a request the proxy passes through
// before it takes a place among those in flight: up to MaxRequestBytes
// within RequestBodyTimeout. A larger body (a model upload) then streams
// on from there, the deadline lifted: its first MaxRequestBytes arrived in
// time. ok false means the answer was given (the error).
func (c *core) passThroughBody(ctx context.Context, w http.ResponseWriter, r *http.Request, st *RequestStats) (io.Reader, bool) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, true
	}
	head, err := c.readBody(w, r, c.opts.MaxRequestBytes)
	if err != nil {
		e := c.bodyTimeoutError(err)
		st.Outcome, st.Status = OutcomeError, http.StatusRequestTimeout
		if !errors.Is(err, errBodyTimeout) {
			if ctx.Err() != nil {
				st.Status = 499 // the client went away
				return nil, false
			}
			e = toolcall.Errorf(toolcall.CodeInvalidInput, err, "cannot read the request body")
			st.Status = http.StatusBadRequest
		}
		st.ErrorCodes = append(st.ErrorCodes, string(e.Code))
		writeError(w, c.errorAPI(r), st.Status, e)
		return nil, false
	}
	if int64(len(head)) <= c.opts.MaxRequestBytes {
		return bytes.NewReader(head), true
	}
	return io.MultiReader(bytes.NewReader(head), r.Body), true
}
