package retry_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/retry"
)

// A model a prompt injection steers can be made to fail on purpose, on
// every request, in every way it can fail. These tests check that such a
// model never gets more requests than the configured budgets allow, and
// never makes a run wait longer than the configured delays and backoff add
// up to.

// failureKind is one way an answer can fail.
type failureKind int

const (
	failInvalidCall failureKind = iota // a call that breaks its schema
	failGarbage                        // markup that cannot be parsed
	failUnknownTool                    // a name no tool has
	failServerError                    // HTTP 503
	failRateLimited                    // HTTP 429 with Retry-After
	failNetwork                        // connection refused
	failRejected                       // HTTP 400: the request is refused
	failTruncated                      // stopped for length
	failStreamCut                      // the stream ended early
	failKinds
)

// alwaysFailing answers every request with a failure of one of the kinds
// it was given, drawn from its own seeded source. It is safe for
// concurrent use and counts the requests it got.
type alwaysFailing struct {
	mu         sync.Mutex
	rng        *rand.Rand
	kinds      []failureKind
	retryAfter time.Duration
	requests   int
}

func newAlwaysFailing(seed uint64, retryAfter time.Duration, kinds ...failureKind) *alwaysFailing {
	if len(kinds) == 0 {
		for k := range failKinds {
			kinds = append(kinds, k)
		}
	}
	return &alwaysFailing{rng: rand.New(rand.NewPCG(seed, seed+1)), kinds: kinds, retryAfter: retryAfter}
}

func (m *alwaysFailing) count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.requests
}

func (m *alwaysFailing) Chat(ctx context.Context, _ *client.Request) (*client.Response, error) {
	m.mu.Lock()
	m.requests++
	kind := m.kinds[m.rng.IntN(len(m.kinds))]
	m.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, toolcall.Errorf(toolcall.CodeCanceled, err, "request cancelled")
	}
	answer := func(content string) (*client.Response, error) {
		return &client.Response{Content: content, Done: true, DoneReason: "stop", PromptTokens: 50, CompletionTokens: 10}, nil
	}
	switch kind {
	case failInvalidCall:
		return answer(hermes("get_weather", `{"city": 12, "days": "many"}`))
	case failGarbage:
		return answer("<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": [}}}}\n</tool_call>")
	case failUnknownTool:
		return answer(hermes("rm_rf", `{"path": "/"}`))
	case failServerError:
		return nil, toolcall.Errorf(toolcall.CodeTransport, &client.TransportError{StatusCode: 503, Message: "overloaded"}, "server error")
	case failRateLimited:
		return nil, toolcall.Errorf(toolcall.CodeTransport, &client.TransportError{StatusCode: 429, RetryAfter: m.retryAfter}, "rate limited")
	case failNetwork:
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
	case failRejected:
		return nil, toolcall.Errorf(toolcall.CodeRequestRejected, &client.TransportError{StatusCode: 400, Message: "invalid tool call arguments"}, "request rejected")
	case failTruncated:
		return &client.Response{Content: "<tool_call>\n{\"name\": \"get_weather\", \"argu", Done: true, DoneReason: "length", CompletionTokens: 100}, nil
	default:
		return &client.Response{Content: "<tool_call>\n{\"name\": \"get_", Done: false}, nil
	}
}

// budget is what a configuration allows one run to cost.
type budget struct {
	requests int           // model requests
	attempts int           // attempts recorded in the Outcome
	wait     time.Duration // the sum of every pause
}

// budgetOf adds up the budgets of cfg: every attempt after the first is a
// reflection, a rejected request explained or a truncation recovered, and
// each request may be repeated after a transport failure. The pauses are
// the retry delays, the delays after a rejection and the backoff series at
// its top (no jitter), where a server's Retry-After can raise each step to
// maxRetryAfter.
func budgetOf(cfg config.Config, retryAfter time.Duration) budget {
	b := budget{attempts: 1 + cfg.MaxRetries + cfg.ModelHTTPRetries + cfg.TruncationRetries}
	b.requests = b.attempts + cfg.TransportRetries
	b.wait = time.Duration(cfg.MaxRetries)*cfg.RetryDelay + time.Duration(cfg.ModelHTTPRetries)*cfg.ModelHTTPRetryDelay
	for n := range cfg.TransportRetries {
		b.wait += max(cfg.Backoff.Delay(n, 0, 0), min(retryAfter, cfg.MaxRetryAfter))
	}
	return b
}

