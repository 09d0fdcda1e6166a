package retry_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/retry"
	"github.com/dialectkit/toolcall/schema"
)

var (
	weatherTool = toolcall.Tool{Name: "get_weather", Description: "Current weather",
		Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","minimum":1,"maximum":14}},"required":["city"]}`)}
	timeTool = toolcall.Tool{Name: "get_time",
		Parameters: json.RawMessage(`{"type":"object","properties":{"timezone":{"type":"string"}},"required":["timezone"]}`)}
	loginTool = toolcall.Tool{Name: "login",
		Parameters: json.RawMessage(`{"type":"object","properties":{"user":{"type":"string"},"password":{"type":"string"}},"required":["user","password"]}`)}
)

func toolSet(t testing.TB) *schema.Set {
	t.Helper()
	set, err := schema.NewSet(weatherTool, timeTool, loginTool)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// step is one scripted answer of the fake model: a response or an error.
type step struct {
	resp *client.Response
	err  error
}

func text(s string) step {
	return step{resp: &client.Response{Content: s, Done: true, DoneReason: "stop", PromptTokens: 100, CompletionTokens: 20}}
}

func native(calls ...dialects.RawCall) step {
	for i := range calls {
		if calls[i].Offset == 0 {
			calls[i].Offset = -1
		}
	}
	return step{resp: &client.Response{NativeCalls: calls, Done: true, DoneReason: "tool_calls", PromptTokens: 100, CompletionTokens: 20}}
}

func failure(err error) step { return step{err: err} }

func hermes(name, args string) string {
	return "<tool_call>\n{\"name\": \"" + name + "\", \"arguments\": " + args + "}\n</tool_call>"
}

// fakeModel answers with its script, in order, and records every request.
type fakeModel struct {
	mu    sync.Mutex
	steps []step
	reqs  []client.Request
}

func (m *fakeModel) Chat(ctx context.Context, req *client.Request) (*client.Response, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	cp := *req
	cp.Messages = append([]client.Message(nil), req.Messages...)
	m.reqs = append(m.reqs, cp)
	n := len(m.reqs) - 1
	if n >= len(m.steps) {
		return nil, fmt.Errorf("fake model: unexpected request %d", n+1)
	}
	s := m.steps[n]
	if s.resp != nil {
		r := *s.resp
		return &r, nil
	}
	return nil, s.err
}

func (m *fakeModel) calls() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.reqs)
}

// fakeSleep records waits and returns at once (or ctx's error).
type fakeSleep struct {
	mu    sync.Mutex
	waits []time.Duration
}

// Now is the real time: fakeSleep is a Clock whose waits are instant.
func (f *fakeSleep) Now() time.Time { return time.Now() }

func (f *fakeSleep) Sleep(ctx context.Context, d time.Duration) error {
	f.mu.Lock()
	f.waits = append(f.waits, d)
	f.mu.Unlock()
	return ctx.Err()
}

func newLoop(t testing.TB, m client.Model, configure func(*config.Config)) (*retry.Loop, *fakeSleep) {
	cfg := config.Default()
	if configure != nil {
		configure(&cfg)
	}
	fs := &fakeSleep{}
	loop := &retry.Loop{
		Model:  m,
		Tools:  toolSet(t),
		Config: &cfg,
		Clock:  fs,
	}
	retry.SetRand(loop, rand.New(rand.NewPCG(1, 2)))
	return loop, fs
}

func userTurn() *client.Request {
	return &client.Request{Model: "qwen2.5:7b", Messages: []client.Message{{Role: "user", Content: "Weather in Paris?"}}}
}

