package ollama

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
)

func args(kv ...any) api.ToolCallFunctionArguments {
	a := api.NewToolCallFunctionArguments()
	for i := 0; i+1 < len(kv); i += 2 {
		a.Set(kv[i].(string), kv[i+1])
	}
	return a
}

func apiCall(id string, index int, name string, a api.ToolCallFunctionArguments) api.ToolCall {
	return api.ToolCall{ID: id, Function: api.ToolCallFunction{Index: index, Name: name, Arguments: a}}
}

func TestParseResponse(t *testing.T) {
	tests := []struct {
		name    string
		resp    api.ChatResponse
		tools   bool
		calls   []wantCall
		content string
		errs    []toolcall.Code
	}{
		{
			name: "calls in insertion order",
			resp: api.ChatResponse{Done: true, Message: api.Message{Role: "assistant", ToolCalls: []api.ToolCall{
				apiCall("call_a", 0, "get_weather", args("city", "Paris", "days", 3)),
				apiCall("call_b", 1, "f", args("z", 1, "a", "x")),
			}}},
			calls: []wantCall{{"call_a", "get_weather", `{"city":"Paris","days":3}`, 0}, {"call_b", "f", `{"z":1,"a":"x"}`, 1}},
		},
		{
			name: "function.index orders the calls",
			resp: api.ChatResponse{Done: true, Message: api.Message{ToolCalls: []api.ToolCall{
				apiCall("call_1", 1, "b", args()),
				apiCall("call_0", 0, "a", args()),
			}}},
			calls: []wantCall{{"call_0", "a", `{}`, 0}, {"call_1", "b", `{}`, 1}},
		},
		{
			name: "hand-built calls all at index 0 keep their order",
			resp: api.ChatResponse{Done: true, Message: api.Message{ToolCalls: []api.ToolCall{
				apiCall("call_x", 0, "x", args()),
				apiCall("call_y", 0, "y", args()),
			}}},
			calls: []wantCall{{"call_x", "x", `{}`, 0}, {"call_y", "y", `{}`, 1}},
		},
		{
			name: "empty arguments and a missing id",
			resp: api.ChatResponse{Done: true, Message: api.Message{ToolCalls: []api.ToolCall{
				{Function: api.ToolCallFunction{Name: "now"}},
			}}},
			tools: true,
			calls: []wantCall{{"", "now", `{}`, 0}},
		},
		{
			name:    "no calls",
			resp:    api.ChatResponse{Done: true, Message: api.Message{Role: "assistant", Content: "Hello", Thinking: "greet"}},
			content: "Hello",
		},
		{
			name: "unknown tool and schema violation",
			resp: api.ChatResponse{Done: true, Message: api.Message{ToolCalls: []api.ToolCall{
				apiCall("call_u", 0, "get_time", args()),
				apiCall("call_s", 1, "get_weather", args("city", 5)),
				apiCall("call_ok", 2, "get_weather", args("city", "Oslo")),
			}}},
			tools: true,
			calls: []wantCall{{"call_ok", "get_weather", `{"city":"Oslo"}`, 2}},
			errs:  []toolcall.Code{toolcall.CodeUnknownTool, toolcall.CodeSchema},
		},
		{
			name:  "a chunk without done is not truncated",
			resp:  api.ChatResponse{Message: api.Message{ToolCalls: []api.ToolCall{apiCall("call_c", 0, "now", args())}}},
			calls: []wantCall{{"call_c", "now", `{}`, 0}},
		},
		{
			name:    "length limit",
			resp:    api.ChatResponse{Done: true, DoneReason: "length", Message: api.Message{Content: "cut"}},
			content: "cut",
			errs:    []toolcall.Code{toolcall.CodeTruncated},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := &dialects.Options{}
			if tt.tools {
				opts.Tools = weatherTools(t)
			}
			res := ParseResponse(tt.resp, opts)
			reasoning := tt.resp.Message.Thinking
			checkResult(t, res, tt.calls, tt.content, reasoning, tt.errs)
			for _, c := range res.Calls {
				if !strings.HasPrefix(c.ID, "call_") {
					t.Errorf("id %q lacks the call_ prefix", c.ID)
				}
			}
		})
	}
}

