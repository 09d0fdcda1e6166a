package proxy

import (
	"bytes"
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/dialectkit/toolcall"
)

// tooLarge is the error of an upstream answer past MaxResponseBytes.
func (c *core) tooLarge() *toolcall.Error {
	return toolcall.NewError(toolcall.CodeLimit, "the upstream answer is larger than "+
		strconv.FormatInt(c.opts.MaxResponseBytes, 10)+" bytes (max_response_bytes)")
}

// unfixed sends an answer the proxy does not fix (the upstream's own
// error, or an answer to a request without tools) as it came, within
// MaxResponseBytes, and ends it the way a fixed answer ends at that limit:
// an answer whose length the upstream announced above the limit, or a
// whole answer that runs past it, is 502 with the protocol's error (TLP-027);
// a stream past it is cut after its last whole event, and ends with the
// protocol's error event. What fits goes out byte for byte, its
// Content-Length kept.
func (q *chatCtx) unfixed(ctx context.Context, resp *http.Response) *toolcall.Error {
	c := q.c
	limit := c.opts.MaxResponseBytes
	q.st.Outcome, q.st.Status = OutcomeUnchanged, resp.StatusCode
	if resp.ContentLength > limit {
		return q.fail(http.StatusBadGateway, c.tooLarge())
	}
	ok := resp.StatusCode >= 200 && resp.StatusCode <= 299
	ct := resp.Header.Get("Content-Type")
	if !ok || !q.cd.isStream(ct, q.stream) {
		data, e := q.readAnswer(resp)
		if e != nil {
			if e.Code == toolcall.CodeTransport {
				return q.upstreamFailure(ctx, e)
			}
			return q.fail(http.StatusBadGateway, e)
		}
		copyHeader(q.w.Header(), resp.Header, false)
		q.w.WriteHeader(resp.StatusCode)
		q.w.Write(data)
		return nil
	}
	// A stream: as it comes, up to the last event that fits.
	copyHeader(q.w.Header(), resp.Header, true)
	q.w.WriteHeader(resp.StatusCode)
	fl, _ := q.w.(http.Flusher)
	sep := []byte("\n")
	if strings.Contains(ct, "event-stream") {
		sep = []byte("\n\n")
	}
	buf := make([]byte, 32<<10)
	var sent int64
	for {
		n, err := resp.Body.Read(buf)
		if n > 0 {
			chunk := buf[:n]
			over := sent+int64(n) > limit
			if over {
				// The part that fits, up to its last whole event.
				chunk = chunk[:limit-sent]
				chunk = chunk[:bytes.LastIndex(chunk, sep)+len(sep)]
				if len(chunk) < len(sep) {
					chunk = nil
				}
			}
			if _, werr := q.w.Write(chunk); werr != nil {
				return nil
			}
			sent += int64(len(chunk))
			if over {
				e := c.tooLarge()
				e.CorrelationID = q.st.CorrelationID
				q.st.Outcome = OutcomeError
				q.st.ErrorCodes = append(q.st.ErrorCodes, string(e.Code))
				s := &streamer{q: q, w: q.w}
				q.w.Write(q.cd.newStream(s).errorEvent(e))
				if fl != nil {
					fl.Flush()
				}
				return e
			}
			if fl != nil {
				fl.Flush()
			}
		}
		if err != nil {
			// The end, or the upstream cut its stream: it ends the same
			// way here.
			return nil
		}
	}
}