func codeOf(err error) toolcall.Code {
	var e *toolcall.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func TestSuccessWithoutRetry(t *testing.T) {
	m := &fakeModel{steps: []step{text(hermes("get_weather", `{"city": "Paris"}`))}}
	loop, fs := newLoop(t, m, nil)
	out, err := loop.Run(context.Background(), userTurn())
	if err != nil {
		t.Fatal(err)
	}
	if m.calls() != 1 || len(out.Attempts) != 1 || out.Retries() != 0 || len(fs.waits) != 0 {
		t.Fatalf("calls %d attempts %d retries %d waits %v", m.calls(), len(out.Attempts), out.Retries(), fs.waits)
	}
	if len(out.Result.Calls) != 1 || out.Result.Calls[0].Name != "get_weather" || string(out.Result.Calls[0].Arguments) != `{"city":"Paris"}` {
		t.Fatalf("calls = %+v", out.Result.Calls)
	}
	if out.Result.Dialect != "hermes" || out.CorrelationID == "" {
		t.Errorf("dialect %q correlation %q", out.Result.Dialect, out.CorrelationID)
	}
	if len(out.History) != 2 || out.History[1].Role != "assistant" || out.History[1].ToolCalls[0].ID != out.Result.Calls[0].ID {
		t.Errorf("history = %+v", out.History)
	}
	checkReplaySafe(t, out)
}

func TestRecoveryAfterOneRetry(t *testing.T) {
	tests := []struct {
		name      string
		configure func(*config.Config)
		first     step
		code      toolcall.Code
		inReask   []string // substrings the re-ask must hold
		// args are the failed call's arguments in the re-ask: as the
		// model wrote them when they are a JSON object, else {}.
		args string
	}{
		{
			name:      "invalid JSON in a text call",
			configure: func(c *config.Config) { c.EnableAutoRepair = false },
			first:     text(hermes("get_weather", `{"city": 'Paris',, }`)),
			code:      toolcall.CodeMalformedCall,
			inReask:   []string{"TLP-019", `{"city": 'Paris',, }`, "<tool_call>", `"city": "..."`},
			args:      `{}`,
		},
		{
			name:    "unrepairable native arguments",
			first:   native(dialects.RawCall{ID: "call_native1", Name: "get_weather", Arguments: `{{{{:::}}}}`}),
			code:    toolcall.CodeRepairFailed,
			inReask: []string{"TLP-003", "{{{{:::}}}}", "Error position: byte", `{"name": "get_weather", "arguments": {"city": "..."}}`},
			args:    `{}`,
		},
		{
			name:    "schema failure",
			first:   text(hermes("get_weather", `{"city": "Paris", "days": "three"}`)),
			code:    toolcall.CodeSchema,
			inReask: []string{"TLP-004", "Field: /days", "Expected: integer, got: string", `{"city":"Paris","days":"three"}`, `"days": 1`},
			args:    `{"city":"Paris","days":"three"}`,
		},
		{
			name:    "missing required field",
			first:   text(hermes("get_weather", `{"days": 2}`)),
			code:    toolcall.CodeSchema,
			inReask: []string{"Missing required fields: city", `{"name": "get_weather", "arguments": {"city": "..."}}`},
			args:    `{"days":2}`,
		},
		{
			name:    "native call off its schema",
			first:   native(dialects.RawCall{ID: "call_native1", Name: "get_weather", Arguments: `{"days": 2}`}),
			code:    toolcall.CodeSchema,
			inReask: []string{"Missing required fields: city"},
			args:    `{"days":2}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &fakeModel{steps: []step{tt.first, text(hermes("get_weather", `{"city": "Paris", "days": 2}`))}}
			loop, fs := newLoop(t, m, tt.configure)
			out, err := loop.Run(context.Background(), userTurn())
			if err != nil {
				t.Fatal(err)
			}
			if m.calls() != 2 || out.Retries() != 1 {
				t.Fatalf("calls %d retries %d", m.calls(), out.Retries())
			}
			if got := out.Attempts[0].Errors; len(got) != 1 || got[0].Code != tt.code {
				t.Fatalf("first attempt errors = %v, want %s", got, tt.code)
			}
			if len(fs.waits) != 1 || fs.waits[0] != 100*time.Millisecond {
				t.Errorf("waits = %v, want the 100ms retry delay", fs.waits)
			}
			// The second request answers the failed call with its error.
			sent := m.reqs[1].Messages
			last := sent[len(sent)-1]
			asst := sent[len(sent)-2]
			if last.Role != "tool" || asst.Role != "assistant" || len(asst.ToolCalls) != 1 || last.ToolCallID != asst.ToolCalls[0].ID {
				t.Fatalf("re-ask messages = %+v", sent[1:])
			}
			if got := compactJSON(t, asst.ToolCalls[0].Arguments); got != tt.args {
				t.Errorf("the re-ask sends the failed call with arguments %s, want %s", got, tt.args)
			}
			// The history handed back stores the failed call with {}.
			for _, m := range out.History {
				for _, c := range m.ToolCalls {
					if c.ID == asst.ToolCalls[0].ID && string(c.Arguments) != "{}" {
						t.Errorf("failed call stored in the history with arguments %s, want {}", c.Arguments)
					}
				}
			}
			if tt.first.resp.NativeCalls != nil && asst.ToolCalls[0].ID != "call_native1" {
				t.Errorf("native call id %q not kept", asst.ToolCalls[0].ID)
			}
			for _, want := range tt.inReask {
				if !strings.Contains(last.Content, want) {
					t.Errorf("re-ask lacks %q:\n%s", want, last.Content)
				}
			}
			if out.Attempts[0].Reflections[0].Text != last.Content {
				t.Error("Attempt.Reflections does not hold the text sent")
			}
			if len(out.Result.Calls) != 1 || string(out.Result.Calls[0].Arguments) != `{"city":"Paris","days":2}` {
				t.Errorf("final calls = %+v", out.Result.Calls)
			}
			checkReplaySafe(t, out)
		})
	}
}

func TestExhaustedAfterExactlyTheConfiguredAttempts(t *testing.T) {
	for _, retries := range []int{1, 3, 10} {
		t.Run(fmt.Sprint(retries), func(t *testing.T) {
			bad := text(hermes("get_weather", `{"city": 12}`))
			steps := make([]step, retries+1)
			for i := range steps {
				steps[i] = bad
			}
			m := &fakeModel{steps: steps}
			loop, _ := newLoop(t, m, func(c *config.Config) { c.MaxRetries = retries })
			ctx := retry.WithCorrelationID(context.Background(), "corr-123")
			out, err := loop.Run(ctx, userTurn())
			if m.calls() != retries+1 {
				t.Fatalf("model called %d times, want %d", m.calls(), retries+1)
			}
			var e *toolcall.Error
			if !errors.As(err, &e) || e.Code != toolcall.CodeRetriesExhausted {
				t.Fatalf("err = %v, want TLP-006", err)
			}
			if e.Attempt != retries+1 || e.CorrelationID != "corr-123" || out.CorrelationID != "corr-123" {
				t.Errorf("attempt %d correlation %q", e.Attempt, e.CorrelationID)
			}
			if !errors.Is(err, toolcall.ErrSchema) || !errors.Is(err, toolcall.ErrRetriesExhausted) {
				t.Error("errors.Is does not reach the wrapped schema error")
			}
			var last *toolcall.Error
			if !errors.As(errors.Unwrap(err), &last) || last.Code != toolcall.CodeSchema || last.Attempt != retries+1 {
				t.Errorf("Unwrap = %v", errors.Unwrap(err))
			}
			if strings.Contains(err.Error(), "12") && !strings.Contains(err.Error(), fmt.Sprint(retries)) {
				t.Errorf("error message %q", err)
			}
			if out == nil || len(out.Attempts) != retries+1 || out.Retries() != retries || len(out.Result.Errors) != 1 {
				t.Fatalf("outcome = %+v", out)
			}
			checkReplaySafe(t, out)
		})
	}
}

func TestTokensAndTimesAreSummed(t *testing.T) {
	m := &fakeModel{steps: []step{
		{resp: &client.Response{Content: hermes("get_weather", `{"city": 1}`), Done: true, PromptTokens: 120, CompletionTokens: 30}},
		{resp: &client.Response{Content: hermes("get_weather", `{"city": 2}`), Done: true, PromptTokens: 260, CompletionTokens: 31}},
		{resp: &client.Response{Content: hermes("get_weather", `{"city": "Oslo"}`), Done: true, PromptTokens: 400, CompletionTokens: 25}},
	}}
	loop, _ := newLoop(t, m, nil)
	clock := time.Unix(0, 0)
	loop.Clock = stepClock{now: func() time.Time { clock = clock.Add(time.Millisecond); return clock }}
	out, err := loop.Run(context.Background(), userTurn())
	if err != nil {
		t.Fatal(err)
	}
	if out.PromptTokens != 780 || out.CompletionTokens != 86 || out.TotalTokens() != 866 {
		t.Errorf("tokens %d + %d = %d", out.PromptTokens, out.CompletionTokens, out.TotalTokens())
	}
	for i, a := range out.Attempts {
		if a.ModelTime <= 0 || a.ParseTime <= 0 || a.Number != i+1 {
			t.Errorf("attempt %d: %+v", i, a)
		}
	}
	if out.Attempts[0].Reason != retry.ReasonInitial || out.Attempts[2].Reason != retry.ReasonReflection {
		t.Errorf("reasons %q %q", out.Attempts[0].Reason, out.Attempts[2].Reason)
	}
	if out.Duration <= 0 {
		t.Error("no duration")
	}
}

func TestOnlyTheFailedCallIsReasked(t *testing.T) {
	first := hermes("get_time", `{"timezone": "Europe/Paris"}`) + "\n" + hermes("get_weather", `{"city": "Paris", "days": 0}`)
	// The model fixes the failed call and, as models do, repeats the
	// accepted one: it must not run twice.
	second := hermes("get_weather", `{"city": "Paris", "days": 1}`) + "\n" + hermes("get_time", `{"timezone":"Europe/Paris"}`)
	m := &fakeModel{steps: []step{text(first), text(second)}}
	loop, _ := newLoop(t, m, nil)
	out, err := loop.Run(context.Background(), userTurn())
	if err != nil {
		t.Fatal(err)
	}
	sent := m.reqs[1].Messages
	var results []client.Message
	for _, msg := range sent {
		if msg.Role == "tool" {
			results = append(results, msg)
		}
	}
	if len(results) != 2 {
		t.Fatalf("tool results sent = %+v", results)
	}
	if results[0].ToolName != "get_time" || !strings.HasPrefix(results[0].Content, "Accepted") {
		t.Errorf("valid sibling answered with %q", results[0].Content)
	}
	if results[1].ToolName != "get_weather" || !strings.Contains(results[1].Content, "TLP-004") {
		t.Errorf("failed call answered with %q", results[1].Content)
	}
	if len(out.Attempts[0].Reflections) != 1 || out.Attempts[0].Reflections[0].Tool != "get_weather" {
		t.Errorf("reflections = %+v", out.Attempts[0].Reflections)
	}
	var names []string
	for i, c := range out.Result.Calls {
		names = append(names, c.Name)
		if c.Index != i {
			t.Errorf("call %d has index %d", i, c.Index)
		}
	}
	if strings.Join(names, ",") != "get_time,get_weather" {
		t.Fatalf("final calls = %v", names)
	}
	// The history moves the kept call to the last message, where the
	// caller will answer it; the earlier message keeps only the failed call.
	h := out.History
	if len(h[1].ToolCalls) != 1 || h[1].ToolCalls[0].Name != "get_weather" || string(h[1].ToolCalls[0].Arguments) != "{}" {
		t.Errorf("failed turn in history = %+v", h[1])
	}
	final := h[len(h)-1]
	if final.Role != "assistant" || len(final.ToolCalls) != 2 || final.ToolCalls[0].ID != out.Result.Calls[0].ID {
		t.Errorf("final message = %+v", final)
	}
	checkReplaySafe(t, out)
}

func TestUnknownToolReaskListsValidNames(t *testing.T) {
	tests := []struct{ name, suggestion string }{
		{"get_wether", `Did you mean "get_weather"?`},
		{"tool:get_time", `Did you mean "get_time"?`},
		{"send_email", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &fakeModel{steps: []step{
				text(hermes(tt.name, `{"city": "Paris"}`)),
				text(hermes("get_weather", `{"city": "Paris"}`)),
			}}
			loop, _ := newLoop(t, m, nil)
			out, err := loop.Run(context.Background(), userTurn())
			if err != nil {
				t.Fatal(err)
			}
			reask := out.Attempts[0].Reflections[0].Text
			if !strings.Contains(reask, "TLP-005") || !strings.Contains(reask, "Valid tool names: get_time, get_weather, login") {
				t.Errorf("re-ask:\n%s", reask)
			}
			if tt.suggestion != "" && !strings.Contains(reask, tt.suggestion) {
				t.Errorf("re-ask lacks %q:\n%s", tt.suggestion, reask)
			}
			if tt.suggestion == "" && strings.Contains(reask, "Did you mean") {
				t.Errorf("re-ask suggests a name for %q:\n%s", tt.name, reask)
			}
			stored := m.reqs[1].Messages[1].ToolCalls[0].Name
			if !regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`).MatchString(stored) {
				t.Errorf("stored name %q is not safe to replay", stored)
			}
			checkReplaySafe(t, out)
		})
	}
}

