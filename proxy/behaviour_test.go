package proxy_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/proxy"
)

// TestTransportOpenAI: an http.Client with the Transport gets fixed
// answers from an OpenAI-compatible server, streamed and not, and other
// paths unchanged.
func TestTransportOpenAI(t *testing.T) {
	for _, stream := range []bool{false, true} {
		up := fakeserver.NewServer(fakeserver.Script{{Content: "Sure.\n" + leakedHermes, ChunkSize: 5}}, nil)
		defer up.Close()
		obs := &observed{}
		tr, err := proxy.NewTransport(proxy.Options{API: proxy.OpenAI, Logger: quiet, Observer: obs})
		if err != nil {
			t.Fatal(err)
		}
		c := &http.Client{Transport: tr}
		a := post(t, c, up.URL+"/v1/chat/completions", proxy.OpenAI, chatBody(proxy.OpenAI, stream, ""), nil)
		if a.Status != 200 || a.names() != "get_weather "+parisArgs || strings.TrimSpace(a.Content) != "Sure." || a.Finish != "tool_calls" {
			t.Errorf("stream=%v: %+v", stream, a)
		}
		if st := obs.last(t); st.Outcome != proxy.OutcomeFixed {
			t.Errorf("stream=%v: %+v", stream, st)
		}
		resp, err := c.Get(up.URL + "/v1/models")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("/v1/models: %d", resp.StatusCode)
		}
	}
}

// counting wraps the fake server and counts the requests per path.
type counting struct {
	mu    sync.Mutex
	n     map[string]int
	inner http.Handler
}

func (c *counting) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	c.n[r.URL.Path]++
	c.mu.Unlock()
	c.inner.ServeHTTP(w, r)
}

func (c *counting) count(path string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[path]
}

// TestTemplateEvidence: the model's template is asked of the upstream once
// per model, its dialect configured or not.
func TestTemplateEvidence(t *testing.T) {
	for _, api := range allAPIs {
		info := map[string]fakeserver.ModelInfo{"qwen3:8b": {Template: "{{- if .Tools }}<tool_call>{{ .ToolCalls }}</tool_call>{{ end }}"}}
		fake := fakeserver.NewHandler(fakeserver.Script{{Content: leakedHermes}}, &fakeserver.Options{Models: []string{"qwen3:8b", "other"}, Info: info})
		cnt := &counting{n: map[string]int{}, inner: fake}
		up := httptest.NewServer(cnt)
		defer up.Close()
		h, err := proxy.NewHandler(proxy.Options{Upstream: up.URL, API: serverKind(api), Logger: quiet,
			ModelConfig: func(model string) (config.Config, bool) {
				if model != "other" {
					return config.Config{}, false
				}
				cfg := config.Default()
				cfg.Dialect = "hermes"
				return cfg, true
			}})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(h)
		defer srv.Close()
		for range 3 {
			if a := post(t, nil, srv.URL+chatPath(api), api, chatBody(api, false, ""), nil); len(a.Calls) != 1 {
				t.Fatalf("%s: %s", api, a.Raw)
			}
		}
		// Ollama's /api/show is asked first under either kind (an
		// Ollama's /v1 has it); the fake server answers it.
		evidencePath := "/api/show"
		if n := cnt.count(evidencePath); n != 1 {
			t.Errorf("%s: %s asked %d times for one model, want once", api, evidencePath, n)
		}
		// A configured dialect still needs the template: it says where
		// the output starts (inside a reasoning block or not).
		body := strings.Replace(chatBody(api, false, ""), "qwen3:8b", "other", 1)
		for range 2 {
			if a := post(t, nil, srv.URL+chatPath(api), api, body, nil); len(a.Calls) != 1 {
				t.Fatalf("%s: %s", api, a.Raw)
			}
		}
		if n := cnt.count(evidencePath); n != 2 {
			t.Errorf("%s: %s asked %d times for two models, one with its dialect configured; want twice", api, evidencePath, n)
		}
	}
}

