package registry_test

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/schema"
)

// manyCalls are outputs of n calls, in shapes that make detection with
// declared tools look at every object.
var manyCalls = map[string]func(n int) string{
	"hermes": func(n int) string {
		return repeatCalls(n, "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"c%d\"}}</tool_call>\n")
	},
	"bare after prose": func(n int) string {
		return "Here:\n" + repeatCalls(n, "{\"name\": \"get_weather\", \"parameters\": {\"city\": \"c%d\"}}\n")
	},
	"objects after words": func(n int) string {
		return repeatCalls(n, "Note {\"name\": \"get_weather\", \"parameters\": {\"city\": \"c%d\"}}\n")
	},
	"fenced": func(n int) string {
		return repeatCalls(n, "```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"c%d\"}}\n```\n")
	},
}

func repeatCalls(n int, format string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, format, i)
	}
	return b.String()
}

func weatherSet(tb testing.TB) *schema.Set {
	tb.Helper()
	set, err := schema.NewSet(toolcall.Tool{Name: "get_weather", Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`)})
	if err != nil {
		tb.Fatal(err)
	}
	return set
}

// callsOfSize is a shape grown to about size bytes.
func callsOfSize(shape func(int) string, size int) string {
	one := len(shape(1))
	return shape(max(1, size/one))
}

// TestDetectionIsLinear: detection with declared tools costs time linear in
// the output: 256 KB of calls take about four times what 64 KB take, far
// from the sixteen of quadratic work. A search backwards over the text per object made it
// quadratic (10 000 bare calls took minutes).
func TestDetectionIsLinear(t *testing.T) {
	opts := regOpts(dialects.Options{Tools: weatherSet(t)}, registry.Options{})
	fastest := func(text string) time.Duration {
		best := time.Duration(1 << 62)
		for range 7 {
			runtime.GC()
			start := time.Now()
			registry.Parse(text, opts)
			best = min(best, time.Since(start))
		}
		return best
	}
	for name, shape := range manyCalls {
		small, large := callsOfSize(shape, 64<<10), callsOfSize(shape, 256<<10)
		ts, tl := fastest(small), fastest(large)
		ratio := float64(tl) / float64(ts)
		t.Logf("%s: 64 KB %v, 256 KB %v, ratio %.1f", name, ts, tl, ratio)
		// 4 is linear; quadratic work gives 16. The margin absorbs the
		// scheduling and GC noise of a shared machine, where linear
		// shapes measure 3-9; BenchmarkDetectManyCalls gives figures.
		if ratio > 11 {
			t.Errorf("%s: 256 KB takes %.1f times what 64 KB takes (%v, %v): not linear", name, ratio, tl, ts)
		}
	}
}

// BenchmarkDetectManyCalls measures detection with declared tools over
// outputs of 10k, 50k and 100k calls.
func BenchmarkDetectManyCalls(b *testing.B) {
	opts := regOpts(dialects.Options{Tools: weatherSet(b)}, registry.Options{})
	for name, shape := range manyCalls {
		for _, n := range []int{10000, 50000, 100000} {
			text := shape(n)
			b.Run(fmt.Sprintf("%s/%d", name, n), func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					registry.Parse(text, opts)
				}
			})
		}
	}
}
