package proxy_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/proxy"
)

const parisArgs = `{"city":"Paris"}`

// scenario is one upstream answer and what the client must see.
type scenario struct {
	name  string
	turns fakeserver.Script
	cfg   func(*config.Config)
	calls string // "name args; …"
	// ollamaCalls, when set, are the calls an Ollama client sees.
	ollamaCalls string
	// apis, when set, are the only APIs the scenario applies to.
	apis    []proxy.API
	content string
	// streamContent, when set, is the content of a streamed answer: the
	// text of a failed call goes out as the parser kept it (Error.Raw).
	streamContent string
	// reasoning, when set, is the reasoning the client must see.
	reasoning string
	finish    map[proxy.API]string
	outcome   string
	requests  int // upstream chat requests; 0 means 1
	// callErrors are the codes of the calls that failed their check, as
	// a whole answer's header and its (or a stream's final chunk's)
	// CallErrorsField say.
	callErrors string
}

// The answer's end as each API says it: Ollama's done_reason, OpenAI's
// finish_reason, the Responses API's status, Anthropic's stop_reason.
var finishTool = map[proxy.API]string{proxy.Ollama: "stop", proxy.OpenAI: "tool_calls", proxy.Responses: "completed", proxy.Anthropic: "tool_use"}
var finishStop = map[proxy.API]string{proxy.Ollama: "stop", proxy.OpenAI: "stop", proxy.Responses: "completed", proxy.Anthropic: "end_turn"}
var finishLength = map[proxy.API]string{proxy.Ollama: "length", proxy.OpenAI: "length", proxy.Responses: "incomplete", proxy.Anthropic: "max_tokens"}

// allAPIs are the chat APIs the proxy fixes.
var allAPIs = []proxy.API{proxy.Ollama, proxy.OpenAI, proxy.Responses, proxy.Anthropic}

