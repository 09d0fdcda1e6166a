package metrics_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/proxy"
	"github.com/dialectkit/toolcall/proxy/metrics"
)

func TestObserveRequest(t *testing.T) {
	m := metrics.New()
	m.ObserveRequest(&proxy.RequestStats{API: proxy.Ollama, Status: 200, Outcome: proxy.OutcomeFixed, Stream: true,
		Fixed: map[string]int{"leaked": 2, "id_added": 2}, Repairs: map[string]int{"trailing_comma": 1},
		Calls: 2, Upstream: 30 * time.Millisecond, Total: 31 * time.Millisecond,
		ChunkAdded: []time.Duration{20 * time.Microsecond, 40 * time.Microsecond, 2 * time.Millisecond}})
	m.ObserveRequest(&proxy.RequestStats{API: proxy.OpenAI, Status: 200, Outcome: proxy.OutcomeRecovered,
		Fixed: map[string]int{"repaired": 1}, Retries: 1, Calls: 1, ErrorCodes: []string{"TLP-004"},
		Upstream: time.Second, Total: time.Second + 500*time.Microsecond})
	m.ObserveRequest(&proxy.RequestStats{API: proxy.OpenAI, Status: 502, Outcome: proxy.OutcomeError, ErrorCodes: []string{"TLP-015"},
		Retries: 3, Total: time.Millisecond})
	m.ObserveRequest(&proxy.RequestStats{API: proxy.Ollama, Status: 200, Outcome: proxy.OutcomePassThrough, Path: "/api/tags",
		Upstream: time.Millisecond, Total: 2 * time.Millisecond})

	reg := m.Gatherer()
	want := `
# HELP dialectkit_proxy_requests_total Requests that ended, by API, outcome (passthrough, unchanged, fixed, recovered, failed, error) and HTTP status.
# TYPE dialectkit_proxy_requests_total counter
dialectkit_proxy_requests_total{api="ollama",outcome="fixed",status="200"} 1
dialectkit_proxy_requests_total{api="ollama",outcome="passthrough",status="200"} 1
dialectkit_proxy_requests_total{api="openai",outcome="error",status="502"} 1
dialectkit_proxy_requests_total{api="openai",outcome="recovered",status="200"} 1
# HELP dialectkit_proxy_calls_fixed_total Fixes made to answers, by kind (leaked, repaired, coerced, id_added, reasoning_moved), and to requests' history (history_repaired, history_leaked).
# TYPE dialectkit_proxy_calls_fixed_total counter
dialectkit_proxy_calls_fixed_total{kind="id_added"} 2
dialectkit_proxy_calls_fixed_total{kind="leaked"} 2
dialectkit_proxy_calls_fixed_total{kind="repaired"} 1
# HELP dialectkit_proxy_repairs_total Repairs applied to call arguments, by repair kind.
# TYPE dialectkit_proxy_repairs_total counter
dialectkit_proxy_repairs_total{kind="trailing_comma"} 1
# HELP dialectkit_proxy_failures_total Coded errors met, failed calls included, by code (TLP-...).
# TYPE dialectkit_proxy_failures_total counter
dialectkit_proxy_failures_total{code="TLP-004"} 1
dialectkit_proxy_failures_total{code="TLP-015"} 1
# HELP dialectkit_proxy_calls_total Tool calls sent to clients in fixed chat answers.
# TYPE dialectkit_proxy_calls_total counter
dialectkit_proxy_calls_total 3
# HELP dialectkit_proxy_recoveries_total Chat answers recovered by asking the upstream again.
# TYPE dialectkit_proxy_recoveries_total counter
dialectkit_proxy_recoveries_total 1
# HELP dialectkit_proxy_upstream_retries_total Requests sent to the upstream again: transport retries and recovery.
# TYPE dialectkit_proxy_upstream_retries_total counter
dialectkit_proxy_upstream_retries_total 4
`
	names := []string{"dialectkit_proxy_requests_total", "dialectkit_proxy_calls_fixed_total", "dialectkit_proxy_repairs_total",
		"dialectkit_proxy_failures_total", "dialectkit_proxy_calls_total", "dialectkit_proxy_recoveries_total", "dialectkit_proxy_upstream_retries_total"}
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), names...); err != nil {
		t.Error(err)
	}
	// The added latency: one observation per chat answer (none for the
	// pass-through or the error), one per streamed chunk, in seconds.
	if n, err := testutil.GatherAndCount(reg, "dialectkit_proxy_added_latency_seconds"); err != nil || n != 2 {
		t.Errorf("added latency series: %d, %v", n, err)
	}
	text := scrape(t, m.Handler())
	for _, line := range []string{
		`dialectkit_proxy_added_latency_seconds_count{api="ollama",stream="true"} 1`,
		`dialectkit_proxy_added_latency_seconds_sum{api="ollama",stream="true"} 0.001`,
		`dialectkit_proxy_added_latency_seconds_bucket{api="openai",stream="false",le="0.0008"} 1`,
		`dialectkit_proxy_added_latency_seconds_count{api="openai",stream="false"} 1`,
		`dialectkit_proxy_added_latency_seconds_bucket{api="openai",stream="false",le="0.0002"} 0`,
		`dialectkit_proxy_chunk_added_latency_seconds_count{api="ollama"} 3`,
		`dialectkit_proxy_chunk_added_latency_seconds_bucket{api="ollama",le="4e-05"} 2`,
		`dialectkit_proxy_requests_in_flight 0`,
		"go_goroutines ",
		"process_start_time_seconds ",
	} {
		if !strings.Contains(text, line) {
			t.Errorf("the scrape lacks %q", line)
		}
	}
}

