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
	{Engine{Llama3Builtin}, "<|python_tag|>brave_search.call(query=\"weather in Paris today\")<|eom_id|>"},
	{Engine{Llama3Builtin}, "Sure, here it is: " + strings.Repeat("the answer is long and plain. ", 40)},
}

// BenchmarkExtract reads each text one-shot by the whole-text reading
// (old: the description's own Extract, which the family's other dialects
// still use) and by the Reader (new: Engine.Extract), and with the Reader
// fed 16-byte and 1-byte deltas.
func BenchmarkExtract(b *testing.B) {
	for _, bt := range benchTexts {
		b.Run(bt.d.Name()+"/old", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bt.text)))
			for range b.N {
				bt.d.Dialect.Extract(bt.text, nil)
			}
		})
		b.Run(bt.d.Name()+"/new", func(b *testing.B) {
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
