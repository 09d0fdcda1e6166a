package registry_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/longtest"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/render"
	"github.com/dialectkit/toolcall/stream"
)

// completeTail is, for every dialect, the text after the point where one
// rendered call is complete: the markers that may be missing at the end of
// the output while the call still stands (docs/dialects.md, "A call cut
// off"). A call is complete once the syntax that holds its arguments has
// closed (a JSON value's last bracket, a Python call's parenthesis, the
// element that holds tagged parameters); the markers around a complete
// call may be missing, whole or in part, since servers stop on them and
// strip them.
var completeTail = map[string]string{
	"apertus":          "]<|tools_suffix|>",
	"cohere":           "\n]<|END_ACTION|>",
	"deepseek_v3":      "\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
	"deepseek_v31":     "<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
	"deepseek_v32":     "\n</｜DSML｜function_calls>",
	"deepseek_v4":      "\n</｜DSML｜tool_calls>",
	"functionary_v3_1": "</function>",
	"functionary_v3_2": "",
	"functiongemma":    "<end_function_call>",
	"functools":        "]",
	"gemini":           "",
	"gemma4":           "<tool_call|>",
	"generic_json":     "",
	"gigachat3":        "",
	"glimmer":          "\n</atem:function_calls><|eom|>",
	"glm45":            "",
	"granite":          "]",
	"granite_20b_fc":   "",
	"harmony":          "<|call|>",
	"hermes":           "\n</tool_call>",
	"hy_v3":            "</tool_calls>",
	"inkling":          "<|end_message|>",
	"internlm2":        "<|action_end|>",
	"json":             "",
	"kimi_k2":          "<|tool_call_end|><|tool_calls_section_end|>",
	"kimi_k3":          "<|close|>tools<|sep|>",
	"lfm2":             "]<|tool_call_end|>",
	"llama3_builtin":   "",
	"llama3_json":      "",
	"llama4_pythonic":  "]<|python_end|>",
	"longcat":          "",
	"markdown_json":    "\n```",
	"minicpm5":         "",
	"minimax_m1":       "\n</tool_calls>",
	"minimax_m2":       "\n</minimax:tool_call>",
	"minimax_m3":       "]<]minimax[>[</tool_call>",
	"mirothinker":      "",
	"mistral":          "",
	"nemotron_v2":      "]</TOOLCALL>",
	"ollama":           "",
	"olmo3":            "</function_calls>",
	"pythonic":         "]",
	"qwen3_coder":      "\n</tool_call>",
	"sarashina":        "]",
	"seed_oss":         "\n</seed:tool_call>",
	"step3":            "<｜tool_call_end｜>\n<｜tool_calls_end｜>",
	"tool_calls_array": "]</tool_calls>",
	"xlam":             "]",
}

// TestCutCallRule renders one call in every dialect and parses every
// prefix of it, named: a prefix that ends before the call is complete
// holds no call, and its errors are TLP-014 (a prefix that is only the
// start of an opening marker is content, no error); a prefix that ends at
// or after the point where the call is complete (completeTail) is the
// whole call, whatever part of the closing markers it holds. Cut prefixes
// are streamed too, and agree with their one-shot result.
func TestCutCallRule(t *testing.T) {
	tools := cutTools(t)
	call := toolcall.Call{Name: "delete_file", Arguments: json.RawMessage(`{"force":true,"path":"build/zq9"}`)}
	streamStep := 11
	if longtest.Enabled() {
		streamStep = 1
	}
	for _, name := range registry.Names() {
		r, ok := render.For(name)
		if !ok {
			continue
		}
		tail, ok := completeTail[name]
		if !ok {
			t.Errorf("%s: no row in completeTail", name)
			continue
		}
		full := r.Calls([]toolcall.Call{call})
		if len(full) < len(tail) || full[len(full)-len(tail):] != tail {
			t.Errorf("%s: rendered call %q does not end with %q", name, full, tail)
			continue
		}
		complete := len(full) - len(tail)
		opts := &registry.Options{Dialect: name, Tools: tools}
		for p := 1; p <= len(full); p++ {
			cut := full[:p]
			res := registry.Parse(cut, opts)
			if p >= complete {
				if len(res.Calls) != 1 || string(res.Calls[0].Arguments) != string(call.Arguments) || len(res.Errors) > 0 || res.Content != "" {
					t.Errorf("%s: complete call cut at %d/%d %q: calls %v, errors %v, content %q; want the call alone", name, p, len(full), cut, res.Calls, res.Errors, res.Content)
				}
			} else {
				if len(res.Calls) > 0 {
					t.Errorf("%s: cut at %d/%d %q: call %s %s; a cut call is no call", name, p, len(full), cut, res.Calls[0].Name, res.Calls[0].Arguments)
				}
				for _, e := range res.Errors {
					if e.Tool == "code_interpreter" && !strings.Contains(cut, "(") {
						// Raw code after <|python_tag|> has no envelope
						// before its parentheses: a prefix of the call is
						// a whole program, the code interpreter's call.
						continue
					}
					if e.Code != toolcall.CodeTruncated {
						t.Errorf("%s: cut at %d/%d %q: %v; a cut call is TLP-014", name, p, len(full), cut, e)
					}
				}
			}
			if p%streamStep == 0 || p == complete || p == complete-1 {
				if err := streamtest.CheckCuts(res, func() *stream.Parser { return registry.Stream(opts) }, cut, nil, true); err != nil {
					t.Errorf("%s: cut at %d %q streamed: %v", name, p, cut, err)
				}
			}
		}
	}
}
