package stream_test

import (
	"math/rand/v2"
	"testing"

	"github.com/dialectkit/toolcall/internal/corpustest"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
)

// FuzzStream cuts arbitrary output at random points and streams it in a
// dialect the input picks (or with detection): the result must be the
// one-shot parse, and nothing streamed may disagree with it.
func FuzzStream(f *testing.F) {
	vs, err := corpustest.Dialects()
	if err != nil {
		f.Fatal(err)
	}
	for i, v := range vs {
		if i%7 == 0 {
			f.Add(v.Text, uint64(i), uint8(i))
		}
	}
	f.Add("<think>a</think>b<tool_call>{\"name\":\"f\",\"arguments\":{}}</tool_call>", uint64(1), uint8(0))
	names := append([]string{""}, registry.Names()...)
	f.Fuzz(func(t *testing.T, text string, seed uint64, pick uint8) {
		if len(text) > 4096 {
			return
		}
		opts := &registry.Options{Dialect: names[int(pick)%len(names)]}
		opts.ReasoningClosed = pick&0x80 != 0
		want := registry.Parse(text, opts)
		rng := rand.New(rand.NewPCG(seed, 1))
		var cut []string
		for rest := text; rest != ""; {
			n := 1 + rng.IntN(min(len(rest), 16))
			cut, rest = append(cut, rest[:n]), rest[n:]
		}
		p := registry.Stream(opts)
		if err := streamtest.Compare(want, p, streamtest.Feed(p, cut)); err != nil {
			t.Fatalf("dialect %q: %v", opts.Dialect, err)
		}
	})
}
