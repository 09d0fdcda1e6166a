package render_test

import (
	"encoding/json"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/render"
)

var benchCalls = []toolcall.Call{
	{Name: "get_weather", Arguments: json.RawMessage(`{"city":"São Paulo","days":3,"metric":true,"where":{"lat":-23.55,"lon":-46.63},"tags":["now","later"]}`)},
	{Name: "get_time", Arguments: json.RawMessage(`{}`)},
}

var sink string

// BenchmarkCalls writes a typical turn (two calls, nested arguments) in
// dialects of each engine.
func BenchmarkCalls(b *testing.B) {
	for _, d := range []string{"hermes", "mistral", "pythonic", "qwen3_coder", "minimax_m3", "gemma4", "deepseek_v32"} {
		r, _ := render.For(d)
		b.Run(d, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sink = r.Calls(benchCalls)
			}
		})
	}
}

// BenchmarkMarshal is the baseline: encoding/json writing the same calls.
func BenchmarkMarshal(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		out, _ := json.Marshal(benchCalls)
		sink = string(out)
	}
}

// BenchmarkTools writes the system prompt for three tools.
func BenchmarkTools(b *testing.B) {
	for _, d := range []string{"hermes", "qwen3_coder", "harmony", "gemma4"} {
		r, _ := render.For(d)
		b.Run(d, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sink = r.Tools(testTools)
			}
		})
	}
}

// BenchmarkFor is the lookup retry does per reflection.
func BenchmarkFor(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		r, _ := render.For("hermes")
		sink = r.Dialect()
	}
}