func TestReaskUsesTheModelsOwnDialect(t *testing.T) {
	tests := []struct {
		name     string
		parse    registry.Options
		first    string
		example  string
		note     string
		noteNone bool
	}{
		{name: "pythonic", first: `[get_weather(city='Paris', days='x')]`, example: "[get_weather(city='...', days=1)]", noteNone: true},
		{name: "qwen3 coder", parse: registry.Options{Dialect: "qwen3_coder"},
			first:   "<tool_call>\n<function=get_weather>\n<parameter=days>\n0\n</parameter>\n</function>\n</tool_call>",
			example: "<function=get_weather>\n<parameter=city>\n...\n</parameter>\n<parameter=days>\n1\n</parameter>", noteNone: true},
		{name: "mistral v11", parse: registry.Options{Dialect: "mistral"},
			first: `[TOOL_CALLS]get_weather[ARGS]{"city": 5}`, example: `[TOOL_CALLS]get_weather[ARGS]{"city": "..."}`, noteNone: true},
		{name: "drift from the template's dialect", parse: registry.Options{Template: "{{- if .ToolCalls }}<tool_call>\n{{ range .ToolCalls }}{\"name\": \"{{ .Function.Name }}\"}{{ end }}</tool_call>{{ end }}"},
			first: `[get_weather(city=3)]`, example: "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"...\"}}\n</tool_call>",
			note: "You wrote the pythonic format; this model calls tools in the hermes format."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &fakeModel{steps: []step{text(tt.first), text(hermes("get_weather", `{"city": "Paris"}`))}}
			loop, _ := newLoop(t, m, nil)
			loop.Parse = tt.parse
			if tt.parse.Dialect == "" {
				loop.Parse.Fallback = nil
			}
			out, _ := loop.Run(context.Background(), userTurn())
			if len(out.Attempts) < 1 || len(out.Attempts[0].Reflections) != 1 {
				t.Fatalf("attempts = %+v", out.Attempts)
			}
			reask := out.Attempts[0].Reflections[0].Text
			if !strings.Contains(reask, tt.example) {
				t.Errorf("re-ask lacks the example %q:\n%s", tt.example, reask)
			}
			if tt.note != "" && !strings.Contains(reask, tt.note) {
				t.Errorf("re-ask lacks the note %q:\n%s", tt.note, reask)
			}
			if tt.noteNone && strings.Contains(reask, "You wrote the") {
				t.Errorf("unexpected drift note:\n%s", reask)
			}
		})
	}
}

