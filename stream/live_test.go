package stream_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/corpustest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/stream"
)

// firstCallEnd returns the length of the shortest prefix of text whose
// one-shot parse already holds the result's first call, or -1.
func firstCallEnd(text string, opts *registry.Options, first toolcall.Call) int {
	for n := 1; n <= len(text); n++ {
		res := registry.Parse(text[:n], opts)
		if len(res.Calls) > 0 && res.Calls[0].Name == first.Name && bytes.Equal(res.Calls[0].Arguments, first.Arguments) {
			return n
		}
	}
	return -1
}

// liveRate streams every corpus vector whose first call closes before the
// last quarter of its text, in pieces of 8 to 40 bytes, and returns how
// many had their first Call event emitted before the last piece was
// written, out of how many qualified.
func liveRate(t *testing.T, detect bool) (live, total int, missed []string) {
	vs, err := corpustest.Dialects()
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		tools, err := v.ToolSet()
		if err != nil {
			t.Fatal(err)
		}
		named := &registry.Options{Dialect: v.Dialect}
		named.Tools = tools
		opts := named
		if detect {
			opts = &registry.Options{}
			opts.Tools = tools
		}
		res := registry.Parse(v.Text, opts)
		if len(res.Calls) == 0 || res.Calls[0].Index != 0 {
			continue
		}
		end := firstCallEnd(v.Text, named, res.Calls[0])
		if end < 0 || 4*end > 3*len(v.Text) {
			continue
		}
		total++
		rng := rand.New(rand.NewPCG(uint64(len(v.Text)), 13))
		p := registry.Stream(opts)
		ok := false
		for rest := v.Text; rest != "" && !ok; {
			n := min(len(rest), 8+rng.IntN(33))
			var piece string
			piece, rest = rest[:n], rest[n:]
			if rest == "" {
				break
			}
			for _, ev := range p.Write(piece) {
				if ev.Kind == stream.Call {
					ok = true
				}
			}
		}
		if ok {
			live++
		} else {
			missed = append(missed, v.Dialect+" "+v.ID)
		}
	}
	return live, total, missed
}

// The live-event rates TestLiveRates holds the engine to (percent of the
// dev corpus outputs whose first call closes before the last quarter of
// the text): measured, and never to go down.
const (
	minLiveNamed    = 80.0
	minLiveDetected = 75.0
)

// TestLiveRates measures how often a call is reported while the output is
// still arriving: for every corpus output whose first call closes before
// the last quarter of its text, streamed in 8 to 40-byte pieces, whether
// its first Call event came before the last piece was written. Named and
// under detection.
func TestLiveRates(t *testing.T) {
	for _, detect := range []bool{false, true} {
		live, total, missed := liveRate(t, detect)
		rate := 100 * float64(live) / float64(total)
		how, floor := "named", minLiveNamed
		if detect {
			how, floor = "detected", minLiveDetected
		}
		t.Logf("%s: first call live in %d/%d outputs (%.1f%%)", how, live, total, rate)
		for _, m := range missed {
			t.Logf("  not live: %s", m)
		}
		if rate < floor {
			t.Errorf("%s: %.1f%% of first calls live, want at least %.0f%%", how, rate, floor)
		}
	}
}
