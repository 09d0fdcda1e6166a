package config

import (
	"math"
	"time"
)

// Backoff sets the waits between transport retries: exponential growth from
// Initial by Multiplier, capped at Max, with jitter, and never shorter than
// the server's Retry-After.
type Backoff struct {
	// Initial is the wait before the first retry.
	Initial time.Duration
	// Max caps every wait computed from the exponential series.
	Max time.Duration
	// Multiplier is the growth factor between successive waits (≥ 1).
	Multiplier float64
	// Jitter is the fraction of each wait that is randomised (0–1): the
	// wait is drawn uniformly from [d·(1−Jitter), d]. It spreads the
	// retries of many clients hit by the same outage.
	Jitter float64
}

// DefaultBackoff returns 500 ms doubling up to 30 s, with 20 % jitter.
func DefaultBackoff() Backoff {
	return Backoff{Initial: 500 * time.Millisecond, Max: 30 * time.Second, Multiplier: 2, Jitter: 0.2}
}

// Delay returns the wait before retry n (0 for the first retry). r is a
// random number in [0, 1) that draws the jitter. A positive retryAfter,
// the server's own request, is honoured as a lower bound: a server asking
// for 10 s never gets a retry after 5 s because the series said so.
func (b Backoff) Delay(n int, retryAfter time.Duration, r float64) time.Duration {
	d := float64(b.Initial) * math.Pow(math.Max(b.Multiplier, 1), float64(max(n, 0)))
	if b.Max > 0 && d > float64(b.Max) {
		d = float64(b.Max)
	}
	if j := min(max(b.Jitter, 0), 1); j > 0 {
		d -= d * j * min(max(r, 0), 1)
	}
	wait := time.Duration(d)
	if retryAfter > wait {
		wait = retryAfter
	}
	return wait
}
