package shown

import (
	"strings"
	"testing"
)

// shownBenchText is an output of prose with quoted phrases, apostrophes,
// inline code, quoted calls and calls made, a JSON value and a fence: what
// ShownScan reads in a model's answer.
var shownBenchText = strings.Repeat(`I'll look up the weather in "Paris" for you, since it's the users' choice.
He said,"<tool_call>{"name": "f", "arguments": {"a": "it's \"x\""}}</tool_call>" and left.
Run `+"`ls -la`"+` first, then write "[f(a='x', b=[1, 2])]" to call f (see "<tool_call>").
The value {"a": "x.", "b": [1, 2, {"c": "d"}]} is set: <tool_call>{"name": "g", "arguments": {}}</tool_call>
Write "<tool_call>
{"name": "f", "arguments": {"a": 1}}
</tool_call>" to call f. A 12" pipe, then <tool_call>{"name": "h", "arguments": {}}</tool_call>

`, 40)

// BenchmarkShownAt asks a ShownScan about every '<', '[' and '{' of an
// output, as the family readers ask about their markers, in one pass.
func BenchmarkShownAt(b *testing.B) {
	text := shownBenchText
	var at []int
	for i := 0; i < len(text); i++ {
		if c := text[i]; c == '<' || c == '[' || c == '{' {
			at = append(at, i)
		}
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(text)))
	var s ShownScan
	for b.Loop() {
		s.Reset()
		for _, i := range at {
			s.ShownAt(text, i)
		}
	}
}