func TestExcerptIsBounded(t *testing.T) {
	long := `{"city": "` + strings.Repeat("ab", 2000) + `", "days": {{{{:::}}}}`
	m := &fakeModel{steps: []step{
		native(dialects.RawCall{Name: "get_weather", Arguments: long}),
		native(dialects.RawCall{Name: "get_weather", Arguments: `{"city": "Paris"}`}),
	}}
	loop, _ := newLoop(t, m, nil)
	out, err := loop.Run(context.Background(), userTurn())
	if err != nil {
		t.Fatal(err)
	}
	reask := out.Attempts[0].Reflections[0].Text
	i := strings.Index(reask, "What you wrote: ")
	if i < 0 {
		t.Fatalf("no excerpt:\n%s", reask)
	}
	excerpt := reask[i+len("What you wrote: "):]
	excerpt = excerpt[:strings.Index(excerpt, "\nA correct call")]
	if n := len([]rune(excerpt)); n > retry.MaxExcerpt {
		t.Errorf("excerpt is %d characters", n)
	}
	if !strings.HasPrefix(excerpt, `{"city": "abab`) || !strings.HasSuffix(excerpt, "{{{{:::}}}}") {
		t.Errorf("excerpt lost its ends: %q", excerpt)
	}
}

func TestTransportRetries(t *testing.T) {
	rateLimited := toolcall.Errorf(toolcall.CodeTransport, &client.TransportError{StatusCode: 429, RetryAfter: 7 * time.Second}, "rate limited")
	unavailable := toolcall.Errorf(toolcall.CodeTransport, &client.TransportError{StatusCode: 503, Message: "overloaded"}, "server error")
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
	notFound := toolcall.Errorf(toolcall.CodeTransport, &client.TransportError{StatusCode: 404, Message: "model not found"}, "not found")
	ok := text(hermes("get_weather", `{"city": "Paris"}`))
	tests := []struct {
		name      string
		steps     []step
		retries   int
		code      toolcall.Code // "" for success
		waits     func(t *testing.T, waits []time.Duration)
		modelCall int
	}{
		{name: "429 honours Retry-After", steps: []step{failure(rateLimited), ok}, retries: 3, modelCall: 2,
			waits: func(t *testing.T, w []time.Duration) {
				if len(w) != 1 || w[0] != 7*time.Second {
					t.Errorf("waits %v, want [7s]", w)
				}
			}},
		{name: "5xx backs off exponentially with jitter", steps: []step{failure(unavailable), failure(unavailable), ok}, retries: 3, modelCall: 3,
			waits: func(t *testing.T, w []time.Duration) {
				if len(w) != 2 || w[0] < 400*time.Millisecond || w[0] > 500*time.Millisecond || w[1] < 800*time.Millisecond || w[1] > time.Second {
					t.Errorf("waits %v, want ~[400ms–500ms, 800ms–1s]", w)
				}
			}},
		{name: "network failure without status", steps: []step{failure(refused), ok}, retries: 1, modelCall: 2},
		{name: "budget spent", steps: []step{failure(unavailable), failure(unavailable), failure(unavailable)}, retries: 2, modelCall: 3, code: toolcall.CodeRetriesExhausted},
		{name: "no budget", steps: []step{failure(unavailable)}, retries: 0, modelCall: 1, code: toolcall.CodeTransport},
		{name: "404 is not retried", steps: []step{failure(notFound)}, retries: 3, modelCall: 1, code: toolcall.CodeTransport},
		{name: "Retry-After beyond the limit", steps: []step{failure(toolcall.Errorf(toolcall.CodeTransport,
			&client.TransportError{StatusCode: 429, RetryAfter: 2 * time.Hour}, "rate limited"))}, retries: 3, modelCall: 1, code: toolcall.CodeTransport},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &fakeModel{steps: tt.steps}
			loop, fs := newLoop(t, m, func(c *config.Config) { c.TransportRetries = tt.retries })
			out, err := loop.Run(context.Background(), userTurn())
			if m.calls() != tt.modelCall {
				t.Errorf("model called %d times, want %d", m.calls(), tt.modelCall)
			}
			if codeOf(err) != tt.code {
				t.Fatalf("err = %v, want code %q", err, tt.code)
			}
			if err != nil {
				if !errors.Is(err, toolcall.ErrTransport) {
					t.Errorf("errors.Is(err, ErrTransport) is false for %v", err)
				}
				if out == nil || len(out.Attempts) != 1 || len(out.Result.Errors) == 0 {
					t.Errorf("outcome after a transport failure = %+v", out)
				}
				return
			}
			if len(out.Attempts) != 1 || out.Retries() != 0 || out.TransportRetries != tt.modelCall-1 || out.Attempts[0].TransportRetries != tt.modelCall-1 {
				t.Errorf("attempts %d retries %d transport %d: transport retries must not count as reflection",
					len(out.Attempts), out.Retries(), out.TransportRetries)
			}
			if tt.waits != nil {
				tt.waits(t, fs.waits)
			}
		})
	}
}

func TestRejectedRequestIsReflectedAtMostModelHTTPRetries(t *testing.T) {
	rejected := toolcall.Errorf(toolcall.CodeRequestRejected,
		&client.TransportError{StatusCode: 400, Message: `Value looks like object, but can't find closing '}'`}, "request rejected")
	t.Run("recovers", func(t *testing.T) {
		m := &fakeModel{steps: []step{failure(rejected), text(hermes("get_weather", `{"city": "Paris"}`))}}
		loop, fs := newLoop(t, m, nil)
		out, err := loop.Run(context.Background(), userTurn())
		if err != nil {
			t.Fatal(err)
		}
		note := m.reqs[1].Messages[len(m.reqs[1].Messages)-1]
		if note.Role != "user" || !strings.Contains(note.Content, "400 Bad Request") || !strings.Contains(note.Content, "can't find closing") {
			t.Errorf("rejection note = %+v", note)
		}
		if len(fs.waits) != 1 || fs.waits[0] != 500*time.Millisecond {
			t.Errorf("waits %v, want [500ms]", fs.waits)
		}
		if !out.Attempts[0].Rejected || out.Attempts[1].Reason != retry.ReasonRejected || out.Retries() != 0 {
			t.Errorf("attempts = %+v", out.Attempts)
		}
		checkReplaySafe(t, out)
	})
	t.Run("gives up", func(t *testing.T) {
		m := &fakeModel{steps: []step{failure(rejected), failure(rejected), failure(rejected), failure(rejected)}}
		loop, _ := newLoop(t, m, nil) // model_http_retries 2
		_, err := loop.Run(context.Background(), userTurn())
		if m.calls() != 3 {
			t.Errorf("model called %d times, want 1 + 2", m.calls())
		}
		if codeOf(err) != toolcall.CodeRetriesExhausted || !errors.Is(err, toolcall.ErrRequestRejected) {
			t.Errorf("err = %v", err)
		}
		if strings.Contains(err.Error(), "closing") {
			t.Errorf("error message quotes the server: %q", err)
		}
	})
	t.Run("plain TransportError 400", func(t *testing.T) {
		m := &fakeModel{steps: []step{failure(&client.TransportError{StatusCode: 400})}}
		loop, _ := newLoop(t, m, func(c *config.Config) { c.ModelHTTPRetries = 0 })
		_, err := loop.Run(context.Background(), userTurn())
		if codeOf(err) != toolcall.CodeRequestRejected || m.calls() != 1 {
			t.Errorf("err = %v after %d calls", err, m.calls())
		}
	})
}

