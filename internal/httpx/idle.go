package httpx

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/dialectkit/toolcall/client"
)

// IdleTransport ends a request whose server sends nothing for the idle
// timeout its context carries (client.WithIdleTimeout): no answer headers
// for that long, or no byte of the body between two reads. The request
// then fails with an error wrapping client.ErrIdleTimeout, which the
// adapters report as a transport failure.
type IdleTransport struct {
	Next http.RoundTripper
}

// RoundTrip sends req under the idle watch.
func (t *IdleTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	next := t.Next
	if next == nil {
		next = http.DefaultTransport
	}
	d := client.IdleTimeout(req.Context())
	if d <= 0 {
		return next.RoundTrip(req)
	}
	ctx, cancel := context.WithCancelCause(req.Context())
	w := &idleWatch{d: d, cancel: cancel}
	w.timer = time.AfterFunc(d, func() {
		w.fired.Store(true)
		cancel(client.ErrIdleTimeout)
	})
	resp, err := next.RoundTrip(req.WithContext(ctx))
	if err != nil {
		w.stop()
		if w.fired.Load() {
			return nil, w.err()
		}
		return nil, err
	}
	resp.Body = &idleBody{rc: resp.Body, w: w}
	return resp, nil
}

// idleWatch is the timer of one request.
type idleWatch struct {
	d      time.Duration
	timer  *time.Timer
	cancel context.CancelCauseFunc
	fired  atomic.Bool
}

func (w *idleWatch) stop() {
	w.timer.Stop()
	w.cancel(nil)
}

func (w *idleWatch) err() error {
	return fmt.Errorf("%w: no byte from the server for %s (idle_timeout_ms)", client.ErrIdleTimeout, w.d)
}

// idleBody restarts the watch at every byte read.
type idleBody struct {
	rc io.ReadCloser
	w  *idleWatch
}

func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if n > 0 && !b.w.fired.Load() {
		b.w.timer.Reset(b.w.d)
	}
	if err != nil && err != io.EOF && b.w.fired.Load() {
		return n, b.w.err()
	}
	return n, err
}

func (b *idleBody) Close() error {
	err := b.rc.Close()
	b.w.stop()
	return err
}
