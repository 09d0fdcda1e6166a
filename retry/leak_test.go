package retry_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/client/ollamaclient"
	"github.com/dialectkit/toolcall/client/openaiclient"
	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/internal/fuzzcheck"
	"github.com/dialectkit/toolcall/retry"
)

// No goroutine may outlive a run that was cancelled: not the request in
// flight, not the stream reader, not a backoff timer. These tests count
// goroutines before and after (fuzzcheck.CheckGoroutines), so they do not
// run in parallel.

// adapterOver returns the adapter for api, speaking to url through its own
// transport, so that the test can close its idle connections.
func adapterOver(t *testing.T, api fakeserver.API, url string) (client.Model, *http.Transport) {
	t.Helper()
	tr := &http.Transport{}
	hc := &http.Client{Transport: tr}
	var (
		m   client.Model
		err error
	)
	if api == fakeserver.Ollama {
		m, err = ollamaclient.NewHost(url, &ollamaclient.Options{HTTPClient: hc})
	} else {
		m, err = openaiclient.New(url, &openaiclient.Options{HTTPClient: hc})
	}
	if err != nil {
		t.Fatal(err)
	}
	return m, tr
}

// TestNoLeakCancelMidStream cancels runs while the server holds each
// adapter's stream open: the run returns TLP-022, and once the server and
// the idle connections are closed, every goroutine the run started is gone.
func TestNoLeakCancelMidStream(t *testing.T) {
	for _, api := range []fakeserver.API{fakeserver.Ollama, fakeserver.OpenAI} {
		t.Run(string(api), func(t *testing.T) {
			check := fuzzcheck.CheckGoroutines(t)
			srv := fakeserver.NewServer(fakeserver.Script{
				{Content: "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Par", ChunkSize: 5, Stall: true},
			}, nil)
			m, tr := adapterOver(t, api, srv.URL)
			loop, _ := newLoop(t, m, nil)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				_, err := loop.Run(ctx, userTurn())
				done <- err
			}()
			for len(srv.Requests()) == 0 {
				time.Sleep(time.Millisecond)
			}
			cancel()
			select {
			case err := <-done:
				if !errors.Is(err, toolcall.ErrCanceled) || !errors.Is(err, context.Canceled) {
					t.Errorf("err = %v, want TLP-022 wrapping context.Canceled", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Run did not return after cancellation")
			}
			srv.Close()
			tr.CloseIdleConnections()
			check()
		})
	}
}

// TestNoLeakDeadlineDuringBackoff ends runs by deadline while they wait out
// a server's Retry-After on the real clock.
func TestNoLeakDeadlineDuringBackoff(t *testing.T) {
	for _, api := range []fakeserver.API{fakeserver.Ollama, fakeserver.OpenAI} {
		t.Run(string(api), func(t *testing.T) {
			check := fuzzcheck.CheckGoroutines(t)
			srv := fakeserver.NewServer(fakeserver.Script{
				{Status: 429, Error: "slow down", RetryAfter: "30"},
				{Status: 429, Error: "slow down", RetryAfter: "30"},
			}, nil)
			m, tr := adapterOver(t, api, srv.URL)
			loop, _ := newLoop(t, m, nil)
			loop.Clock = nil // the real, context-aware sleep
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			begin := time.Now()
			_, err := loop.Run(ctx, userTurn())
			if !errors.Is(err, toolcall.ErrCanceled) || !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("err = %v, want TLP-022 wrapping the deadline", err)
			}
			if took := time.Since(begin); took > 10*time.Second {
				t.Errorf("Run returned %v after its deadline passed", took)
			}
			srv.Close()
			tr.CloseIdleConnections()
			check()
		})
	}
}

// blockingModel answers only when its context ends, like a request to a
// server that never answers. It is safe for concurrent use.
type blockingModel struct {
	mu      sync.Mutex
	started int
}

func (m *blockingModel) Chat(ctx context.Context, _ *client.Request) (*client.Response, error) {
	m.mu.Lock()
	m.started++
	m.mu.Unlock()
	<-ctx.Done()
	return nil, toolcall.Errorf(toolcall.CodeCanceled, ctx.Err(), "request cancelled")
}

// TestNoLeakManyCancelledRuns starts many concurrent runs against a model
// that never answers or that fails in every way, cancels each at a random
// moment, and checks that every run returns and no goroutine is left.
func TestNoLeakManyCancelledRuns(t *testing.T) {
	check := fuzzcheck.CheckGoroutines(t)
	rng := rand.New(rand.NewPCG(5, 6))
	cfg := config.Default()
	cfg.RetryDelay, cfg.ModelHTTPRetryDelay = 5*time.Millisecond, 5*time.Millisecond
	cfg.Backoff = config.Backoff{Initial: 5 * time.Millisecond, Max: 20 * time.Millisecond, Multiplier: 2}
	models := []client.Model{&blockingModel{}, newAlwaysFailing(1, 10*time.Millisecond)}
	var wg sync.WaitGroup
	for i := range 64 {
		loop := &retry.Loop{Model: models[i%2], Tools: toolSet(t), Config: &cfg}
		ctx, cancel := context.WithCancel(context.Background())
		after := time.Duration(rng.IntN(30)) * time.Millisecond
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer cancel()
			time.AfterFunc(after, cancel)
			_, err := loop.Run(ctx, userTurn())
			var e *toolcall.Error
			if !errors.As(err, &e) {
				t.Errorf("uncoded error %v", err)
			}
		}()
	}
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	select {
	case <-finished:
	case <-time.After(20 * time.Second):
		t.Fatal("cancelled runs did not all return")
	}
	check()
}
