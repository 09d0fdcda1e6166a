package gemma_test

import (
	"fmt"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/gemma"
)

func Example() {
	out := "<|channel>thought\nThe user wants the weather.<channel|>" +
		`<|tool_call>call:get_weather{location:<|"|>London<|"|>,days:3}<tool_call|>`
	res := dialects.Parse(gemma.Gemma4, out, nil)
	for _, c := range res.Calls {
		fmt.Println(c.Name, string(c.Arguments))
	}
	fmt.Println("reasoning:", res.Reasoning)
	// Output:
	// get_weather {"location":"London","days":3}
	// reasoning: The user wants the weather.
}
