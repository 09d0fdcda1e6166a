package proxy_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/proxy"
)

const leakedHermes = "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>"

// errorCode reads the TLP code of an error answer in the protocol's shape.
func errorCode(t *testing.T, api proxy.API, raw string) string {
	t.Helper()
	if api == proxy.Anthropic {
		var v struct {
			Type  string `json:"type"`
			Error struct {
				Type    string `json:"type"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(raw), &v); err != nil || v.Type != "error" || v.Error.Message == "" || v.Error.Type == "" {
			t.Fatalf("not an Anthropic error: %s", raw)
		}
		code, _, _ := strings.Cut(v.Error.Message, ":")
		return code
	}
	if api == proxy.OpenAI || api == proxy.Responses {
		var v struct {
			Error struct {
				Code    string `json:"code"`
				Message string `json:"message"`
				Type    string `json:"type"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(raw), &v); err != nil || v.Error.Message == "" || v.Error.Type == "" {
			t.Fatalf("not an OpenAI error: %s", raw)
		}
		return v.Error.Code
	}
	var v struct {
		Error string `json:"error"`
	}
	if err := json.Unmarshal([]byte(raw), &v); err != nil || v.Error == "" {
		t.Fatalf("not an Ollama error: %s", raw)
	}
	code, _, _ := strings.Cut(v.Error, ":")
	return code
}

func TestAPIKey(t *testing.T) {
	for _, api := range allAPIs {
		t.Run(string(api), func(t *testing.T) {
			up, srv := setup(t, api, fakeserver.Script{{Content: leakedHermes}}, func(o *proxy.Options) { o.APIKey = "s3cret" })
			for _, auth := range []string{"", "Bearer wrong", "s3cret"} {
				h := http.Header{}
				if auth != "" {
					h.Set("Authorization", auth)
				}
				a := post(t, nil, srv.URL+chatPath(api), api, chatBody(api, false, ""), h)
				if a.Status != http.StatusUnauthorized || errorCode(t, api, a.Raw) != "TLP-028" {
					t.Errorf("Authorization %q: %d %s", auth, a.Status, a.Raw)
				}
			}
			resp, err := http.Get(srv.URL + "/api/tags")
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("a passed-through path without the key: %d", resp.StatusCode)
			}
			if n := len(up.Requests()); n != 0 {
				t.Fatalf("%d requests reached the upstream without the key", n)
			}
			a := post(t, nil, srv.URL+chatPath(api), api, chatBody(api, false, ""), http.Header{"Authorization": {"Bearer s3cret"}})
			if a.Status != 200 || len(a.Calls) != 1 {
				t.Fatalf("with the key: %d %s", a.Status, a.Raw)
			}
			if got := up.Requests()[0].Header.Get("Authorization"); got != "" {
				t.Errorf("the client's key went upstream: %q", got)
			}
			// The Anthropic SDKs send the key as x-api-key.
			a = post(t, nil, srv.URL+chatPath(api), api, chatBody(api, false, ""), http.Header{"X-Api-Key": {"s3cret"}})
			if a.Status != 200 || len(a.Calls) != 1 {
				t.Fatalf("with the key as x-api-key: %d %s", a.Status, a.Raw)
			}
			if got := up.Requests()[1].Header.Get("X-Api-Key"); got != "" {
				t.Errorf("the client's x-api-key went upstream: %q", got)
			}
			a = post(t, nil, srv.URL+chatPath(api), api, chatBody(api, false, ""), http.Header{"X-Api-Key": {"wrong"}})
			if a.Status != http.StatusUnauthorized {
				t.Errorf("a wrong x-api-key: %d %s", a.Status, a.Raw)
			}
		})
	}
}

func TestRequestTooLarge(t *testing.T) {
	for _, api := range allAPIs {
		up, srv := setup(t, api, fakeserver.Script{{Content: "hi"}}, func(o *proxy.Options) { o.MaxRequestBytes = 200 })
		a := post(t, nil, srv.URL+chatPath(api), api, chatBody(api, false, `"pad":"`+strings.Repeat("x", 300)+`"`), nil)
		if a.Status != http.StatusRequestEntityTooLarge || errorCode(t, api, a.Raw) != "TLP-027" {
			t.Errorf("%s: %d %s", api, a.Status, a.Raw)
		}
		if len(up.Requests()) != 0 {
			t.Errorf("%s: the request went upstream", api)
		}
	}
}