// TestRecoveryRequest: the re-ask is the client's request, its fields
// kept, with the failed call answered by the loop's reflection.
func TestRecoveryRequest(t *testing.T) {
	for _, api := range allAPIs {
		for _, stream := range []bool{false, true} {
			up, srv := setup(t, api, fakeserver.Script{
				{Content: "Checking.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": 5}}\n</tool_call>", ChunkSize: 4},
				{Content: leakedHermes},
			}, func(o *proxy.Options) {
				o.Config = config.Default()
				o.Config.RetryDelay = 0
				o.Config.MaxRetries = 2
			})
			a := post(t, nil, srv.URL+chatPath(api), api, chatBody(api, stream, `"x_unknown":7`), nil)
			if a.names() != "get_weather "+parisArgs {
				t.Errorf("%s stream=%v: calls %q\n%s", api, stream, a.names(), a.Raw)
			}
			if stream && !strings.HasPrefix(a.Content, "Checking.") {
				t.Errorf("%s: the content sent before the failure: %q", api, a.Content)
			}
			reqs := up.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%s: %d requests", api, len(reqs))
			}
			re := reqs[1]
			if re.Stream || !strings.Contains(string(re.Body), `"x_unknown":7`) {
				t.Errorf("%s: the re-ask lost the client's fields or streams: %s", api, re.Body)
			}
			var reflected bool
			var asked []string
			for _, m := range re.Messages {
				if m.Role == "tool" && strings.Contains(m.Content, "TLP-004") && m.ToolCallID != "" {
					reflected = true
				}
				for _, c := range m.ToolCalls {
					asked = append(asked, c.Name+" "+argsText(t, c.Arguments))
				}
			}
			// The failed call goes back as the model made it, its
			// arguments as written.
			if want := `get_weather {"city":5}`; strings.Join(asked, "; ") != want {
				t.Errorf("%s stream=%v: the re-ask's calls %q, want %q", api, stream, asked, want)
			}
			if !reflected || re.Messages[0].Content != "Weather in Paris?" {
				t.Errorf("%s: the re-ask does not carry the reflection: %+v", api, re.Messages)
			}
		}
	}
}

// firstText finds the first text delta "F…" in any API's stream: OpenAI
// and Ollama content, a Responses delta, an Anthropic text_delta.
var firstText = regexp.MustCompile(`"(content|delta|text)":"F`)

// TestLive: content and calls reach the client while the upstream is still
// writing, the dialect named or detected; with it named, the text before
// the call streams before the call closes. The upstream holds its answer
// at those points until the client has read what must come before.
func TestLive(t *testing.T) {
	for _, api := range allAPIs {
		for _, dialect := range []string{"", "hermes"} {
			text := "First part of the answer. " + leakedHermes + " And then a long tail that takes its time."
			inCall := make(chan struct{})
			tail := make(chan struct{})
			holds := []fakeserver.Hold{{At: "take", Release: tail}}
			if dialect != "" {
				// The piece before the one holding the closing tag.
				at := strings.Index(text, "</tool_call>")/4*4 - 4
				piece, _ := json.Marshal(text[at : at+4])
				holds = append([]fakeserver.Hold{{At: string(piece[1 : len(piece)-1]), Release: inCall}}, holds...)
			} else {
				close(inCall)
			}
			// The fake upstream has no template: the setting says the
			// output starts outside reasoning.
			_, srv := setup(t, api, fakeserver.Script{{Content: text, ChunkSize: 4, Holds: holds}}, func(o *proxy.Options) {
				o.Config = config.Default()
				o.Config.MaxRetries = 0
				o.Config.Dialect, o.Config.Reasoning = dialect, config.ReasoningClosed
				o.IdleTimeout = hangGuard
			})
			resp, err := http.Post(srv.URL+chatPath(api), "application/json", strings.NewReader(chatBody(api, true, "")))
			if err != nil {
				t.Fatal(err)
			}
			var content, call bool
			var contentInCall bool
			all := readReleasing(resp, func(line string) bool {
				if !content && firstText.MatchString(line) {
					content = true
					select {
					case <-inCall:
					default:
						contentInCall = true // the upstream is still in the call
						close(inCall)
					}
				}
				call = call || strings.Contains(line, `"get_weather"`)
				return content && call
			}, tail)
			if !content || !call || !strings.Contains(all, "ime.") || strings.Contains(all, "TLP-") {
				t.Errorf("%s %q: content and call not live (content %v, call %v):\n%s", api, dialect, content, call, all)
			}
			if dialect != "" && !contentInCall {
				t.Errorf("%s %q: the text before the call waited for it", api, dialect)
			}
		}
	}
}

