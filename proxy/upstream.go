package proxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/retry"
)

// hopHeaders are the hop-by-hop headers a proxy does not forward.
var hopHeaders = []string{
	"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate",
	"Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade",
}

// outgoingHeader is the header sent upstream: the client's, without the
// hop-by-hop headers, and without Authorization when the proxy checked its
// own key.
func (c *core) outgoingHeader(in http.Header) http.Header {
	h := in.Clone()
	if h == nil {
		h = http.Header{}
	}
	for _, k := range hopHeaders {
		h.Del(k)
	}
	if conn := in.Get("Connection"); conn != "" {
		for _, k := range strings.Split(conn, ",") {
			h.Del(strings.TrimSpace(k))
		}
	}
	if c.opts.APIKey != "" && c.upstream != nil {
		h.Del("Authorization")
		h.Del("X-Api-Key")
	}
	return h
}

// copyHeader copies an upstream answer's header to the client, without
// the hop-by-hop headers and, when the body is rewritten, its length.
func copyHeader(dst, src http.Header, rewritten bool) {
	for k, vs := range src {
		dst[k] = append([]string(nil), vs...)
	}
	for _, k := range hopHeaders {
		dst.Del(k)
	}
	if rewritten {
		dst.Del("Content-Length")
		dst.Del("Content-Encoding")
		dst.Del("Etag")
	}
}

// errNoPlace is the error of a request that waited IdleTimeout for a
// place among the upstream requests in flight.
var errNoPlace = errors.New("no place among the upstream requests in flight")

// acquire takes a place among the upstream requests in flight, waiting
// until one is free, ctx ends, or IdleTimeout passes.
func (c *core) acquire(ctx context.Context) error {
	select {
	case c.sem <- struct{}{}:
		return nil
	default:
	}
	t := time.NewTimer(c.opts.IdleTimeout)
	defer t.Stop()
	select {
	case c.sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return errNoPlace
	}
}

func (c *core) release() { <-c.sem }

// passThrough sends a request the proxy does not fix to the upstream and
// copies the answer back as it comes.
func (c *core) passThrough(w http.ResponseWriter, r *http.Request, out *url.URL) {
	start := time.Now()
	st := &RequestStats{CorrelationID: toolcall.NewCorrelationID(), API: c.api, Path: r.URL.Path, Outcome: OutcomePassThrough}
	ctx, cancel := context.WithTimeout(r.Context(), c.opts.TotalTimeout)
	defer cancel()
	defer func() {
		st.Total = time.Since(start)
		c.finish(ctx, st, nil)
	}()
	body, ok := c.passThroughBody(ctx, w, r, st)
	if !ok {
		return
	}
	if err := c.acquire(ctx); err != nil {
		st.Outcome, st.Status = OutcomeError, http.StatusServiceUnavailable
		e := toolcall.Errorf(toolcall.CodeLimit, err, "too many requests in flight (max_concurrent "+strconv.Itoa(c.opts.MaxConcurrent)+"), and none came free in time")
		st.ErrorCodes = append(st.ErrorCodes, string(e.Code))
		writeError(w, c.api, st.Status, e)
		return
	}
	defer c.release()
	req, err := http.NewRequestWithContext(ctx, r.Method, out.String(), body)
	if err != nil {
		st.Outcome, st.Status = OutcomeError, http.StatusBadGateway
		writeError(w, c.api, st.Status, toolcall.Errorf(toolcall.CodeTransport, err, "cannot build the upstream request"))
		return
	}
	req.Header = c.outgoingHeader(r.Header)
	req.ContentLength = r.ContentLength
	if r.Body == nil || r.Body == http.NoBody {
		req.Body = nil
	}
	upStart := time.Now()
	resp, err := c.roundTripIdle(ctx, cancel, req)
	if err != nil {
		st.Upstream = time.Since(upStart)
		st.Outcome, st.Status = OutcomeError, http.StatusBadGateway
		e := transportError(ctx, err)
		st.ErrorCodes = append(st.ErrorCodes, string(e.Code))
		writeError(w, c.api, st.Status, e)
		return
	}
	defer resp.Body.Close()
	copyHeader(w.Header(), resp.Header, false)
	w.WriteHeader(resp.StatusCode)
	st.Status = resp.StatusCode
	flushCopy(w, resp.Body)
	st.Upstream = time.Since(upStart)
}

