package ollamaclient

import (
	"encoding/json"
	"fmt"

	"github.com/ollama/ollama/api"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	dialect "github.com/dialectkit/toolcall/dialects/ollamawire"
	"github.com/dialectkit/toolcall/internal/coded"
	"github.com/dialectkit/toolcall/schema"
)

// ResponseFromAPI converts an api.ChatResponse into the dialect's own
// ChatResponse. Arguments are taken from the ordered
// api.ToolCallFunctionArguments, so top-level keys keep the model's order;
// the api type decodes nested objects into Go maps and numbers into float64,
// so nested keys come out sorted and integers beyond 2^53 lose precision.
// Read the raw JSON with dialects/ollamawire.ParseJSON to keep the model's bytes
// exactly. Arguments that cannot be encoded are a TLP-002 error.
func ResponseFromAPI(resp api.ChatResponse) (dialect.ChatResponse, error) {
	out := dialect.ChatResponse{
		Model:              resp.Model,
		Done:               resp.Done,
		DoneReason:         resp.DoneReason,
		PromptEvalCount:    resp.PromptEvalCount,
		EvalCount:          resp.EvalCount,
		TotalDuration:      resp.TotalDuration,
		LoadDuration:       resp.LoadDuration,
		PromptEvalDuration: resp.PromptEvalDuration,
		EvalDuration:       resp.EvalDuration,
		Message:            dialect.Message{Content: resp.Message.Content, Thinking: resp.Message.Thinking},
	}
	for i := range resp.Message.ToolCalls {
		tc := &resp.Message.ToolCalls[i]
		// MarshalJSON keeps the ordered map's insertion order.
		args, err := json.Marshal(tc.Function.Arguments)
		if err != nil {
			return dialect.ChatResponse{}, toolcall.Errorf(toolcall.CodeInvalidJSON, err, fmt.Sprintf("arguments of tool call %d cannot be encoded as JSON", i))
		}
		out.Message.ToolCalls = append(out.Message.ToolCalls, dialect.ToolCall{
			ID: tc.ID, Index: tc.Function.Index, Name: tc.Function.Name, Arguments: args,
		})
	}
	return out, nil
}

// ResponsesFromAPI converts a stream of api.ChatResponse values; see
// ResponseFromAPI.
func ResponsesFromAPI(resps []api.ChatResponse) ([]dialect.ChatResponse, error) {
	out := make([]dialect.ChatResponse, 0, len(resps))
	for _, r := range resps {
		c, err := ResponseFromAPI(r)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// ParseResponse parses the calls of one api.ChatResponse, as returned by
// api.Client.Chat with streaming off or handed to its callback: it is
// ResponseFromAPI followed by dialects/ollamawire.ParseResponse.
func ParseResponse(resp api.ChatResponse, opts *dialects.Options) *toolcall.Result {
	c, err := ResponseFromAPI(resp)
	if err != nil {
		res := &toolcall.Result{Dialect: dialect.Name, Calls: []toolcall.Call{}}
		if e := coded.As(err); e != nil {
			res.Errors = append(res.Errors, e)
		}
		return res
	}
	return dialect.ParseResponse(c, opts)
}

// ParseResponses parses a whole stream of api.ChatResponse values, as
// collected from api.Client.Chat's callback.
func ParseResponses(resps []api.ChatResponse, opts *dialects.Options) *toolcall.Result {
	cs, err := ResponsesFromAPI(resps)
	if err != nil {
		res := &toolcall.Result{Dialect: dialect.Name, Calls: []toolcall.Call{}}
		if e := coded.As(err); e != nil {
			res.Errors = append(res.Errors, e)
		}
		return res
	}
	return dialect.ParseResponses(cs, opts)
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