// TestStreamError: an error line from the upstream reaches the client
// after what was settled.
func TestStreamError(t *testing.T) {
	for _, api := range allAPIs {
		_, srv := setup(t, api, fakeserver.Script{{Content: "Partial answer", StreamError: "model crashed"}}, nil)
		status, raw := rawPost(t, srv.URL+chatPath(api), chatBody(api, true, ""))
		// The content may arrive in pieces ("Partial", " answer").
		if status != 200 || !strings.Contains(raw, "model crashed") || !strings.Contains(raw, "Partial") || !strings.Contains(raw, "answer") {
			t.Errorf("%s: %d %s", api, status, raw)
		}
		if i, j := strings.LastIndex(raw, "answer"), strings.Index(raw, "model crashed"); i > j {
			t.Errorf("%s: the error came before the content", api)
		}
	}
}

// TestTransportCancel: closing the body of a streamed answer the Transport
// returned cancels the upstream request.
func TestTransportCancel(t *testing.T) {
	done := make(chan struct{})
	fake := fakeserver.NewHandler(fakeserver.Script{{Content: "Let me see", Stall: true}}, nil)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fake.ServeHTTP(w, r)
		if r.URL.Path == "/api/chat" {
			close(done)
		}
	}))
	defer up.Close()
	defer fake.Release()
	tr, err := proxy.NewTransport(proxy.Options{API: proxy.Ollama, Logger: quiet, Config: func() config.Config {
		c := config.Default()
		c.Dialect, c.Reasoning = "hermes", config.ReasoningClosed
		return c
	}()})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := (&http.Client{Transport: tr}).Post(up.URL+"/api/chat", "application/json", strings.NewReader(chatBody(proxy.Ollama, true, "")))
	if err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	if err != nil || !strings.Contains(line, "Let") {
		t.Fatalf("first line %q, %v", line, err)
	}
	resp.Body.Close()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		t.Fatal("the upstream request was not cancelled")
	}
}

// TestUpstreamErrors: the upstream's own errors come back as it sent
// them, after the transport retries for 5xx; an upstream that cannot be
// reached is a 502 with TLP-015 in the protocol's shape.
func TestUpstreamErrors(t *testing.T) {
	fast := func(o *proxy.Options) {
		o.Config = config.Default()
		o.Config.TransportRetries = 1
		o.Config.Backoff.Initial, o.Config.Backoff.Max = time.Millisecond, time.Millisecond
	}
	for _, api := range allAPIs {
		for _, stream := range []bool{false, true} {
			up, srv := setup(t, api, fakeserver.Script{{Status: 400, Error: "invalid history"}}, fast)
			status, raw := rawPost(t, srv.URL+chatPath(api), chatBody(api, stream, ""))
			if status != 400 || !strings.Contains(raw, "invalid history") || len(up.Requests()) != 1 {
				t.Errorf("%s: 400: %d %s (%d requests)", api, status, raw, len(up.Requests()))
			}
			up, srv = setup(t, api, fakeserver.Script{{Status: 503, Error: "overloaded"}}, fast)
			status, raw = rawPost(t, srv.URL+chatPath(api), chatBody(api, stream, ""))
			if status != 503 || !strings.Contains(raw, "overloaded") || len(up.Requests()) != 2 {
				t.Errorf("%s: 503: %d %s (%d requests)", api, status, raw, len(up.Requests()))
			}
		}
		// A server asking for a longer wait than max_retry_after_ms: its
		// 429 comes back at once.
		up, srv := setup(t, api, fakeserver.Script{{Status: 429, Error: "slow down", RetryAfter: "3600"}}, fast)
		status, raw := rawPost(t, srv.URL+chatPath(api), chatBody(api, false, ""))
		if status != 429 || len(up.Requests()) != 1 {
			t.Errorf("%s: long Retry-After: %d %s (%d requests)", api, status, raw, len(up.Requests()))
		}
		// The unreachable upstream's port is closed only once the proxy's
		// own server listens: closed first, the port could be handed to
		// the proxy itself, which would then forward to itself.
		dead := httptest.NewServer(http.NotFoundHandler())
		opts := proxy.Options{Upstream: dead.URL, API: serverKind(api), Logger: quiet}
		fast(&opts)
		h, err := proxy.NewHandler(opts)
		if err != nil {
			t.Fatal(err)
		}
		dsrv := httptest.NewServer(h)
		dead.Close()
		status, raw = rawPost(t, dsrv.URL+chatPath(api), chatBody(api, false, ""))
		dsrv.Close()
		if status != http.StatusBadGateway || errorCode(t, api, raw) != "TLP-015" {
			t.Errorf("%s: unreachable: %d %s", api, status, raw)
		}
	}
}

