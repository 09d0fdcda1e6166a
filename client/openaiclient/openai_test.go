package openaiclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/internal/fakeserver"
)

func TestOpenAIChat(t *testing.T) {
	twoCalls := []fakeserver.Call{
		{ID: "call_a", Name: "get_weather", Arguments: `{"city":"Paris","days":3}`},
		{ID: "call_b", Name: "get_weather", Arguments: `{"city":"Tōkyō 東京"}`},
	}
	wantTwo := []wantCall{{"call_a", "get_weather", `{"city":"Paris","days":3}`}, {"call_b", "get_weather", `{"city":"Tōkyō 東京"}`}}
	tests := []struct {
		name      string
		turn      fakeserver.Turn
		whole     bool // DisableStreaming
		content   string
		reasoning string
		calls     []wantCall
		done      bool
		reason    string
		tokens    [2]int
		err       *wantErr
	}{
		{
			name:  "calls with arguments split across chunks",
			turn:  fakeserver.Turn{Calls: twoCalls, ChunkSize: 5, PromptTokens: 40, CompletionTokens: 22},
			calls: wantTwo, done: true, reason: "tool_calls", tokens: [2]int{40, 22},
		},
		{
			name:  "fragments of two calls interleaved by index",
			turn:  fakeserver.Turn{Calls: twoCalls, ChunkSize: 3, Interleave: true, PromptTokens: 40, CompletionTokens: 22},
			calls: wantTwo, done: true, reason: "tool_calls", tokens: [2]int{40, 22},
		},
		{
			name:    "content and reasoning_content",
			turn:    fakeserver.Turn{Thinking: "User greets.", Content: "Hello! How can I help?", ChunkSize: 4, PromptTokens: 9, CompletionTokens: 8},
			content: "Hello! How can I help?", reasoning: "User greets.", done: true, reason: "stop", tokens: [2]int{9, 8},
		},
		{
			name:    "a call written as hermes text stays content",
			turn:    fakeserver.Turn{Content: `<tool_call>{"name":"get_weather","arguments":{"city":"Paris"}}</tool_call>`, ChunkSize: 6, PromptTokens: 1, CompletionTokens: 1},
			content: `<tool_call>{"name":"get_weather","arguments":{"city":"Paris"}}</tool_call>`, done: true, reason: "stop", tokens: [2]int{1, 1},
		},
		{
			name:  "broken arguments are handed over as written",
			turn:  fakeserver.Turn{Calls: []fakeserver.Call{{ID: "call_x", Name: "get_weather", Arguments: `{"city": "Paris",`}}, ChunkSize: 4, PromptTokens: 1, CompletionTokens: 1},
			calls: []wantCall{{"call_x", "get_weather", `{"city": "Paris",`}}, done: true, reason: "tool_calls", tokens: [2]int{1, 1},
		},
		{
			name:    "finish_reason length",
			turn:    fakeserver.Turn{Content: "The weather in", DoneReason: "length", PromptTokens: 3, CompletionTokens: 4},
			content: "The weather in", done: true, reason: "length", tokens: [2]int{3, 4},
		},
		{
			name:    "a stream without finish_reason is not done",
			turn:    fakeserver.Turn{Content: "The weather", ChunkSize: 2, Truncate: true},
			content: "The weather",
		},
		{
			name:    "a stream cut inside an event is not done",
			turn:    fakeserver.Turn{Body: "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\ndata: {\"choices\":[{\"ind"},
			content: "Hi",
		},
		{
			name: "comments, event names and data without a space",
			turn: fakeserver.Turn{Body: ": keep-alive\n\nevent: message\ndata:{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"A\"}}]}\r\n\r\n" +
				"data: {\"choices\":[{\"index\":0,\"delta\":{\"reasoning\":\"r\",\"content\":\"B\"},\"finish_reason\":\"stop\"}]}\n\n" +
				"data: {\"choices\":[],\"usage\":{\"prompt_tokens\":2,\"completion_tokens\":3}}\n\ndata: [DONE]\n\n"},
			content: "AB", reasoning: "r", done: true, reason: "stop", tokens: [2]int{2, 3},
		},
		{
			name: "whole calls without index, as Ollama's /v1 sends them",
			turn: fakeserver.Turn{Body: `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"id":"call_1","function":{"name":"f","arguments":"{\"a\":1}"}}]}}]}` + "\n\n" +
				`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"id":"call_2","function":{"name":"g","arguments":{"b":2}}}]}}]}` + "\n\n" +
				`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n"},
			calls: []wantCall{{"call_1", "f", `{"a":1}`}, {"call_2", "g", `{"b":2}`}}, done: true, reason: "tool_calls",
		},
		{
			name: "fragments out of order: index 1 starts first, pieces interleave",
			turn: fakeserver.Turn{Body: sse(
				`{"index":1,"id":"call_b","type":"function","function":{"name":"get_time","arguments":""}}`,
				`{"index":0,"id":"call_a","type":"function","function":{"name":"get_","arguments":""}}`,
				`{"index":0,"function":{"name":"weather","arguments":"{\"city\":"}}`,
				`{"index":1,"function":{"arguments":"{\"zone\":\"CET\"}"}}`,
				`{"index":0,"function":{"arguments":"\"Oslo\"}"}}`,
			)},
			calls: []wantCall{{"call_a", "get_weather", `{"city":"Oslo"}`}, {"call_b", "get_time", `{"zone":"CET"}`}}, done: true, reason: "tool_calls",
		},
		{
			name: "the whole name resent with every fragment",
			turn: fakeserver.Turn{Body: sse(
				`{"index":0,"id":"call_a","type":"function","function":{"name":"get_weather","arguments":"{\"city\""}}`,
				`{"index":0,"id":"call_a","type":"function","function":{"name":"get_weather","arguments":":\"Oslo\"}"}}`,
			)},
			calls: []wantCall{{"call_a", "get_weather", `{"city":"Oslo"}`}}, done: true, reason: "tool_calls",
		},
		{
			name: "inconsistent fragments: a second id for one call",
			turn: fakeserver.Turn{Body: sse(
				`{"index":0,"id":"call_a","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}}`,
				`{"index":0,"id":"call_b","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Rome\"}"}}`,
			)},
			err: &wantErr{code: toolcall.CodeStream, status: 200, message: "call 0 received a second, different id"},
		},
		{
			name: "inconsistent fragments: more arguments after whole arguments",
			turn: fakeserver.Turn{Body: sse(
				`{"index":0,"id":"call_a","function":{"name":"get_weather","arguments":{"city":"Oslo"}}}`,
				`{"index":0,"function":{"arguments":"{\"city\":\"Oslo\"}"}}`,
			)},
			err: &wantErr{code: toolcall.CodeStream, status: 200, message: "call 0 received a fragment after it completed"},
		},
		{
			name: "inconsistent fragments: an index no fragment arrived for",
			turn: fakeserver.Turn{Body: sse(
				`{"index":1,"id":"call_b","type":"function","function":{"name":"get_weather","arguments":"{}"}}`,
			)},
			err: &wantErr{code: toolcall.CodeStream, status: 200, message: "no fragment arrived for call 0"},
		},
		{
			name:  "non-streaming inconsistent calls",
			whole: true,
			turn: fakeserver.Turn{ContentType: "application/json",
				Body: `{"choices":[{"index":0,"message":{"role":"assistant","tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}},{"index":0,"id":"c2","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`},
			err: &wantErr{code: toolcall.CodeStream, status: 200, message: "different id"},
		},
		{
			name:  "non-streaming calls",
			whole: true,
			turn:  fakeserver.Turn{Thinking: "t", Calls: twoCalls, PromptTokens: 40, CompletionTokens: 22},
			calls: wantTwo, reasoning: "t", done: true, reason: "tool_calls", tokens: [2]int{40, 22},
		},
		{
			name: "a server that ignores stream: true",
			turn: fakeserver.Turn{ContentType: "application/json; charset=utf-8",
				Body: `{"choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":5,"completion_tokens":6}}`},
			calls: []wantCall{{"c1", "f", `{}`}}, done: true, reason: "tool_calls", tokens: [2]int{5, 6},
		},
		{
			name:    "non-streaming length",
			whole:   true,
			turn:    fakeserver.Turn{Content: "cut", DoneReason: "length", PromptTokens: 1, CompletionTokens: 1},
			content: "cut", done: true, reason: "length", tokens: [2]int{1, 1},
		},
		{
			name:  "non-streaming answer cut in the middle",
			whole: true,
			turn:  fakeserver.Turn{Content: "The weather in Paris is sunny", Truncate: true},
		},
		{
			name: "429 with Retry-After seconds",
			turn: fakeserver.Turn{Status: 429, Error: "Rate limit reached", RetryAfter: "20"},
			err:  &wantErr{code: toolcall.CodeTransport, status: 429, retryAfter: 20 * time.Second, retryable: true, message: "Rate limit reached"},
		},
		{
			name: "503 without a body",
			turn: fakeserver.Turn{Status: 503},
			err:  &wantErr{code: toolcall.CodeTransport, status: 503, retryable: true},
		},
		{
			name: "400 is a rejection",
			turn: fakeserver.Turn{Status: 400, Error: "tools param requires --jinja flag"},
			err:  &wantErr{code: toolcall.CodeRequestRejected, status: 400, message: "--jinja"},
		},
		{
			name: "vLLM error shape",
			turn: fakeserver.Turn{Status: 400, Body: `{"object":"error","message":"\"auto\" tool choice requires --enable-auto-tool-choice","type":"BadRequestError","code":400}`},
			err:  &wantErr{code: toolcall.CodeRequestRejected, status: 400, message: "--enable-auto-tool-choice"},
		},
		{
			name: "error event inside the stream",
			turn: fakeserver.Turn{Content: "partial", StreamError: "context shift is disabled"},
			err:  &wantErr{code: toolcall.CodeTransport, status: 500, retryable: true, message: "context shift"},
		},
		{
			name: "the connection breaks during the answer",
			turn: fakeserver.Turn{Content: "The weather", ChunkSize: 4, Abort: true},
			err:  &wantErr{code: toolcall.CodeTransport, status: 0, retryable: true},
		},
		{
			name: "an event that is not JSON",
			turn: fakeserver.Turn{Body: "data: <html>\n\n"},
			err:  &wantErr{code: toolcall.CodeTransport, status: 200, message: "not valid JSON"},
		},
		{
			name:  "non-streaming in-stream error is a 500",
			whole: true,
			turn:  fakeserver.Turn{StreamError: "boom"},
			err:   &wantErr{code: toolcall.CodeTransport, status: 500, retryable: true, message: "boom"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := fakeserver.NewServer(fakeserver.Script{tt.turn}, nil)
			defer srv.Close()
			m, err := New(srv.URL, &Options{DisableStreaming: tt.whole})
			if err != nil {
				t.Fatal(err)
			}
			resp, err := m.Chat(context.Background(), userRequest(t, "Weather?"))
			checkErr(t, err, tt.err)
			if tt.err != nil {
				return
			}
			if resp.Content != tt.content || resp.Reasoning != tt.reasoning {
				t.Errorf("content %q reasoning %q, want %q %q", resp.Content, resp.Reasoning, tt.content, tt.reasoning)
			}
			if got := nativeCalls(resp); !reflect.DeepEqual(got, tt.calls) {
				t.Errorf("calls = %q\nwant    %q", got, tt.calls)
			}
			if resp.Done != tt.done || resp.DoneReason != tt.reason {
				t.Errorf("done %v %q, want %v %q", resp.Done, resp.DoneReason, tt.done, tt.reason)
			}
			if got := [2]int{resp.PromptTokens, resp.CompletionTokens}; got != tt.tokens {
				t.Errorf("tokens = %v, want %v", got, tt.tokens)
			}
		})
	}
}

