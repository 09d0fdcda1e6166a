package tagged_test

import (
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/tagged"
)

// sample is one call written in one dialect's syntax.
type sample struct {
	dialect string
	text    string
}

// samples hold get_weather(city=Tokyo) in every dialect of the package, and
// in hermes, whose <tool_call> marker qwen3_coder and glm45 share.
var samples = []sample{
	{"hermes", "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tokyo\"}}\n</tool_call>"},
	{"functionary_v3_1", "<function=get_weather>{\"city\": \"Tokyo\"}</function>"},
	{"harmony", "<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"Tokyo\"}<|call|>"},
	{"harmony_short", " to=functions.get_weather<|channel|>commentary <|constrain|>json<|message|>{\"city\": \"Tokyo\"}"},
	{"deepseek_v3", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"city\": \"Tokyo\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>"},
	{"deepseek_v31", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{\"city\": \"Tokyo\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>"},
	{"kimi_k2", "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{\"city\": \"Tokyo\"}<|tool_call_end|><|tool_calls_section_end|>"},
	{"mistral", "[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Tokyo\"}"},
	{"pythonic", "[get_weather(city='Tokyo')]"},
	{"functiongemma", "<start_function_call>call:get_weather{city:<escape>Tokyo<escape>}<end_function_call>"},
	{"minimax_m1", "<tool_calls>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tokyo\"}}\n</tool_calls>"},
	{"tool_calls_array", "<tool_calls>[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tokyo\"}}]</tool_calls>"},
	{"qwen3_coder", "<tool_call>\n<function=get_weather>\n<parameter=city>\nTokyo\n</parameter>\n</function>\n</tool_call>"},
	{"seed_oss", "<seed:tool_call>\n<function=get_weather>\n<parameter=city>Tokyo</parameter>\n</function>\n</seed:tool_call>"},
	{"glm45", "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Tokyo</arg_value>\n</tool_call>"},
	{"longcat", "<longcat_tool_call>get_weather\n<longcat_arg_key>city</longcat_arg_key>\n<longcat_arg_value>Tokyo</longcat_arg_value>\n</longcat_tool_call>"},
	{"hy_v3", "<tool_calls><tool_call>get_weather<tool_sep><arg_key>city</arg_key><arg_value>Tokyo</arg_value></tool_call></tool_calls>"},
	{"minimax_m2", "<minimax:tool_call>\n<invoke name=\"get_weather\">\n<parameter name=\"city\">Tokyo</parameter>\n</invoke>\n</minimax:tool_call>"},
	{"minimax_m3", "]<]minimax[>[<tool_call>]<]minimax[>[<invoke name=\"get_weather\">]<]minimax[>[<city>Tokyo]<]minimax[>[</city>]<]minimax[>[</invoke>]<]minimax[>[</tool_call>"},
	{"minicpm5", "<function name=\"get_weather\"><param name=\"city\">Tokyo</param></function>"},
	{"step3", "<｜tool_calls_begin｜>\n<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"get_weather\">\n<steptml:parameter name=\"city\">Tokyo</steptml:parameter>\n</steptml:invoke><｜tool_call_end｜>\n<｜tool_calls_end｜>"},
	{"deepseek_v32", "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"get_weather\">\n<｜DSML｜parameter name=\"city\" string=\"true\">Tokyo</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>"},
	{"deepseek_v4", "<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"get_weather\">\n<｜DSML｜parameter name=\"city\" string=\"true\">Tokyo</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>"},
	{"kimi_k3", `<|open|>tools<|sep|><|open|>call tool="get_weather" index="0"<|sep|><|open|>argument key="city" type="string"<|sep|>Tokyo<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>`},
	{"mirothinker", "<use_mcp_tool>\n<server_name>weather</server_name>\n<tool_name>get_weather</tool_name>\n<arguments>\n{\"city\": \"Tokyo\"}\n</arguments>\n</use_mcp_tool>"},
	{"glimmer", " to=get_weather<|message|><atem:function_calls>\n<atem:invoke name=\"get_weather\">\n<atem:parameter name=\"city\">Tokyo</atem:parameter></atem:invoke>\n</atem:function_calls>"},
}

// overlap lists the pairs (dialect, sample) where a dialect reads another
// syntax by design. The call it reads must be the right one.
//   - glm45 takes JSON call objects inside <tool_call> (Laguna), so it reads
//     hermes, without claiming the output (Marked stays false).
//   - seed_oss is qwen3_coder's syntax inside its own section; qwen3_coder
//     reads the calls and, seeing its own <parameter=…>, claims them too.
//     Detection prefers seed_oss for its stronger marker.
//   - glm45 and hy_v3 share <arg_key>: glm45 claims hy_v3 output but reads
//     no call from it (the <tool_sep> makes its call malformed).
//   - qwen3_coder reads a JSON object in place of its parameter elements,
//     so it reads (and claims) Functionary v3.1's <function=NAME>{…}: the
//     same call.
var overlap = map[[2]string]struct{ call, marked bool }{
	{"glm45", "hermes"}:                 {call: true},
	{"qwen3_coder", "seed_oss"}:         {call: true, marked: true},
	{"glm45", "hy_v3"}:                  {marked: true},
	{"qwen3_coder", "functionary_v3_1"}: {call: true, marked: true},
}

// TestOwnSyntaxOnly checks that no dialect turns another dialect's output
// into a wrong call, and that only a dialect's own syntax marks the output.
func TestOwnSyntaxOnly(t *testing.T) {
	for _, d := range tagged.All() {
		for _, s := range samples {
			res := dialects.Parse(d, s.text, nil)
			ext := d.Extract(s.text, &dialects.Options{})
			own := s.dialect == d.Name()
			o, listed := overlap[[2]string{d.Name(), s.dialect}]
			switch {
			case own:
				if len(res.Calls) != 1 || res.Calls[0].Name != "get_weather" || string(res.Calls[0].Arguments) != `{"city":"Tokyo"}` {
					t.Errorf("%s on its own sample: calls %s, errors %v", d.Name(), callList(res.Calls), res.Errors)
				}
				if !ext.Marked {
					t.Errorf("%s on its own sample: not marked", d.Name())
				}
				if res.Content != "" {
					t.Errorf("%s on its own sample: content %q", d.Name(), res.Content)
				}
			case listed:
				n := 0
				if o.call {
					n = 1
				}
				if len(res.Calls) != n || n == 1 && string(res.Calls[0].Arguments) != `{"city":"Tokyo"}` {
					t.Errorf("%s on %s: calls %s, want %d right call", d.Name(), s.dialect, callList(res.Calls), n)
				}
				if ext.Marked != o.marked {
					t.Errorf("%s on %s: marked %v, want %v", d.Name(), s.dialect, ext.Marked, o.marked)
				}
			default:
				if len(res.Calls) != 0 {
					t.Errorf("%s on %s: calls %s, want none", d.Name(), s.dialect, callList(res.Calls))
				}
				if ext.Marked {
					t.Errorf("%s on %s: marked", d.Name(), s.dialect)
				}
			}
		}
	}
}

// TestMarkersAreEvidence checks that every dialect's strongest marker occurs
// in its own sample.
func TestMarkersAreEvidence(t *testing.T) {
	for _, d := range tagged.All() {
		m, ok := d.(dialects.Marked)
		if !ok || len(m.Markers()) == 0 {
			t.Errorf("%s has no markers", d.Name())
			continue
		}
		for _, s := range samples {
			if s.dialect == d.Name() && !strings.Contains(s.text, m.Markers()[0]) {
				t.Errorf("%s: strongest marker %q not in its sample", d.Name(), m.Markers()[0])
			}
		}
	}
}
