package harmony_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/harmony"
)

// benchTexts are the outputs the reader benchmarks read: one call after
// reasoning, fifty calls, and a final answer of about 64 KB.
var benchTexts = map[string]string{
	"call":    benchText,
	"50calls": strings.Repeat(`<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"location": "Paris, France", "unit": "celsius", "days": 3}<|call|>`, 50),
	"64KB": "<|channel|>analysis<|message|>Writing it out.<|end|><|start|>assistant<|channel|>final<|message|>" +
		strings.Repeat("The weather in Paris is mild, with light rain expected in the evening.\n", 900) + "<|return|>",
}

// BenchmarkExtract reads each text one-shot with Extract.
func BenchmarkExtract(b *testing.B) {
	for _, name := range []string{"call", "50calls", "64KB"} {
		text := benchTexts[name]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				harmony.Dialect.Extract(text, &dialects.Options{})
			}
		})
	}
}

// BenchmarkReader feeds each text to a Reader whole, in 16-byte deltas
// and in 1-byte deltas.
func BenchmarkReader(b *testing.B) {
	for _, name := range []string{"call", "50calls", "64KB"} {
		text := benchTexts[name]
		for _, size := range []int{0, 16, 1} {
			var deltas []string
			for rest := text; rest != ""; {
				n := len(rest)
				if size > 0 {
					n = min(size, n)
				}
				deltas, rest = append(deltas, rest[:n]), rest[n:]
			}
			label := "whole"
			if size > 0 {
				label = fmt.Sprintf("delta%d", size)
			}
			b.Run(name+"/"+label, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					r := harmony.Dialect.(dialects.Incremental).NewReader(&dialects.Options{})
					for _, d := range deltas {
						r.Write(d)
					}
					r.Close()
				}
			})
		}
	}
}
