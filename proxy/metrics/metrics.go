// Package metrics exposes what a proxy.Handler does as Prometheus metrics:
// requests by outcome, calls fixed and repairs by kind, recoveries,
// failures by error code, and the latency the proxy added, per request and
// per streamed chunk. A Metrics is a proxy.Observer with a registry of its
// own (no global state); Handler serves it in the Prometheus exposition
// format. It is what `dialect-probe serve` serves at /metrics. The API
// names no type of the Prometheus library: a program that uses it is not
// tied to its version.
//
//	m := metrics.New()
//	h, err := proxy.NewHandler(proxy.Options{Upstream: up, Observer: m})
//	mux.Handle("/metrics", m.Handler())
//	mux.Handle("/", m.InFlight(h))
//
// No metric has a model label: the model is named by the client, and a
// label a client can vary without bound would grow the registry without
// bound. The model of each request is in its log record.
package metrics

import (
	"net/http"
	"strconv"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/dialectkit/toolcall/proxy"
)

// Namespace starts the name of every metric of the proxy.
const Namespace = "dialectkit_proxy"

// Metrics counts what a proxy does. It implements proxy.Observer and is
// safe for concurrent use.
type Metrics struct {
	reg        *prometheus.Registry
	requests   *prometheus.CounterVec
	fixed      *prometheus.CounterVec
	repairs    *prometheus.CounterVec
	calls      prometheus.Counter
	recoveries prometheus.Counter
	retries    prometheus.Counter
	failures   *prometheus.CounterVec
	added      *prometheus.HistogramVec
	chunkAdded *prometheus.HistogramVec
	inFlight   prometheus.Gauge
}

// Buckets of the added-latency histograms, in seconds: the proxy's own
// work is tens of microseconds a chunk, a whole answer's fixing and
// recovery (which waits for the upstream again) up to seconds.
var (
	// RequestBuckets are the buckets of added_latency_seconds: 50 µs to
	// about 13 s.
	RequestBuckets = prometheus.ExponentialBuckets(50e-6, 4, 10)
	// ChunkBuckets are the buckets of chunk_added_latency_seconds: 10 µs
	// to about 0.65 s.
	ChunkBuckets = prometheus.ExponentialBuckets(10e-6, 4, 9)
)

// New returns a Metrics with a registry of its own, holding the proxy's
// metrics and the Go runtime and process collectors.
func New() *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	f := func(name, help string, labels ...string) *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: name, Help: help}, labels)
	}
	m.requests = f("requests_total", "Requests that ended, by API, outcome (passthrough, unchanged, fixed, recovered, failed, error) and HTTP status.", "api", "outcome", "status")
	m.fixed = f("calls_fixed_total", "Fixes made to answers, by kind (leaked, repaired, coerced, id_added, reasoning_moved), and to requests' history (history_repaired, history_leaked).", "kind")
	m.repairs = f("repairs_total", "Repairs applied to call arguments, by repair kind.", "kind")
	m.failures = f("failures_total", "Coded errors met, failed calls included, by code (TLP-...).", "code")
	m.calls = prometheus.NewCounter(prometheus.CounterOpts{Namespace: Namespace, Name: "calls_total", Help: "Tool calls sent to clients in fixed chat answers."})
	m.recoveries = prometheus.NewCounter(prometheus.CounterOpts{Namespace: Namespace, Name: "recoveries_total", Help: "Chat answers recovered by asking the upstream again."})
	m.retries = prometheus.NewCounter(prometheus.CounterOpts{Namespace: Namespace, Name: "upstream_retries_total", Help: "Requests sent to the upstream again: transport retries and recovery."})
	m.added = prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: Namespace, Name: "added_latency_seconds",
		Help: "Latency the proxy added to a chat answer: the request's whole time less the time spent waiting for the upstream (requests that ended in an error of their own are not counted).", Buckets: RequestBuckets}, []string{"api", "stream"})
	m.chunkAdded = prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: Namespace, Name: "chunk_added_latency_seconds",
		Help: "Delay the proxy added to each streamed chunk, from the upstream chunk that settled it to the write.", Buckets: ChunkBuckets}, []string{"api"})
	m.inFlight = prometheus.NewGauge(prometheus.GaugeOpts{Namespace: Namespace, Name: "requests_in_flight", Help: "Requests being served (those InFlight wraps)."})
	m.reg.MustRegister(m.requests, m.fixed, m.repairs, m.failures, m.calls, m.recoveries, m.retries, m.added, m.chunkAdded, m.inFlight,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the metrics in the Prometheus exposition format (text,
// or what the scraper asks for).
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// InFlight wraps h so that requests_in_flight counts the requests it is
// serving.
func (m *Metrics) InFlight(h http.Handler) http.Handler {
	return promhttp.InstrumentHandlerInFlight(m.inFlight, h)
}

// ObserveRequest records one ended request; it is proxy.Observer's method.
func (m *Metrics) ObserveRequest(s *proxy.RequestStats) {
	api := string(s.API)
	if api == "" {
		api = string(proxy.Ollama)
	}
	m.requests.WithLabelValues(api, s.Outcome, strconv.Itoa(s.Status)).Inc()
	for kind, n := range s.Fixed {
		if n > 0 {
			m.fixed.WithLabelValues(kind).Add(float64(n))
		}
	}
	for kind, n := range s.Repairs {
		if n > 0 {
			m.repairs.WithLabelValues(kind).Add(float64(n))
		}
	}
	for _, code := range s.ErrorCodes {
		m.failures.WithLabelValues(code).Inc()
	}
	if s.Calls > 0 {
		m.calls.Add(float64(s.Calls))
	}
	if s.Outcome == proxy.OutcomeRecovered {
		m.recoveries.Inc()
	}
	if s.Retries > 0 {
		m.retries.Add(float64(s.Retries))
	}
	if s.Outcome == proxy.OutcomePassThrough || s.Outcome == proxy.OutcomeError {
		return // the added latency is that of the answers the proxy fixed
	}
	if added := s.Total - s.Upstream; s.Total > 0 && added >= 0 {
		m.added.WithLabelValues(api, strconv.FormatBool(s.Stream)).Observe(added.Seconds())
	}
	if len(s.ChunkAdded) > 0 {
		h := m.chunkAdded.WithLabelValues(api)
		for _, d := range s.ChunkAdded {
			h.Observe(max(d, 0).Seconds())
		}
	}
}

var _ proxy.Observer = (*Metrics)(nil)
