// Package clienttest drives the tool-call-fixing proxy with real clients:
// the official OpenAI (chat completions and Responses), Anthropic and
// Ollama JavaScript SDKs, the AI SDK and LangChain JS (run with node), the
// ollama/api Go client, and openai-go (in the module under openaigo/, so
// that the main module does not depend on it). Each client talks to a proxy
// in front of the scripted fake upstream and must see the leaked, malformed
// and repaired calls as native tool calls through its own parsing.
//
// The scenarios are shared by every client: Scenarios lists what the
// upstream answers and what a client must see.
package clienttest

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"slices"
	"strings"
	"time"

	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/proxy"
)

// Model is the model every scenario asks for.
const Model = "qwen3:8b"

// WeatherTool is the one tool every request declares, in the shape both
// APIs take.
const WeatherTool = `{"type":"function","function":{"name":"get_weather","description":"Weather of a city","parameters":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"]}}}`

// Prompt is the user message every request sends.
const Prompt = "Weather in Paris for 3 days?"

// wantArgs are the arguments of the call a fixed answer carries.
const wantArgs = `{"city":"Paris","days":3}`

// Scenario is one scripted upstream behaviour and what a client of the
// proxy must see.
type Scenario struct {
	// Name names the scenario in test names and in the node scripts' input.
	Name string
	// Script is what the fake upstream answers, on either API.
	Script fakeserver.Script
	// Want is what a client sees through the proxy.
	Want Want
}

// Want is what a client must see.
type Want struct {
	// Status, when not 0, is the HTTP error status the client's call fails
	// with; nothing else is checked then.
	Status int
	// Calls are the native tool calls, in order, each as "name ARGS" with
	// ARGS compact JSON with sorted keys.
	Calls []string
	// Content is the content, with surrounding space trimmed.
	Content string
	// ContentHas, when set, is checked instead of Content: the content
	// holds it.
	ContentHas string
	// Reasoning is the reasoning (OpenAI's reasoning_content, Ollama's
	// thinking), with surrounding space trimmed.
	Reasoning string
	// Finish is the finish_reason an OpenAI client sees; FinishOllama the
	// done_reason an Ollama client sees ("" means "stop").
	Finish       string
	FinishOllama string
}

const hermesCall = "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}\n</tool_call>"

