package ollamaclient

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/fakeserver"
)

// weatherTool is the tool most tests declare.
func weatherTool(t testing.TB) toolcall.Tool {
	t.Helper()
	tools, err := toolcall.ParseTools([]byte(`{"type":"function","function":{"name":"get_weather","description":"Weather for a city",
		"parameters":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	return tools[0]
}

func userRequest(t testing.TB, prompt string) *client.Request {
	return &client.Request{
		Model:    "qwen3:8b",
		Messages: []client.Message{{Role: "user", Content: prompt}},
		Tools:    []toolcall.Tool{weatherTool(t)},
	}
}

// wantCall is a native call as the adapter should hand it over.
type wantCall struct{ id, name, args string }

func nativeCalls(r *client.Response) []wantCall {
	var out []wantCall
	for _, c := range r.NativeCalls {
		out = append(out, wantCall{c.ID, c.Name, c.Arguments})
	}
	return out
}

// wantErr describes an expected adapter error.
type wantErr struct {
	code       toolcall.Code
	status     int
	retryAfter time.Duration
	retryable  bool
	message    string // a substring of client.TransportError.Message
	// noCause: the error has no *client.TransportError cause.
	noCause bool
}

func checkErr(t *testing.T, err error, want *wantErr) {
	t.Helper()
	if want == nil {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return
	}
	var te *toolcall.Error
	if !errors.As(err, &te) {
		t.Fatalf("err = %v (%T), want a *toolcall.Error %s", err, err, want.code)
	}
	if te.Code != want.code {
		t.Fatalf("code = %s (%v), want %s", te.Code, err, want.code)
	}
	if want.noCause || want.code == toolcall.CodeCanceled || want.code == toolcall.CodeInvalidInput || want.code == toolcall.CodeTooLarge {
		return
	}
	var tr *client.TransportError
	if !errors.As(err, &tr) {
		t.Fatalf("err = %v has no *client.TransportError cause", err)
	}
	if tr.StatusCode != want.status || tr.RetryAfter != want.retryAfter || tr.Retryable() != want.retryable {
		t.Errorf("transport = status %d, retry-after %v, retryable %v; want %d, %v, %v",
			tr.StatusCode, tr.RetryAfter, tr.Retryable(), want.status, want.retryAfter, want.retryable)
	}
	if !strings.Contains(tr.Message, want.message) {
		t.Errorf("transport message = %q, want it to contain %q", tr.Message, want.message)
	}
}

func TestOllamaChat(t *testing.T) {
	tests := []struct {
		name      string
		turn      fakeserver.Turn
		content   string
		reasoning string
		calls     []wantCall
		done      bool
		reason    string
		tokens    [2]int
		err       *wantErr
	}{
		{
			name: "native calls keep key order and digits at every level",
			turn: fakeserver.Turn{Calls: []fakeserver.Call{
				{ID: "call_a", Name: "get_weather", Arguments: `{"days":3,"city":"Paris"}`},
				{ID: "call_b", Name: "book", Arguments: `{"when":{"z":1,"a":2},"ref":12345678901234567890}`},
			}, PromptTokens: 187, CompletionTokens: 27},
			calls: []wantCall{
				{"call_a", "get_weather", `{"days":3,"city":"Paris"}`},
				{"call_b", "book", `{"when":{"z":1,"a":2},"ref":12345678901234567890}`},
			},
			done: true, reason: "stop", tokens: [2]int{187, 27},
		},
		{
			name:    "content and thinking in chunks",
			turn:    fakeserver.Turn{Thinking: "The user wants a greeting.", Content: "Hello there, how can I help?", ChunkSize: 4, PromptTokens: 12, CompletionTokens: 9},
			content: "Hello there, how can I help?", reasoning: "The user wants a greeting.",
			done: true, reason: "stop", tokens: [2]int{12, 9},
		},
		{
			name:    "a call leaked as hermes text stays content",
			turn:    fakeserver.Turn{Content: `<tool_call>{"name":"get_weather","arguments":{"city":"Paris"}}</tool_call>`, ChunkSize: 7, PromptTokens: 1, CompletionTokens: 1},
			content: `<tool_call>{"name":"get_weather","arguments":{"city":"Paris"}}</tool_call>`,
			done:    true, reason: "stop", tokens: [2]int{1, 1},
		},
		{
			name: "string arguments from a proxy are read, not fatal",
			turn: fakeserver.Turn{Calls: []fakeserver.Call{
				{ID: "call_s", Name: "get_weather", Arguments: `{"city":"Oslo"}`, AsString: true},
				{ID: "call_t", Name: "get_weather", Arguments: `{"city": "Bergen",}`},
			}, PromptTokens: 1, CompletionTokens: 1},
			calls: []wantCall{{"call_s", "get_weather", `{"city":"Oslo"}`}, {"call_t", "get_weather", `{"city": "Bergen",}`}},
			done:  true, reason: "stop", tokens: [2]int{1, 1},
		},
		{
			name: "whole calls in separate chunks, each numbered 0, keep arrival order",
			turn: fakeserver.Turn{Body: `{"model":"m","message":{"role":"assistant","content":"","tool_calls":[{"id":"call_1","function":{"index":0,"name":"get_weather","arguments":{"city":"Oslo"}}}]},"done":false}` + "\n" +
				`{"model":"m","message":{"role":"assistant","content":"","tool_calls":[{"id":"call_2","function":{"index":0,"name":"get_time","arguments":{}}}]},"done":false}` + "\n" +
				`{"model":"m","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}` + "\n"},
			calls: []wantCall{{"call_1", "get_weather", `{"city":"Oslo"}`}, {"call_2", "get_time", `{}`}},
			done:  true, reason: "stop",
		},
		{
			name: "the calls of one chunk in function.index order",
			turn: fakeserver.Turn{Body: `{"model":"m","message":{"role":"assistant","content":"","tool_calls":[` +
				`{"id":"call_2","function":{"index":1,"name":"get_time","arguments":{}}},` +
				`{"id":"call_1","function":{"index":0,"name":"get_weather","arguments":{"city":"Oslo"}}}]},"done":true,"done_reason":"stop"}` + "\n"},
			calls: []wantCall{{"call_1", "get_weather", `{"city":"Oslo"}`}, {"call_2", "get_time", `{}`}},
			done:  true, reason: "stop",
		},
		{
			name:    "length limit",
			turn:    fakeserver.Turn{Content: "The weather in", DoneReason: "length", PromptTokens: 5, CompletionTokens: 4},
			content: "The weather in", done: true, reason: "length", tokens: [2]int{5, 4},
		},
		{
			name:    "a stream without its final message is not done",
			turn:    fakeserver.Turn{Content: "The weather", ChunkSize: 3, Truncate: true},
			content: "The weather", done: false,
		},
		{
			name:    "a stream cut inside a line is not done",
			turn:    fakeserver.Turn{Body: `{"model":"m","message":{"role":"assistant","content":"Hi"},"done":false}` + "\n" + `{"model":"m","message":{"role":"assis`},
			content: "Hi", done: false,
		},
		{
			name: "an empty answer is not done",
			turn: fakeserver.Turn{Body: "\n"},
			done: false,
		},
		{
			name: "429 with Retry-After",
			turn: fakeserver.Turn{Status: 429, Error: "too many requests", RetryAfter: "7"},
			err:  &wantErr{code: toolcall.CodeTransport, status: 429, retryAfter: 7 * time.Second, retryable: true, message: "too many requests"},
		},
		{
			name: "429 without Retry-After or body",
			turn: fakeserver.Turn{Status: 429},
			err:  &wantErr{code: toolcall.CodeTransport, status: 429, retryable: true},
		},
		{
			name: "503 server busy",
			turn: fakeserver.Turn{Status: 503, Error: "server busy, please try again.  maximum pending requests exceeded", RetryAfter: "Wed, 21 Oct 2015 07:28:00 GMT"},
			err:  &wantErr{code: toolcall.CodeTransport, status: 503, retryable: true, message: "server busy"},
		},
		{
			name: "400 model without tools",
			turn: fakeserver.Turn{Status: 400, Error: `"gemma:2b" does not support tools`},
			err:  &wantErr{code: toolcall.CodeRequestRejected, status: 400, message: "does not support tools"},
		},
		{
			name: "401",
			turn: fakeserver.Turn{Status: 401, Error: "unauthorized"},
			err:  &wantErr{code: toolcall.CodeTransport, status: 401, message: "unauthorized"},
		},
		{
			name: "in-stream error from Ollama's tool parser",
			turn: fakeserver.Turn{Content: "", Calls: nil, StreamError: `failed to parse JSON: unexpected end of JSON input`},
			err:  &wantErr{code: toolcall.CodeMalformedCall, status: 500, retryable: true, message: "failed to parse JSON"},
		},
		{
			name: "in-stream error from the runner",
			turn: fakeserver.Turn{Content: "partial", StreamError: "model runner has unexpectedly stopped"},
			err:  &wantErr{code: toolcall.CodeTransport, status: 500, retryable: true, message: "runner"},
		},
		{
			name: "the connection breaks during the answer",
			turn: fakeserver.Turn{Content: "The weather", ChunkSize: 4, Abort: true},
			err:  &wantErr{code: toolcall.CodeTransport, status: 0, retryable: true},
		},
		{
			name: "a line that is not JSON",
			turn: fakeserver.Turn{Body: "<html>proxy error</html>\n"},
			err:  &wantErr{code: toolcall.CodeTransport, status: 200, message: "not a JSON object"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := fakeserver.NewServer(fakeserver.Script{tt.turn}, nil)
			defer srv.Close()
			m, err := NewHost(srv.URL, nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := m.Chat(context.Background(), userRequest(t, "Weather in Paris?"))
			checkErr(t, err, tt.err)
			if tt.err != nil {
				if resp != nil {
					t.Errorf("response %+v returned with an error", resp)
				}
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
			if resp.Truncated() != (!tt.done || tt.reason == "length") {
				t.Errorf("Truncated() = %v", resp.Truncated())
			}
		})
	}
}

// With a caller's api.Client the adapter sees only what the client shows.
func TestOllamaWithAPIClient(t *testing.T) {
	tests := []struct {
		name    string
		turn    fakeserver.Turn
		calls   []wantCall
		content string
		done    bool
		err     *wantErr
	}{
		{
			name:  "native calls",
			turn:  fakeserver.Turn{Calls: []fakeserver.Call{{ID: "call_a", Name: "get_weather", Arguments: `{"days":3,"city":"Paris"}`}}},
			calls: []wantCall{{"call_a", "get_weather", `{"days":3,"city":"Paris"}`}},
			done:  true,
		},
		{
			name: "string arguments abort the api client",
			turn: fakeserver.Turn{Calls: []fakeserver.Call{{Name: "get_weather", Arguments: `{"city":"Oslo"}`, AsString: true}}},
			err:  &wantErr{code: toolcall.CodeMalformedCall, noCause: true},
		},
		{
			name: "400 without headers",
			turn: fakeserver.Turn{Status: 400, Error: `"gemma:2b" does not support tools`, RetryAfter: "5"},
			err:  &wantErr{code: toolcall.CodeRequestRejected, status: 400, message: "does not support tools"},
		},
		{
			name: "429: Retry-After is out of the api client's reach",
			turn: fakeserver.Turn{Status: 429, Error: "slow down", RetryAfter: "5"},
			err:  &wantErr{code: toolcall.CodeTransport, status: 429, retryable: true, message: "slow down"},
		},
		{
			name: "401 is an AuthorizationError",
			turn: fakeserver.Turn{Status: 401, Error: "unauthorized"},
			err:  &wantErr{code: toolcall.CodeTransport, status: 401, message: "401"},
		},
		{
			name: "in-stream error",
			turn: fakeserver.Turn{StreamError: "error parsing tool call: raw='{', err=unexpected end"},
			err:  &wantErr{code: toolcall.CodeMalformedCall, status: 500, retryable: true, message: "error parsing tool call"},
		},
		{
			name:    "truncated",
			turn:    fakeserver.Turn{Content: "abc", Truncate: true},
			content: "abc",
		},
		{
			name:    "a broken connection looks like a short answer to the api client",
			turn:    fakeserver.Turn{Content: "abc", Abort: true},
			content: "abc",
		},
		{
			name:    "cut inside the last line",
			turn:    fakeserver.Turn{Body: `{"model":"m","message":{"role":"assistant","content":"Hi"},"done":false}` + "\n" + `{"model":"m","message":{"role":"assis`},
			content: "Hi",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := fakeserver.NewServer(fakeserver.Script{tt.turn}, nil)
			defer srv.Close()
			u, _ := url.Parse(srv.URL)
			m := New(api.NewClient(u, http.DefaultClient), nil)
			resp, err := m.Chat(context.Background(), userRequest(t, "Weather?"))
			checkErr(t, err, tt.err)
			if tt.err != nil {
				return
			}
			if got := nativeCalls(resp); !reflect.DeepEqual(got, tt.calls) || resp.Content != tt.content || resp.Done != tt.done {
				t.Errorf("got %q %q done %v, want %q %q %v", got, resp.Content, resp.Done, tt.calls, tt.content, tt.done)
			}
		})
	}
}

func TestOllamaCancelMidStream(t *testing.T) {
	for _, recorded := range []bool{true, false} {
		srv := fakeserver.NewServer(fakeserver.Script{{Content: "The weather in Paris is", ChunkSize: 4, Stall: true}}, nil)
		var m *Client
		if recorded {
			m, _ = NewHost(srv.URL, nil)
		} else {
			u, _ := url.Parse(srv.URL)
			m = New(api.NewClient(u, http.DefaultClient), nil)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := m.Chat(ctx, userRequest(t, "Weather?"))
			done <- err
		}()
		for len(srv.Requests()) == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
		err := <-done
		if !errors.Is(err, toolcall.ErrCanceled) || !errors.Is(err, context.Canceled) {
			t.Errorf("recorded=%v: err = %v, want TLP-022 wrapping context.Canceled", recorded, err)
		}
		srv.Close()
	}
}

func TestOllamaUnreachable(t *testing.T) {
	srv := fakeserver.NewServer(nil, nil)
	srv.Close()
	m, err := NewHost(srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Chat(context.Background(), userRequest(t, "hi"))
	checkErr(t, err, &wantErr{code: toolcall.CodeTransport, status: 0, retryable: true})
	if strings.Contains(err.Error(), "127.0.0.1") {
		t.Errorf("error %q names the address; the cause does", err)
	}
}

func TestOllamaUnknownModel(t *testing.T) {
	srv := fakeserver.NewServer(nil, &fakeserver.Options{Models: []string{"llama3.2"}})
	defer srv.Close()
	m, _ := NewHost(srv.URL, nil)
	_, err := m.Chat(context.Background(), userRequest(t, "hi"))
	checkErr(t, err, &wantErr{code: toolcall.CodeTransport, status: 404, message: "model 'qwen3:8b' not found"})
}

func TestOllamaTooLarge(t *testing.T) {
	srv := fakeserver.NewServer(fakeserver.Script{{Content: strings.Repeat("word ", 4000), ChunkSize: 100}}, nil)
	defer srv.Close()
	m, _ := NewHost(srv.URL, &Options{MaxResponseBytes: 8 << 10})
	_, err := m.Chat(context.Background(), userRequest(t, "hi"))
	checkErr(t, err, &wantErr{code: toolcall.CodeTooLarge})
}

// The request the adapter sends: tools, history with object arguments (the
// real server answers 400 to string arguments), tool results, options.
func TestOllamaRequestBody(t *testing.T) {
	srv := fakeserver.NewServer(fakeserver.Script{{Content: "ok"}}, nil)
	defer srv.Close()
	think := api.ThinkValue{Value: false}
	m, _ := NewHost(srv.URL, &Options{Think: &think})
	opts := map[string]any{"temperature": 0, "num_ctx": 8192}
	req := &client.Request{
		Model: "qwen3:8b",
		Messages: []client.Message{
			{Role: "system", Content: "Be brief."},
			{Role: "user", Content: "Weather in Paris and Oslo?"},
			{Role: "assistant", Reasoning: "two cities", ToolCalls: []toolcall.Call{
				{ID: "call_1", Name: "get_weather", Arguments: json.RawMessage(`{"days":3,"city":"Paris","opts":{"z":1,"a":[1,2]}}`)},
				{ID: "call_2", Name: "get_weather", Arguments: json.RawMessage(`"{\"city\":\"Oslo\"}"`)},
			}},
			{Role: "tool", ToolCallID: "call_1", ToolName: "get_weather", Content: `{"temp":21}`},
			{Role: "tool", ToolCallID: "call_2", ToolName: "get_weather", Content: "error TLP-004: missing city"},
		},
		Tools:     []toolcall.Tool{weatherTool(t)},
		MaxTokens: 256,
		Options:   opts,
	}
	resp, err := m.Chat(context.Background(), req)
	if err != nil || resp.Content != "ok" {
		t.Fatalf("resp %+v, err %v", resp, err)
	}
	if len(opts) != 2 {
		t.Errorf("the caller's options were changed: %v", opts)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	got := reqs[0]
	if !got.Stream || got.MaxTokens != 256 || got.Options["temperature"] != float64(0) || got.Options["num_ctx"] != float64(8192) {
		t.Errorf("stream %v, max tokens %d, options %v", got.Stream, got.MaxTokens, got.Options)
	}
	if names := got.ToolNames(); !reflect.DeepEqual(names, []string{"get_weather"}) {
		t.Errorf("tools = %v", names)
	}
	if !strings.Contains(string(got.Body), `"required":["city"]`) || !strings.Contains(string(got.Body), `"think":false`) {
		t.Errorf("body lacks the tool schema or think: %s", got.Body)
	}
	asst := got.Messages[2]
	if asst.Role != "assistant" || asst.Thinking != "two cities" || len(asst.ToolCalls) != 2 {
		t.Fatalf("assistant message = %+v", asst)
	}
	for i, want := range []string{`{"days":3,"city":"Paris","opts":{"z":1,"a":[1,2]}}`, `{"city":"Oslo"}`} {
		if c := asst.ToolCalls[i]; string(c.Arguments) != want || c.Name != "get_weather" {
			t.Errorf("history call %d = %s %s, want object %s", i, c.Name, c.Arguments, want)
		}
	}
	if tool := got.Messages[3]; tool.Role != "tool" || tool.ToolCallID != "call_1" || tool.ToolName != "get_weather" {
		t.Errorf("tool message = %+v", tool)
	}
}

func TestOllamaRequestErrors(t *testing.T) {
	srv := fakeserver.NewServer(nil, nil)
	defer srv.Close()
	m, _ := NewHost(srv.URL, nil)
	tests := []struct {
		name string
		req  *client.Request
		code toolcall.Code
	}{
		{"nil request", nil, toolcall.CodeInvalidInput},
		{"history arguments not an object", &client.Request{Model: "m", Messages: []client.Message{{Role: "assistant", ToolCalls: []toolcall.Call{{Name: "f", Arguments: json.RawMessage(`[1,2]`)}}}}}, toolcall.CodeInvalidInput},
		{"history arguments broken", &client.Request{Model: "m", Messages: []client.Message{{Role: "assistant", ToolCalls: []toolcall.Call{{Name: "f", Arguments: json.RawMessage(`{"a":`)}}}}}, toolcall.CodeInvalidInput},
		{"options JSON cannot hold", &client.Request{Model: "m", Options: map[string]any{"x": make(chan int)}}, toolcall.CodeInvalidInput},
		{"tool the api types cannot hold", &client.Request{Model: "m", Tools: []toolcall.Tool{{Name: "f", Parameters: json.RawMessage(`{"type":"object","properties":{"a":{"type":5}}}`)}}}, toolcall.CodeInvalidTool},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := m.Chat(context.Background(), tt.req)
			var te *toolcall.Error
			if !errors.As(err, &te) || te.Code != tt.code {
				t.Fatalf("err = %v, want %s", err, tt.code)
			}
		})
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests reached the server", n)
	}
}

func TestOllamaBaseURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "http://127.0.0.1:11434"},
		{"gpu-box", "http://gpu-box:11434"},
		{"gpu-box:8080", "http://gpu-box:8080"},
		{"http://gpu-box", "http://gpu-box:80"},
		{"https://ollama.example.com", "https://ollama.example.com:443"},
		{"http://10.0.0.2:11434/ollama", "http://10.0.0.2:11434/ollama"},
		{"[::1]:11434", "http://[::1]:11434"},
		{":11434", "http://127.0.0.1:11434"},
	}
	for _, tt := range tests {
		u, err := BaseURL(tt.in)
		if err != nil || u.String() != tt.want {
			t.Errorf("OllamaBaseURL(%q) = %v, %v; want %s", tt.in, u, err, tt.want)
		}
	}
	for _, bad := range []string{"ftp://host", "http://host:99999999999"} {
		if _, err := BaseURL(bad); !errors.Is(err, toolcall.ErrInvalidConfig) {
			t.Errorf("OllamaBaseURL(%q) err = %v, want TLP-024", bad, err)
		}
	}
}

