package markdownjson_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/markdownjson"
)

const (
	benchArgs = `{"city": "Tokyo", "units": "celsius", "days": 3}`
	benchText = "I'll look up the forecast.\n\n```json\n{\"name\": \"get_weather\", \"arguments\": " + benchArgs + "}\n```\n"
)

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(benchText)))
	for b.Loop() {
		res := dialects.Parse(markdownjson.Dialect, benchText, nil)
		if len(res.Calls) != 1 {
			b.Fatal(res.Errors)
		}
	}
}

// BenchmarkBaselineUnmarshal is the floor: encoding/json decoding the same
// call's arguments, with no dialect work at all.
func BenchmarkBaselineUnmarshal(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(benchArgs)))
	for b.Loop() {
		var v map[string]any
		if err := json.Unmarshal([]byte(benchArgs), &v); err != nil {
			b.Fatal(err)
		}
	}
}

// readText is an answer with two fenced calls and prose around them.
var readText = strings.Repeat("Let me check the weather first, then the time.\n\n```json\n{\"name\": \"get_weather\", \"arguments\": "+benchArgs+"}\n```\n", 2) + "Done."

// BenchmarkRead reads readText whole, and fed in 16-byte and 1-byte
// deltas: the work a stream does over the one-shot parse.
func BenchmarkRead(b *testing.B) {
	d := markdownjson.Dialect.(dialects.Incremental)
	for _, size := range []int{0, 16, 1} {
		name := "whole"
		if size > 0 {
			name = fmt.Sprintf("delta%d", size)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(readText)))
			opts := &dialects.Options{ReasoningClosed: true}
			for b.Loop() {
				r := d.NewReader(opts)
				n := 0
				step := size
				if step == 0 {
					step = len(readText)
				}
				for i := 0; i < len(readText); i += step {
					n += count(r.Write(readText[i:min(i+step, len(readText))]))
				}
				if n += count(r.Close()); n != 2 {
					b.Fatalf("%d calls", n)
				}
			}
		})
	}
}

func count(ps []dialects.Piece) int {
	n := 0
	for _, p := range ps {
		if p.Kind == dialects.PieceCall {
			n++
		}
	}
	return n
}