// flushCopy copies body to w, flushing after every read so that streams
// stay streams.
func flushCopy(w http.ResponseWriter, body io.Reader) {
	fl, _ := w.(http.Flusher)
	buf := make([]byte, 32<<10)
	for {
		n, err := body.Read(buf)
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return
			}
			if fl != nil {
				fl.Flush()
			}
		}
		if err != nil {
			return
		}
	}
}

// roundTripIdle sends req and watches the answer for silence: no header, or
// no byte between two reads, for IdleTimeout cancels the request (cancel is
// the request's context's).
func (c *core) roundTripIdle(ctx context.Context, cancel context.CancelFunc, req *http.Request) (*http.Response, error) {
	w := &idleWatch{cancel: cancel, d: c.opts.IdleTimeout}
	w.t = time.AfterFunc(w.d, w.fire)
	resp, err := c.next.RoundTrip(req)
	if err != nil {
		w.t.Stop()
		if w.fired() {
			return nil, errIdle{c.opts.IdleTimeout}
		}
		return nil, err
	}
	w.t.Reset(w.d)
	resp.Body = &idleBody{ReadCloser: resp.Body, w: w}
	return resp, nil
}

// errIdle is the error of an upstream that stayed silent too long.
type errIdle struct{ d time.Duration }

func (e errIdle) Error() string {
	return fmt.Sprintf("the upstream sent nothing for %s (idle timeout)", e.d)
}

type idleWatch struct {
	cancel context.CancelFunc
	d      time.Duration
	t      *time.Timer
	mu     sync.Mutex
	done   bool
}

func (w *idleWatch) fire() {
	w.mu.Lock()
	w.done = true
	w.mu.Unlock()
	w.cancel()
}

func (w *idleWatch) fired() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.done
}

type idleBody struct {
	io.ReadCloser
	w *idleWatch
}

func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if errors.Is(err, io.EOF) {
		// The answer is complete: the time spent on it from here on is
		// the proxy's, not the upstream's silence.
		b.w.t.Stop()
		return n, err
	}
	if n > 0 {
		b.w.t.Reset(b.w.d)
	}
	if err != nil && !errors.Is(err, io.EOF) && b.w.fired() {
		return n, errIdle{b.w.d}
	}
	return n, err
}

func (b *idleBody) Close() error {
	b.w.t.Stop()
	return b.ReadCloser.Close()
}

// transportError codes an error met reaching the upstream.
func transportError(ctx context.Context, err error) *toolcall.Error {
	var idle errIdle
	switch {
	case errors.As(err, &idle):
		return toolcall.Errorf(toolcall.CodeTransport, &client.TransportError{Err: err}, idle.Error())
	case ctx.Err() != nil:
		return toolcall.Errorf(toolcall.CodeCanceled, ctx.Err(), "the request ended before the upstream answered: "+ctx.Err().Error())
	}
	return toolcall.Errorf(toolcall.CodeTransport, &client.TransportError{Err: err}, "the upstream could not be reached: "+err.Error())
}

// sendWithRetry sends a chat request upstream, repeating it after network
// failures, 408, 429 and 5xx on the transport budget (transport_retries,
// with the configured backoff and the server's Retry-After up to
// max_retry_after_ms), as the retry loop does. It returns the answer with
// a 2xx status, or the last failed answer (status and body intact) when the
// budget ran out, or the error that ended the tries. retries counts the
// requests repeated.
func (c *core) sendWithRetry(ctx context.Context, cancel context.CancelFunc, cfg *config.Config, build func() (*http.Request, error), retries *int) (*http.Response, error) {
	for {
		req, err := build()
		if err != nil {
			return nil, toolcall.Errorf(toolcall.CodeTransport, err, "cannot build the upstream request")
		}
		resp, err := c.roundTripIdle(ctx, cancel, req)
		var retryAfter time.Duration
		if err == nil {
			if !(&client.TransportError{StatusCode: resp.StatusCode}).Retryable() {
				return resp, nil
			}
			retryAfter = client.RetryAfter(resp.Header, time.Now())
		} else if ctx.Err() != nil {
			return nil, transportError(ctx, err)
		}
		if *retries >= cfg.TransportRetries || retryAfter > cfg.MaxRetryAfter {
			if err != nil {
				return nil, transportError(ctx, err)
			}
			return resp, nil
		}
		if resp != nil {
			io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
			resp.Body.Close()
		}
		wait := cfg.Backoff.Delay(*retries, retryAfter, randFloat())
		*retries++
		if err := retry.SleepContext(ctx, wait); err != nil {
			return nil, transportError(ctx, err)
		}
	}
}
