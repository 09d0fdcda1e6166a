package clienttest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/internal/longtest"
	"github.com/dialectkit/toolcall/proxy"
)

// loadTurn is the answer each stream of the load check gets: prose, then a
// leaked Hermes call, cut into small chunks with a pause before each, as a
// model generating tokens sends them.
var loadTurn = fakeserver.Turn{
	Content:   "Let me check the weather for you.\n" + hermesCall,
	ChunkSize: 4,
	Delay:     time.Millisecond,
}

// statsSink is the Observer of the load check: it keeps every request's
// statistics.
type statsSink struct {
	mu    sync.Mutex
	stats []*proxy.RequestStats
}

func (s *statsSink) ObserveRequest(st *proxy.RequestStats) {
	s.mu.Lock()
	s.stats = append(s.stats, st)
	s.mu.Unlock()
}

// TestLoad sends 200 concurrent streaming chat requests (20 without
// DIALECTKIT_LONG) through the proxy to the fake upstream, on each API, and
// checks that every stream carries its fixed call, that no goroutine is
// left once the connections are closed, and that the heap comes back to
// where it was. It logs the latency the proxy adds, per request and per
// streamed chunk (p50/p99, from RequestStats), and the end-to-end request
// latency with and without the proxy, measured in the same run; then the
// same one stream at a time (50, or 5 without DIALECTKIT_LONG).
func TestLoad(t *testing.T) {
	n := longtest.Scaled(200)
	for _, api := range []proxy.API{proxy.Ollama, proxy.OpenAI} {
		t.Run(string(api), func(t *testing.T) {
			up := fakeserver.NewServer(fakeserver.Script{loadTurn}, nil)
			defer up.Close()
			upTransport := &http.Transport{MaxIdleConnsPerHost: n, MaxConnsPerHost: 0}
			sink := &statsSink{}
			opts := Options(api, up.URL)
			opts.Transport = upTransport
			opts.MaxConcurrent = n
			opts.Observer = sink
			h, err := proxy.NewHandler(opts)
			if err != nil {
				t.Fatal(err)
			}
			px := httptest.NewServer(h)
			defer px.Close()
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: n}}

			// A first pass warms the connections and the code paths; the
			// baseline is taken after it.
			if errs := loadPass(client, px.URL, api, 4, 1); len(errs) > 0 {
				t.Fatalf("warm-up: %v", errs[0])
			}
			closeIdle(client, upTransport)
			sink.mu.Lock()
			sink.stats = nil
			sink.mu.Unlock()
			goroutines, heap := settle(0, 0)

			peak := make(chan uint64)
			stop := make(chan struct{})
			go samplePeak(stop, peak)
			begin := time.Now()
			// The upstream alone sends the call as text: no call to count.
			direct := loadPass(client, up.URL, api, n, 0)
			directLat := lastLatencies
			proxied := loadPass(client, px.URL, api, n, 1)
			proxiedLat := lastLatencies
			elapsed := time.Since(begin)
			close(stop)
			peakHeap := <-peak

			for _, err := range append(direct, proxied...) {
				t.Error(err)
			}
			closeIdle(client, upTransport)
			gAfter, hAfter := settle(goroutines, 10*time.Second)
			if gAfter > goroutines {
				buf := make([]byte, 1<<20)
				t.Errorf("goroutines: %d before, %d after the streams ended\n%s", goroutines, gAfter,
					buf[:runtime.Stack(buf, true)])
			}
			// What the streams held must be gone once they ended. What stays
			// is the upstream's record of every request (a few KiB each) and
			// the observer's statistics: allow 4 MiB and 8 KiB a request.
			retainedLimit := uint64(4<<20 + 2*n*8<<10)
			if hAfter > heap && hAfter-heap > retainedLimit {
				t.Errorf("heap: %d KiB before, %d KiB after the streams ended", heap>>10, hAfter>>10)
			}

			sink.mu.Lock()
			stats := slices.Clone(sink.stats)
			sink.mu.Unlock()
			if len(stats) != n {
				t.Fatalf("the observer saw %d requests, want %d", len(stats), n)
			}
			var added, chunks []time.Duration
			for _, st := range stats {
				if st.Status != http.StatusOK || st.Outcome != proxy.OutcomeFixed || st.Calls != 1 {
					t.Errorf("request %s: status %d, outcome %s, %d calls", st.CorrelationID, st.Status, st.Outcome, st.Calls)
				}
				added = append(added, st.Total-st.Upstream)
				chunks = append(chunks, st.ChunkAdded...)
			}
			t.Logf("%s: %d concurrent streams through the proxy, and as many to the upstream alone, in %v; errors: %d",
				api, n, elapsed.Round(time.Millisecond), len(direct)+len(proxied))
			t.Logf("added by the proxy per request (Total-Upstream): p50 %v p99 %v; per streamed chunk (%d chunks): p50 %v p99 %v",
				pct(added, 50), pct(added, 99), len(chunks), pct(chunks, 50), pct(chunks, 99))
			t.Logf("request latency end to end: direct p50 %v p99 %v, through the proxy p50 %v p99 %v",
				pct(directLat, 50), pct(directLat, 99), pct(proxiedLat, 50), pct(proxiedLat, 99))
			t.Logf("heap: %d KiB before, peak %d KiB, %d KiB after; goroutines: %d before, %d after",
				heap>>10, peakHeap>>10, hAfter>>10, goroutines, gAfter)

			// One stream at a time, alternating with the upstream alone:
			// what the proxy adds when the streams do not compete for the
			// processors.
			sink.mu.Lock()
			sink.stats = nil
			sink.mu.Unlock()
			var directOne, proxiedOne []time.Duration
			for range longtest.Scaled(50) {
				for _, err := range loadPass(client, up.URL, api, 1, 0) {
					t.Error(err)
				}
				directOne = append(directOne, lastLatencies...)
				for _, err := range loadPass(client, px.URL, api, 1, 1) {
					t.Error(err)
				}
				proxiedOne = append(proxiedOne, lastLatencies...)
			}
			sink.mu.Lock()
			added, chunks = nil, nil
			for _, st := range sink.stats {
				added = append(added, st.Total-st.Upstream)
				chunks = append(chunks, st.ChunkAdded...)
			}
			sink.mu.Unlock()
			t.Logf("one stream at a time (%d): end to end direct p50 %v p99 %v, through the proxy p50 %v p99 %v; added per request p50 %v p99 %v, per chunk p50 %v p99 %v",
				len(proxiedOne), pct(directOne, 50), pct(directOne, 99), pct(proxiedOne, 50), pct(proxiedOne, 99),
				pct(added, 50), pct(added, 99), pct(chunks, 50), pct(chunks, 99))
		})
	}
}