func truncated(content string, completion int) step {
	return step{resp: &client.Response{Content: content, Done: true, DoneReason: "length", PromptTokens: 100, CompletionTokens: completion}}
}

func TestTruncation(t *testing.T) {
	partial := `<tool_call>{"name": "get_weather", "arguments": {"city": "Par`
	ok := text(hermes("get_weather", `{"city": "Paris"}`))
	tests := []struct {
		name       string
		mode       string
		maxTokens  int
		steps      []step
		wantTokens []int // MaxTokens of each request
		note       bool  // a "shorter" user message was sent
		code       toolcall.Code
	}{
		{name: "more tokens doubles the budget", mode: config.TruncationMoreTokens, maxTokens: 100,
			steps: []step{truncated(partial, 100), ok}, wantTokens: []int{100, 200}},
		{name: "more tokens from the server's default", mode: config.TruncationMoreTokens,
			steps: []step{truncated(partial, 300), ok}, wantTokens: []int{0, 600}},
		{name: "the cap, then shorter", mode: config.TruncationMoreTokens, maxTokens: 20000,
			steps: []step{truncated(partial, 20000), truncated(partial, 32768), ok}, wantTokens: []int{20000, 32768, 32768}, note: true},
		{name: "shorter", mode: config.TruncationShorter, maxTokens: 100,
			steps: []step{truncated(partial, 100), ok}, wantTokens: []int{100, 100}, note: true},
		{name: "fail", mode: config.TruncationFail, steps: []step{truncated(partial, 100)}, wantTokens: []int{0}, code: toolcall.CodeTruncated},
		{name: "budget spent", mode: config.TruncationMoreTokens, maxTokens: 10,
			steps: []step{truncated(partial, 10), truncated(partial, 20), truncated(partial, 40)}, wantTokens: []int{10, 20, 40}, code: toolcall.CodeRetriesExhausted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &fakeModel{steps: tt.steps}
			loop, _ := newLoop(t, m, func(c *config.Config) { c.OnTruncation = tt.mode })
			req := userTurn()
			req.MaxTokens = tt.maxTokens
			out, err := loop.Run(context.Background(), req)
			if codeOf(err) != tt.code {
				t.Fatalf("err = %v, want %q", err, tt.code)
			}
			if err != nil && !errors.Is(err, toolcall.ErrTruncated) {
				t.Errorf("errors.Is(err, ErrTruncated) is false: %v", err)
			}
			var got []int
			for _, r := range m.reqs {
				got = append(got, r.MaxTokens)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.wantTokens) {
				t.Errorf("max tokens per request %v, want %v", got, tt.wantTokens)
			}
			if !out.Attempts[0].Truncated || out.Attempts[0].Errors[0].Code != toolcall.CodeTruncated {
				t.Errorf("first attempt = %+v", out.Attempts[0])
			}
			if out.Retries() != 0 {
				t.Errorf("truncation counted as %d reflections", out.Retries())
			}
			last := m.reqs[len(m.reqs)-1].Messages
			hasNote := last[len(last)-1].Role == "user" && strings.Contains(last[len(last)-1].Content, "cut off")
			if hasNote != tt.note {
				t.Errorf("shorter note sent = %v, want %v", hasNote, tt.note)
			}
			for _, h := range out.History {
				if strings.Contains(h.Content, `"Par`) && !strings.Contains(h.Content, "Paris") {
					t.Errorf("the cut-off answer is in the history: %+v", h)
				}
			}
			if err == nil {
				checkReplaySafe(t, out)
			}
		})
	}
}

func TestCancellation(t *testing.T) {
	t.Run("mid-wait returns promptly", func(t *testing.T) {
		long := toolcall.Errorf(toolcall.CodeTransport, &client.TransportError{StatusCode: 429, RetryAfter: 30 * time.Second}, "rate limited")
		m := &fakeModel{steps: []step{failure(long), failure(long)}}
		loop, _ := newLoop(t, m, nil)
		loop.Clock = nil // the real, context-aware sleep
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := loop.Run(ctx, userTurn())
			done <- err
		}()
		for m.calls() == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
		select {
		case err := <-done:
			if codeOf(err) != toolcall.CodeCanceled || !errors.Is(err, context.Canceled) || !errors.Is(err, toolcall.ErrCanceled) {
				t.Errorf("err = %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("Run did not return after cancellation")
		}
	})
	t.Run("before the first request", func(t *testing.T) {
		m := &fakeModel{}
		loop, _ := newLoop(t, m, nil)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := loop.Run(ctx, userTurn())
		if codeOf(err) != toolcall.CodeCanceled || m.calls() != 0 {
			t.Errorf("err = %v, %d model calls", err, m.calls())
		}
	})
	t.Run("deadline during the retry delay", func(t *testing.T) {
		m := &fakeModel{steps: []step{text(hermes("get_weather", `{"city": 1}`))}}
		loop, _ := newLoop(t, m, nil)
		ctx, cancel := context.WithCancel(context.Background())
		loop.Clock = stepClock{now: time.Now, sleep: func(ctx context.Context, d time.Duration) error { cancel(); return ctx.Err() }}
		out, err := loop.Run(ctx, userTurn())
		if codeOf(err) != toolcall.CodeCanceled || !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v", err)
		}
		if len(out.Attempts) != 1 {
			t.Errorf("attempts = %d", len(out.Attempts))
		}
		checkReplaySafe(t, out)
	})
	t.Run("model reports cancellation", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		m := &cancellingModel{cancel: cancel}
		loop, _ := newLoop(t, m, nil)
		_, err := loop.Run(ctx, userTurn())
		if codeOf(err) != toolcall.CodeCanceled || !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v", err)
		}
	})
}

// cancellingModel cancels the run's context while it is being asked.
type cancellingModel struct{ cancel context.CancelFunc }