// TestAmplificationBudgets drives runs against models that fail in every
// way, with configurations drawn at random within their valid ranges, and
// checks each run's requests, attempts and pauses against its budgets.
func TestAmplificationBudgets(t *testing.T) {
	rng := rand.New(rand.NewPCG(42, 43))
	kindSets := [][]failureKind{
		nil, // every kind
		{failInvalidCall}, {failGarbage, failUnknownTool}, {failServerError, failNetwork},
		{failRateLimited}, {failRejected}, {failTruncated, failStreamCut},
		{failInvalidCall, failServerError, failRejected, failTruncated},
	}
	for trial := range 300 {
		cfg := config.Default()
		cfg.MaxRetries = 1 + rng.IntN(10)
		cfg.TransportRetries = rng.IntN(11)
		cfg.ModelHTTPRetries = rng.IntN(11)
		cfg.TruncationRetries = rng.IntN(11)
		cfg.OnTruncation = []string{config.TruncationMoreTokens, config.TruncationShorter, config.TruncationFail}[rng.IntN(3)]
		cfg.RetryDelay = time.Duration(rng.IntN(1000)) * time.Millisecond
		cfg.ModelHTTPRetryDelay = time.Duration(rng.IntN(1000)) * time.Millisecond
		initial := time.Duration(1+rng.IntN(2000)) * time.Millisecond
		cfg.Backoff = config.Backoff{Initial: initial, Max: initial + time.Duration(rng.IntN(60))*time.Second,
			Multiplier: 1 + 3*rng.Float64(), Jitter: rng.Float64()}
		cfg.MaxRetryAfter = time.Duration(rng.IntN(120)) * time.Second
		cfg.BreakerThreshold = 0 // runs are counted one by one here
		if err := cfg.Validate(); err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		retryAfter := time.Duration(rng.IntN(180)) * time.Second
		kinds := kindSets[trial%len(kindSets)]
		name := fmt.Sprintf("trial %d %v", trial, kinds)

		m := newAlwaysFailing(uint64(trial), retryAfter, kinds...)
		loop, fs := newLoop(t, m, func(c *config.Config) { *c = cfg })
		out, err := loop.Run(context.Background(), userTurn())
		want := budgetOf(cfg, retryAfter)

		var e *toolcall.Error
		if !errors.As(err, &e) || !fuzzKnown(e.Code) {
			t.Fatalf("%s: run against an always-failing model ended with %v", name, err)
		}
		if got := m.count(); got > want.requests {
			t.Errorf("%s: %d requests, budget %d (%+v)", name, got, want.requests, cfg)
		}
		var waited time.Duration
		for _, w := range fs.waits {
			waited += w
		}
		if waited > want.wait {
			t.Errorf("%s: waited %v, budget %v (waits %v)", name, waited, want.wait, fs.waits)
		}
		if out == nil {
			continue // refused before the first request: nothing was spent
		}
		if len(out.Attempts) > want.attempts || out.TransportRetries > cfg.TransportRetries || out.Retries() > cfg.MaxRetries {
			t.Errorf("%s: %d attempts (budget %d), %d transport retries (budget %d), %d reflections (budget %d)",
				name, len(out.Attempts), want.attempts, out.TransportRetries, cfg.TransportRetries, out.Retries(), cfg.MaxRetries)
		}
		var recorded time.Duration
		for _, a := range out.Attempts {
			recorded += a.Wait
		}
		if recorded != waited {
			t.Errorf("%s: attempts record %v of waits, the loop slept %v", name, recorded, waited)
		}
		if out.Result == nil || len(out.Result.Calls) > 0 {
			t.Errorf("%s: a failing model produced calls: %+v", name, out.Result)
		}
	}
}