// lastLatencies are the request latencies of the last loadPass; the load
// check's subtests run one after another.
var lastLatencies []time.Duration

// loadPass sends n streaming chat requests at once to base and returns the
// errors met: a failed request, or a stream without wantCalls native calls
// or without its end.
func loadPass(client *http.Client, base string, api proxy.API, n, wantCalls int) []error {
	path := "/api/chat"
	if api == proxy.OpenAI {
		path = "/v1/chat/completions"
	}
	body := `{"model":"` + Model + `","stream":true,"messages":[{"role":"user","content":"` + Prompt + `"}],"tools":[` + WeatherTool + `]}`
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		errs  []error
		lats  []time.Duration
		start = make(chan struct{})
	)
	for i := range n {
		wg.Go(func() {
			<-start
			t0 := time.Now()
			err := oneStream(client, base+path, body, api, wantCalls)
			d := time.Since(t0)
			mu.Lock()
			defer mu.Unlock()
			lats = append(lats, d)
			if err != nil {
				errs = append(errs, fmt.Errorf("stream %d: %w", i, err))
			}
		})
	}
	close(start)
	wg.Wait()
	lastLatencies = lats
	return errs
}

// oneStream sends one streaming request and checks what came back.
func oneStream(client *http.Client, url, body string, api proxy.API, wantCalls int) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	var chunk struct {
		Error   any `json:"error"`
		Done    bool
		Message struct {
			ToolCalls []json.RawMessage `json:"tool_calls"`
		}
		Choices []struct {
			Delta struct {
				ToolCalls []struct {
					Function struct {
						Name string `json:"name"`
					} `json:"function"`
				} `json:"tool_calls"`
			} `json:"delta"`
		} `json:"choices"`
	}
	calls, ended := 0, false
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if api == proxy.OpenAI {
			var ok bool
			if line, ok = bytes.CutPrefix(line, []byte("data: ")); !ok {
				continue
			}
			if string(line) == "[DONE]" {
				ended = true
				continue
			}
		}
		if len(line) == 0 {
			continue
		}
		chunk.Done, chunk.Error, chunk.Message.ToolCalls, chunk.Choices = false, nil, nil, nil
		if err := json.Unmarshal(line, &chunk); err != nil {
			return fmt.Errorf("chunk %q: %w", line, err)
		}
		if chunk.Error != nil {
			return fmt.Errorf("error in the stream: %s", line)
		}
		calls += len(chunk.Message.ToolCalls)
		for _, c := range chunk.Choices {
			for _, tc := range c.Delta.ToolCalls {
				if tc.Function.Name != "" {
					calls++
				}
			}
		}
		ended = ended || chunk.Done
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if calls != wantCalls || !ended {
		return fmt.Errorf("%d calls, ended %v", calls, ended)
	}
	return nil
}

