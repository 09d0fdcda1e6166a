package stream_test

import (
	"fmt"

	"github.com/dialectkit/toolcall/stream"
)

// A server streams two calls as fragments: a header with the id and name,
// then the arguments in pieces, interleaved by index. Call 1 completes
// first but waits for call 0; the end of the stream completes call 2.
func ExampleAccumulator() {
	acc := stream.NewAccumulator(nil)
	deltas := []stream.Fragment{
		{Index: 0, ID: "call_1", Type: "function", Name: "get_weather"},
		{Index: 1, ID: "call_2", Type: "function", Name: "get_time"},
		{Index: 0, Arguments: `{"city": "Par`},
		{Index: 1, Arguments: `{"zone": "CET"}`, Complete: true},
		{Index: 0, Arguments: `is",}`, Complete: true}, // a trailing comma to repair
		{Index: 2, ID: "call_3", Type: "function", Name: "get_time", Arguments: `{}`},
	}
	for _, f := range deltas {
		done, err := acc.Add(f)
		if err != nil {
			fmt.Println("dropped fragment:", err)
		}
		for _, c := range done {
			fmt.Println("complete:", c.Index, c.Call.ID, c.Call.Name, string(c.Call.Arguments))
		}
	}
	res := acc.Finish()
	for _, c := range res.Calls {
		fmt.Println("at the end:", c.Index, c.ID, c.Name, string(c.Arguments))
	}
	// Output:
	// complete: 0 call_1 get_weather {"city":"Paris"}
	// complete: 1 call_2 get_time {"zone":"CET"}
	// at the end: 2 call_3 get_time {}
}
