package plainjson_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/plainjson"
)

// readTexts are a list of calls that opens the output, and calls on their
// lines after prose.
var readTexts = map[string]string{
	"list":  "[" + strings.TrimSuffix(strings.Repeat(`{"name": "get_weather", "arguments": {"city": "Tokyo", "days": 3}}, `, 3), ", ") + "]",
	"prose": strings.Repeat("Let me check the weather first:\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tokyo\", \"days\": 3}}\n", 3) + "Done.",
}

// BenchmarkRead reads each text whole, and fed in 16-byte and 1-byte
// deltas: the work a stream does over the one-shot parse.
func BenchmarkRead(b *testing.B) {
	d := plainjson.Dialect.(dialects.Incremental)
	for _, name := range []string{"list", "prose"} {
		text := readTexts[name]
		for _, size := range []int{0, 16, 1} {
			cut := "whole"
			if size > 0 {
				cut = fmt.Sprintf("delta%d", size)
			}
			b.Run(name+"/"+cut, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(text)))
				opts := &dialects.Options{ReasoningClosed: true}
				step := size
				if step == 0 {
					step = len(text)
				}
				for b.Loop() {
					r := d.NewReader(opts)
					n := 0
					for i := 0; i < len(text); i += step {
						n += calls(r.Write(text[i:min(i+step, len(text))]))
					}
					if n += calls(r.Close()); n != 3 {
						b.Fatalf("%d calls", n)
					}
				}
			})
		}
	}
}

func calls(ps []dialects.Piece) int {
	n := 0
	for _, p := range ps {
		if p.Kind == dialects.PieceCall {
			n++
		}
	}
	return n
}
