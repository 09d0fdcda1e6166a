package ollamawire

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
			res := ParseResponse(fromAPI(t, tt.resp), opts)
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

	res := ParseResponses(fromAPIs(t, append(stream, done)), nil)
	checkResult(t, res, want, "Sure.", "plan more", nil)

	s := DecodeResponses(fromAPIs(t, append(stream, done)))
	if s.Status.Model != "qwen3:8b" || s.DoneReason != "stop" || s.EvalCount != 20 || s.PromptEvalCount != 10 || s.Responses != 5 {
		t.Errorf("status = %+v, responses %d", s.Status, s.Responses)
	}

	// Chat returns nil when the connection drops: no done, truncated.
	res = ParseResponses(fromAPIs(t, stream), nil)
	checkResult(t, res, want, "Sure.", "plan more", []toolcall.Code{toolcall.CodeTruncated})
	if !errors.Is(res.Err(), toolcall.ErrTruncated) {
		t.Errorf("Err = %v", res.Err())
	}
	res = ParseResponses(nil, nil)
	checkResult(t, res, nil, "", "", []toolcall.Code{toolcall.CodeTruncated})
}

// fromAPI converts an api.ChatResponse the way client/ollamaclient does (which
// this package cannot import), for the tests that build responses with the
// api types.
func fromAPI(t testing.TB, r api.ChatResponse) ChatResponse {
	t.Helper()
	out := ChatResponse{Model: r.Model, Done: r.Done, DoneReason: r.DoneReason,
		PromptEvalCount: r.PromptEvalCount, EvalCount: r.EvalCount,
		TotalDuration: r.TotalDuration, LoadDuration: r.LoadDuration,
		PromptEvalDuration: r.PromptEvalDuration, EvalDuration: r.EvalDuration,
		Message: Message{Content: r.Message.Content, Thinking: r.Message.Thinking}}
	for _, tc := range r.Message.ToolCalls {
		args, err := json.Marshal(tc.Function.Arguments)
		if err != nil {
			t.Fatal(err)
		}
		out.Message.ToolCalls = append(out.Message.ToolCalls, ToolCall{ID: tc.ID, Index: tc.Function.Index, Name: tc.Function.Name, Arguments: args})
	}
	return out
}

func fromAPIs(t testing.TB, rs []api.ChatResponse) []ChatResponse {
	var out []ChatResponse
	for _, r := range rs {
		out = append(out, fromAPI(t, r))
	}
	return out
}
