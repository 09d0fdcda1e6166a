package render_test

import (
	"encoding/json"
	"fmt"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/render"
)

// Write one call in three dialects, the way each model family writes it,
// and the result the way its chat template carries it back.
func Example() {
	calls := []toolcall.Call{{Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris","days":2}`)}}
	for _, d := range []string{"hermes", "mistral", "qwen3_coder"} {
		r, _ := render.For(d)
		fmt.Println(r.Calls(calls))
	}
	r, _ := render.For("hermes")
	fmt.Println(r.Result(calls[0], `{"temperature": 21}`))
	// Output:
	// <tool_call>
	// {"name": "get_weather", "arguments": {"city": "Paris", "days": 2}}
	// </tool_call>
	// [TOOL_CALLS]get_weather[ARGS]{"city": "Paris", "days": 2}
	// <tool_call>
	// <function=get_weather>
	// <parameter=city>
	// Paris
	// </parameter>
	// <parameter=days>
	// 2
	// </parameter>
	// </function>
	// </tool_call>
	// <tool_response>
	// {"temperature": 21}
	// </tool_response>
}

// A system prompt that presents the tools in Gemma 4's own declaration
// syntax, with an example call.
func ExampleRenderer_Tools() {
	tools := []toolcall.Tool{{
		Name:        "get_weather",
		Description: "Get the weather.",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`),
	}}
	r, _ := render.For("gemma4")
	fmt.Println(r.Tools(tools))
	// Output:
	// <|tool>declaration:get_weather{description:<|"|>Get the weather.<|"|>,parameters:{type:<|"|>OBJECT<|"|>,properties:{city:{type:<|"|>STRING<|"|>}},required:[<|"|>city<|"|>]}}<tool|>
	//
	// To call a function, write call:NAME followed by its arguments as key:value pairs in braces, strings between string tokens, inside a tool call block, for example:
	// <|tool_call>call:get_weather{city:<|"|>...<|"|>}<tool_call|>
}

// ForOutput keeps the form a model used: this Mistral model writes the
// pre-v11 JSON array.
func ExampleForOutput() {
	r, _ := render.ForOutput("mistral", `[TOOL_CALLS] [{"name": "get_time", "arguments": {}}]`)
	fmt.Println(r.Calls([]toolcall.Call{{Name: "get_weather", Arguments: json.RawMessage(`{"city":"Oslo"}`)}}))
	// Output: [TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Oslo"}}]
}

// A string that holds a marker of the dialect is escaped, so the call
// still reads back.
func ExampleRenderer_Calls() {
	r, _ := render.For("hermes")
	fmt.Println(r.Calls([]toolcall.Call{{Name: "echo", Arguments: json.RawMessage(`{"text":"</tool_call>"}`)}}))
	// Output:
	// <tool_call>
	// {"name": "echo", "arguments": {"text": "\u003c/tool_call>"}}
	// </tool_call>
}
