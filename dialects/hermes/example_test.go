package hermes_test

import (
	"fmt"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/hermes"
)

func Example() {
	out := "<think>\nThe user wants the weather.\n</think>\n\nLet me check.\n" +
		"<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tokyo\"}}\n</tool_call>"
	res := dialects.Parse(hermes.Dialect, out, nil)
	for _, c := range res.Calls {
		fmt.Println(c.Name, string(c.Arguments))
	}
	fmt.Printf("content: %q\nreasoning: %q\n", res.Content, res.Reasoning)
	// Output:
	// get_weather {"city":"Tokyo"}
	// content: "Let me check."
	// reasoning: "The user wants the weather."
}