func TestOpenAIRequestBody(t *testing.T) {
	srv := fakeserver.NewServer(fakeserver.Script{{Content: "ok"}}, &fakeserver.Options{APIKey: "sk-secret"})
	defer srv.Close()
	m, _ := New(srv.URL+"/v1/", &Options{APIKey: "sk-secret", SendReasoning: true})
	if m.Endpoint() != srv.URL+"/v1/chat/completions" {
		t.Errorf("endpoint = %s", m.Endpoint())
	}
	req := &client.Request{
		Model: "qwen3-8b",
		Messages: []client.Message{
			{Role: "user", Content: "Weather in Paris?"},
			{Role: "assistant", Reasoning: "one city", ToolCalls: []toolcall.Call{
				{ID: "call_1", Name: "get_weather", Arguments: json.RawMessage(`{"days": 3, "city": "Paris"}`)},
			}},
			{Role: "tool", ToolCallID: "call_1", ToolName: "get_weather", Content: "sunny"},
		},
		Tools:     []toolcall.Tool{weatherTool(t)},
		MaxTokens: 128,
		Options:   map[string]any{"temperature": 0.2, "model": "not this one", "seed": 7},
	}
	if _, err := m.Chat(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	got := srv.Requests()[0]
	if got.Model != "qwen3-8b" || !got.Stream || !got.IncludeUsage || got.MaxTokens != 128 {
		t.Errorf("model %q stream %v usage %v max %d", got.Model, got.Stream, got.IncludeUsage, got.MaxTokens)
	}
	var body map[string]any
	_ = json.Unmarshal(got.Body, &body)
	if body["temperature"] != 0.2 || body["seed"] != float64(7) {
		t.Errorf("options not passed through: %s", got.Body)
	}
	if names := got.ToolNames(); !reflect.DeepEqual(names, []string{"get_weather"}) {
		t.Errorf("tools = %v", names)
	}
	asst := got.Messages[1]
	if len(asst.ToolCalls) != 1 || string(asst.ToolCalls[0].Arguments) != `"{\"days\":3,\"city\":\"Paris\"}"` || asst.Thinking != "one city" {
		t.Errorf("assistant = %+v; arguments must be the JSON string of the object", asst)
	}
	if tool := got.Messages[2]; tool.ToolCallID != "call_1" || tool.Content != "sunny" {
		t.Errorf("tool message = %+v", tool)
	}
	if got.Header.Get("Authorization") != "Bearer sk-secret" {
		t.Errorf("authorization header = %q", got.Header.Get("Authorization"))
	}
}

func TestOpenAIWrongKey(t *testing.T) {
	srv := fakeserver.NewServer(nil, &fakeserver.Options{APIKey: "sk-right"})
	defer srv.Close()
	m, _ := New(srv.URL, &Options{APIKey: "sk-wrong-secret"})
	_, err := m.Chat(context.Background(), userRequest(t, "hi"))
	checkErr(t, err, &wantErr{code: toolcall.CodeTransport, status: 401, message: "API key"})
	if strings.Contains(err.Error(), "sk-wrong-secret") {
		t.Errorf("the key leaked into the error: %v", err)
	}
}

func TestOpenAICancelMidStream(t *testing.T) {
	srv := fakeserver.NewServer(fakeserver.Script{{Content: "The weather is", ChunkSize: 3, Stall: true}}, nil)
	defer srv.Close()
	m, _ := New(srv.URL, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := m.Chat(ctx, userRequest(t, "hi"))
		done <- err
	}()
	for len(srv.Requests()) == 0 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-done; !errors.Is(err, toolcall.ErrCanceled) || !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want TLP-022 wrapping context.Canceled", err)
	}
}