// fuzzKnown reports whether c is in the error catalogue.
func fuzzKnown(c toolcall.Code) bool {
	for _, k := range toolcall.Codes() {
		if k == c {
			return true
		}
	}
	return false
}

// TestAmplificationWallClock runs the loop on the real clock, with short
// delays, against a model that fails every way: the run must end within
// its budget of pauses (plus generous room for the work itself), whatever
// the server asks.
func TestAmplificationWallClock(t *testing.T) {
	cfg := config.Default()
	cfg.MaxRetries, cfg.TransportRetries, cfg.ModelHTTPRetries, cfg.TruncationRetries = 3, 3, 2, 2
	cfg.RetryDelay, cfg.ModelHTTPRetryDelay = 20*time.Millisecond, 20*time.Millisecond
	cfg.Backoff = config.Backoff{Initial: 10 * time.Millisecond, Max: 40 * time.Millisecond, Multiplier: 2}
	cfg.MaxRetryAfter = 50 * time.Millisecond
	for seed := range uint64(5) {
		// The server asks for 30 s: longer than max_retry_after, so the
		// run stops instead of waiting.
		m := newAlwaysFailing(seed, 30*time.Second)
		loop := &retry.Loop{Model: m, Tools: toolSet(t), Config: &cfg}
		want := budgetOf(cfg, 0)
		begin := time.Now()
		_, err := loop.Run(context.Background(), userTurn())
		took := time.Since(begin)
		if err == nil {
			t.Fatalf("seed %d: no error from an always-failing model", seed)
		}
		if took > want.wait+5*time.Second {
			t.Errorf("seed %d: run took %v, its pauses add up to at most %v", seed, took, want.wait)
		}
		if m.count() > want.requests {
			t.Errorf("seed %d: %d requests, budget %d", seed, m.count(), want.requests)
		}
	}
}

// TestAmplificationAcrossRuns checks the budget of many runs: once the
// circuit breaker opens, an always-failing model gets no more requests
// until the cool-down has passed, and then one probe run at a time.
func TestAmplificationAcrossRuns(t *testing.T) {
	cfg := config.Default()
	cfg.MaxRetries, cfg.TransportRetries, cfg.ModelHTTPRetries, cfg.TruncationRetries = 2, 1, 1, 1
	perRun := budgetOf(cfg, 0).requests
	now := time.Unix(1_700_000_000, 0)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	breaker := &retry.Breaker{Threshold: 3, Cooldown: time.Minute, Now: clock}
	m := newAlwaysFailing(9, 0, failInvalidCall, failServerError, failRejected)
	loop, _ := newLoop(t, m, func(c *config.Config) { *c = cfg })
	loop.Breaker = breaker

	refused := 0
	for range 50 {
		_, err := loop.Run(context.Background(), userTurn())
		if codeOf(err) == toolcall.CodeCircuitOpen {
			refused++
		}
	}
	if got, limit := m.count(), breaker.Threshold*perRun; got > limit {
		t.Errorf("50 runs made %d requests; the breaker should stop them at %d", got, limit)
	}
	if refused != 50-breaker.Threshold {
		t.Errorf("%d runs refused, want %d", refused, 50-breaker.Threshold)
	}

	// After the cool-down one probe goes through, fails, and the breaker
	// opens again.
	before := m.count()
	mu.Lock()
	now = now.Add(2 * time.Minute)
	mu.Unlock()
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = loop.Run(context.Background(), userTurn())
		}()
	}
	wg.Wait()
	if got := m.count() - before; got > perRun {
		t.Errorf("after the cool-down 8 concurrent runs made %d requests; one probe may make %d", got, perRun)
	}
	if breaker.State(userTurn().Model) == retry.BreakerClosed {
		t.Errorf("breaker closed after a failed probe")
	}
}
