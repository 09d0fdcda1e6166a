package retry

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/client/ollamaclient"
	"github.com/dialectkit/toolcall/client/openaiclient"
	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/registry"
)

// The loop end to end, over each adapter, against the scripted server.

// newTestModel returns the adapter for api, speaking to url.
func newTestModel(t *testing.T, api fakeserver.API, url string) client.Model {
	t.Helper()
	var m client.Model
	var err error
	if api == fakeserver.Ollama {
		m, err = ollamaclient.NewHost(url, nil)
	} else {
		m, err = openaiclient.New(url, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// noSleep makes the loop's waits instant, recording them.
type noSleep struct{ waits []time.Duration }

func (s *noSleep) Now() time.Time { return time.Now() }

func (s *noSleep) Sleep(ctx context.Context, d time.Duration) error {
	s.waits = append(s.waits, d)
	return ctx.Err()
}

// userRequest asks for the weather with the one tool declared.
func userRequest(t testing.TB, prompt string) *client.Request {
	t.Helper()
	tools, err := toolcall.ParseTools([]byte(`{"type":"function","function":{"name":"get_weather","description":"Weather for a city",
		"parameters":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	return &client.Request{
		Model:    "qwen3:8b",
		Messages: []client.Message{{Role: "user", Content: prompt}},
		Tools:    tools,
	}
}

func scriptCall(name, args string) fakeserver.Call {
	return fakeserver.Call{Name: name, Arguments: args}
}

func TestLoopOverAdapters(t *testing.T) {
	paris := scriptCall("get_weather", `{"city":"Paris","days":3}`)
	tests := []struct {
		name   string
		script fakeserver.Script
		config func(*config.Config)
		parse  registry.Options
		// want: the calls of the outcome (name + arguments), the attempts,
		// the error code of the run (empty for success).
		calls    []string
		attempts int
		code     toolcall.Code
		// check inspects the requests the server received.
		check func(t *testing.T, reqs []*fakeserver.Request)
	}{
		{
			name:     "success without retry",
			script:   fakeserver.Script{{Calls: []fakeserver.Call{paris}}},
			calls:    []string{`get_weather {"city":"Paris","days":3}`},
			attempts: 1,
		},
		{
			name: "invalid JSON, then valid",
			script: fakeserver.Script{
				{Calls: []fakeserver.Call{scriptCall("get_weather", `{"city": "Paris", days: 3`)}},
				{Calls: []fakeserver.Call{paris}},
			},
			config:   func(c *config.Config) { c.EnableAutoRepair = false },
			calls:    []string{`get_weather {"city":"Paris","days":3}`},
			attempts: 2,
			check: func(t *testing.T, reqs []*fakeserver.Request) {
				toolResult(t, reqs[1], string(toolcall.CodeInvalidJSON))
			},
		},
		{
			name: "schema failure, then valid",
			script: fakeserver.Script{
				{Calls: []fakeserver.Call{scriptCall("get_weather", `{"city":5}`)}},
				{Calls: []fakeserver.Call{paris}},
			},
			calls:    []string{`get_weather {"city":"Paris","days":3}`},
			attempts: 2,
			check: func(t *testing.T, reqs []*fakeserver.Request) {
				if text := toolResult(t, reqs[1], string(toolcall.CodeSchema)); !strings.Contains(text, "city") {
					t.Errorf("the reflection does not name the field: %q", text)
				}
			},
		},
		{
			name:     "always invalid until the budget runs out",
			script:   fakeserver.Script{{Calls: []fakeserver.Call{scriptCall("get_weather", `{"town":"Paris"}`)}}},
			config:   func(c *config.Config) { c.MaxRetries = 2 },
			attempts: 3,
			code:     toolcall.CodeRetriesExhausted,
		},
		{
			name: "only the failed call is asked again",
			script: fakeserver.Script{
				{Calls: []fakeserver.Call{paris, scriptCall("get_weather", `{"city":"Oslo","days":"two"}`)}},
				{Calls: []fakeserver.Call{scriptCall("get_weather", `{"city":"Oslo","days":2}`)}},
			},
			calls:    []string{`get_weather {"city":"Paris","days":3}`, `get_weather {"city":"Oslo","days":2}`},
			attempts: 2,
			check: func(t *testing.T, reqs []*fakeserver.Request) {
				msgs := reqs[1].Messages
				var failed, accepted int
				for _, m := range msgs {
					if m.Role != "tool" {
						continue
					}
					if strings.Contains(m.Content, string(toolcall.CodeSchema)) {
						failed++
					} else {
						accepted++
					}
				}
				if failed != 1 || accepted != 1 {
					t.Errorf("second request: %d failed and %d accepted tool results, want 1 and 1: %+v", failed, accepted, msgs)
				}
			},
		},
		{
			name: "text dialect: hermes with broken JSON, then valid",
			script: fakeserver.Script{
				{Content: `<tool_call>{"name": "get_weather", "arguments": {"city": "Paris", "days": 3</tool_call>`},
				{Content: `<tool_call>{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}</tool_call>`},
			},
			config:   func(c *config.Config) { c.EnableAutoRepair = false },
			parse:    registry.Options{Dialect: "hermes"},
			calls:    []string{`get_weather {"city":"Paris","days":3}`},
			attempts: 2,
		},
		{
			name: "429 then success, on the transport budget",
			script: fakeserver.Script{
				{Status: 429, Error: "slow down", RetryAfter: "2"},
				{Calls: []fakeserver.Call{paris}},
			},
			calls:    []string{`get_weather {"city":"Paris","days":3}`},
			attempts: 1,
		},
		{
			name: "truncated answer, then complete",
			script: fakeserver.Script{
				{Content: `<tool_call>{"name": "get_weather", "arguments": {"ci`, DoneReason: "length", CompletionTokens: 16},
				{Calls: []fakeserver.Call{paris}},
			},
			calls:    []string{`get_weather {"city":"Paris","days":3}`},
			attempts: 2,
			check: func(t *testing.T, reqs []*fakeserver.Request) {
				if reqs[1].MaxTokens <= reqs[0].MaxTokens {
					t.Errorf("max tokens %d then %d: the budget was not raised", reqs[0].MaxTokens, reqs[1].MaxTokens)
				}
			},
		},
	}
	for _, api := range []fakeserver.API{fakeserver.Ollama, fakeserver.OpenAI} {
		for _, tt := range tests {
			t.Run(string(api)+"/"+tt.name, func(t *testing.T) {
				srv := fakeserver.NewServer(tt.script, nil)
				defer srv.Close()
				cfg := config.Default()
				if tt.config != nil {
					tt.config(&cfg)
				}
				var sl noSleep
				loop := &Loop{Model: newTestModel(t, api, srv.URL), Config: &cfg, Parse: tt.parse, Clock: &sl}
				out, err := loop.Run(context.Background(), userRequest(t, "Weather in Paris?"))
				if tt.code == "" && err != nil {
					t.Fatalf("run failed: %v", err)
				}
				if tt.code != "" {
					var te *toolcall.Error
					if !errors.As(err, &te) || te.Code != tt.code {
						t.Fatalf("err = %v, want %s", err, tt.code)
					}
				}
				if out == nil {
					t.Fatal("no outcome")
				}
				var got []string
				for _, c := range out.Result.Calls {
					got = append(got, c.Name+" "+string(c.Arguments))
				}
				if strings.Join(got, "\n") != strings.Join(tt.calls, "\n") {
					t.Errorf("calls = %q, want %q", got, tt.calls)
				}
				if len(out.Attempts) != tt.attempts {
					t.Errorf("%d attempts, want %d", len(out.Attempts), tt.attempts)
				}
				if out.PromptTokens == 0 || out.CompletionTokens == 0 {
					t.Errorf("tokens not counted: %d + %d", out.PromptTokens, out.CompletionTokens)
				}
				reqs := srv.Requests()
				for i, r := range reqs {
					if r.Seq < 0 {
						t.Errorf("request %d was rejected by the server: %s", i, r.Body)
					}
				}
				if tt.check != nil {
					tt.check(t, reqs)
				}
				replay(t, api, out)
			})
		}
	}
}

// toolResult returns the first tool message of req holding code, failing
// the test when there is none.
func toolResult(t *testing.T, req *fakeserver.Request, code string) string {
	t.Helper()
	for _, m := range req.Messages {
		if m.Role == "tool" && strings.Contains(m.Content, code) {
			return m.Content
		}
	}
	t.Fatalf("no tool result with %s in %+v", code, req.Messages)
	return ""
}

// replay sends the outcome's history, with a result for each of its calls,
// to a server that rejects what the real one rejects (string arguments on
// Ollama, object arguments on the OpenAI endpoint): it must be accepted.
func replay(t *testing.T, api fakeserver.API, out *Outcome) {
	t.Helper()
	srv := fakeserver.NewServer(fakeserver.Script{{Content: "Done."}}, nil)
	defer srv.Close()
	history := append([]client.Message(nil), out.History...)
	for _, c := range out.Result.Calls {
		history = append(history, client.Message{Role: "tool", ToolCallID: c.ID, ToolName: c.Name, Content: `{"temp":21}`})
	}
	req := userRequest(t, "")
	req.Messages = history
	if _, err := newTestModel(t, api, srv.URL).Chat(context.Background(), req); err != nil {
		t.Errorf("the replayed history was refused: %v", err)
	}
}

// A history whose tool calls hold string arguments, as an OpenAI-style
// client stores them, is accepted by a server that rejects string
// arguments, and arrives there as objects.
func TestReplayStringArgumentsToOllama(t *testing.T) {
	srv := fakeserver.NewServer(fakeserver.Script{{Calls: []fakeserver.Call{scriptCall("get_weather", `{"city":"Oslo"}`)}}}, nil)
	defer srv.Close()
	req := userRequest(t, "And Oslo?")
	req.Messages = append([]client.Message{
		{Role: "user", Content: "Weather in Paris?"},
		{Role: "assistant", ToolCalls: []toolcall.Call{{ID: "call_1", Name: "get_weather", Arguments: json.RawMessage(`"{\"city\":\"Paris\"}"`)}}},
		{Role: "tool", ToolCallID: "call_1", ToolName: "get_weather", Content: "sunny"},
	}, req.Messages...)
	var sl noSleep
	loop := &Loop{Model: newTestModel(t, fakeserver.Ollama, srv.URL), Clock: &sl}
	out, err := loop.Run(context.Background(), req)
	if err != nil {
		t.Fatalf("run failed: %v", err)
	}
	if len(out.Result.Calls) != 1 || string(out.Result.Calls[0].Arguments) != `{"city":"Oslo"}` {
		t.Errorf("calls = %+v", out.Result.Calls)
	}
	sent := srv.Requests()[0].Messages[1].ToolCalls[0].Arguments
	if string(sent) != `{"city":"Paris"}` {
		t.Errorf("history arguments sent as %s, want an object", sent)
	}
}

// A model without tool support: the 400 is explained to the model within
// model_http_retries, then the run fails with the rejection.
func TestLoopRejectedRequest(t *testing.T) {
	for _, api := range []fakeserver.API{fakeserver.Ollama, fakeserver.OpenAI} {
		srv := fakeserver.NewServer(fakeserver.Script{{Status: 400, Error: `"gemma:2b" does not support tools`}}, nil)
		cfg := config.Default()
		cfg.ModelHTTPRetries = 1
		var sl noSleep
		loop := &Loop{Model: newTestModel(t, api, srv.URL), Config: &cfg, Clock: &sl}
		out, err := loop.Run(context.Background(), userRequest(t, "hi"))
		if !errors.Is(err, toolcall.ErrRetriesExhausted) || !errors.Is(err, toolcall.ErrRequestRejected) {
			t.Errorf("%s: err = %v, want TLP-006 wrapping TLP-020", api, err)
		}
		if out == nil || len(out.Attempts) != 2 || len(srv.Requests()) != 2 {
			t.Errorf("%s: outcome %+v, %d requests", api, out, len(srv.Requests()))
		}
		srv.Close()
	}
}
