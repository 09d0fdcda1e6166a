package registry_test

import (
	"encoding/json"
	"fmt"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/schema"
	"github.com/dialectkit/toolcall/stream"
)

// Parse output whose dialect is unknown: detection finds the Hermes tags,
// repairs the trailing comma, and checks the call against the declared tool.
func ExampleParse() {
	tools, _ := schema.NewSet(toolcall.Tool{Name: "get_weather",
		Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)})
	output := "Let me check.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\",}}\n</tool_call>"

	res, det := registry.Default().ParseDetect(output, &registry.Options{Tools: tools})

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

// Stream output whose dialect is unknown: detection decides as the text
// arrives, and the events follow the dialect it chose.
func ExampleStream() {
	tools, _ := schema.NewSet(toolcall.Tool{Name: "get_weather",
		Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)})
	p := registry.Stream(&registry.Options{Tools: tools, ReasoningClosed: true})
	var events []stream.Event
	for _, delta := range []string{
		"Let me check.\n<tool_",
		`call>{"name": "get_weather", "arguments": {"city": "Paris"}}`,
		"</tool_call>",
	} {
		events = append(events, p.Write(delta)...)
	}
	events = append(events, p.Close()...)
	for _, ev := range events {
		switch ev.Kind {
		case stream.Content:
			fmt.Printf("content %q\n", ev.Text)
		case stream.Call:
			fmt.Println("call:", ev.Call.Name, string(ev.Call.Arguments))
		case stream.Done:
			fmt.Println("done:", ev.Dialect, len(ev.Result.Calls), "call")
		}
	}
	// Output:
	// content "Let me check."
	// call: get_weather {"city":"Paris"}
	// done: hermes 1 call
}
