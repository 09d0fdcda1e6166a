package retry_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/retry"
)

func TestBackoffDelay(t *testing.T) {
	b := config.Backoff{Initial: 500 * time.Millisecond, Max: 4 * time.Second, Multiplier: 2, Jitter: 0.2}
	tests := []struct {
		n          int
		retryAfter time.Duration
		r          float64
		want       time.Duration
	}{
		{0, 0, 0, 500 * time.Millisecond},
		{1, 0, 0, time.Second},
		{2, 0, 0, 2 * time.Second},
		{3, 0, 0, 4 * time.Second},
		{10, 0, 0, 4 * time.Second}, // capped
		{0, 0, 0.999999, 400*time.Millisecond + 100*time.Nanosecond},
		{1, 0, 0.5, 900 * time.Millisecond},
		{0, 3 * time.Second, 0, 3 * time.Second},     // Retry-After wins
		{3, time.Second, 0, 4 * time.Second},         // the series wins when longer
		{0, 10 * time.Second, 0.5, 10 * time.Second}, // Retry-After above Max is honoured
		{-1, 0, -3, 500 * time.Millisecond},          // out-of-range inputs are clamped
	}
	for _, tt := range tests {
		if got := b.Delay(tt.n, tt.retryAfter, tt.r); got.Round(time.Microsecond) != tt.want.Round(time.Microsecond) {
			t.Errorf("Delay(%d, %v, %v) = %v, want %v", tt.n, tt.retryAfter, tt.r, got, tt.want)
		}
	}
	flat := config.Backoff{Initial: time.Second, Multiplier: 0.5}
	if got := flat.Delay(3, 0, 0); got != time.Second {
		t.Errorf("a multiplier below 1 shrank the wait to %v", got)
	}
}

func TestSleepContext(t *testing.T) {
	if err := retry.SleepContext(context.Background(), time.Millisecond); err != nil {
		t.Error(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := retry.SleepContext(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v", err)
	}
	if err := retry.SleepContext(ctx, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("zero wait on a cancelled context: %v", err)
	}
}
