package harmony_test

import (
	"fmt"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/harmony"
)

func Example() {
	// The chat template already wrote "<|start|>assistant", so gpt-oss
	// output starts in the middle of a header.
	out := "<|channel|>analysis<|message|>Need the weather.<|end|>" +
		"<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json" +
		`<|message|>{"city": "Tokyo"}<|call|>`
	res := dialects.Parse(harmony.Dialect, out, nil)
	for _, c := range res.Calls {
		fmt.Println(c.Name, string(c.Arguments))
	}
	fmt.Println("reasoning:", res.Reasoning)
	// Output:
	// get_weather {"city":"Tokyo"}
	// reasoning: Need the weather.
}