func (m *cancellingModel) Chat(ctx context.Context, _ *client.Request) (*client.Response, error) {
	m.cancel()
	<-ctx.Done()
	return nil, toolcall.Errorf(toolcall.CodeCanceled, ctx.Err(), "request cancelled")
}

func TestCircuitBreakerOpens(t *testing.T) {
	bad := text(hermes("get_weather", `{"city": 1}`))
	good := text(hermes("get_weather", `{"city": "Rome"}`))
	m := &fakeModel{steps: []step{bad, bad, bad, bad, good, good}}
	loop, _ := newLoop(t, m, func(c *config.Config) { c.MaxRetries = 1 })
	clock := time.Unix(1000, 0)
	loop.Breaker = &retry.Breaker{Threshold: 2, Cooldown: time.Minute, Now: func() time.Time { return clock }}
	for i := range 2 {
		if _, err := loop.Run(context.Background(), userTurn()); codeOf(err) != toolcall.CodeRetriesExhausted {
			t.Fatalf("run %d: %v", i, err)
		}
	}
	if s := loop.Breaker.State("qwen2.5:7b"); s != retry.BreakerOpen {
		t.Fatalf("state = %v", s)
	}
	out, err := loop.Run(context.Background(), userTurn())
	if codeOf(err) != toolcall.CodeCircuitOpen || out != nil || m.calls() != 4 {
		t.Fatalf("open breaker: err %v, %d model calls", err, m.calls())
	}
	var e *toolcall.Error
	if errors.As(err, &e); e.CorrelationID == "" {
		t.Error("TLP-021 without a correlation id")
	}
	other := userTurn()
	other.Model = "llama3.2"
	if _, err := loop.Run(context.Background(), other); codeOf(err) == toolcall.CodeCircuitOpen {
		t.Error("the breaker of one model stopped another")
	}
	clock = clock.Add(61 * time.Second)
	if _, err := loop.Run(context.Background(), userTurn()); err != nil {
		t.Fatalf("probe after the cool-down: %v", err)
	}
	if s := loop.Breaker.State("qwen2.5:7b"); s != retry.BreakerClosed {
		t.Errorf("state after a successful probe = %v", s)
	}
}

func TestBreakerFromConfig(t *testing.T) {
	bad := failure(toolcall.Errorf(toolcall.CodeTransport, &client.TransportError{StatusCode: 404}, "not found"))
	m := &fakeModel{steps: []step{bad, bad}}
	loop, _ := newLoop(t, m, func(c *config.Config) { c.BreakerThreshold = 2 })
	for range 2 {
		if _, err := loop.Run(context.Background(), userTurn()); codeOf(err) != toolcall.CodeTransport {
			t.Fatal(err)
		}
	}
	if _, err := loop.Run(context.Background(), userTurn()); codeOf(err) != toolcall.CodeCircuitOpen {
		t.Errorf("err = %v, want TLP-021", err)
	}
}

func TestRequireToolCall(t *testing.T) {
	m := &fakeModel{steps: []step{text("It is probably sunny."), text(hermes("get_weather", `{"city": "Paris"}`))}}
	loop, _ := newLoop(t, m, func(c *config.Config) { c.RequireToolCall = true })
	out, err := loop.Run(context.Background(), userTurn())
	if err != nil {
		t.Fatal(err)
	}
	note := m.reqs[1].Messages[len(m.reqs[1].Messages)-1]
	if note.Role != "user" || !strings.Contains(note.Content, "get_time, get_weather, login") {
		t.Errorf("note = %+v", note)
	}
	if out.Attempts[0].Errors[0].Code != toolcall.CodeMissingFunction {
		t.Errorf("errors = %v", out.Attempts[0].Errors)
	}
	checkReplaySafe(t, out)

	// Without the setting a prose answer is a valid answer.
	m = &fakeModel{steps: []step{text("It is probably sunny.")}}
	loop, _ = newLoop(t, m, nil)
	out, err = loop.Run(context.Background(), userTurn())
	if err != nil || len(out.Result.Calls) != 0 || out.Result.Content != "It is probably sunny." {
		t.Errorf("prose answer: %v %+v", err, out.Result)
	}
}

func TestReplaySafeHistory(t *testing.T) {
	// A poisoned history from an earlier turn (arguments as a broken
	// string) is sanitised before it is sent.
	prior := []client.Message{
		{Role: "user", Content: "hi"},
		{Role: "assistant", ToolCalls: []toolcall.Call{{ID: "call_old", Name: "get_time", Arguments: json.RawMessage(`"{\"timezone\": "`)}}},
		{Role: "tool", ToolCallID: "call_old", ToolName: "get_time", Content: "12:00"},
		{Role: "user", Content: "and the weather?"},
	}
	first := hermes("get_time", `{"timezone": "UTC"}`) + hermes("get_wether", `{"city": "Paris"}`) + "<tool_call>{\"name\": \"get_weather\", \"arguments\": {{{{:::}}}}}</tool_call>"
	m := &fakeModel{steps: []step{text(first), text(hermes("get_weather", `{"city": "x"}`) + hermes("get_weather", `{"city": 5}`)), text(hermes("get_weather", `{"city": "Paris"}`))}}
	loop, _ := newLoop(t, m, nil)
	out, err := loop.Run(context.Background(), &client.Request{Model: "m", Messages: prior})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(m.reqs[0].Messages[1].ToolCalls[0].Arguments); got != "{}" {
		t.Errorf("poisoned history sent as %s", got)
	}
	if string(prior[1].ToolCalls[0].Arguments) == "{}" {
		t.Error("the caller's history was modified")
	}
	for _, req := range m.reqs {
		checkMessages(t, req.Messages, nil)
	}
	checkReplaySafe(t, out)
	if len(out.Result.Calls) != 3 {
		t.Errorf("final calls = %+v", out.Result.Calls)
	}
}

// checkReplaySafe checks the outcome's history: arguments are JSON
// objects, names and ids are safe and unique, and every call is answered
// exactly once, except the calls of the last message that the caller runs.
func checkReplaySafe(t *testing.T, out *retry.Outcome) {
	t.Helper()
	pending := map[string]bool{}
	for _, c := range out.Result.Calls {
		pending[c.ID] = true
	}
	checkMessages(t, out.History, pending)
	if n := len(out.History); len(out.Result.Calls) > 0 && (n == 0 || out.History[n-1].Role == "user") {
		t.Errorf("history does not end with the calls to run")
	}
}

var safeName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