func TestOpenAIUnreachableAndLimits(t *testing.T) {
	srv := fakeserver.NewServer(fakeserver.Script{{Content: strings.Repeat("x", 5000), ChunkSize: 50}}, nil)
	m, _ := New(srv.URL, &Options{MaxResponseBytes: 2048})
	_, err := m.Chat(context.Background(), userRequest(t, "hi"))
	checkErr(t, err, &wantErr{code: toolcall.CodeTooLarge})
	srv.Close()
	_, err = m.Chat(context.Background(), userRequest(t, "hi"))
	checkErr(t, err, &wantErr{code: toolcall.CodeTransport, status: 0, retryable: true})
}

func TestNewOpenAI(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://localhost:8080", "http://localhost:8080/v1/chat/completions"},
		{"http://localhost:8080/", "http://localhost:8080/v1/chat/completions"},
		{"http://localhost:1234/v1", "http://localhost:1234/v1/chat/completions"},
		{"https://proxy.example.com/llm/v1/chat/completions", "https://proxy.example.com/llm/v1/chat/completions"},
		{"http://gpu:11434/ollama", "http://gpu:11434/ollama/v1/chat/completions"},
	}
	for _, tt := range tests {
		m, err := New(tt.in, nil)
		if err != nil || m.Endpoint() != tt.want {
			t.Errorf("NewOpenAI(%q) endpoint = %v, %v; want %s", tt.in, m, err, tt.want)
		}
	}
	for _, bad := range []string{"", "localhost:8080", "ftp://x", "http://"} {
		if _, err := New(bad, nil); !errors.Is(err, toolcall.ErrInvalidConfig) {
			t.Errorf("NewOpenAI(%q) err = %v, want TLP-024", bad, err)
		}
	}
}

