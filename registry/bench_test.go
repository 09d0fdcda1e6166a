package registry_test

import (
	"encoding/json"
	"testing"

	"github.com/dialectkit/toolcall/registry"
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
