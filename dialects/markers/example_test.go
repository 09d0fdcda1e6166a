package markers_test

import (
	"fmt"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/markers"
)

// Parse Mistral output with one of the package's dialects.
func Example() {
	out := "Let me check.\n[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Tokyo\"}"
	res := dialects.Parse(markers.Mistral, out, nil)
	for _, call := range res.Calls {
		fmt.Println(call.Name, string(call.Arguments))
	}
	fmt.Printf("content: %q\n", res.Content)
	// Output:
	// get_weather {"city":"Tokyo"}
	// content: "Let me check."
}

// Describe a model's own syntax as data: a marker, the name up to ">>",
// JSON arguments, a closing marker.
func ExampleNew() {
	acme, err := markers.New(markers.Descriptor{
		Name: "acme",
		Forms: []markers.Form{{
			Start:   []string{"<<call "},
			NameEnd: []string{">>"},
			End:     []string{"<</call>>"},
		}},
	})
	if err != nil {
		panic(err)
	}
	res := dialects.Parse(acme, `<<call search>>{"q": "go"}<</call>>`, nil)
	fmt.Println(res.Calls[0].Name, string(res.Calls[0].Arguments))
	// Output: search {"q":"go"}
}