// Scenarios are the upstream behaviours every client is tested with.
var Scenarios = []Scenario{
	{
		Name:   "native",
		Script: fakeserver.Script{{Calls: []fakeserver.Call{{Name: "get_weather", Arguments: `{"city": "Paris", "days": 3}`}}, ChunkSize: 5}},
		Want:   Want{Calls: []string{"get_weather " + wantArgs}, Finish: "tool_calls"},
	},
	{
		Name:   "hermes",
		Script: fakeserver.Script{{Content: "I'll look it up.\n" + hermesCall, ChunkSize: 7}},
		Want:   Want{Calls: []string{"get_weather " + wantArgs}, Content: "I'll look it up.", Finish: "tool_calls"},
	},
	{
		Name:   "hermes_two_calls",
		Script: fakeserver.Script{{Content: hermesCall + "\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}\n</tool_call>", ChunkSize: 3}},
		Want:   Want{Calls: []string{"get_weather " + wantArgs, `get_weather {"city":"Oslo"}`}, Finish: "tool_calls"},
	},
	{
		// Two native calls whose argument fragments interleave, as a
		// server generating calls in parallel sends them.
		Name: "native_parallel",
		Script: fakeserver.Script{{Calls: []fakeserver.Call{
			{Name: "get_weather", Arguments: `{"city": "Paris", "days": 3}`},
			{Name: "get_weather", Arguments: `{"city": "Oslo"}`},
		}, ChunkSize: 4, Interleave: true}},
		Want: Want{Calls: []string{"get_weather " + wantArgs, `get_weather {"city":"Oslo"}`}, Finish: "tool_calls"},
	},
	{
		// Reasoning the model wrote in the content, before a leaked call:
		// it leaves the content.
		Name:   "reasoning_leaked",
		Script: fakeserver.Script{{Content: "<think>\nThe user wants the weather.\n</think>\n\n" + hermesCall, ChunkSize: 5}},
		Want:   Want{Calls: []string{"get_weather " + wantArgs}, Reasoning: "The user wants the weather.", Finish: "tool_calls"},
	},
	{
		Name:   "pythonic",
		Script: fakeserver.Script{{Content: `[get_weather(city="Paris", days=3)]`, ChunkSize: 6}},
		Want:   Want{Calls: []string{"get_weather " + wantArgs}, Finish: "tool_calls"},
	},
	{
		Name:   "fenced_json",
		Script: fakeserver.Script{{Content: "```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}\n```", ChunkSize: 8}},
		Want:   Want{Calls: []string{"get_weather " + wantArgs}, Finish: "tool_calls"},
	},
	{
		Name:   "malformed_leaked",
		Script: fakeserver.Script{{Content: "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": 'Paris', \"days\": 3,}}\n</tool_call>", ChunkSize: 5}},
		Want:   Want{Calls: []string{"get_weather " + wantArgs}, Finish: "tool_calls"},
	},
	{
		// Native arguments that are not JSON: the Ollama endpoint sends them
		// as a string, which the Ollama clients cannot read without the
		// proxy.
		Name:   "malformed_native",
		Script: fakeserver.Script{{Calls: []fakeserver.Call{{Name: "get_weather", Arguments: `{city: "Paris", days: 3,}`}}, ChunkSize: 4}},
		Want:   Want{Calls: []string{"get_weather " + wantArgs}, Finish: "tool_calls"},
	},
	{
		// A required argument missing, and recovery gets the same answer:
		// the call stays failed, and goes to the client as the model wrote
		// it (the answer's dialectkit_call_errors says why), for the
		// agent's own loop to reflect.
		Name:   "off_schema",
		Script: fakeserver.Script{{Content: "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"days\": 3}}\n</tool_call>", ChunkSize: 6}},
		Want:   Want{Calls: []string{`get_weather {"days":3}`}, Finish: "tool_calls"},
	},
	{
		// The same call, and recovery asks again: the second answer is
		// what the client gets.
		Name: "off_schema_recovered",
		Script: fakeserver.Script{
			{Content: "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"days\": 3}}\n</tool_call>", ChunkSize: 6},
			{Content: hermesCall, ChunkSize: 6},
		},
		Want: Want{Calls: []string{"get_weather " + wantArgs}, Finish: "tool_calls"},
	},
	{
		Name:   "truncated",
		Script: fakeserver.Script{{Content: "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Par", DoneReason: "length", ChunkSize: 5}},
		Want:   Want{ContentHas: `"city": "Par`, Finish: "length", FinishOllama: "length"},
	},
	{
		// The proxy's own transport retry gets past a 429.
		Name:   "429_then_ok",
		Script: fakeserver.Script{{Status: 429, Error: "rate limited", RetryAfter: "0"}, {Content: hermesCall, ChunkSize: 9}},
		Want:   Want{Calls: []string{"get_weather " + wantArgs}, Finish: "tool_calls"},
	},
	{
		Name:   "429",
		Script: fakeserver.Script{{Status: 429, Error: "rate limited", RetryAfter: "0"}},
		Want:   Want{Status: 429},
	},
	{
		Name:   "500",
		Script: fakeserver.Script{{Status: 500, Error: "model runner crashed"}},
		Want:   Want{Status: 500},
	},
}

// Named returns the scenarios of the given names, in that order; it panics
// on a name no scenario has.
func Named(names ...string) []Scenario {
	var out []Scenario
	for _, n := range names {
		i := slices.IndexFunc(Scenarios, func(s Scenario) bool { return s.Name == n })
		if i < 0 {
			panic("clienttest: no scenario named " + n)
		}
		out = append(out, Scenarios[i])
	}
	return out
}

// Config is the proxy configuration of the tests: the defaults with one
// recovery attempt and a short transport backoff. The scripts repeat their
// last turn, so a recovery gets the same answer again. The fake server
// has no chat template: the output is said to start outside reasoning, as
// for a model that opens no block, so its text streams as it comes.
func Config() config.Config {
	cfg := config.Default()
	cfg.MaxRetries = 1
	cfg.Reasoning = config.ReasoningClosed
	cfg.Backoff = config.Backoff{Initial: 5 * time.Millisecond, Max: 20 * time.Millisecond, Multiplier: 2}
	return cfg
}

// Options returns the proxy options of the tests for api in front of
// upstream; a Transport ignores Upstream. The Responses API is served
// under an OpenAI-compatible upstream, the Messages API under Ollama, as
// the servers that speak them are.
func Options(api proxy.API, upstream string) proxy.Options {
	kind := api
	switch api {
	case proxy.Responses:
		kind = proxy.OpenAI
	case proxy.Anthropic:
		kind = proxy.Ollama
	}
	return proxy.Options{Upstream: upstream, API: kind, Config: Config(),
		Logger: slog.New(slog.DiscardHandler)}
}

