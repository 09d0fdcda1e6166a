package registry_test

import (
	"cmp"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/cputime"
	"github.com/dialectkit/toolcall/internal/longtest"
	"github.com/dialectkit/toolcall/registry"
)

// hostileShapes are inputs built to make a scanner read the rest of the
// text once per marker: a run of fence openings (each fence's walk up to
// the prose above it passed every fence before it), and tags whose JSON
// value never closes (each tag measured the value to the end of the text,
// and the errors past the cap, each holding the rest of the text, were
// joined whole into the summary error).
var hostileShapes = map[string]func(n int) string{
	"fences":       func(n int) string { return strings.Repeat("```json\n", n) },
	"mixed markup": func(n int) string { return strings.Repeat("<tool_call><tool></tools><function_call>{[\"'`", n) },
}

// hostileDialects are the dialects the shapes are read with: by name, and
// "" for detection.
var hostileDialects = []string{"hermes", "markdown_json", "granite_20b_fc", "qwen3_coder", ""}

// hostileParse is a parse of text by the dialect named name, or with
// detection for "", with the call cap of maxCalls (0: the default).
func hostileParse(tb testing.TB, name string, maxCalls int) func(string) {
	if name == "" {
		return func(text string) { registry.Parse(text, &registry.Options{MaxCalls: maxCalls}) }
	}
	d, ok := registry.Lookup(name)
	if !ok {
		tb.Fatalf("no dialect %s", name)
	}
	return func(text string) { dialects.Parse(d, text, &dialects.Options{MaxCalls: maxCalls}) }
}

// TestHostileShapesLinear: the hostile shapes cost time linear in their
// size, read by name and with detection. Sixteen times the input must cost less than 64
// times the time (linear work 16, quadratic 256), in CPU time, the least
// of three runs. Without a call cap: a cap stops the reading of calls
// (and the errors past it) at 1024, which hides quadratic work in what is
// read up to it. A long suite (DIALECTKIT_LONG=1); BenchmarkHostileShapes
// gives figures.
func TestHostileShapesLinear(t *testing.T) {
	longtest.Skip(t)
	fastest := func(parse func(string), text string) time.Duration {
		best := time.Duration(1 << 62)
		for range 3 {
			runtime.GC()
			start, cpu := time.Now(), cputime.Process()
			parse(text)
			took := time.Since(start)
			if cpu > 0 {
				took = cputime.Process() - cpu
			}
			best = min(best, took)
		}
		return best
	}
	for shapeName, shape := range hostileShapes {
		small, large := shape(hostileSmall), shape(16*hostileSmall)
		for _, name := range hostileDialects {
			parse := hostileParse(t, name, -1)
			ts, tl := fastest(parse, small), fastest(parse, large)
			t.Logf("%s, %q: %v, 16x %v, ratio %.1f (linear 16, quadratic 256)", shapeName, name, ts, tl, float64(tl)/float64(ts))
			if tl > 64*ts+20*time.Millisecond {
				t.Errorf("%s, %q: 16x the input took %v against %v: not linear", shapeName, name, tl, ts)
			}
		}
	}
}

// hostileSmall is the smaller size, in repetitions of a shape.
const hostileSmall = 500

// BenchmarkHostileShapes measures the hostile shapes of 5000 and 20000
// repetitions, read by name and with detection.
func BenchmarkHostileShapes(b *testing.B) {
	for shapeName, shape := range hostileShapes {
		for _, n := range []int{5000, 20000} {
			text := shape(n)
			for _, name := range hostileDialects {
				parse := hostileParse(b, name, 0)
				b.Run(fmt.Sprintf("%s/%s/%d", shapeName, cmp.Or(name, "detected"), n), func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(len(text)))
					for b.Loop() {
						parse(text)
					}
				})
			}
		}
	}
}