// Two Metrics do not share state: each has its registry.
func TestRegistryOfItsOwn(t *testing.T) {
	a, b := metrics.New(), metrics.New()
	a.ObserveRequest(&proxy.RequestStats{API: proxy.Ollama, Status: 200, Outcome: proxy.OutcomeUnchanged})
	if n, _ := testutil.GatherAndCount(b.Gatherer(), "dialectkit_proxy_requests_total"); n != 0 {
		t.Errorf("the second Metrics sees %d series of the first", n)
	}
	if n, _ := testutil.GatherAndCount(a.Gatherer(), "dialectkit_proxy_requests_total"); n != 1 {
		t.Errorf("the first has %d series", n)
	}
}

// Through a real Handler: a leaked Hermes call fixed, streamed and not, on
// both APIs, counted as such; the in-flight gauge follows the requests.
func TestThroughHandler(t *testing.T) {
	leaked := "Let me check.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\",}}\n</tool_call>"
	up := fakeserver.NewServer(fakeserver.ResponderFunc(func(*fakeserver.Request) fakeserver.Turn {
		return fakeserver.Turn{Content: leaked, ChunkSize: 7}
	}), nil)
	defer up.Close()
	tools := `[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}}]`
	for _, api := range []proxy.API{proxy.Ollama, proxy.OpenAI} {
		m := metrics.New()
		h, err := proxy.NewHandler(proxy.Options{Upstream: up.URL, API: api, Observer: m, Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(m.InFlight(h))
		path := "/api/chat"
		if api == proxy.OpenAI {
			path = "/v1/chat/completions"
		}
		for _, stream := range []string{"true", "false"} {
			body := `{"model":"qwen3","stream":` + stream + `,"messages":[{"role":"user","content":"Weather?"}],"tools":` + tools + `}`
			resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			out, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || !strings.Contains(string(out), "get_weather") {
				t.Fatalf("%s stream %s: %d %s", api, stream, resp.StatusCode, out)
			}
		}
		srv.Close()
		text := scrape(t, m.Handler())
		for _, line := range []string{
			`dialectkit_proxy_requests_total{api="` + string(api) + `",outcome="fixed",status="200"} 2`,
			`dialectkit_proxy_calls_fixed_total{kind="leaked"} 2`,
			`dialectkit_proxy_calls_total 2`,
			`dialectkit_proxy_repairs_total{kind="trailing_comma"} 2`,
			`dialectkit_proxy_added_latency_seconds_count{api="` + string(api) + `",stream="true"} 1`,
			`dialectkit_proxy_added_latency_seconds_count{api="` + string(api) + `",stream="false"} 1`,
			`dialectkit_proxy_chunk_added_latency_seconds_count{api="` + string(api) + `"}`,
			`dialectkit_proxy_requests_in_flight 0`,
		} {
			if !strings.Contains(text, line) {
				t.Errorf("%s: the scrape lacks %q", api, line)
			}
		}
		if t.Failed() {
			t.Logf("scrape:\n%s", grep(text, "dialectkit_"))
		}
	}
}

func scrape(t *testing.T, h http.Handler) string {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/plain") {
		t.Fatalf("scrape: %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
	return rec.Body.String()
}

func grep(text, prefix string) string {
	var b strings.Builder
	for line := range strings.Lines(text) {
		if strings.HasPrefix(line, prefix) {
			b.WriteString(line)
		}
	}
	return b.String()
}
