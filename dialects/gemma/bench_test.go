package gemma_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/gemma"
)

// benchTexts are the outputs BenchmarkReader reads: a call after a
// thought channel, fifty calls with text between, and one call whose
// argument is 64 KB.
var benchTexts = func() []struct {
	name string
	d    *gemma.Dialect
	text string
} {
	var many strings.Builder
	for i := range 50 {
		fmt.Fprintf(&many, "Call %d.\n<|tool_call>call:get_weather{city:<|\"|>Paris %d<|\"|>,days:%d,units:{temp:<|\"|>c<|\"|>}}<tool_call|>\n", i, i, i)
	}
	return []struct {
		name string
		d    *gemma.Dialect
		text string
	}{
		{"gemma4/one", gemma.Gemma4, "<|channel>thought\nThe user wants the weather in Paris.<channel|>Let me check.\n" +
			"<|tool_call>call:get_weather{city:<|\"|>Paris<|\"|>,days:3}<tool_call|>"},
		{"gemma4/fifty", gemma.Gemma4, many.String()},
		{"gemma4/large", gemma.Gemma4, "<|tool_call>call:write_file{path:<|\"|>a.txt<|\"|>,content:<|\"|>" +
			strings.Repeat("some text, ", 64<<10/11) + "<|\"|>}<tool_call|>"},
		{"functiongemma/one", gemma.FunctionGemma, "Let me check.\n" +
			"<start_function_call>call:get_weather{city:<escape>Paris<escape>,days:3}<end_function_call>"},
	}
}()

// BenchmarkReader reads each text one-shot (Extract: the Reader fed the
// whole text) and with the Reader fed 16-byte and 1-byte deltas.
func BenchmarkReader(b *testing.B) {
	for _, bt := range benchTexts {
		b.Run(bt.name+"/whole", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bt.text)))
			for range b.N {
				bt.d.Extract(bt.text, nil)
			}
		})
		for _, n := range []int{16, 1} {
			b.Run(fmt.Sprintf("%s/deltas%d", bt.name, n), func(b *testing.B) {
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