func TestParseResponses(t *testing.T) {
	stream := []api.ChatResponse{
		{Model: "qwen3:8b", Message: api.Message{Thinking: "plan "}},
		{Model: "qwen3:8b", Message: api.Message{Thinking: "more", Content: "Sure. "}},
		{Model: "qwen3:8b", Message: api.Message{ToolCalls: []api.ToolCall{apiCall("call_1", 0, "get_weather", args("city", "Paris"))}}},
		{Model: "qwen3:8b", Message: api.Message{ToolCalls: []api.ToolCall{apiCall("call_2", 1, "get_weather", args("city", "Oslo"))}}},
	}
	done := api.ChatResponse{Model: "qwen3:8b", Done: true, DoneReason: "stop", Metrics: api.Metrics{PromptEvalCount: 10, EvalCount: 20}}
	want := []wantCall{{"call_1", "get_weather", `{"city":"Paris"}`, 0}, {"call_2", "get_weather", `{"city":"Oslo"}`, 1}}

	res := ParseResponses(append(stream, done), nil)
	checkResult(t, res, want, "Sure. ", "plan more", nil)

	s := DecodeResponses(append(stream, done))
	if s.Status.Model != "qwen3:8b" || s.DoneReason != "stop" || s.EvalCount != 20 || s.PromptEvalCount != 10 || s.Responses != 5 {
		t.Errorf("status = %+v, responses %d", s.Status, s.Responses)
	}

	// Chat returns nil when the connection drops: no done, truncated.
	res = ParseResponses(stream, nil)
	checkResult(t, res, want, "Sure. ", "plan more", []toolcall.Code{toolcall.CodeTruncated})
	if !errors.Is(res.Err(), toolcall.ErrTruncated) {
		t.Errorf("Err = %v", res.Err())
	}
	res = ParseResponses(nil, nil)
	checkResult(t, res, nil, "", "", []toolcall.Code{toolcall.CodeTruncated})
}

// For arguments the api types can decode, the raw path and the api path
// agree.
func TestRawAndAPIAgree(t *testing.T) {
	inputs := []string{
		resp(`{"role":"assistant","content":"x","tool_calls":[{"id":"call_a","function":{"index":0,"name":"get_weather","arguments":{"city":"Paris","days":3}}},{"id":"call_b","function":{"index":1,"name":"f","arguments":{"z":true,"a":null,"q":"é"}}}]}`),
		resp(`{"role":"assistant","content":"","tool_calls":[{"id":"call_c","function":{"index":0,"name":"now","arguments":{}}}]}`),
		resp(`{"role":"assistant","content":"just text"}`),
	}
	for _, in := range inputs {
		var r api.ChatResponse
		if err := json.Unmarshal([]byte(in), &r); err != nil {
			t.Fatal(err)
		}
		raw, typed := ParseJSON([]byte(in), nil), ParseResponse(r, nil)
		a, _ := json.Marshal(raw)
		b, _ := json.Marshal(typed)
		if string(a) != string(b) {
			t.Errorf("raw   %s\ntyped %s", a, b)
		}
	}
}

func TestToolsFromAPI(t *testing.T) {
	props := api.NewToolPropertiesMap()
	props.Set("city", api.ToolProperty{Type: api.PropertyType{"string"}, Description: "City <name>"})
	props.Set("days", api.ToolProperty{Type: api.PropertyType{"integer"}})
	tools := api.Tools{
		{Type: "function", Function: api.ToolFunction{Name: "get_weather", Description: "Weather",
			Parameters: api.ToolFunctionParameters{Type: "object", Required: []string{"city"}, Properties: props}}},
		{Type: "function", Function: api.ToolFunction{Name: "now", Description: "Time"}},
		{Type: "function", Function: api.ToolFunction{Name: "ping", Parameters: api.ToolFunctionParameters{Type: "object"}}},
	}
	got, err := ToolsFromAPI(tools)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ name, params string }{
		{"get_weather", `{"type":"object","required":["city"],"properties":{"city":{"type":"string","description":"City \u003cname\u003e"},"days":{"type":"integer"}}}`},
		{"now", ""},
		{"ping", `{"type":"object"}`},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d tools", len(got))
	}
	for i, w := range want {
		if got[i].Name != w.name || string(got[i].Parameters) != w.params {
			t.Errorf("tool %d = %s %s, want %s %s", i, got[i].Name, got[i].Parameters, w.name, w.params)
		}
	}
	set, err := NewToolSet(tools)
	if err != nil {
		t.Fatal(err)
	}
	res := ParseJSON([]byte(resp(`{"role":"assistant","content":"","tool_calls":[`+
		`{"id":"call_a","function":{"name":"get_weather","arguments":{"days":2}}},`+
		`{"id":"call_b","function":{"name":"now","arguments":{}}},`+
		`{"id":"call_c","function":{"name":"ping","arguments":{}}}]}`)), &dialects.Options{Tools: set})
	checkResult(t, res, []wantCall{{"call_b", "now", `{}`, 1}, {"call_c", "ping", `{}`, 2}}, "", "", []toolcall.Code{toolcall.CodeSchema})

	_, err = ToolsFromAPI(api.Tools{{Function: api.ToolFunction{Name: "bad", Parameters: api.ToolFunctionParameters{Type: "object", Items: make(chan int)}}}})
	if !errors.Is(err, toolcall.ErrInvalidTool) || !strings.Contains(err.Error(), "tool 0") {
		t.Errorf("err = %v", err)
	}
	_, err = ToolFromAPI(api.Tool{Type: "function"})
	if !errors.Is(err, toolcall.ErrInvalidTool) {
		t.Errorf("nameless tool: err = %v", err)
	}
}
