package ollamawire_test

import (
	"fmt"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/ollamawire"
)

func Example() {
	// Two chunks of an /api/chat stream and its final line. The second call
	// carries its arguments as a JSON string, which api.ChatResponse cannot
	// decode.
	body := `{"model":"qwen3:8b","message":{"role":"assistant","content":"","tool_calls":[{"id":"call_a1b2c3d4","function":{"index":0,"name":"get_weather","arguments":{"city":"Paris","days":2}}}]},"done":false}
{"model":"qwen3:8b","message":{"role":"assistant","content":"","tool_calls":[{"function":{"index":1,"name":"get_time","arguments":"{\"timezone\":\"Europe/Paris\"}"}}]},"done":false}
{"model":"qwen3:8b","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","eval_count":42}
`
	res := ollamawire.ParseJSON([]byte(body), &dialects.Options{})
	for _, c := range res.Calls {
		fmt.Printf("%d %s %s\n", c.Index, c.Name, c.Arguments)
	}
	fmt.Println("errors:", len(res.Errors))

	s := ollamawire.Decode([]byte(body))
	fmt.Println(s.DoneReason, s.EvalCount, s.Truncated())
	// Output:
	// 0 get_weather {"city":"Paris","days":2}
	// 1 get_time {"timezone":"Europe/Paris"}
	// errors: 0
	// stop 42 false
}
