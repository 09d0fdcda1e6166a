package proxy_test

import (
	"io"
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

// TestLoad sends concurrent streaming requests through the Handler to the
// fake upstream (200 in the long suite, 20 otherwise): no error, every call
// fixed, no goroutine left behind, memory bounded; it reports the latency
// the proxy added, per request and per streamed chunk.
func TestLoad(t *testing.T) {
	n := longtest.Scaled(200)
	for _, api := range []proxy.API{proxy.Ollama, proxy.OpenAI} {
		t.Run(string(api), func(t *testing.T) {
			before := runtime.NumGoroutine()
			var m0 runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m0)

			text := "Let me look that up for you. " + leakedHermes + " Done."
			up := fakeserver.NewServer(fakeserver.Script{{Content: text, ChunkSize: 8, Delay: time.Millisecond}}, nil)
			obs := &observed{}
			h, err := proxy.NewHandler(proxy.Options{Upstream: up.URL, API: api, Logger: quiet, Observer: obs, MaxConcurrent: n})
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(h)
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: n}}

			var wg sync.WaitGroup
			errs := make(chan string, n)
			for range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					resp, err := client.Post(srv.URL+chatPath(api), "application/json", strings.NewReader(chatBody(api, true, "")))
					if err != nil {
						errs <- err.Error()
						return
					}
					data, err := io.ReadAll(resp.Body)
					resp.Body.Close()
					if err != nil || resp.StatusCode != 200 || !strings.Contains(string(data), `get_weather`) || strings.Contains(string(data), "tool_call>") {
						errs <- resp.Status + ": " + string(data)
					}
				}()
			}
			wg.Wait()
			close(errs)
			for e := range errs {
				t.Error(e)
			}

			obs.mu.Lock()
			stats := slices.Clone(obs.stats)
			obs.mu.Unlock()
			if len(stats) != n {
				t.Errorf("%d requests observed, want %d", len(stats), n)
			}
			var perRequest, perChunk []time.Duration
			for _, s := range stats {
				if s.Outcome != proxy.OutcomeFixed || s.Calls != 1 {
					t.Errorf("stats %+v", s)
				}
				perRequest = append(perRequest, max(s.Total-s.Upstream, 0))
				perChunk = append(perChunk, s.ChunkAdded...)
			}
			t.Logf("%d concurrent streams: added per request p50 %v p99 %v; per chunk p50 %v p99 %v (%d chunks)",
				n, quantile(perRequest, 0.5), quantile(perRequest, 0.99), quantile(perChunk, 0.5), quantile(perChunk, 0.99), len(perChunk))

			srv.Close()
			up.Close()
			client.CloseIdleConnections()
			deadline := time.Now().Add(5 * time.Second)
			for runtime.NumGoroutine() > before+2 && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			if g := runtime.NumGoroutine(); g > before+2 {
				buf := make([]byte, 1<<16)
				t.Errorf("%d goroutines left behind (%d before)\n%s", g-before, before, buf[:runtime.Stack(buf, true)])
			}
			var m1 runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m1)
			if grown := int64(m1.HeapAlloc) - int64(m0.HeapAlloc); grown > 64<<20 {
				t.Errorf("the heap grew by %d bytes", grown)
			}
		})
	}
}

func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}
