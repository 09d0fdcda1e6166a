package registry_test

import (
	"encoding/json"
	"fmt"
	"runtime"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/render"
)

// BenchmarkDetect measures detection over every registered dialect for
// typical single-call outputs, against encoding/json decoding the call's
// arguments (the floor any parser pays).
func BenchmarkDetect(b *testing.B) {
	outputs := map[string]string{
		"hermes":      "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}\n</tool_call>",
		"qwen3_coder": "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>",
		"mistral":     `[TOOL_CALLS]get_weather[ARGS]{"city": "Paris", "days": 3}`,
		"pythonic":    `[get_weather(city='Paris', days=3)]`,
		"prose":       "The weather in Paris will be sunny for the next three days, with highs around 24°C.",
	}
	for name, text := range outputs {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				registry.Parse(text, nil)
			}
		})
	}
	b.Run("named-hermes", func(b *testing.B) {
		b.ReportAllocs()
		opts := &registry.Options{Dialect: "hermes"}
		for b.Loop() {
			registry.Parse(outputs["hermes"], opts)
		}
	})
	b.Run("baseline-encoding-json-arguments", func(b *testing.B) {
		b.ReportAllocs()
		args := []byte(`{"city": "Paris", "days": 3}`)
		for b.Loop() {
			var v map[string]any
			_ = json.Unmarshal(args, &v)
		}
	})
}

// BenchmarkDetectOrdinary measures what detection allocates on ordinary
// calls (about 110 bytes each as most dialects write them), one after a
// line of answer text and fifty, in a few families' own syntax: one-shot
// (registry.Parse) and streamed in 16-byte deltas, in bytes per byte of
// output (B/byte).
//
//	go test ./registry -run '^$' -bench DetectOrdinary -benchtime 50x
func BenchmarkDetectOrdinary(b *testing.B) {
	call := func(i int) toolcall.Call {
		return toolcall.Call{ID: fmt.Sprintf("call_%d", i), Name: "get_weather",
			Arguments: json.RawMessage(fmt.Sprintf(`{"city":"Paris %d","unit":"celsius","days":3,"hourly":false}`, i))}
	}
	many := make([]toolcall.Call, 50)
	for i := range many {
		many[i] = call(i)
	}
	for _, name := range []string{"hermes", "qwen3_coder", "mistral", "deepseek_v31", "json", "pythonic"} {
		r, ok := render.For(name)
		if !ok {
			b.Fatalf("no renderer for %s", name)
		}
		for _, sh := range []struct{ name, text string }{
			{"one", "Let me check the weather for you.\n" + r.Calls([]toolcall.Call{call(0)})},
			{"fifty", r.Calls(many)},
		} {
			opts := &registry.Options{ReasoningClosed: true}
			b.Run(name+"/"+sh.name+"/oneshot", func(b *testing.B) {
				b.ReportAllocs()
				perByte(b, len(sh.text), func() { registry.Parse(sh.text, opts) })
			})
			b.Run(name+"/"+sh.name+"/stream", func(b *testing.B) {
				b.ReportAllocs()
				perByte(b, len(sh.text), func() {
					p := registry.Stream(opts)
					for s := sh.text; s != ""; {
						n := min(16, len(s))
						p.Write(s[:n])
						s = s[n:]
					}
					p.Close()
				})
			})
		}
	}
}

// perByte runs f in the benchmark loop and reports the bytes it allocates
// per byte of an output of n bytes.
func perByte(b *testing.B, n int, f func()) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.TotalAlloc
	for b.Loop() {
		f()
	}
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.TotalAlloc-before)/float64(b.N)/float64(n), "B/byte")
}
