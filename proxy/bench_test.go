package proxy_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/internal/cputime"
	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/proxy"
)

// BenchmarkHandler measures one chat request with a leaked Hermes call
// through the Handler, against the same request to the fake upstream
// alone (the "direct" rows): the difference is what the proxy adds. The
// streams come in 8-byte chunks with no delay between them. Besides wall
// time each row reports cpu-µs/op, the CPU the whole process (client,
// proxy and fake server) spent per request, which a busy machine does not
// inflate as it does wall time: proxy less direct is the proxy's own CPU.
func BenchmarkHandler(b *testing.B) {
	text := "Let me check the weather for you. " + leakedHermes
	for _, api := range []proxy.API{proxy.Ollama, proxy.OpenAI, proxy.Responses, proxy.Anthropic} {
		for _, stream := range []bool{false, true} {
			up := fakeserver.NewServer(fakeserver.Script{{Content: text, ChunkSize: 8}}, nil)
			h, err := proxy.NewHandler(proxy.Options{Upstream: up.URL, API: serverKind(api), Logger: quiet})
			if err != nil {
				b.Fatal(err)
			}
			srv := httptest.NewServer(h)
			body := chatBody(api, stream, "")
			mode := map[bool]string{false: "whole", true: "stream"}[stream]
			for _, target := range []struct{ name, url string }{{"direct", up.URL}, {"proxy", srv.URL}} {
				b.Run(string(api)+"/"+mode+"/"+target.name, func(b *testing.B) {
					b.ReportAllocs()
					cpu := cputime.Process()
					for b.Loop() {
						resp, err := http.Post(target.url+chatPath(api), "application/json", strings.NewReader(body))
						if err != nil {
							b.Fatal(err)
						}
						io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
					}
					if cpu > 0 {
						b.ReportMetric(float64((cputime.Process()-cpu).Microseconds())/float64(b.N), "cpu-µs/op")
					}
				})
			}
			srv.Close()
			up.Close()
		}
	}
}

// BenchmarkChunk measures the CPU a streamed plain-text chunk costs
// through the Handler, against the fake upstream alone (the "direct"
// rows), for a request that declares tools (an agent's) whose answer is
// text: 8-byte chunks with no delay, the model's reasoning setting closed
// so that the text streams as it comes. cpu-µs/chunk is the whole
// process's CPU (client, proxy, fake server) per upstream chunk: proxy
// less direct is the proxy's own per chunk.
func BenchmarkChunk(b *testing.B) {
	const chunk = 8
	text := strings.Repeat("The weather in Paris is mild today. ", 40)
	chunks := (len(text) + chunk - 1) / chunk
	lines := map[proxy.API]lineCount{} // the answer's lines, direct
	for _, api := range []proxy.API{proxy.Ollama, proxy.OpenAI, proxy.Responses, proxy.Anthropic} {
		up := fakeserver.NewServer(fakeserver.Script{{Content: text, ChunkSize: chunk}}, nil)
		cfg := config.Default()
		cfg.MaxRetries = 0
		cfg.Reasoning = config.ReasoningClosed
		h, err := proxy.NewHandler(proxy.Options{Upstream: up.URL, API: serverKind(api), Logger: quiet, Config: cfg})
		if err != nil {
			b.Fatal(err)
		}
		srv := httptest.NewServer(h)
		relay := httptest.NewServer(relayTo(b, up.URL))
		body := chatBody(api, true, "")
		for _, target := range []struct{ name, url string }{{"direct", up.URL}, {"relay", relay.URL}, {"proxy", srv.URL}} {
			b.Run(string(api)+"/"+target.name, func(b *testing.B) {
				b.ReportAllocs()
				cpu := cputime.Process()
				for b.Loop() {
					resp, err := http.Post(target.url+chatPath(api), "application/json", strings.NewReader(body))
					if err != nil {
						b.Fatal(err)
					}
					var n lineCount
					_, err = io.Copy(&n, resp.Body)
					resp.Body.Close()
					if target.name != "proxy" && (err != nil || lines[api] != 0 && n != lines[api]) {
						b.Fatalf("%s read %d lines (%v), direct %d", target.name, n, err, lines[api])
					}
					lines[api] = n
				}
				if cpu > 0 {
					b.ReportMetric(float64((cputime.Process()-cpu).Microseconds())/float64(b.N*chunks), "cpu-µs/chunk")
				}
			})
		}
		srv.Close()
		relay.Close()
		up.Close()
	}
}

