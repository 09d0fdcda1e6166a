package hermes_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/hermes"
)

// benchArgs are the arguments of the typical call below; the baseline
// decodes them alone with encoding/json.
const (
	benchArgs = `{"city": "Tokyo", "units": "celsius", "days": 3}`
	benchText = "<think>\nThe user asks for the forecast.\n</think>\n\nLet me check.\n" +
		"<tool_call>\n{\"name\": \"get_weather\", \"arguments\": " + benchArgs + "}\n</tool_call>"
)

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(benchText)))
	for b.Loop() {
		res := dialects.Parse(hermes.Dialect, benchText, nil)
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

// BenchmarkParseRatio alternates BenchmarkParse's parse and
// BenchmarkBaselineUnmarshal's decoding in batches of 100 and reports the
// median of the batches' time ratios (x_unmarshal), so that a loaded
// machine weighs on both alike; ns/op is a pair of batches.
func BenchmarkParseRatio(b *testing.B) {
	const batch = 100
	var ratios []float64
	for b.Loop() {
		start := time.Now()
		for range batch {
			var v map[string]any
			if err := json.Unmarshal([]byte(benchArgs), &v); err != nil {
				b.Fatal(err)
			}
		}
		mid := time.Now()
		for range batch {
			if res := dialects.Parse(hermes.Dialect, benchText, nil); len(res.Calls) != 1 {
				b.Fatal(res.Errors)
			}
		}
		ratios = append(ratios, float64(time.Since(mid))/float64(mid.Sub(start)))
	}
	slices.Sort(ratios)
	b.ReportMetric(ratios[len(ratios)/2], "x_unmarshal")
}

// multiText is an output with reasoning, prose and three calls, one of
// them fenced.
var multiText = benchText + "\nAnd the time too.\n<tool_call>\n{\"name\": \"get_time\", \"arguments\": {\"zone\": \"Asia/Tokyo\"}}\n</tool_call>\n" +
	"```json\n{\"name\": \"get_news\", \"arguments\": {\"topic\": \"weather\", \"limit\": 5}}\n```\nDone."

// BenchmarkReader feeds the dialect's Reader an output whole, in 16-byte
// and in 1-byte deltas (the one-shot Extract is the whole row).
func BenchmarkReader(b *testing.B) {
	d := hermes.Dialect.(dialects.Incremental)
	opts := &dialects.Options{}
	for _, text := range []struct{ name, text string }{{"one-call", benchText}, {"three-calls", multiText}} {
		for _, delta := range []int{0, 16, 1} {
			name := "whole"
			if delta > 0 {
				name = fmt.Sprintf("delta-%d", delta)
			}
			b.Run(text.name+"/"+name, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(text.text)))
				step := delta
				if step == 0 {
					step = len(text.text)
				}
				for b.Loop() {
					r := d.NewReader(opts)
					calls := 0
					for i := 0; i < len(text.text); i += step {
						for _, p := range r.Write(text.text[i:min(i+step, len(text.text))]) {
							if p.Kind == dialects.PieceCall {
								calls++
							}
						}
					}
					for _, p := range r.Close() {
						if p.Kind == dialects.PieceCall {
							calls++
						}
					}
					if calls == 0 {
						b.Fatal("no call")
					}
				}
			})
		}
	}
}