func scenarios() []scenario {
	hermes := "Let me check.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>"
	return []scenario{
		{name: "hermes", turns: fakeserver.Script{{Content: hermes}},
			calls: "get_weather " + parisArgs, content: "Let me check.", finish: finishTool, outcome: proxy.OutcomeFixed},
		{name: "pythonic", turns: fakeserver.Script{{Content: `[get_weather(city="Paris")]`}},
			calls: "get_weather " + parisArgs, finish: finishTool, outcome: proxy.OutcomeFixed},
		{name: "fenced json", turns: fakeserver.Script{{Content: "```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```"}},
			calls: "get_weather " + parisArgs, finish: finishTool, outcome: proxy.OutcomeFixed},
		{name: "malformed arguments", turns: fakeserver.Script{{Content: "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {'city': 'Paris',}}\n</tool_call>"}},
			calls: "get_weather " + parisArgs, finish: finishTool, outcome: proxy.OutcomeFixed},
		{name: "reasoning", turns: fakeserver.Script{{Content: "<think>The user wants weather.</think>\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>"}},
			calls: "get_weather " + parisArgs, reasoning: "The user wants weather.", finish: finishTool, outcome: proxy.OutcomeFixed},
		{name: "native call", turns: fakeserver.Script{{Calls: []fakeserver.Call{{ID: "call_native", Name: "get_weather", Arguments: parisArgs}}}},
			calls: "get_weather " + parisArgs, finish: finishTool, outcome: proxy.OutcomeUnchanged},
		{name: "native call repaired", turns: fakeserver.Script{{Calls: []fakeserver.Call{{Name: "get_weather", Arguments: `{"city": "Paris",}`, AsString: true}}}},
			calls: "get_weather " + parisArgs, finish: finishTool, outcome: proxy.OutcomeFixed},
		{name: "plain answer", turns: fakeserver.Script{{Content: "It is sunny in Paris."}},
			content: "It is sunny in Paris.", finish: finishStop, outcome: proxy.OutcomeUnchanged},
		// A leaked call read whole that fails its schema goes out as the
		// model wrote it, marked: the agent's loop can reflect it.
		{name: "off-schema", turns: fakeserver.Script{{Content: "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": 5}}\n</tool_call>"}},
			calls: `get_weather {"city":5}`, finish: finishTool, outcome: proxy.OutcomeFailed, callErrors: "TLP-004"},
		{name: "unknown tool", turns: fakeserver.Script{{Content: "<tool_call>\n{\"name\": \"get_time\", \"arguments\": {}}\n</tool_call>"}},
			content: "<tool_call>\n{\"name\": \"get_time\", \"arguments\": {}}\n</tool_call>", finish: finishStop, outcome: proxy.OutcomeFailed, callErrors: "TLP-005"},
		{name: "truncated call", turns: fakeserver.Script{{Content: "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Par", DoneReason: "length"}},
			content: "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Par",
			finish:  finishLength, outcome: proxy.OutcomeFailed, callErrors: "TLP-014"},
		{name: "off-schema recovered", turns: fakeserver.Script{
			{Content: "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": 5}}\n</tool_call>"},
			{Content: "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>"}},
			cfg:   func(c *config.Config) { c.MaxRetries = 2 },
			calls: "get_weather " + parisArgs, finish: finishTool, outcome: proxy.OutcomeRecovered, requests: 2},
		{name: "recovered after a 500", turns: fakeserver.Script{
			{Content: "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": 5}}\n</tool_call>"},
			{Status: 500, Error: "boom"},
			{Content: leakedHermes}},
			cfg: func(c *config.Config) {
				c.MaxRetries = 1
				c.Backoff.Initial, c.Backoff.Max = time.Millisecond, time.Millisecond
			},
			calls: "get_weather " + parisArgs, finish: finishTool, outcome: proxy.OutcomeRecovered, requests: 3},
		{name: "off-schema not recovered", turns: fakeserver.Script{
			{Content: "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": 5}}\n</tool_call>"}},
			cfg:   func(c *config.Config) { c.MaxRetries = 1 },
			calls: `get_weather {"city":5}`, finish: finishTool, outcome: proxy.OutcomeFailed, requests: 2, callErrors: "TLP-004"},
		{name: "native off-schema recovered", turns: fakeserver.Script{
			{Calls: []fakeserver.Call{{Name: "get_weather", Arguments: `{"city": 5}`}}},
			{Calls: []fakeserver.Call{{Name: "get_weather", Arguments: parisArgs}}}},
			cfg:   func(c *config.Config) { c.MaxRetries = 2 },
			calls: "get_weather " + parisArgs, finish: finishTool, outcome: proxy.OutcomeRecovered, requests: 2},
		// Never worse than no proxy: a native call stays a call.
		{name: "native off-schema", turns: fakeserver.Script{{Calls: []fakeserver.Call{{Name: "get_weather", Arguments: `{"city": 5}`}}}},
			calls: `get_weather {"city":5}`, finish: finishTool, outcome: proxy.OutcomeFailed, callErrors: "TLP-004"},
		{name: "native undeclared property", turns: fakeserver.Script{{Calls: []fakeserver.Call{{Name: "get_weather", Arguments: `{"city": "Paris", "description": "look it up"}`}}}},
			calls: `get_weather {"city":"Paris","description":"look it up"}`, finish: finishTool, outcome: proxy.OutcomeUnchanged},
		{name: "native unreadable", turns: fakeserver.Script{{Calls: []fakeserver.Call{{Name: "get_weather", Arguments: `city=Paris`, AsString: true}}}},
			calls: `get_weather city=Paris`, ollamaCalls: `get_weather "city=Paris"`,
			// Anthropic's input is JSON on the wire: it cannot be unreadable.
			apis: []proxy.API{proxy.Ollama, proxy.OpenAI, proxy.Responses}, finish: finishTool, outcome: proxy.OutcomeFailed, callErrors: "TLP-003"},
		{name: "two leaked calls", turns: fakeserver.Script{{Content: leakedHermes + "\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Rome\", \"days\": 2}}\n</tool_call>"}},
			calls: "get_weather " + parisArgs + `; get_weather {"city":"Rome","days":2}`, finish: finishTool, outcome: proxy.OutcomeFixed},
		{name: "native calls interleaved", turns: fakeserver.Script{{Interleave: true, Calls: []fakeserver.Call{
			{Name: "get_weather", Arguments: parisArgs}, {Name: "get_weather", Arguments: `{"city":"Rome"}`}}}},
			calls: "get_weather " + parisArgs + `; get_weather {"city":"Rome"}`, finish: finishTool, outcome: proxy.OutcomeUnchanged},
		{name: "server reasoning", turns: fakeserver.Script{{Thinking: "The user wants weather.", Content: leakedHermes}},
			calls: "get_weather " + parisArgs, reasoning: "The user wants weather.", finish: finishTool, outcome: proxy.OutcomeFixed},
		{name: "429 then answer", turns: fakeserver.Script{{Status: 429, Error: "slow down", RetryAfter: "0"}, {Content: hermes}},
			cfg:   func(c *config.Config) { c.Backoff.Initial = time.Millisecond; c.Backoff.Max = time.Millisecond },
			calls: "get_weather " + parisArgs, content: "Let me check.", finish: finishTool, outcome: proxy.OutcomeFixed, requests: 2},
		{name: "500 then answer", turns: fakeserver.Script{{Status: 500, Error: "boom"}, {Content: hermes}},
			cfg:   func(c *config.Config) { c.Backoff.Initial = time.Millisecond; c.Backoff.Max = time.Millisecond },
			calls: "get_weather " + parisArgs, content: "Let me check.", finish: finishTool, outcome: proxy.OutcomeFixed, requests: 2},
	}
}

