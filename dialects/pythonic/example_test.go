package pythonic_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/pythonic"
)

func Example() {
	out := "Let me check.\n[get_weather(city='Paris', unit='celsius'), get_time()]"
	res := dialects.Parse(pythonic.Pythonic, out, nil)
	for _, c := range res.Calls {
		fmt.Println(c.Name, string(c.Arguments))
	}
	fmt.Printf("content: %q\n", res.Content)
	// Output:
	// get_weather {"city":"Paris","unit":"celsius"}
	// get_time {}
	// content: "Let me check."
}

func Example_lfm2() {
	out := `<think>The user wants Paris.</think>Sure.<|tool_call_start|>[get_weather(city="Paris")]<|tool_call_end|>`
	res := dialects.Parse(pythonic.LFM2, out, nil)
	fmt.Println(res.Calls[0].Name, string(res.Calls[0].Arguments))
	fmt.Printf("content: %q, reasoning: %q\n", res.Content, res.Reasoning)
	// Output:
	// get_weather {"city":"Paris"}
	// content: "Sure.", reasoning: "The user wants Paris."
}

// singleCalls is a typical one-call output per dialect; every one carries
// the arguments of benchArgs.
var singleCalls = map[string]string{
	"pythonic":        `[get_weather(city='San Francisco', unit='celsius', days=3)]`,
	"llama4_pythonic": `<|python_start|>[get_weather(city='San Francisco', unit='celsius', days=3)]<|python_end|>`,
	"olmo3":           `<function_calls>get_weather(city="San Francisco", unit="celsius", days=3)</function_calls>`,
	"lfm2":            `<|tool_call_start|>[get_weather(city="San Francisco", unit="celsius", days=3)]<|tool_call_end|>`,
	"sarashina":       `<|tool_calls|>[{'name': 'get_weather', 'arguments': {'city': 'San Francisco', 'unit': 'celsius', 'days': 3}}]`,
	"llama3_builtin":  `<|python_tag|>get_weather.call(city="San Francisco", unit="celsius", days=3)<|eom_id|>`,
}

const benchArgs = `{"city": "San Francisco", "unit": "celsius", "days": 3}`

func BenchmarkSingleCall(b *testing.B) {
	for _, d := range pythonic.All() {
		text := singleCalls[d.Name()]
		b.Run(d.Name(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if res := dialects.Parse(d, text, nil); len(res.Calls) != 1 {
					b.Fatalf("%d calls, errors %v", len(res.Calls), res.Errors)
				}
			}
		})
	}
}

// BenchmarkEncodingJSON is the baseline: decoding the same arguments with
// encoding/json.
func BenchmarkEncodingJSON(b *testing.B) {
	b.ReportAllocs()
	data := []byte(benchArgs)
	for b.Loop() {
		var v map[string]any
		if err := json.Unmarshal(data, &v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProse measures output without calls: the scanners must reject it
// without running the grammar.
func BenchmarkProse(b *testing.B) {
	text := strings.Repeat("The weather (as far as I know) is fine; see [1] and [the docs]. ", 64)
	for _, d := range []dialects.Dialect{pythonic.Pythonic, pythonic.LFM2} {
		b.Run(d.Name(), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if res := dialects.Parse(d, text, nil); len(res.Calls) != 0 {
					b.Fatal("calls in prose")
				}
			}
		})
	}
}
