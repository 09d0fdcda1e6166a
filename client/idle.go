package client

import (
	"context"
	"errors"
	"time"
)

// ErrIdleTimeout is the cause of a transport failure when the server sent
// nothing for the idle timeout: no answer headers, or no byte of the
// answer, for that long.
var ErrIdleTimeout = errors.New("the server sent nothing for the idle timeout")

type idleKey struct{}

// WithIdleTimeout returns a context that asks the adapters of this module
// to end a request whose server sends nothing for d (before the answer
// starts or between two reads of it) with a transport failure wrapping
// ErrIdleTimeout. d <= 0 sets no idle timeout. The retry loop sets it from
// its idle_timeout_ms setting.
func WithIdleTimeout(ctx context.Context, d time.Duration) context.Context {
	return context.WithValue(ctx, idleKey{}, d)
}

// IdleTimeout returns the idle timeout ctx carries, or 0.
func IdleTimeout(ctx context.Context) time.Duration {
	d, _ := ctx.Value(idleKey{}).(time.Duration)
	return d
}
