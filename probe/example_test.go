package probe_test

import (
	"context"
	"fmt"

	"github.com/dialectkit/toolcall/probe"
)

// Probe a simulated model whose native tool calls leak into the text as
// Hermes <tool_call> blocks: the report says where the calls went, in
// which dialect, how the retry loop recovered, and what to configure.
// probe.Run does the same against a real server.
func Example() {
	rep, err := probe.RunSim(context.Background(), "hermes-leak", probe.APIOllama, nil)
	if err != nil {
		panic(err)
	}
	native := rep.Modes[0].Summary
	fmt.Printf("template says %s; native answers: %d in tool_calls, %d in content\n",
		rep.Template.Detection.Dialect, native.InToolCalls, native.InContent)
	for _, m := range rep.Modes[1:] {
		fmt.Printf("tools shown in %s: %d of %d right\n", m.Dialect, m.Summary.FirstTry+m.Summary.Recovered, m.Summary.Asked)
	}
	fmt.Println(rep.Recommendation.Summary)
	// Output:
	// template says hermes; native answers: 0 in tool_calls, 5 in content
	// tools shown in hermes: 6 of 6 right
	// tools shown in json: 6 of 6 right
	// tools shown in pythonic: 1 of 6 right
	// dialect: hermes; fallback: json; native tools: leak into content — parse content with hermes; repair: on; retries: 1
}
