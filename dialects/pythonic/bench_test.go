package pythonic

import (
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/dialects"
)

// benchTexts are ordinary outputs of the dialects read by the engine.
var benchTexts = []struct {
	d    Engine
	text string
}{
	{Sarashina, "Let me look that up.\n<|tool_calls|>[{'name': 'get_weather', 'arguments': {'city': 'Tokyo', 'unit': 'celsius'}}, {'name': 'get_time', 'arguments': {'zone': 'JST'}}]\nOne moment."},
	{Llama3Builtin, "<|python_tag|>brave_search.call(query=\"weather in Paris today\")<|eom_id|>"},
	{Llama3Builtin, "Sure, here it is: " + strings.Repeat("the answer is long and plain. ", 40)},
	{Pythonic, "[get_weather(city='San Francisco', metric='celsius'), get_time(zone='PST')]"},
	{Pythonic, "I'll check both.\n\n[" + strings.Repeat("get_weather(city='Paris', unit='celsius'),\n", 49) + "get_time(zone='CET')]"},
	{Llama4Pythonic, "<|python_start|>[get_weather(city='LA', metric='C'), get_time()]<|python_end|>"},
	{Olmo3, "<function_calls>get_weather(location=\"San Francisco\")\nget_time(zone=\"PST\")</function_calls>"},
	{LFM2, "Checking.<|tool_call_start|>[get_weather(city=\"Paris\"), get_time(zone=\"CET\")]<|tool_call_end|>Done."},
}

// BenchmarkExtract reads each text one-shot (Engine.Extract: the Reader
// given the whole text) and with the Reader fed 16-byte and 1-byte
// deltas.
func BenchmarkExtract(b *testing.B) {
	for _, bt := range benchTexts {
		b.Run(bt.d.Name()+"/oneshot", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bt.text)))
			for range b.N {
				bt.d.Extract(bt.text, nil)
			}
		})
		for _, n := range []int{16, 1} {
			b.Run(bt.d.Name()+"/deltas"+map[int]string{16: "16", 1: "1"}[n], func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(bt.text)))
				for range b.N {
					r := bt.d.NewReader(&dialects.Options{})
					for i := 0; i < len(bt.text); i += n {
						r.Write(bt.text[i:min(i+n, len(bt.text))])
					}
					r.Close()
				}
			})
		}
	}
}