// closeIdle closes the pooled connections of the client and of the
// proxy's upstream transport, so that their goroutines end.
func closeIdle(client *http.Client, up *http.Transport) {
	client.CloseIdleConnections()
	up.CloseIdleConnections()
}

// settle waits, up to wait, for the goroutine count to come down to want
// (0: no wait), and returns it with the heap in use after a collection.
func settle(want int, wait time.Duration) (goroutines int, heap uint64) {
	deadline := time.Now().Add(wait)
	for {
		// Two collections: pooled objects survive the first in the
		// victim cache.
		runtime.GC()
		runtime.GC()
		goroutines = runtime.NumGoroutine()
		if goroutines <= want || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return goroutines, ms.HeapAlloc
}

// samplePeak reports the largest heap in use seen until stop closes.
func samplePeak(stop <-chan struct{}, out chan<- uint64) {
	var peak uint64
	var ms runtime.MemStats
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			out <- peak
			return
		case <-tick.C:
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
	}
}

// pct returns the p-th percentile of ds.
func pct(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	return s[min(max(i-1, 0), len(s)-1)].Round(time.Microsecond)
}

// TestLoadCancel starts 200 concurrent streams (20 without DIALECTKIT_LONG)
// whose upstream holds the answer open after its text, and has each client
// read one chunk and hang up, through the Handler and through the
// Transport. Every request must end (the observer hears of each), and the
// hang-up must reach the upstream: a stalled upstream request left behind
// would keep its goroutines, so the count must come back to where it was.
func TestLoadCancel(t *testing.T) {
	n := longtest.Scaled(200)
	stalled := fakeserver.Turn{Content: "Checking.\n" + hermesCall, ChunkSize: 8, Stall: true}
	for _, api := range []proxy.API{proxy.Ollama, proxy.OpenAI} {
		for _, via := range []string{"handler", "transport"} {
			t.Run(string(api)+"/"+via, func(t *testing.T) {
				up := fakeserver.NewServer(fakeserver.Script{stalled}, nil)
				defer up.Close()
				upTransport := &http.Transport{MaxIdleConnsPerHost: n}
				sink := &statsSink{}
				opts := Options(api, up.URL)
				opts.Transport = upTransport
				opts.MaxConcurrent = n
				opts.Observer = sink
				var client *http.Client
				base := up.URL
				if via == "handler" {
					h, err := proxy.NewHandler(opts)
					if err != nil {
						t.Fatal(err)
					}
					px := httptest.NewServer(h)
					defer px.Close()
					base = px.URL
					client = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: n}}
				} else {
					tr, err := proxy.NewTransport(opts)
					if err != nil {
						t.Fatal(err)
					}
					client = &http.Client{Transport: tr}
				}
				goroutines, _ := settle(0, 0)

				path := "/api/chat"
				if api == proxy.OpenAI {
					path = "/v1/chat/completions"
				}
				body := `{"model":"` + Model + `","stream":true,"messages":[{"role":"user","content":"` + Prompt + `"}],"tools":[` + WeatherTool + `]}`
				var wg sync.WaitGroup
				errs := make(chan error, n)
				for i := range n {
					wg.Go(func() {
						ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
						defer cancel()
						req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+path, strings.NewReader(body))
						resp, err := client.Do(req)
						if err != nil {
							errs <- fmt.Errorf("stream %d: %w", i, err)
							return
						}
						defer resp.Body.Close()
						line, err := bufio.NewReader(resp.Body).ReadBytes('\n')
						if resp.StatusCode != http.StatusOK || len(bytes.TrimSpace(line)) == 0 {
							errs <- fmt.Errorf("stream %d: status %d, first line %q, %v", i, resp.StatusCode, line, err)
						}
					})
				}
				wg.Wait()
				close(errs)
				for err := range errs {
					t.Error(err)
				}

				deadline := time.Now().Add(10 * time.Second)
				for {
					sink.mu.Lock()
					seen := len(sink.stats)
					sink.mu.Unlock()
					if seen == n {
						break
					}
					if time.Now().After(deadline) {
						t.Fatalf("the observer heard of %d requests of %d once the clients hung up", seen, n)
					}
					time.Sleep(20 * time.Millisecond)
				}
				client.CloseIdleConnections()
				upTransport.CloseIdleConnections()
				if after, _ := settle(goroutines, 10*time.Second); after > goroutines {
					buf := make([]byte, 1<<20)
					t.Errorf("goroutines: %d before, %d after the clients hung up\n%s", goroutines, after,
						buf[:runtime.Stack(buf, true)])
				}
			})
		}
	}
}
