package metrics_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/dialectkit/toolcall/proxy"
	"github.com/dialectkit/toolcall/proxy/metrics"
)

// A Metrics observes a Handler's requests and serves them at /metrics.
func Example() {
	m := metrics.New()
	h, err := proxy.NewHandler(proxy.Options{Upstream: "http://127.0.0.1:11434", Observer: m})
	if err != nil {
		panic(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", m.Handler())
	mux.Handle("/", m.InFlight(h))
	_ = &http.Server{Addr: "127.0.0.1:11435", Handler: mux}

	// What the Handler tells it once a request has ended:
	m.ObserveRequest(&proxy.RequestStats{API: proxy.Ollama, Status: 200, Outcome: proxy.OutcomeFixed,
		Fixed: map[string]int{"leaked": 1}, Calls: 1, Upstream: 800 * time.Millisecond, Total: 801 * time.Millisecond})
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	for line := range strings.Lines(rec.Body.String()) {
		if strings.HasPrefix(line, "dialectkit_proxy_calls_fixed_total") {
			fmt.Print(line)
		}
	}
	// Output: dialectkit_proxy_calls_fixed_total{kind="leaked"} 1
}
