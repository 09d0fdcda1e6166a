package markdownjson_test

import (
	"fmt"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/markdownjson"
)

func Example() {
	out := "I'll use the calculator.\n\n```json\n{\"tool_name\": \"calculate\", \"tool_args\": {\"expression\": \"2 + 2\"}}\n```\n"
	res := dialects.Parse(markdownjson.Dialect, out, nil)
	for _, c := range res.Calls {
		fmt.Println(c.Name, string(c.Arguments))
	}
	fmt.Printf("content: %q\n", res.Content)
	// Output:
	// calculate {"expression":"2 + 2"}
	// content: "I'll use the calculator."
}