func TestOpenAIRequestErrors(t *testing.T) {
	m, _ := New("http://127.0.0.1:1", nil)
	for _, req := range []*client.Request{
		nil,
		{Model: "m", Messages: []client.Message{{Role: "assistant", ToolCalls: []toolcall.Call{{Name: "f", Arguments: json.RawMessage(`"[1]"`)}}}}},
		{Model: "m", Options: map[string]any{"bad": func() {}}},
	} {
		if _, err := m.Chat(context.Background(), req); !errors.Is(err, toolcall.ErrInvalidInput) {
			t.Errorf("err = %v, want TLP-016", err)
		}
	}
}

// Fragment accumulation, fed directly: every way the servers cut calls.
func TestOpenAIFragments(t *testing.T) {
	idx := func(i int) *int { return &i }
	frag := func(i *int, id, name, args string) openAIToolFragment {
		f := openAIToolFragment{Index: i, ID: id}
		f.Function.Name = name
		if args != "" {
			f.Function.Arguments = json.RawMessage(args)
		}
		return f
	}
	tests := []struct {
		name  string
		frags []openAIToolFragment
		want  []wantCall
	}{
		{"name in pieces", []openAIToolFragment{frag(idx(0), "c1", "get_", `""`), frag(idx(0), "", "weather", `"{\"a\""`), frag(idx(0), "", "", `":1}"`)},
			[]wantCall{{"c1", "get_weather", `{"a":1}`}}},
		{"indexes out of order", []openAIToolFragment{frag(idx(1), "c2", "g", `"{}"`), frag(idx(0), "c1", "f", `"{\"x\":"`), frag(idx(0), "", "", `"2}"`)},
			[]wantCall{{"c1", "f", `{"x":2}`}, {"c2", "g", `{}`}}},
		{"no index, new ids", []openAIToolFragment{frag(nil, "c1", "f", `"{}"`), frag(nil, "c2", "g", `"{\"y\""`), frag(nil, "", "", `":true}"`)},
			[]wantCall{{"c1", "f", `{}`}, {"c2", "g", `{"y":true}`}}},
		{"repeated id", []openAIToolFragment{frag(idx(0), "c1", "f", `"{\"a\":"`), frag(idx(0), "c1", "", `"1}"`)},
			[]wantCall{{"c1", "f", `{"a":1}`}}},
	}
	for _, tt := range tests {
		var acc openAIAccumulator
		acc.message(&openAIDelta{ToolCalls: tt.frags})
		resp, err := acc.finish(200)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got := nativeCalls(resp); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: calls = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// Inconsistent fragments fail the answer with TLP-008, naming the call and
// the problem but no argument value.
func TestOpenAIInconsistentFragments(t *testing.T) {
	idx := func(i int) *int { return &i }
	frag := func(i *int, id, name, args string) openAIToolFragment {
		f := openAIToolFragment{Index: i, ID: id}
		f.Function.Name = name
		if args != "" {
			f.Function.Arguments = json.RawMessage(args)
		}
		return f
	}
	tests := []struct {
		name  string
		frags []openAIToolFragment
		call  int
		what  string
	}{
		{"a second id", []openAIToolFragment{frag(idx(0), "c1", "f", `"{\"secret\":"`), frag(idx(0), "c2", "", `"1}"`)}, 0, "different id"},
		{"a second name after the arguments", []openAIToolFragment{frag(idx(1), "c1", "f", `"{\"secret\":1}"`), frag(idx(0), "c0", "g", `"{}"`), frag(idx(1), "", "h", ``)}, 1, `name "h" after "f"`},
		{"pieces after an arguments object", []openAIToolFragment{frag(idx(0), "c1", "f", `{"secret":1}`), frag(idx(0), "", "", `"{}"`)}, 0, "after it completed"},
		{"an arguments object after pieces", []openAIToolFragment{frag(idx(0), "c1", "f", `"{\"secret\":"`), frag(idx(0), "", "", `{"secret":1}`)}, 0, "whole arguments after argument pieces"},
		{"a negative index", []openAIToolFragment{frag(idx(-2), "c1", "f", `"{}"`)}, -1, "negative index -2"},
		{"a gap", []openAIToolFragment{frag(idx(0), "c0", "f", `"{}"`), frag(idx(2), "c2", "f", `"{}"`)}, 1, "no fragment arrived for call 1"},
	}
	for _, tt := range tests {
		var acc openAIAccumulator
		acc.message(&openAIDelta{ToolCalls: tt.frags})
		resp, err := acc.finish(200)
		var te *toolcall.Error
		if !errors.As(err, &te) || !errors.Is(err, toolcall.ErrStream) || resp != nil {
			t.Errorf("%s: resp %v, err %v; want a TLP-008 error", tt.name, resp, err)
			continue
		}
		if te.CallIndex != tt.call || !strings.Contains(te.Error(), tt.what) || strings.Contains(te.Error(), "secret") {
			t.Errorf("%s: err = %v (call %d); want call %d and %q, no argument text", tt.name, te, te.CallIndex, tt.call, tt.what)
		}
	}
}

// sse is an event stream holding one tool_calls entry per event, then a
// finish_reason and [DONE].
func sse(entries ...string) string {
	var b strings.Builder
	for _, e := range entries {
		b.WriteString(`data: {"choices":[{"index":0,"delta":{"tool_calls":[` + e + `]}}]}` + "\n\n")
	}
	b.WriteString(`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n")
	return b.String()
}

// benchEvents is a realistic streamed answer: reasoning and content in
// small deltas, then n calls whose arguments arrive in 8-byte fragments.
func benchEvents(n int) []byte {
	var b strings.Builder
	delta := func(d string) {
		b.WriteString(`data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1772183643,"model":"qwen3-8b","choices":[{"index":0,"delta":` + d + `,"finish_reason":null}]}` + "\n\n")
	}
	for range 20 {
		delta(`{"reasoning_content":"thinking "}`)
	}
	for i := range n {
		delta(`{"tool_calls":[{"index":` + strconv.Itoa(i) + `,"id":"call_` + strconv.Itoa(i) + `","type":"function","function":{"name":"get_weather","arguments":""}}]}`)
		args, _ := json.Marshal(`{"city":"Paris","unit":"celsius","days":3}`)
		s := string(args[1 : len(args)-1])
		for len(s) > 0 {
			k := min(8, len(s))
			for k < len(s) && s[k-1] == '\\' {
				k++
			}
			delta(`{"tool_calls":[{"index":` + strconv.Itoa(i) + `,"function":{"arguments":"` + s[:k] + `"}}]}`)
			s = s[k:]
		}
	}
	b.WriteString(`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\n")
	b.WriteString(`data: {"choices":[],"usage":{"prompt_tokens":187,"completion_tokens":27}}` + "\n\ndata: [DONE]\n\n")
	return []byte(b.String())
}

func BenchmarkReadOpenAIEvents(b *testing.B) {
	for _, n := range []int{1, 10} {
		data := benchEvents(n)
		b.Run(fmt.Sprintf("calls=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				resp, err := readOpenAIEvents(bytes.NewReader(data), 200)
				if err != nil || len(resp.NativeCalls) != n || resp.NativeCalls[n-1].Arguments != `{"city":"Paris","unit":"celsius","days":3}` {
					b.Fatalf("%v %+v", err, resp)
				}
			}
		})
	}
}
