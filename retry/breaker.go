package retry

import (
	"fmt"
	"sync"
	"time"

	"github.com/dialectkit/toolcall"
)

// BreakerState is the state of a circuit breaker for one model.
type BreakerState int

// The states of a breaker.
const (
	// BreakerClosed lets runs through.
	BreakerClosed BreakerState = iota
	// BreakerOpen refuses runs until its cool-down has passed.
	BreakerOpen
	// BreakerHalfOpen lets one probe run through after the cool-down; its
	// success closes the breaker, its failure opens it again.
	BreakerHalfOpen
)

// String returns "closed", "open" or "half-open".
func (s BreakerState) String() string {
	switch s {
	case BreakerOpen:
		return "open"
	case BreakerHalfOpen:
		return "half-open"
	}
	return "closed"
}

// Breaker stops runs against a model after Threshold failed runs in a row
// (budgets exhausted, server unreachable), so a broken model or server
// stops costing tokens and time. After Cooldown one probe run is let
// through. Models are told apart by a key, the model name. A Breaker is
// safe for concurrent use; the zero value never opens.
type Breaker struct {
	// Threshold is how many consecutive failures open the breaker; 0 or
	// less disables it.
	Threshold int
	// Cooldown is how long the breaker stays open.
	Cooldown time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time

	mu     sync.Mutex
	models map[string]*breakerEntry
}

type breakerEntry struct {
	failures int
	openedAt time.Time
	open     bool
	probing  bool // a half-open probe is in flight
}

// NewBreaker returns a breaker with the given threshold and cool-down.
func NewBreaker(threshold int, cooldown time.Duration) *Breaker {
	return &Breaker{Threshold: threshold, Cooldown: cooldown}
}

func (b *Breaker) now() time.Time {
	if b.Now != nil {
		return b.Now()
	}
	return time.Now()
}

// Allow reports whether a run against model may start. It returns a
// TLP-021 error while the breaker is open, and while a half-open probe is
// in flight. A run that was allowed must be reported with Record.
func (b *Breaker) Allow(model string) error {
	if b == nil || b.Threshold <= 0 {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	e := b.models[model]
	if e == nil || !e.open {
		return nil
	}
	if e.probing {
		return b.openError(model, e, "a probe run is in flight")
	}
	if b.now().Sub(e.openedAt) < b.Cooldown {
		return b.openError(model, e, "cooling down")
	}
	e.probing = true
	return nil
}

func (b *Breaker) openError(model string, e *breakerEntry, why string) *toolcall.Error {
	left := b.Cooldown - b.now().Sub(e.openedAt)
	msg := fmt.Sprintf("circuit breaker for model %q is open after %d failed runs in a row (%s", model, e.failures, why)
	if left > 0 {
		msg += fmt.Sprintf(", %s left", left.Round(time.Millisecond))
	}
	return toolcall.NewError(toolcall.CodeCircuitOpen, msg+")")
}

// BreakerOutcome is how a run ended, as the breaker counts it.
type BreakerOutcome int

// The outcomes a breaker counts.
const (
	// BreakerSuccess closes the breaker and clears the failure count.
	BreakerSuccess BreakerOutcome = iota
	// BreakerFailure counts a failure; a failed probe reopens the breaker.
	BreakerFailure
	// BreakerNeutral changes nothing (a cancelled run, an invalid request)
	// but ends a probe so that another may start.
	BreakerNeutral
)

// Record reports how a run that Allow let through ended: BreakerSuccess,
// BreakerFailure or BreakerNeutral.
func (b *Breaker) Record(model string, outcome BreakerOutcome) {
	if b == nil || b.Threshold <= 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.models == nil {
		b.models = map[string]*breakerEntry{}
	}
	e := b.models[model]
	if e == nil {
		e = &breakerEntry{}
		b.models[model] = e
	}
	probe := e.probing
	e.probing = false
	switch outcome {
	case BreakerSuccess:
		*e = breakerEntry{}
	case BreakerFailure:
		e.failures++
		if probe || e.failures >= b.Threshold {
			e.open, e.openedAt = true, b.now()
		}
	}
}

// State returns the breaker's state for model.
func (b *Breaker) State(model string) BreakerState {
	if b == nil || b.Threshold <= 0 {
		return BreakerClosed
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	e := b.models[model]
	switch {
	case e == nil || !e.open:
		return BreakerClosed
	case e.probing || b.now().Sub(e.openedAt) >= b.Cooldown:
		return BreakerHalfOpen
	}
	return BreakerOpen
}
