package codemode_test

import (
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/codemode"
)

// benchAnswer is a mixed answer: prose, a pythonic call, a fenced program
// and bare code.
var benchAnswer = strings.Repeat("I'll look it up first. Here's what I'd do, step by step: (1) fetch, (2) parse.\n", 8) +
	"[fetch(url='https://example.com')]\n```python\n" + grammarSample + "```\n" +
	"import sys\nfor a in sys.argv:\n    print(a)\n\nThat's all.\n"

func BenchmarkDetectCode(b *testing.B) {
	opts := &codemode.Options{Tools: []string{"fetch"}}
	b.SetBytes(int64(len(benchAnswer)))
	for b.Loop() {
		codemode.Detect(benchAnswer, opts)
	}
}

func BenchmarkDetectCodeProse(b *testing.B) {
	prose := strings.Repeat("The function len(x) returns a length; use print() to show it. Don't worry: it's fine.\n", 50)
	b.SetBytes(int64(len(prose)))
	for b.Loop() {
		codemode.DetectCode(prose)
	}
}