type observed struct {
	mu    sync.Mutex
	stats []*proxy.RequestStats
}

func (o *observed) ObserveRequest(s *proxy.RequestStats) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.stats = append(o.stats, s)
}

func (o *observed) last(t *testing.T) *proxy.RequestStats {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		o.mu.Lock()
		n := len(o.stats)
		var s *proxy.RequestStats
		if n > 0 {
			s = o.stats[n-1]
		}
		o.mu.Unlock()
		if s != nil || time.Now().After(deadline) {
			if s == nil {
				t.Fatal("no request was observed")
			}
			return s
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestFix runs every scenario through the Handler, per API, streamed and
// not.
func TestFix(t *testing.T) {
	for _, api := range allAPIs {
		for _, stream := range []bool{false, true} {
			for _, sc := range scenarios() {
				name := string(api) + "/" + map[bool]string{false: "whole", true: "stream"}[stream] + "/" + sc.name
				t.Run(name, func(t *testing.T) {
					if sc.apis != nil && !slices.Contains(sc.apis, api) {
						t.Skip("the scenario does not apply to " + string(api))
					}
					turns := append(fakeserver.Script(nil), sc.turns...)
					if stream {
						for i := range turns {
							turns[i].ChunkSize = 3
						}
					}
					obs := &observed{}
					up, srv := setup(t, api, turns, func(o *proxy.Options) {
						o.Observer = obs
						if sc.cfg != nil {
							o.Config = config.Default()
							o.Config.RetryDelay = 0
							sc.cfg(&o.Config)
						}
					})
					a := post(t, nil, srv.URL+chatPath(api), api, chatBody(api, stream, ""), nil)
					if a.Status != 200 {
						t.Fatalf("status %d: %s", a.Status, a.Raw)
					}
					wantCalls := sc.calls
					if api == proxy.Ollama && sc.ollamaCalls != "" {
						wantCalls = sc.ollamaCalls
					}
					if got := a.names(); got != wantCalls {
						t.Errorf("calls = %q, want %q\n%s", got, wantCalls, a.Raw)
					}
					wantContent := sc.content
					if stream && sc.streamContent != "" {
						wantContent = sc.streamContent
					}
					if strings.TrimSpace(a.Content) != wantContent {
						t.Errorf("content = %q, want %q", a.Content, wantContent)
					}
					if stream && a.Chunks < 2 {
						t.Errorf("a streamed answer came in %d chunk(s)", a.Chunks)
					}
					if !a.Usage {
						t.Errorf("the answer lost its token counts:\n%s", a.Raw)
					}
					if sc.reasoning != "" && strings.TrimSpace(a.Reasoning) != sc.reasoning {
						t.Errorf("reasoning = %q, want %q", a.Reasoning, sc.reasoning)
					}
					if a.Finish != sc.finish[api] {
						t.Errorf("finish = %q, want %q\n%s", a.Finish, sc.finish[api], a.Raw)
					}
					want := max(sc.requests, 1)
					if n := len(up.Requests()); n != want {
						t.Errorf("%d upstream requests, want %d", n, want)
					}
					if !stream && a.CallErrors != sc.callErrors {
						t.Errorf("%s = %q, want %q", proxy.CallErrorsHeader, a.CallErrors, sc.callErrors)
					}
					if got := strings.Contains(a.Raw, `"`+proxy.CallErrorsField+`":[{"code":"`+sc.callErrors); got != (sc.callErrors != "") {
						t.Errorf("%s in the answer: %v, want %v\n%s", proxy.CallErrorsField, got, sc.callErrors != "", a.Raw)
					}
					st := obs.last(t)
					if st.Outcome != sc.outcome {
						t.Errorf("outcome = %q, want %q (%+v)", st.Outcome, sc.outcome, st)
					}
					if len(a.Calls) > 0 && st.Dialect != map[bool]string{true: "native", false: "hermes"}[strings.HasPrefix(sc.name, "native")] && sc.name != "pythonic" {
						t.Errorf("dialect = %q", st.Dialect)
					}
					if st.Calls != len(a.Calls) || st.Model != "qwen3:8b" || st.Stream != stream || st.CorrelationID == "" {
						t.Errorf("stats = %+v", st)
					}
				})
			}
		}
	}
}

// TestPassThrough: paths other than the chat path reach the upstream and
// come back unchanged.
func TestPassThrough(t *testing.T) {
	for _, tc := range []struct {
		api          proxy.API
		method, path string
		body, want   string
	}{
		{proxy.Ollama, "GET", "/api/tags", "", `"models"`},
		{proxy.Ollama, "GET", "/api/version", "", `"version":"0.17.4"`},
		{proxy.Ollama, "POST", "/api/show", `{"model":"qwen3:8b"}`, `"capabilities"`},
		{proxy.OpenAI, "GET", "/v1/models", "", `"object":"list"`},
		{proxy.OpenAI, "POST", "/api/chat", chatBody(proxy.Ollama, false, ""), `"done":true`},
	} {
		t.Run(string(tc.api)+tc.path, func(t *testing.T) {
			obs := &observed{}
			_, srv := setup(t, tc.api, fakeserver.Script{{Content: "<tool_call>{\"name\":\"get_weather\",\"arguments\":{\"city\":\"Paris\"}}</tool_call>"}},
				func(o *proxy.Options) { o.Observer = obs })
			req, _ := http.NewRequest(tc.method, srv.URL+tc.path, strings.NewReader(tc.body))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || !strings.Contains(string(data), tc.want) {
				t.Errorf("%d %s", resp.StatusCode, data)
			}
			if strings.Contains(string(data), "tool_calls") {
				t.Errorf("a passed-through answer was fixed: %s", data)
			}
			if st := obs.last(t); st.Outcome != proxy.OutcomePassThrough {
				t.Errorf("outcome %q", st.Outcome)
			}
		})
	}
}

// TestUnknownFieldsAndHeaders: fields the proxy does not know reach the
// upstream and come back; headers go upstream.
func TestUnknownFieldsAndHeaders(t *testing.T) {
	for _, api := range allAPIs {
		t.Run(string(api), func(t *testing.T) {
			up, srv := setup(t, api, fakeserver.Script{{Content: "<tool_call>{\"name\":\"get_weather\",\"arguments\":{\"city\":\"Paris\"}}</tool_call>"}}, nil)
			h := http.Header{"Authorization": {"Bearer upstream-key"}, "X-Custom": {"yes"}}
			a := post(t, nil, srv.URL+chatPath(api), api, chatBody(api, false, `"x_unknown":{"keep":[1,2]},"keep_alive":"5m"`), h)
			if a.Status != 200 || len(a.Calls) != 1 {
				t.Fatalf("%d %s", a.Status, a.Raw)
			}
			reqs := up.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			if !strings.Contains(string(reqs[0].Body), `"x_unknown":{"keep":[1,2]}`) || !strings.Contains(string(reqs[0].Body), `"keep_alive":"5m"`) {
				t.Errorf("request fields lost: %s", reqs[0].Body)
			}
			if reqs[0].Header.Get("Authorization") != "Bearer upstream-key" || reqs[0].Header.Get("X-Custom") != "yes" {
				t.Errorf("headers lost: %v", reqs[0].Header)
			}
			var top map[string]json.RawMessage
			json.Unmarshal([]byte(a.Raw), &top)
			for _, k := range map[proxy.API][]string{proxy.Ollama: {"model", "created_at", "done", "eval_count", "total_duration"}, proxy.OpenAI: {"id", "object", "created", "model", "usage"}}[api] {
				if _, ok := top[k]; !ok {
					t.Errorf("answer field %q lost: %s", k, a.Raw)
				}
			}
		})
	}
}

// TestNoTools: a request that declares no tools is not fixed.
func TestNoTools(t *testing.T) {
	text := "<tool_call>{\"name\":\"get_weather\",\"arguments\":{\"city\":\"Paris\"}}</tool_call>"
	_, srv := setup(t, proxy.Ollama, fakeserver.Script{{Content: text}}, nil)
	a := post(t, nil, srv.URL+"/api/chat", proxy.Ollama, `{"model":"m","stream":false,"messages":[{"role":"user","content":"hi"}]}`, nil)
	if a.Content != text || len(a.Calls) != 0 {
		t.Errorf("%+v", a)
	}
}

func TestNewErrors(t *testing.T) {
	for _, o := range []proxy.Options{{}, {Upstream: "ftp://x"}, {Upstream: "http://127.0.0.1:1", API: "grpc"}} {
		if _, err := proxy.NewHandler(o); err == nil {
			t.Errorf("NewHandler(%+v) accepted", o)
		}
	}
	if _, err := proxy.NewTransport(proxy.Options{API: "grpc"}); err == nil {
		t.Error("NewTransport accepted an unknown API")
	}
	bad := config.Default()
	bad.MaxRetries = 99
	if _, err := proxy.NewTransport(proxy.Options{Config: bad}); err == nil {
		t.Error("an invalid config was accepted")
	}
	_ = context.Background
}

func TestRecoveryOff(t *testing.T) {
	cfg := config.Default()
	cfg.MaxRetries = 0
	if _, err := proxy.NewHandler(proxy.Options{Upstream: "http://127.0.0.1:1", Config: cfg}); err != nil {
		t.Errorf("MaxRetries 0 (recovery off) was refused: %v", err)
	}
}

func TestUnknownDialect(t *testing.T) {
	cfg := config.Default()
	cfg.Dialect = "no_such_dialect"
	if _, err := proxy.NewHandler(proxy.Options{Upstream: "http://127.0.0.1:1", Config: cfg}); err == nil {
		t.Error("an unknown dialect was accepted")
	}
}
