package registry_test

import (
	"encoding/json"
	"fmt"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/schema"
)

// Parse output whose dialect is unknown: detection finds the Hermes tags,
// repairs the trailing comma, and checks the call against the declared tool.
func ExampleParse() {
	tools, _ := schema.NewSet(toolcall.Tool{Name: "get_weather",
		Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)})
	output := "Let me check.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\",}}\n</tool_call>"

	opts := &registry.Options{}
	opts.Tools = tools
	res, det := registry.Default().ParseDetect(output, opts)

	fmt.Println("dialect:", res.Dialect)
	fmt.Println("why:", det.Reason)
	for _, c := range res.Calls {
		fmt.Println("call:", c.Name, string(c.Arguments))
	}
	fmt.Println("content:", res.Content)
	for _, r := range res.Repairs {
		fmt.Println("repair:", r.Kind)
	}
	// Output:
	// dialect: hermes
	// why: marker: saw "<tool_call>"; parse: 1 valid call(s); parse: calls name declared tools with valid arguments
	// call: get_weather {"city":"Paris"}
	// content: Let me check.
	// repair: trailing_comma
}