func TestResponseTooLarge(t *testing.T) {
	for _, api := range allAPIs {
		for _, stream := range []bool{false, true} {
			obs := &observed{}
			_, srv := setup(t, api, fakeserver.Script{{Content: strings.Repeat("word ", 2000), ChunkSize: 100}}, func(o *proxy.Options) {
				o.MaxResponseBytes = 4 << 10
				o.Observer = obs
			})
			status, raw := rawPost(t, srv.URL+chatPath(api), chatBody(api, stream, ""))
			st := obs.last(t)
			if st.Outcome != proxy.OutcomeError || len(st.ErrorCodes) == 0 || st.ErrorCodes[len(st.ErrorCodes)-1] != "TLP-027" {
				t.Errorf("%s stream=%v: stats %+v", api, stream, st)
			}
			if !stream && (status != http.StatusBadGateway || errorCode(t, api, raw) != "TLP-027") {
				t.Errorf("%s: %d %s", api, status, raw)
			}
			if stream && !strings.Contains(raw, "TLP-027") {
				t.Errorf("%s: the cut stream does not say why", api)
			}
			if len(raw) > 12<<10 {
				t.Errorf("%s stream=%v: %d bytes went out past the cap", api, stream, len(raw))
			}
		}
	}
}

// TestMaxConcurrent: a request beyond the cap waits, and gets a 503 when
// no place comes free within the idle timeout.
func TestMaxConcurrent(t *testing.T) {
	for _, api := range allAPIs {
		t.Run(string(api), func(t *testing.T) {
			up := fakeserver.NewServer(fakeserver.Script{{Content: "Sure."}}, nil)
			t.Cleanup(up.Close)
			// The first chat request holds the only place: its answer's
			// body gives nothing until the test ends, whatever the proxy's
			// timers do, so the place is taken for as long as the second
			// request waits.
			tr := &heldChat{next: http.DefaultTransport, sent: make(chan struct{}, 1), release: make(chan struct{})}
			t.Cleanup(tr.end)
			h, err := proxy.NewHandler(proxy.Options{Upstream: up.URL, API: serverKind(api), MaxConcurrent: 1, Logger: quiet, IdleTimeout: 150 * time.Millisecond, Transport: tr})
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(h)
			t.Cleanup(srv.Close)
			first := make(chan struct{})
			go func() {
				defer close(first)
				resp, err := http.Post(srv.URL+chatPath(api), "application/json", strings.NewReader(chatBody(api, true, "")))
				if err == nil {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
			}()
			<-tr.sent // the first request has its place and is upstream
			// The second waits, and gives up after the idle timeout.
			a := post(t, nil, srv.URL+chatPath(api), api, chatBody(api, false, ""), nil)
			if a.Status != http.StatusServiceUnavailable || errorCode(t, api, a.Raw) != "TLP-027" {
				t.Errorf("%d %s", a.Status, a.Raw)
			}
			if n := tr.chats.Load(); n != 1 {
				t.Errorf("%d upstream chat requests, want 1", n)
			}
			tr.end()
			<-first
		})
	}
}

// heldChat is a transport whose first chat request is answered 200 with a
// body that gives nothing until release is closed, and reported on sent;
// it counts the chat requests, and sends the others, and other paths, to
// next.
type heldChat struct {
	next    http.RoundTripper
	chats   atomic.Int32
	sent    chan struct{}
	release chan struct{}
	once    sync.Once
}

func (h *heldChat) RoundTrip(r *http.Request) (*http.Response, error) {
	p := r.URL.Path
	if !strings.HasSuffix(p, "/chat") && !strings.HasSuffix(p, "/completions") && !strings.HasSuffix(p, "/responses") && !strings.HasSuffix(p, "/messages") {
		return h.next.RoundTrip(r)
	}
	if h.chats.Add(1) > 1 {
		return h.next.RoundTrip(r) // a proxy that let it through: answered, and counted
	}
	if r.Body != nil {
		io.Copy(io.Discard, r.Body)
		r.Body.Close()
	}
	h.sent <- struct{}{}
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
		Body: heldBody{h.release}, Request: r, ProtoMajor: 1, ProtoMinor: 1, Proto: "HTTP/1.1"}, nil
}

// end releases the held answers.
func (h *heldChat) end() { h.once.Do(func() { close(h.release) }) }

type heldBody struct{ release chan struct{} }

func (b heldBody) Read([]byte) (int, error) {
	<-b.release
	return 0, io.ErrUnexpectedEOF
}

func (heldBody) Close() error { return nil }

