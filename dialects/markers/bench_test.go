package markers_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/markers"
)

// benchArgs are the arguments of the typical call every benchmark parses.
const benchArgs = `{"city": "Tokyo", "unit": "celsius", "days": 3}`

// typical is one single-call output per dialect, as its models write it.
var typical = map[string]string{
	"mistral":          `[TOOL_CALLS]get_weather[ARGS]` + benchArgs,
	"llama3_json":      `<|python_tag|>{"name": "get_weather", "parameters": ` + benchArgs + `}`,
	"granite":          `<|tool_call|>[{"name": "get_weather", "arguments": ` + benchArgs + `}]`,
	"granite_20b_fc":   `<function_call> {"name": "get_weather", "arguments": ` + benchArgs + `}`,
	"functools":        `functools[{"name": "get_weather", "arguments": ` + benchArgs + `}]`,
	"tool_calls_array": `<tool_calls>[{"name": "get_weather", "arguments": ` + benchArgs + `}]</tool_calls>`,
	"minimax_m1":       "<tool_calls>\n{\"name\": \"get_weather\", \"arguments\": " + benchArgs + "}\n</tool_calls>",
	"nemotron_v2":      `<TOOLCALL>[{"name": "get_weather", "arguments": ` + benchArgs + `}]</TOOLCALL>`,
	"xlam":             `[{"name": "get_weather", "arguments": ` + benchArgs + `}]`,
	"apertus":          `<|tools_prefix|>[{"get_weather": ` + benchArgs + `}]<|tools_suffix|>`,
	"internlm2":        "<|action_start|><|plugin|>\n{\"name\": \"get_weather\", \"parameters\": " + benchArgs + "}<|action_end|>",
	"gigachat3":        `<|function_call|>{"name": "get_weather", "arguments": ` + benchArgs + `}`,
	"cohere":           `<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "get_weather", "parameters": ` + benchArgs + `}]<|END_ACTION|>`,
	"generic_json":     `{"tool_call": {"name": "get_weather", "arguments": ` + benchArgs + `}}`,
	"gemini":           `{"function_call": {"name": "get_weather", "args": ` + benchArgs + `}}`,
	"functionary_v3_1": `<function=get_weather>` + benchArgs + `</function>`,
	"functionary_v3_2": ">>>get_weather\n" + benchArgs,
	"inkling":          `<|message_model|>get_weather<|content_invoke_tool_json|>{"name": "get_weather", "args": ` + benchArgs + `}<|end_message|>`,
	"deepseek_v3":      dsCalls + dsV3("get_weather", benchArgs) + dsCallsEnd,
	"deepseek_v31":     dsCalls + dsV31("get_weather", benchArgs) + dsCallsEnd,
	"kimi_k2":          kimiSection + kimi("functions.get_weather:0", benchArgs) + kimiSectionEnd,
}

func TestBenchInputsParse(t *testing.T) {
	for _, d := range markers.All() {
		text, ok := typical[d.Name()]
		if !ok {
			t.Errorf("%s has no benchmark input", d.Name())
			continue
		}
		res := dialects.Parse(d, text, nil)
		if len(res.Calls) != 1 || res.Calls[0].Name != "get_weather" {
			t.Errorf("%s: benchmark input gives %v %v", d.Name(), res.Calls, res.Errors)
		}
	}
}

// BenchmarkParse parses a typical single-call output per dialect.
func BenchmarkParse(b *testing.B) {
	for _, d := range markers.All() {
		text := typical[d.Name()]
		b.Run(d.Name(), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				dialects.Parse(d, text, nil)
			}
		})
	}
}

// BenchmarkBaselineUnmarshal is the yardstick: encoding/json decoding the
// same call's arguments alone.
func BenchmarkBaselineUnmarshal(b *testing.B) {
	b.ReportAllocs()
	data := []byte(benchArgs)
	for b.Loop() {
		var v map[string]any
		if err := json.Unmarshal(data, &v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReader reads a typical single-call output per dialect three
// ways: Extract (a Reader fed the whole text), and a Reader fed 16-byte
// and 1-byte deltas.
func BenchmarkReader(b *testing.B) {
	for _, d := range markers.All() {
		text := typical[d.Name()]
		md := d.(*markers.Dialect)
		b.Run(d.Name()+"/whole", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				d.Extract(text, nil)
			}
		})
		for _, n := range []int{16, 1} {
			b.Run(fmt.Sprintf("%s/deltas%d", d.Name(), n), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					r := md.NewReader(nil)
					for at := 0; at < len(text); at += n {
						r.Write(text[at:min(at+n, len(text))])
					}
					r.Close()
				}
			})
		}
	}
}
