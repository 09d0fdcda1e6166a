package retry_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/retry"
)

func TestBreakerStates(t *testing.T) {
	now := time.Unix(0, 0)
	b := &retry.Breaker{Threshold: 3, Cooldown: 10 * time.Second, Now: func() time.Time { return now }}
	for i := range 2 {
		if err := b.Allow("m"); err != nil {
			t.Fatal(err)
		}
		b.Record("m", retry.BreakerFailure)
		if s := b.State("m"); s != retry.BreakerClosed {
			t.Fatalf("after %d failures: %v", i+1, s)
		}
	}
	b.Record("m", retry.BreakerSuccess) // a success clears the count
	for range 3 {
		b.Record("m", retry.BreakerFailure)
	}
	if s := b.State("m"); s != retry.BreakerOpen {
		t.Fatalf("state = %v", s)
	}
	err := b.Allow("m")
	if !errors.Is(err, toolcall.ErrCircuitOpen) {
		t.Fatalf("err = %v", err)
	}
	now = now.Add(10 * time.Second)
	if s := b.State("m"); s != retry.BreakerHalfOpen {
		t.Errorf("after the cool-down: %v", s)
	}
	if err := b.Allow("m"); err != nil {
		t.Fatalf("probe refused: %v", err)
	}
	if err := b.Allow("m"); !errors.Is(err, toolcall.ErrCircuitOpen) {
		t.Error("a second run passed while the probe is in flight")
	}
	b.Record("m", retry.BreakerFailure) // failed probe: open again
	if err := b.Allow("m"); err == nil {
		t.Error("allowed right after a failed probe")
	}
	now = now.Add(10 * time.Second)
	_ = b.Allow("m")
	b.Record("m", retry.BreakerNeutral) // a cancelled probe frees the slot
	if err := b.Allow("m"); err != nil {
		t.Errorf("probe after a neutral one: %v", err)
	}
	b.Record("m", retry.BreakerSuccess)
	if s := b.State("m"); s != retry.BreakerClosed {
		t.Errorf("after a successful probe: %v", s)
	}
	if s := b.State("other"); s != retry.BreakerClosed || b.Allow("other") != nil {
		t.Error("another model is affected")
	}
}

func TestBreakerDisabled(t *testing.T) {
	for _, b := range []*retry.Breaker{nil, {}, retry.NewBreaker(0, time.Second)} {
		for range 10 {
			b.Record("m", retry.BreakerFailure)
		}
		if err := b.Allow("m"); err != nil || b.State("m") != retry.BreakerClosed {
			t.Errorf("disabled breaker refused: %v", err)
		}
	}
}

func TestBreakerConcurrentUse(t *testing.T) {
	b := retry.NewBreaker(5, time.Millisecond)
	var wg sync.WaitGroup
	for i := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 100 {
				if b.Allow("m") == nil {
					b.Record("m", retry.BreakerOutcome((i+j)%3))
				}
				_ = b.State("m")
			}
		}()
	}
	wg.Wait()
}

func TestBreakerStateString(t *testing.T) {
	for s, want := range map[retry.BreakerState]string{retry.BreakerClosed: "closed", retry.BreakerOpen: "open", retry.BreakerHalfOpen: "half-open"} {
		if s.String() != want {
			t.Errorf("%d.String() = %q", s, s.String())
		}
	}
}
