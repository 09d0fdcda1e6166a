package ollama

import (
	"encoding/json"
	"fmt"

	"github.com/ollama/ollama/api"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/schema"
)

// ParseResponse parses the calls of one api.ChatResponse, as returned by
// api.Client.Chat with streaming off or handed to its callback.
//
// Ollama sends whole calls, never fragments, so it is fine to call it on
// each streamed chunk; for that reason it does not report a chunk without
// done as truncated (ParseResponses does, for a whole stream). A response
// whose done_reason is "length" is reported as truncated (TLP-014).
//
// Arguments are taken from the ordered api.ToolCallFunctionArguments, so
// top-level keys keep the model's order; the api type decodes nested objects
// into Go maps and numbers into float64, so nested keys come out sorted and
// integers beyond 2^53 lose precision. Parse the raw JSON with ParseJSON
// to keep the model's bytes exactly.
func ParseResponse(resp api.ChatResponse, opts *dialects.Options) *toolcall.Result {
	a := newAccumulator()
	a.addAPI(&resp)
	return a.finish(false, 0).Result(opts)
}

// ParseResponses parses a whole stream of api.ChatResponse values, as
// collected from api.Client.Chat's callback. See DecodeResponses.
func ParseResponses(resps []api.ChatResponse, opts *dialects.Options) *toolcall.Result {
	return DecodeResponses(resps).Result(opts)
}

// DecodeResponses folds a stream of api.ChatResponse values into a Stream:
// calls in arrival order, content and thinking concatenated, and the status
// of the response marked done. A stream without such a response (Chat
// returns nil when the connection drops) is reported as truncated.
func DecodeResponses(resps []api.ChatResponse) *Stream {
	a := newAccumulator()
	a.sawDoneField = true // every api.ChatResponse has a Done field
	for i := range resps {
		a.addAPI(&resps[i])
	}
	return a.finish(true, -1)
}

// addAPI folds an api.ChatResponse into the accumulator.
func (a *accumulator) addAPI(resp *api.ChatResponse) {
	for i := range resp.Message.ToolCalls {
		tc := &resp.Message.ToolCalls[i]
		pc := pendingCall{
			raw:      dialects.RawCall{ID: tc.ID, Name: tc.Function.Name, Offset: -1},
			index:    tc.Function.Index,
			hasIndex: true,
		}
		// MarshalJSON keeps the ordered map's insertion order.
		args, err := json.Marshal(tc.Function.Arguments)
		if err != nil {
			pc.raw.Err = toolcall.Errorf(toolcall.CodeInvalidJSON, err, fmt.Sprintf("arguments of tool call %d cannot be encoded as JSON", i))
		} else {
			pc.raw.Arguments = string(args)
		}
		a.call(pc)
	}
	a.add(&response{
		offset:   -1,
		model:    resp.Model,
		content:  resp.Message.Content,
		thinking: resp.Message.Thinking,
		hasDone:  true,
		status: Status{
			Model:              resp.Model,
			Done:               resp.Done,
			DoneReason:         resp.DoneReason,
			PromptEvalCount:    resp.PromptEvalCount,
			EvalCount:          resp.EvalCount,
			TotalDuration:      resp.TotalDuration,
			LoadDuration:       resp.LoadDuration,
			PromptEvalDuration: resp.PromptEvalDuration,
			EvalDuration:       resp.EvalDuration,
		},
	})
}

// ToolFromAPI converts an ollama tool definition into a toolcall.Tool.
//
// The api types marshal a tool without parameters as
// {"type":"","properties":null}, which is not a valid JSON Schema: an empty
// type and null properties are dropped, and parameters left empty mean a
// tool without parameters.
func ToolFromAPI(t api.Tool) (toolcall.Tool, error) {
	data, err := json.Marshal(t)
	if err != nil {
		return toolcall.Tool{}, toolcall.Errorf(toolcall.CodeInvalidTool, err, fmt.Sprintf("tool %q cannot be encoded as JSON", t.Function.Name))
	}
	if params := gjson.GetBytes(data, "function.parameters"); params.IsObject() {
		if typ := params.Get("type"); typ.Type == gjson.String && typ.Str == "" {
			data, _ = sjson.DeleteBytes(data, "function.parameters.type")
		}
		if params.Get("properties").Type == gjson.Null {
			data, _ = sjson.DeleteBytes(data, "function.parameters.properties")
		}
		if rest := gjson.GetBytes(data, "function.parameters"); rest.Raw == "{}" {
			data, _ = sjson.DeleteBytes(data, "function.parameters")
		}
	}
	return toolcall.ParseTool(data)
}

// ToolsFromAPI converts ollama tool definitions, in order.
func ToolsFromAPI(tools api.Tools) ([]toolcall.Tool, error) {
	out := make([]toolcall.Tool, 0, len(tools))
	for i, t := range tools {
		ct, err := ToolFromAPI(t)
		if err != nil {
			msg := err.Error()
			if te, ok := err.(*toolcall.Error); ok {
				msg = te.Message
			}
			return nil, toolcall.Errorf(toolcall.CodeInvalidTool, err, fmt.Sprintf("tool %d: %s", i, msg))
		}
		out = append(out, ct)
	}
	return out, nil
}

// NewToolSet converts ollama tool definitions and compiles them into a
// schema.Set, ready for dialects.Options.Tools.
func NewToolSet(tools api.Tools) (*schema.Set, error) {
	ts, err := ToolsFromAPI(tools)
	if err != nil {
		return nil, err
	}
	return schema.NewSet(ts...)
}