// TestStreamEnvelope: every chunk the proxy writes keeps the upstream's
// envelope (id, object, created, model; model and created_at).
func TestStreamEnvelope(t *testing.T) {
	for _, api := range []proxy.API{proxy.Ollama, proxy.OpenAI} {
		_, srv := setup(t, api, fakeserver.Script{{Content: "Sure. " + leakedHermes, ChunkSize: 6}}, nil)
		_, raw := rawPost(t, srv.URL+chatPath(api), chatBody(api, true, ""))
		keys := map[proxy.API][]string{proxy.Ollama: {"model", "created_at", "message", "done"}, proxy.OpenAI: {"id", "object", "created", "model"}}[api]
		n := 0
		for _, line := range strings.Split(raw, "\n") {
			line = strings.TrimSpace(strings.TrimPrefix(line, "data:"))
			if line == "" || line == "[DONE]" {
				continue
			}
			n++
			var top map[string]json.RawMessage
			if err := json.Unmarshal([]byte(line), &top); err != nil {
				t.Fatalf("%s: %q", api, line)
			}
			for _, k := range keys {
				if _, ok := top[k]; !ok {
					t.Errorf("%s: chunk without %q: %s", api, k, line)
				}
			}
		}
		if n < 3 {
			t.Errorf("%s: %d chunks", api, n)
		}
	}
}

// TestOddUpstream: answers that are not what the protocol says pass
// through without a panic: lines that are not JSON, chunks without
// choices or message, a whole answer that is not an object, an empty body.
func TestOddUpstream(t *testing.T) {
	bodies := map[proxy.API][]fakeserver.Turn{
		proxy.Ollama: {
			{Body: "not json\n{\"message\":7,\"done\":false}\n[1,2]\n{\"done\":true}\n", ContentType: "application/x-ndjson"},
			{Body: "", ContentType: "application/x-ndjson"},
			{Body: `"a string"`, ContentType: "application/json"},
			{Body: `{"message":{"content":{"x":1},"tool_calls":"nope"},"done":true}`, ContentType: "application/json"},
			{Body: `{"message":{"content":"hi","tool_calls":[{"function":{"name":"get_weather","arguments":"{\"city\":"}}]},"done":true}`, ContentType: "application/json"},
		},
		proxy.OpenAI: {
			{Body: "data: not json\n\ndata: {\"choices\":7}\n\ndata: {\"choices\":[{\"delta\":null}]}\n\ndata: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"function\":{\"arguments\":\"{}\"}}]},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n", ContentType: "text/event-stream"},
			{Body: "", ContentType: "text/event-stream"},
			{Body: `[]`, ContentType: "application/json"},
			{Body: `{"choices":[{"message":{"content":null,"tool_calls":[{"id":"x","function":{"name":"get_weather","arguments":{"city":"Paris"}}}]},"finish_reason":"tool_calls"}]}`, ContentType: "application/json"},
		},
	}
	for api, turns := range bodies {
		for i, turn := range turns {
			_, srv := setup(t, api, fakeserver.Script{turn}, nil)
			stream := strings.Contains(turn.ContentType, "stream") || strings.Contains(turn.ContentType, "ndjson")
			status, raw := rawPost(t, srv.URL+chatPath(api), chatBody(api, stream, ""))
			if status != 200 {
				t.Errorf("%s #%d: %d %s", api, i, status, raw)
			}
			if api == proxy.OpenAI && strings.Contains(raw, `"arguments":{`) {
				t.Errorf("%s #%d: arguments went out as an object: %s", api, i, raw)
			}
		}
	}
}

