package tagged_test

import (
	"fmt"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/tagged"
)

func Example() {
	out := "Let me check.\n<tool_call>\n<function=get_weather>\n<parameter=city>\nTokyo\n</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>"
	res := dialects.Parse(tagged.Qwen3Coder, out, nil)
	for _, c := range res.Calls {
		fmt.Println(c.Name, string(c.Arguments))
	}
	fmt.Printf("content: %q\n", res.Content)
	// Output:
	// get_weather {"city":"Tokyo","days":3}
	// content: "Let me check."
}

// A new dialect of this shape is data: here a made-up model that writes
// <acme:call name="…"><acme:arg name="…">…</acme:arg></acme:call>.
func ExampleNew() {
	acme, err := tagged.New(tagged.Descriptor{
		Name:       "acme",
		Markers:    []string{"<acme:call"},
		ScopeStart: "<acme:calls>", ScopeEnd: "</acme:calls>", ScopeOptional: true,
		ToolStart: "<acme:call", ToolName: "name", ToolEnd: "</acme:call>",
		KeyStart: "<acme:arg", Key: "name", ValEnd: "</acme:arg>",
		Reasoning: dialects.Think,
	})
	if err != nil {
		panic(err)
	}
	res := dialects.Parse(acme, `<think>easy</think><acme:call name="add"><acme:arg name="a">1</acme:arg><acme:arg name="b">2</acme:arg></acme:call>`, nil)
	fmt.Println(res.Calls[0].Name, string(res.Calls[0].Arguments), res.Reasoning)
	// Output:
	// add {"a":1,"b":2} easy
}
