package tagged_test

import (
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/tagged"
)

// TestCallStartsEarly feeds a Reader an output up to a point and checks
// whether it has announced a call (PieceCallStart) by then: as soon as the
// call's opening tag names its tool and nothing later can make it text,
// and never where it may still be.
func TestCallStartsEarly(t *testing.T) {
	rows := []struct {
		name   string
		d      dialects.Dialect
		opts   dialects.Options
		prefix string // what has arrived
		rest   string // the rest of the output
		want   string // the call announced and not yet whole, "" for none
	}{
		{
			name:   "qwen3_coder: the function tag is complete",
			d:      tagged.Qwen3Coder,
			opts:   dialects.Options{ReasoningClosed: true},
			prefix: "Let me check.\n<tool_call>\n<function=get_weather>",
			rest:   "\n<parameter=city>\nTokyo\n</parameter>\n</function>\n</tool_call>",
			want:   "get_weather",
		},
		{
			name:   "qwen3_coder: the function tag is not complete",
			d:      tagged.Qwen3Coder,
			opts:   dialects.Options{ReasoningClosed: true},
			prefix: "<tool_call>\n<function=get_wea",
			rest:   "ther>\n<parameter=city>\nTokyo\n</parameter>\n</function>\n</tool_call>",
		},
		{
			name:   "qwen3_coder: a call without its section on a line of its own",
			d:      tagged.Qwen3Coder,
			opts:   dialects.Options{ReasoningClosed: true},
			prefix: "Checking.\n<function=get_time>\n<parameter=zone>",
			rest:   "UTC</parameter>\n</function>",
			want:   "get_time",
		},
		{
			name:   "qwen3_coder: the second call of a section, after the first went out",
			d:      tagged.Qwen3Coder,
			opts:   dialects.Options{ReasoningClosed: true},
			prefix: "<tool_call>\n<function=a>\n<parameter=x>1</parameter>\n</function>\n<function=b>\n",
			rest:   "<parameter=y>2</parameter>\n</function>\n</tool_call>",
			want:   "b",
		},
		{
			name:   "qwen3_coder: the reasoning start is not settled: a closing tag may come",
			d:      tagged.Qwen3Coder,
			prefix: "Let me check.\n<tool_call>\n<function=get_weather>\n",
			rest:   "<parameter=city>\nTokyo\n</parameter>\n</function>\n</tool_call>",
		},
		{
			name:   "qwen3_coder: the reasoning the template opened may still close over it",
			d:      tagged.Qwen3Coder,
			opts:   dialects.Options{ReasoningOpen: true},
			prefix: "I will call it.\n<tool_call>\n<function=get_weather>\n",
			rest:   "<parameter=city>\nTokyo\n</parameter>\n</function>\n</tool_call></think>Done.",
		},
		{
			name:   "qwen3_coder: inside inline code opened before it",
			d:      tagged.Qwen3Coder,
			opts:   dialects.Options{ReasoningClosed: true},
			prefix: "Write `x\n<tool_call>\n<function=get_weather>\n",
			rest:   "<parameter=city>\nTokyo\n</parameter>\n</function>\n</tool_call>` to call it.",
		},
		{
			name:   "qwen3_coder: in a fence presented as an example",
			d:      tagged.Qwen3Coder,
			opts:   dialects.Options{ReasoningClosed: true},
			prefix: "For example:\n```\n<tool_call>\n<function=get_weather>\n",
			rest:   "<parameter=city>\nTokyo\n</parameter>\n</function>\n</tool_call>\n```",
		},
		{
			name:   "qwen3_coder: after other text on its line",
			d:      tagged.Qwen3Coder,
			opts:   dialects.Options{ReasoningClosed: true},
			prefix: "The tag <tool_call>\n<function=get_weather>\n",
			rest:   "<parameter=city>\nTokyo\n</parameter>\n</function>\n</tool_call>",
		},
		{
			name:   "qwen3_coder: inside an open think block",
			d:      tagged.Qwen3Coder,
			opts:   dialects.Options{ReasoningClosed: true},
			prefix: "<think>maybe\n<tool_call>\n<function=get_weather>\n",
			rest:   "<parameter=city>\nTokyo\n</parameter>\n</function>\n</tool_call>\n</think>No.",
		},
		{
			name:   "minimax_m2: the invoke tag names the tool",
			d:      tagged.MiniMaxM2,
			opts:   dialects.Options{ReasoningClosed: true},
			prefix: "<minimax:tool_call>\n<invoke name=\"get_weather\">",
			rest:   "\n<parameter name=\"city\">Tokyo</parameter>\n</invoke>\n</minimax:tool_call>",
			want:   "get_weather",
		},
		{
			name:   "minimax_m2: a tag that names two tools",
			d:      tagged.MiniMaxM2,
			opts:   dialects.Options{ReasoningClosed: true},
			prefix: "<minimax:tool_call>\n<invoke name=\"a\" name=\"b\">",
			rest:   "\n</invoke>\n</minimax:tool_call>",
		},
		{
			name:   "seed_oss: a function tag outside a section opens no call",
			d:      tagged.SeedOSS,
			opts:   dialects.Options{ReasoningClosed: true},
			prefix: "Use\n<function=get_weather>\n",
			rest:   "<parameter=city>Tokyo</parameter>\n</function>",
		},
		{
			name:   "glm45: a name written as text goes out with its call",
			d:      tagged.GLM45,
			opts:   dialects.Options{ReasoningClosed: true},
			prefix: "<tool_call>get_weather\n<arg_key>city</arg_key>",
			rest:   "\n<arg_value>Beijing</arg_value>\n</tool_call>",
		},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			inc := r.d.(dialects.Incremental)
			text := r.prefix + r.rest
			checkReader(t, r.d, text, &r.opts)
			for _, step := range []int{1, 7, len(r.prefix)} {
				rd := inc.NewReader(&r.opts)
				got, index := "", -1
				for i := 0; i < len(r.prefix); i += step {
					for _, p := range rd.Write(r.prefix[i:min(len(r.prefix), i+step)]) {
						switch {
						case p.Kind == dialects.PieceCallStart:
							got, index = p.Name, p.Index
						case p.Kind == dialects.PieceCall && p.Index == index:
							got, index = "", -1 // an earlier call, whose region closed
						}
					}
				}
				if got != r.want {
					t.Errorf("step %d: announced %q, want %q", step, got, r.want)
				}
				ended := 0
				ps := append(rd.Write(r.rest), rd.Close()...)
				for _, p := range ps {
					if p.Kind == dialects.PieceCall && p.Index == index {
						ended++
						if p.Index == index && p.Call.Name != got {
							t.Errorf("step %d: call 0 is %q, announced %q", step, p.Call.Name, got)
						}
					}
				}
				if index >= 0 && ended != 1 {
					t.Errorf("step %d: announced call ended %d times after", step, ended)
				}
			}
		})
	}
}