func checkMessages(t *testing.T, msgs []client.Message, pending map[string]bool) {
	t.Helper()
	ids := map[string]bool{}
	lastAssistant := -1
	for i, m := range msgs {
		if m.Role == "assistant" && len(m.ToolCalls) > 0 {
			lastAssistant = i
		}
	}
	for i, m := range msgs {
		if m.Role != "assistant" {
			continue
		}
		for _, c := range m.ToolCalls {
			var obj map[string]any
			if json.Unmarshal(c.Arguments, &obj) != nil || obj == nil {
				t.Errorf("message %d: call %s has arguments %s, not an object", i, c.ID, c.Arguments)
			}
			if !safeName.MatchString(c.Name) {
				t.Errorf("message %d: call name %q is not safe", i, c.Name)
			}
			if c.ID == "" || ids[c.ID] {
				t.Errorf("message %d: call id %q empty or repeated", i, c.ID)
			}
			ids[c.ID] = true
			answers := 0
			for j := i + 1; j < len(msgs) && msgs[j].Role != "assistant"; j++ {
				if msgs[j].Role == "tool" && msgs[j].ToolCallID == c.ID {
					answers++
				}
			}
			want := 1
			if pending != nil && i == lastAssistant && pending[c.ID] {
				want = 0
			}
			if pending == nil && i == lastAssistant {
				continue // a request in flight: the last turn is the model's to answer
			}
			if answers != want {
				t.Errorf("message %d: call %s (%s) has %d results, want %d", i, c.ID, c.Name, answers, want)
			}
		}
	}
	for _, m := range msgs {
		if m.Role == "tool" && !ids[m.ToolCallID] {
			t.Errorf("tool result for unknown call %q", m.ToolCallID)
		}
	}
}

func TestInvalidSetup(t *testing.T) {
	m := &fakeModel{}
	bad := config.Default()
	bad.MaxRetries = 0
	tests := []struct {
		name string
		loop *retry.Loop
		req  *client.Request
		code toolcall.Code
	}{
		{"no model", &retry.Loop{}, userTurn(), toolcall.CodeInvalidInput},
		{"nil request", &retry.Loop{Model: m}, nil, toolcall.CodeInvalidInput},
		{"invalid config", &retry.Loop{Model: m, Config: &bad}, userTurn(), toolcall.CodeInvalidConfig},
		{"unknown dialect", &retry.Loop{Model: m, Parse: registry.Options{Dialect: "klingon"}}, userTurn(), toolcall.CodeUnknownDialect},
		{"invalid request tools", &retry.Loop{Model: m}, &client.Request{Tools: []toolcall.Tool{{Name: "x", Parameters: json.RawMessage(`{"type": 5}`)}}}, toolcall.CodeInvalidTool},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := tt.loop.Run(context.Background(), tt.req)
			if codeOf(err) != tt.code || out != nil {
				t.Errorf("err = %v, want %s", err, tt.code)
			}
		})
	}
	if m.calls() != 0 {
		t.Error("the model was asked")
	}
}

func TestToolsFromRequest(t *testing.T) {
	m := &fakeModel{steps: []step{text(hermes("get_time", `{}`)), text(hermes("get_time", `{"timezone": "UTC"}`))}}
	cfg := config.Default()
	cfg.RetryDelay = 0
	loop := &retry.Loop{Model: m, Config: &cfg}
	req := userTurn()
	req.Tools = []toolcall.Tool{timeTool}
	out, err := loop.Run(context.Background(), req)
	if err != nil || out.Retries() != 1 {
		t.Fatalf("err %v retries %d", err, out.Retries())
	}
}

func TestConcurrentRuns(t *testing.T) {
	loop := &retry.Loop{Model: echoModel{}, Tools: toolSet(t), Stats: &retry.Stats{}}
	retry.SetRand(loop, rand.New(rand.NewPCG(3, 4)))
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := userTurn()
			req.Model = fmt.Sprint("m", i%2)
			if _, err := loop.Run(context.Background(), req); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if s := loop.Stats.Snapshot(); s.Runs != 8 || s.Succeeded != 8 || s.Calls != 8 {
		t.Errorf("stats = %+v", s)
	}
}

// echoModel always answers with one valid call; it is safe for concurrent use.
type echoModel struct{}

func (echoModel) Chat(context.Context, *client.Request) (*client.Response, error) {
	return &client.Response{Content: hermes("get_weather", `{"city": "Paris"}`), Done: true, DoneReason: "stop", PromptTokens: 10, CompletionTokens: 5}, nil
}

func TestRetryPromptTemplateIsConfigurable(t *testing.T) {
	m := &fakeModel{steps: []step{
		native(dialects.RawCall{Name: "get_weather", Arguments: `{"city": "{tool_name} {error_code}", "days": "x"}`}),
		native(dialects.RawCall{Name: "get_weather", Arguments: `{"city": "Paris"}`}),
	}}
	loop, _ := newLoop(t, m, func(c *config.Config) {
		c.RetryPromptTemplate = "{error_code} in {tool_name} at {field_path}: {error_message}\nYou sent {malformed_json}\nUse {schema_example}"
	})
	out, err := loop.Run(context.Background(), userTurn())
	if err != nil {
		t.Fatal(err)
	}
	got := out.Attempts[0].Reflections[0].Text
	// The model's text is quoted as it is: its braces are not placeholders.
	want := "TLP-004 in get_weather at /days: /days: expected integer, got string\n" +
		`You sent {"city":"{tool_name} {error_code}","days":"x"}` + "\n" +
		`Use {"name": "get_weather", "arguments": {"city": "...", "days": 1}}`
	if got != want {
		t.Errorf("re-ask = %q\nwant     %q", got, want)
	}
}

// cycleModel answers with its responses in turn, forever, instantly.
type cycleModel struct {
	resps []*client.Response
	n     int
}

func (m *cycleModel) Chat(context.Context, *client.Request) (*client.Response, error) {
	r := m.resps[m.n%len(m.resps)]
	m.n++
	return r, nil
}

// BenchmarkRun measures the loop's own cost per attempt with a model that
// answers instantly: parsing, validation, history and re-ask building.
func BenchmarkRun(b *testing.B) {
	resp := func(content string) *client.Response {
		return &client.Response{Content: content, Done: true, DoneReason: "stop", PromptTokens: 100, CompletionTokens: 20}
	}
	valid := resp(hermes("get_weather", `{"city": "Paris", "days": 2}`))
	invalid := resp(hermes("get_weather", `{"city": "Paris", "days": "two"}`))
	nativeValid := &client.Response{Done: true, NativeCalls: []dialects.RawCall{{ID: "call_1", Name: "get_weather", Arguments: `{"city": "Paris"}`, Offset: -1}}}
	cases := []struct {
		name     string
		resps    []*client.Response
		attempts int
	}{
		{"first_attempt", []*client.Response{valid}, 1},
		{"native", []*client.Response{nativeValid}, 1},
		{"one_reflection", []*client.Response{invalid, valid}, 2},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			cfg := config.Default()
			cfg.RetryDelay = 0
			loop := &retry.Loop{Model: &cycleModel{resps: c.resps}, Tools: toolSet(b), Config: &cfg,
				Parse: registry.Options{Dialect: "hermes"}, Stats: &retry.Stats{}}
			req := userTurn()
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if _, err := loop.Run(ctx, req); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*c.attempts), "ns/attempt")
		})
	}
}