// TestTransportNilBody: a chat request without a body is sent on, and
// the upstream says what is wrong with it.
func TestTransportNilBody(t *testing.T) {
	tr, err := proxy.NewTransport(proxy.Options{API: proxy.Ollama, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	up := fakeserver.NewServer(nil, nil)
	defer up.Close()
	req, _ := http.NewRequest(http.MethodPost, up.URL+"/api/chat", nil)
	resp, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("status %d", resp.StatusCode)
	}
}

// TestTransportAbandoned: a streamed answer whose body the client neither
// reads nor closes is ended by the total timeout.
func TestTransportAbandoned(t *testing.T) {
	up := fakeserver.NewServer(fakeserver.Script{{Content: strings.Repeat("word ", 20000), ChunkSize: 16}}, nil)
	defer up.Close()
	obs := &observed{}
	tr, err := proxy.NewTransport(proxy.Options{API: proxy.Ollama, Logger: quiet, Observer: obs, TotalTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := (&http.Client{Transport: tr}).Post(up.URL+"/api/chat", "application/json", strings.NewReader(chatBody(proxy.Ollama, true, "")))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if st := obs.last(t); st.Outcome != proxy.OutcomeError {
		t.Errorf("%+v", st)
	}
}

// TestCallIDs: the ids the proxy adds have Ollama's shape ("call_" and
// eight letters or digits, which OpenAI clients take as any other id),
// and are unique in the answer; ids the model or server gave are kept.
func TestCallIDs(t *testing.T) {
	shape := regexp.MustCompile(`^call_[a-z0-9]{8}$`)
	two := leakedHermes + "\n" + leakedHermes
	for _, api := range allAPIs {
		for _, stream := range []bool{false, true} {
			_, srv := setup(t, api, fakeserver.Script{{Content: two}}, nil)
			a := post(t, nil, srv.URL+chatPath(api), api, chatBody(api, stream, ""), nil)
			if len(a.Calls) != 2 || a.Calls[0].ID == a.Calls[1].ID {
				t.Fatalf("%s: %+v", api, a.Calls)
			}
			for _, c := range a.Calls {
				if !shape.MatchString(c.ID) {
					t.Errorf("%s stream=%v: id %q", api, stream, c.ID)
				}
			}
		}
		_, srv := setup(t, api, fakeserver.Script{{Calls: []fakeserver.Call{{ID: "functions.get_weather:0", Name: "get_weather", Arguments: parisArgs}}}}, nil)
		if a := post(t, nil, srv.URL+chatPath(api), api, chatBody(api, false, ""), nil); len(a.Calls) != 1 || a.Calls[0].ID != "functions.get_weather:0" {
			t.Errorf("%s: the server's id was not kept: %+v", api, a.Calls)
		}
	}
}

// TestLongLines: a streamed chunk longer than the read buffer is read
// whole, in either protocol.
func TestLongLines(t *testing.T) {
	long := strings.Repeat("lorem ipsum ", 30000)
	for _, api := range allAPIs {
		_, srv := setup(t, api, fakeserver.Script{{Content: long + leakedHermes}}, nil)
		a := post(t, nil, srv.URL+chatPath(api), api, chatBody(api, true, ""), nil)
		if a.names() != "get_weather "+parisArgs || strings.TrimSpace(a.Content) != strings.TrimSpace(long) {
			t.Errorf("%s: calls %q, %d bytes of content", api, a.names(), len(a.Content))
		}
	}
}

// argsText is a call's arguments in a request's history, compacted: a
// JSON object, or the object a JSON string holds (OpenAI's shape).
func argsText(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var s string
	if json.Unmarshal(raw, &s) == nil {
		raw = json.RawMessage(s)
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}
