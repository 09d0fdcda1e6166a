package stream_test

import (
	"context"
	"fmt"
	"slices"

	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/stream"
)

// A Hermes answer arrives in pieces; the events say what is certain as soon
// as it is: the answer text before the call marker, the call once its tag
// closes, and the final result, which is the one-shot parse.
func Example() {
	opts := &registry.Options{Dialect: "hermes"}
	opts.ReasoningClosed = true // the template opened no <think> block
	deltas := slices.Values([]string{
		"Let me check", " the weather.\n<tool_",
		`call>{"name": "get_weather", "arguments": {"city": "Paris",}}`,
		"</tool_call>",
	})
	for ev, err := range stream.Events(context.Background(), registry.Stream(opts), deltas) {
		if err != nil {
			panic(err)
		}
		switch ev.Kind {
		case stream.Content:
			fmt.Printf("content %q\n", ev.Text)
		case stream.CallStart:
			fmt.Println("call", ev.Index, "started:", ev.Name)
		case stream.Call:
			fmt.Println("call", ev.Index, "done:", string(ev.Call.Arguments))
		case stream.Done:
			fmt.Println("done:", ev.Result.Dialect, len(ev.Result.Calls), "call,", len(ev.Result.Repairs), "repair")
		}
	}
	// Output:
	// content "Let me check"
	// content " the weather."
	// call 0 started: get_weather
	// call 0 done: {"city":"Paris"}
	// done: hermes 1 call, 1 repair
}