// Whatever the model writes, the loop returns a coded error or a result,
// never panics, and the history stays replay-safe.
func TestHostileOutput(t *testing.T) {
	outputs := []string{
		"\x00\x01\xff\xfe binary",
		strings.Repeat("{", 200000),
		strings.Repeat("[", 5000) + strings.Repeat("]", 5000), // deeper is slow in the json dialect (quadratic)
		"<tool_call>" + strings.Repeat(`{"name": "get_weather", "arguments": {"city": "`, 3),
		"<tool_call>\n{\"name\": \"" + strings.Repeat("x", 300) + "\", \"arguments\": {}}\n</tool_call>",
		"<tool_call>\n{\"name\": \"\", \"arguments\": {}}\n</tool_call>",
		"<tool_call>\n{\"name\": \"get weather!\", \"arguments\": []}\n</tool_call>",
		hermes("get_weather", `{"city": "`+strings.Repeat("é", 2<<20)+`"}`),
		`[get_weather(city=`,
		"<tool_call>\n<function=get_weather>\n<parameter=city>\n",
		"[TOOL_CALLS]get_weather[ARGS]{\"city\": {\"$ref\": \"#\"}}",
	}
	for i, o := range outputs {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			m := &fakeModel{steps: []step{text(o), text(o)}}
			loop, _ := newLoop(t, m, func(c *config.Config) { c.MaxRetries = 1 })
			out, err := loop.Run(context.Background(), userTurn())
			if err != nil {
				var e *toolcall.Error
				if !errors.As(err, &e) {
					t.Fatalf("uncoded error %v", err)
				}
			}
			if out == nil {
				t.Fatal("no outcome")
			}
			checkReplaySafe(t, out)
			for _, a := range out.Attempts {
				for _, r := range a.Reflections {
					if n := len([]rune(r.Text)); n > 4000 {
						t.Errorf("re-ask of %d characters", n)
					}
				}
			}
		})
	}
}

// Prose stays prose: text that names no declared tool, or mentions one
// without calling it, is an answer, not a failed call.
func TestProseIsNotAFailedCall(t *testing.T) {
	for _, answer := range []string{
		`To call a tool you would write {"name": "foo", "arguments": {}}.`,
		"I could use get_weather, but it is sunny in Paris anyway.",
		"Use `[search(q=1)]` in Python.",
	} {
		m := &fakeModel{steps: []step{text(answer)}}
		loop, _ := newLoop(t, m, nil)
		out, err := loop.Run(context.Background(), userTurn())
		if err != nil || m.calls() != 1 || len(out.Result.Calls) != 0 {
			t.Errorf("%q: err %v, %d model calls, calls %+v", answer, err, m.calls(), out.Result.Calls)
		}
	}
}

// The repairs of a call kept from an earlier attempt come back with it,
// numbered as in the final message.
func TestKeptCallKeepsItsRepairs(t *testing.T) {
	first := hermes("get_time", `{'timezone': 'UTC',}`) + hermes("get_weather", `{"city": 1}`)
	m := &fakeModel{steps: []step{text(first), text(hermes("get_weather", `{"city": "Oslo"}`))}}
	loop, _ := newLoop(t, m, nil)
	out, err := loop.Run(context.Background(), userTurn())
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Result.Calls) != 2 || out.Result.Calls[0].Name != "get_time" || len(out.Result.Repairs) == 0 {
		t.Fatalf("result = %+v", out.Result)
	}
	for _, r := range out.Result.Repairs {
		if r.CallIndex != 0 {
			t.Errorf("repair %v is numbered %d, the kept call is 0", r, r.CallIndex)
		}
	}
}

// stepClock is a Clock made of functions; a nil sleep waits for nothing.
type stepClock struct {
	now   func() time.Time
	sleep func(ctx context.Context, d time.Duration) error
}

func (c stepClock) Now() time.Time { return c.now() }

func (c stepClock) Sleep(ctx context.Context, d time.Duration) error {
	if c.sleep == nil {
		return ctx.Err()
	}
	return c.sleep(ctx, d)
}

// Tools given once, to the Loop, are also the tools the model is offered.
func TestLoopToolsAreSent(t *testing.T) {
	m := &fakeModel{steps: []step{text(hermes("get_weather", `{"city": "Paris"}`))}}
	loop, _ := newLoop(t, m, nil)
	if _, err := loop.Run(context.Background(), userTurn()); err != nil {
		t.Fatal(err)
	}
	if len(m.reqs) != 1 || len(m.reqs[0].Tools) == 0 || m.reqs[0].Tools[0].Name != "get_weather" {
		t.Fatalf("the model was offered %+v, want the loop's tools", m.reqs[0].Tools)
	}
}

// TestFallbackFromConfig: the configuration's fallback chain is tried when
// its dialect finds nothing, as the parse options' would be; parse options
// that name a dialect keep their own chain.
func TestFallbackFromConfig(t *testing.T) {
	answer := hermes("get_weather", `{"city": "Paris"}`)
	for _, tt := range []struct {
		name     string
		fallback []string
		parse    registry.Options
		calls    int
	}{
		{"fallback finds it", []string{"pythonic", "hermes"}, registry.Options{}, 1},
		{"no fallback", nil, registry.Options{}, 0},
		{"parse options win", []string{"hermes"}, registry.Options{Dialect: "pythonic"}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := &fakeModel{steps: []step{text(answer)}}
			loop, _ := newLoop(t, m, func(c *config.Config) {
				c.Dialect, c.Fallback, c.MaxRetries = "mistral", tt.fallback, 1
			})
			loop.Parse = tt.parse
			out, _ := loop.Run(context.Background(), userTurn())
			if out == nil || out.Result == nil || len(out.Result.Calls) != tt.calls {
				t.Fatalf("outcome %+v", out)
			}
			if tt.calls > 0 && out.Result.Dialect != "hermes" {
				t.Errorf("dialect %q", out.Result.Dialect)
			}
		})
	}
}

// compactJSON is a JSON value without insignificant blanks.
func compactJSON(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatalf("not JSON: %s", raw)
	}
	return b.String()
}
