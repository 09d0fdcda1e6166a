package ollamawire

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/schema"
)

// benchResponse is a realistic non-streamed /api/chat response with n calls.
func benchResponse(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"model":"qwen3:8b","created_at":"2026-02-27T09:14:03.512748Z","message":{"role":"assistant","content":"","tool_calls":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"call_k3v9x2q%d","function":{"index":%d,"name":"get_weather","arguments":{"city":"Paris","unit":"celsius","days":%d}}}`, i%10, i, i+1)
	}
	b.WriteString(`]},"done":true,"done_reason":"stop","total_duration":1843225708,"load_duration":41552083,"prompt_eval_count":187,"prompt_eval_duration":312540917,"eval_count":27,"eval_duration":1487128291}`)
	return []byte(b.String())
}

// BenchmarkParseJSON measures the whole extraction (decode, names, repair
// fast path, ids); BenchmarkUnmarshalAPI decodes the same bytes into
// api.ChatResponse with encoding/json, the baseline.
func BenchmarkParseJSON(b *testing.B) {
	for _, n := range []int{1, 10} {
		data := benchResponse(n)
		b.Run(fmt.Sprintf("calls=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			opts := &dialects.Options{}
			for b.Loop() {
				res := ParseJSON(data, opts)
				if len(res.Calls) != n {
					b.Fatalf("%d calls", len(res.Calls))
				}
			}
		})
	}
}

func BenchmarkParseJSONWithTools(b *testing.B) {
	for _, n := range []int{1, 10} {
		data := benchResponse(n)
		opts := &dialects.Options{Tools: benchTools(b)}
		b.Run(fmt.Sprintf("calls=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				res := ParseJSON(data, opts)
				if len(res.Calls) != n {
					b.Fatalf("%d calls: %v", len(res.Calls), res.Errors)
				}
			}
		})
	}
}

func BenchmarkUnmarshalAPI(b *testing.B) {
	for _, n := range []int{1, 10} {
		data := benchResponse(n)
		b.Run(fmt.Sprintf("calls=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				var r api.ChatResponse
				if err := json.Unmarshal(data, &r); err != nil || len(r.Message.ToolCalls) != n {
					b.Fatal(err)
				}
			}
		})
	}
}

func benchTools(b *testing.B) *schema.Set {
	b.Helper()
	return weatherTools(b)
}