// blocking is an upstream whose chat path answers nothing until the
// request ends; other paths go to the fake server.
func blocking(t *testing.T) string {
	fake := fakeserver.NewHandler(nil, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/chat") || strings.HasSuffix(r.URL.Path, "/completions") ||
			strings.HasSuffix(r.URL.Path, "/responses") || strings.HasSuffix(r.URL.Path, "/messages") {
			// The server notices a client gone only once the body is read.
			io.Copy(io.Discard, r.Body)
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
			return
		}
		fake.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestTimeouts(t *testing.T) {
	for _, api := range allAPIs {
		for _, tc := range []struct {
			name   string
			mod    func(*proxy.Options)
			status int
			code   string
		}{
			{"idle", func(o *proxy.Options) { o.IdleTimeout = 100 * time.Millisecond }, http.StatusBadGateway, "TLP-015"},
			{"total", func(o *proxy.Options) { o.TotalTimeout = 150 * time.Millisecond }, http.StatusGatewayTimeout, "TLP-027"},
		} {
			for _, stream := range []bool{false, true} {
				t.Run(string(api)+"/"+tc.name+map[bool]string{false: "/whole", true: "/stream"}[stream], func(t *testing.T) {
					obs := &observed{}
					opts := proxy.Options{API: serverKind(api), Logger: quiet, Observer: obs, Config: config.Default()}
					opts.Config.TransportRetries = 0
					tc.mod(&opts)
					var fake *fakeserver.Server
					if stream {
						// Streamed: the answer starts, then stalls.
						fake = fakeserver.NewServer(fakeserver.Script{{Content: "Let me see", Stall: true}}, nil)
						t.Cleanup(fake.Close)
						opts.Upstream = fake.URL
					} else {
						opts.Upstream = blocking(t)
					}
					h, err := proxy.NewHandler(opts)
					if err != nil {
						t.Fatal(err)
					}
					srv := httptest.NewServer(h)
					t.Cleanup(srv.Close)
					start := time.Now()
					status, raw := rawPost(t, srv.URL+chatPath(api), chatBody(api, stream, ""))
					if time.Since(start) > 4*time.Second {
						t.Errorf("the timeout did not end the request")
					}
					st := obs.last(t)
					if st.Outcome != proxy.OutcomeError || len(st.ErrorCodes) == 0 || st.ErrorCodes[len(st.ErrorCodes)-1] != tc.code {
						t.Errorf("stats %+v, want code %s", st, tc.code)
					}
					if !stream && (status != tc.status || errorCode(t, api, raw) != tc.code) {
						t.Errorf("status %d, want %d: %s", status, tc.status, raw)
					}
					if stream && !strings.Contains(raw, tc.code) {
						t.Errorf("the cut stream does not say why: %s", raw)
					}
					if fake != nil {
						fake.Release()
					}
				})
			}
		}
	}
}

// TestClientDisconnect: a client that goes away cancels the upstream
// request, streamed or not.
func TestClientDisconnect(t *testing.T) {
	for _, api := range allAPIs {
		for _, stream := range []bool{false, true} {
			var upstreamDone atomic.Bool
			reached := make(chan struct{}, 1)
			fake := fakeserver.NewHandler(fakeserver.Script{{Content: "Let me think", Stall: true}}, nil)
			up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == chatPath(api) {
					select {
					case reached <- struct{}{}:
					default:
					}
				}
				fake.ServeHTTP(w, r)
				if r.URL.Path == chatPath(api) {
					upstreamDone.Store(true)
				}
			}))
			obs := &observed{}
			h, err := proxy.NewHandler(proxy.Options{Upstream: up.URL, API: serverKind(api), Logger: quiet, Observer: obs})
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(h)
			ctx, cancel := context.WithCancel(context.Background())
			req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL+chatPath(api), strings.NewReader(chatBody(api, stream, "")))
			// The client goes away once the request is upstream: cancelled
			// sooner, on a loaded machine, the proxy may never send it.
			go func() {
				select {
				case <-reached:
					time.Sleep(50 * time.Millisecond)
				case <-time.After(10 * time.Second):
				}
				cancel()
			}()
			resp, err := http.DefaultClient.Do(req)
			if err == nil {
				bufio.NewReader(resp.Body).ReadString(0)
				resp.Body.Close()
			}
			deadline := time.Now().Add(3 * time.Second)
			for !upstreamDone.Load() && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if !upstreamDone.Load() {
				t.Errorf("%s stream=%v: the upstream request was not cancelled", api, stream)
			}
			obs.last(t)
			srv.Close()
			fake.Release()
			up.Close()
		}
	}
}

// rawPost posts a chat request and returns the status and the body as it
// came.
func rawPost(t *testing.T, url, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}