// BenchmarkChunkAlone is BenchmarkChunk with the proxy alone: the
// Handler is called in process, its upstream answer replayed from memory
// (the fake server's, recorded once; the requests that ask the server
// about the model still go to it, once) and its own answer discarded, so
// no socket, client or server shares the CPU. cpu-µs/chunk is the
// process's CPU per upstream chunk, which is all the proxy's.
func BenchmarkChunkAlone(b *testing.B) {
	const chunk = 8
	text := strings.Repeat("The weather in Paris is mild today. ", 40)
	chunks := (len(text) + chunk - 1) / chunk
	for _, api := range []proxy.API{proxy.Ollama, proxy.OpenAI, proxy.Responses, proxy.Anthropic} {
		up := fakeserver.NewServer(fakeserver.Script{{Content: text, ChunkSize: chunk}}, nil)
		body := chatBody(api, true, "")
		resp, err := http.Post(up.URL+chatPath(api), "application/json", strings.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		answer, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			b.Fatal(err)
		}
		replay := &replayChat{path: chatPath(api), body: answer, ct: resp.Header.Get("Content-Type"), next: http.DefaultTransport}
		cfg := config.Default()
		cfg.MaxRetries = 0
		cfg.Reasoning = config.ReasoningClosed
		h, err := proxy.NewHandler(proxy.Options{Upstream: up.URL, API: serverKind(api), Logger: quiet, Config: cfg, Transport: replay})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(string(api), func(b *testing.B) {
			b.ReportAllocs()
			cpu := cputime.Process()
			for b.Loop() {
				req := httptest.NewRequest(http.MethodPost, chatPath(api), strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				h.ServeHTTP(&discardWriter{h: http.Header{}}, req)
			}
			if cpu > 0 {
				b.ReportMetric(float64((cputime.Process()-cpu).Nanoseconds())/1e3/float64(b.N*chunks), "cpu-µs/chunk")
			}
		})
		up.Close()
	}
}

// replayChat answers the chat path with a recorded body, and passes every
// other request to next.
type replayChat struct {
	path, ct string
	body     []byte
	next     http.RoundTripper
}

func (r *replayChat) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Path != r.path {
		return r.next.RoundTrip(req)
	}
	if req.Body != nil {
		io.Copy(io.Discard, req.Body)
		req.Body.Close()
	}
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {r.ct}},
		Body: io.NopCloser(bytes.NewReader(r.body)), ContentLength: -1, Request: req}, nil
}

// discardWriter is a flushable http.ResponseWriter that keeps nothing.
type discardWriter struct{ h http.Header }

func (d *discardWriter) Header() http.Header         { return d.h }
func (d *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (d *discardWriter) WriteHeader(int)             {}
func (d *discardWriter) Flush()                      {}

// relayTo is the least a second hop costs: a handler that copies the
// upstream's answer to the client unread, flushing each piece as it
// comes. The "relay" rows less the "direct" rows are that hop's CPU (a
// read from the upstream, a write to the client, per chunk); the "proxy"
// rows less the "relay" rows are what reading and rewriting the chunks
// costs.
func relayTo(b *testing.B, upstream string) http.Handler {
	tr := &http.Transport{MaxIdleConnsPerHost: 4}
	b.Cleanup(tr.CloseIdleConnections)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, err := http.NewRequestWithContext(r.Context(), r.Method, upstream+r.URL.RequestURI(), r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		req.Header = r.Header.Clone()
		resp, err := tr.RoundTrip(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		fl := w.(http.Flusher)
		buf := make([]byte, 32<<10)
		for {
			n, err := resp.Body.Read(buf)
			if n > 0 {
				w.Write(buf[:n])
				fl.Flush()
			}
			if err != nil {
				return
			}
		}
	})
}

// lineCount counts the lines written to it.
type lineCount int

func (c *lineCount) Write(p []byte) (int, error) {
	*c += lineCount(bytes.Count(p, []byte("\n")))
	return len(p), nil
}