func TestOllamaArguments(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{``, `{}`, true},
		{`null`, `{}`, true},
		{`{"b":1,"a":{"y":2,"x":3}}`, `{"b":1,"a":{"y":2,"x":3}}`, true},
		{`"{\"city\":\"Oslo\"}"`, `{"city":"Oslo"}`, true},
		{`{"n":1e400,"big":123456789012345678901234567890}`, `{"n":1e400,"big":123456789012345678901234567890}`, true},
		{`[1]`, ``, false},
		{`"not json"`, ``, false},
		{`{"a":}`, ``, false},
	}
	for _, tt := range tests {
		args, err := ollamaArguments(json.RawMessage(tt.in))
		if (err == nil) != tt.ok {
			t.Errorf("ollamaArguments(%s) err = %v", tt.in, err)
			continue
		}
		if !tt.ok {
			continue
		}
		got, _ := json.Marshal(args)
		if string(got) != tt.want {
			t.Errorf("ollamaArguments(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// The accumulator hands Ollama's whole calls over exactly as decoded,
// errors and offsets included.
func TestOllamaCalls(t *testing.T) {
	in := []dialects.RawCall{
		{ID: "call_a", Name: "get_weather", Arguments: `{"city":"Oslo"}`, Offset: 120},
		{Offset: 300, Err: toolcall.NewError(toolcall.CodeMalformedCall, "tool call is a string, not an object")},
		{ID: "call_a", Name: "get_weather", Arguments: `{"city":"Oslo"}`, Offset: 420}, // a repeat is another call
		{Name: "f", Arguments: `{"a": 1,`, Offset: -1},
	}
	out, err := ollamaCalls(in)
	if err != nil || !reflect.DeepEqual(out, in) {
		t.Errorf("ollamaCalls = %+v, %v\nwant %+v", out, err, in)
	}
	if out, err := ollamaCalls([]dialects.RawCall{}); err != nil || out == nil || len(out) != 0 {
		t.Errorf("no calls = %#v, %v", out, err)
	}
}
