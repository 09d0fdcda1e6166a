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
	"github.com/dialectkit/toolcall/internal/cputime"
	"github.com/dialectkit/toolcall/internal/longtest"
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
// the output. A search backwards over the text per object made it
// quadratic (10 000 bare calls took minutes). The sizes are sixteen times
// apart, so linear work takes about 16 times as long and quadratic work
// 256 times: the bound of 64 leaves a loaded machine four times its noise
// and still tells the two apart. It is a long suite (DIALECTKIT_LONG=1),
// since a shared machine's timing has no place in the quick run;
// BenchmarkDetectManyCalls gives figures.
func TestDetectionIsLinear(t *testing.T) {
	longtest.Skip(t)
	opts := &registry.Options{Tools: weatherSet(t), MaxCalls: -1}
	// The process's CPU time, not wall time: on a shared machine wall time
	// grows while the parse waits for a processor, which says nothing of
	// its work. The least of five runs drops what other work costs it
	// through the caches. Where CPU time cannot be read, wall time stands in.
	fastest := func(text string) time.Duration {
		best := time.Duration(1 << 62)
		for range 5 {
			runtime.GC()
			start, cpu := time.Now(), cputime.Process()
			registry.Parse(text, opts)
			took := time.Since(start)
			if cpu > 0 {
				took = cputime.Process() - cpu
			}
			best = min(best, took)
		}
		return best
	}
	for name, shape := range manyCalls {
		small, large := callsOfSize(shape, 32<<10), callsOfSize(shape, 512<<10)
		ts, tl := fastest(small), fastest(large)
		ratio := float64(tl) / float64(ts)
		t.Logf("%s: 32 KB %v, 512 KB %v, ratio %.1f (linear 16, quadratic 256)", name, ts, tl, ratio)
		if ratio > 64 {
			t.Errorf("%s: 512 KB takes %.1f times what 32 KB takes (%v, %v): not linear", name, ratio, tl, ts)
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
