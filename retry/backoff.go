package retry

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
)

// SleepContext waits for d or until ctx ends, whichever comes first, and
// returns ctx.Err() in the second case. It is the Loop's default Sleep.
func SleepContext(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// chat sends the request, repeating it after transport failures within the
// transport budget. A request the server rejected comes back as rejected.
func (r *run) chat(ctx context.Context, att *Attempt) (*client.Response, *toolcall.Error, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, nil, r.canceled(err)
		}
		req := r.req
		req.Messages = r.sent[:len(r.sent):len(r.sent)]
		begin := r.l.now()
		resp, err := r.l.Model.Chat(client.WithIdleTimeout(ctx, r.cfg.IdleTimeout), &req)
		att.ModelTime += r.l.now().Sub(begin)
		if err == nil {
			if resp == nil {
				return nil, nil, r.tag(toolcall.NewError(toolcall.CodeTransport, "the model returned neither a response nor an error"))
			}
			if resp.Done {
				return resp, nil, nil
			}
			// The answer stopped without the server's final message: the
			// connection closed mid-answer, or what came was not the
			// protocol's stream. The server failed, not the model: a
			// transport failure, repeated on the transport budget, not a
			// truncation (an answer that stopped for length is Done).
			err = toolcall.Errorf(toolcall.CodeTransport, ErrIncompleteAnswer,
				"the server's answer ended before its final message (the connection closed mid-answer, or the answer is not the protocol's stream)")
		}
		kind, coded, te := classify(ctx, err)
		switch kind {
		case failCanceled:
			cause := ctx.Err()
			if cause == nil {
				cause = err
			}
			return nil, nil, r.canceled(cause)
		case failRejected:
			return nil, r.tag(coded), nil
		case failFatal:
			return nil, nil, r.tag(coded)
		}
		if r.used.transport >= r.cfg.TransportRetries {
			if r.cfg.TransportRetries == 0 {
				return nil, nil, r.tag(coded)
			}
			return nil, nil, r.exhaustedAt(coded, "transport_retries", r.cfg.TransportRetries, len(r.attempts)+1)
		}
		var retryAfter time.Duration
		if te != nil {
			retryAfter = te.RetryAfter
		}
		if retryAfter > r.cfg.MaxRetryAfter {
			e := toolcall.Errorf(toolcall.CodeTransport, coded,
				fmt.Sprintf("the server asked to wait %s, longer than max_retry_after_ms (%s)", retryAfter, r.cfg.MaxRetryAfter))
			return nil, nil, r.tagAt(e, len(r.attempts)+1)
		}
		wait := r.cfg.Backoff.Delay(r.used.transport, retryAfter, r.l.random())
		r.used.transport++
		att.TransportRetries++
		r.logTransport(ctx, att, te, coded, wait)
		if err := r.sleep(ctx, wait, att); err != nil {
			return nil, nil, err
		}
	}
}

// ErrIncompleteAnswer is the cause of the TLP-015 error of an answer that
// ended without the server's final message (client.Response.Done false).
var ErrIncompleteAnswer = errors.New("the answer ended before the server's final message")

type failureKind int

const (
	failRetryable failureKind = iota // network, 408, 429, 5xx
	failRejected                     // HTTP 400: reflect, do not repeat blindly
	failCanceled
	failFatal
)

// classify sorts a Model error into what the loop does with it, and gives
// it a code when the model did not.
func classify(ctx context.Context, err error) (failureKind, *toolcall.Error, *client.TransportError) {
	var te *client.TransportError
	errors.As(err, &te)
	var coded *toolcall.Error
	adapterCoded := errors.As(err, &coded)
	if ctx.Err() != nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) ||
		(adapterCoded && coded.Code == toolcall.CodeCanceled) {
		return failCanceled, coded, te
	}
	rejected := (adapterCoded && coded.Code == toolcall.CodeRequestRejected) ||
		(te != nil && (te.StatusCode == 400 || te.StatusCode == 422))
	if !adapterCoded {
		code, msg := toolcall.CodeTransport, "the model request failed"
		if te != nil && te.StatusCode != 0 {
			msg = "server answered " + client.StatusText(te.StatusCode)
		}
		if rejected {
			code = toolcall.CodeRequestRejected
		}
		coded = toolcall.Errorf(code, err, msg)
	}
	var netErr net.Error
	switch {
	case rejected:
		return failRejected, coded, te
	case te != nil && te.Retryable():
		return failRetryable, coded, te
	case te != nil:
		return failFatal, coded, te
	case adapterCoded && coded.Code == toolcall.CodeTransport:
		// A transport failure without a status: the server was not reached.
		return failRetryable, coded, te
	case !adapterCoded && errors.As(err, &netErr):
		return failRetryable, coded, te
	}
	return failFatal, coded, te
}