// Stack is a fake upstream with a proxy Handler in front of it.
type Stack struct {
	Upstream *fakeserver.Server
	Proxy    *httptest.Server
}

// NewStack starts the fake upstream answering with script and a proxy for
// api in front of it. Close it when done.
func NewStack(api proxy.API, script fakeserver.Script) (*Stack, error) {
	up := fakeserver.NewServer(script, nil)
	h, err := proxy.NewHandler(Options(api, up.URL))
	if err != nil {
		up.Close()
		return nil, err
	}
	return &Stack{Upstream: up, Proxy: httptest.NewServer(h)}, nil
}

// Close stops the proxy and the upstream.
func (s *Stack) Close() {
	s.Proxy.Close()
	s.Upstream.Close()
}

// Got is what a client saw, in the shape the node scripts print.
type Got struct {
	// Status is the HTTP status of a failed call, 0 when it succeeded.
	Status int    `json:"status,omitempty"`
	Error  string `json:"error,omitempty"`
	// Calls are the tool calls as the client parsed them.
	Calls     []GotCall `json:"calls"`
	Content   string    `json:"content"`
	Reasoning string    `json:"reasoning"`
	Finish    string    `json:"finish"`
}

// GotCall is one tool call as a client parsed it. Arguments is the JSON
// text of the arguments: the string an OpenAI client holds, or the object
// an Ollama client decoded, marshalled again.
type GotCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Check compares what a client saw with w for api, and returns the
// differences, or "".
func (w Want) Check(api proxy.API, g Got) string {
	var diffs []string
	if w.Status != 0 {
		if g.Status != w.Status {
			return fmt.Sprintf("status = %d (%s), want %d", g.Status, g.Error, w.Status)
		}
		return ""
	}
	if g.Status != 0 || g.Error != "" {
		return fmt.Sprintf("the call failed: status %d: %s", g.Status, g.Error)
	}
	var calls []string
	ids := map[string]bool{}
	for _, c := range g.Calls {
		calls = append(calls, c.Name+" "+CanonicalJSON(c.Arguments))
		if c.ID == "" {
			diffs = append(diffs, "a call without an id: "+c.Name)
		} else if ids[c.ID] {
			diffs = append(diffs, "two calls with the id "+c.ID)
		}
		ids[c.ID] = true
	}
	if strings.Join(calls, "; ") != strings.Join(w.Calls, "; ") {
		diffs = append(diffs, fmt.Sprintf("calls = %q, want %q", calls, w.Calls))
	}
	content := strings.TrimSpace(g.Content)
	switch {
	case w.ContentHas != "":
		if !strings.Contains(content, w.ContentHas) {
			diffs = append(diffs, fmt.Sprintf("content = %q, want it to hold %q", content, w.ContentHas))
		}
	case content != w.Content:
		diffs = append(diffs, fmt.Sprintf("content = %q, want %q", content, w.Content))
	}
	if r := strings.TrimSpace(g.Reasoning); r != w.Reasoning {
		diffs = append(diffs, fmt.Sprintf("reasoning = %q, want %q", r, w.Reasoning))
	}
	finish := w.Finish
	switch api {
	case proxy.Ollama:
		finish = w.FinishOllama
		if finish == "" {
			finish = "stop"
		}
	case proxy.Responses:
		// The Responses API says how an answer ended by its status.
		finish = "completed"
		if w.Finish == "length" {
			finish = "incomplete"
		}
	case proxy.Anthropic:
		finish = map[string]string{"tool_calls": "tool_use", "stop": "end_turn", "length": "max_tokens"}[w.Finish]
	}
	if g.Finish != finish {
		diffs = append(diffs, fmt.Sprintf("finish = %q, want %q", g.Finish, finish))
	}
	return strings.Join(diffs, "; ")
}

// CanonicalJSON returns s compact with object keys sorted, or s itself when
// it is not JSON.
func CanonicalJSON(s string) string {
	var v any
	if json.Unmarshal([]byte(s), &v) != nil {
		return s
	}
	out, err := json.Marshal(v) // maps marshal with sorted keys
	if err != nil {
		return s
	}
	return string(out)
}
