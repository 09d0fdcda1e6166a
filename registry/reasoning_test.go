package registry_test

import (
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/stream"
)

// Generation prompts of real templates, cut down to what decides.
const (
	// DeepSeek-R1 (0528) and QwQ open the block for the model.
	r1Template = `{% for message in messages %}{{ message['content'] }}{% endfor %}{% if add_generation_prompt %}{{'<｜Assistant｜><think>\n'}}{% endif %}`
	// Qwen3's hybrid template closes the block it writes when thinking is
	// off; with thinking on, the model writes its own <think>.
	qwen3Hybrid = `{%- for message in messages %}{%- if '</think>' in content %}{%- set content = content.split('</think>')[-1] %}{%- endif %}{{ content }}{%- endfor %}{%- if add_generation_prompt %}{{- '<|im_start|>assistant\n' }}{%- if enable_thinking is defined and enable_thinking is false %}{{- '<think>\n\n</think>\n\n' }}{%- endif %}{%- endif %}`
	// An Ollama Go template that opens the block at its end.
	goThinking = "{{- range .Messages }}<|im_start|>{{ .Role }}\n{{ .Content }}<|im_end|>\n{{ end }}<|im_start|>assistant\n<think>\n"
	// Llama 3 has no reasoning block.
	llamaTemplate = `{% for message in messages %}<|start_header_id|>{{ message['role'] }}<|end_header_id|>{{ message['content'] }}<|eot_id|>{% endfor %}{% if add_generation_prompt %}{{ '<|start_header_id|>assistant<|end_header_id|>\n\n' }}{% endif %}`
	// QwQ's template as llama.cpp serves it: the block is opened, then
	// closed when thinking is off.
	qwqThinkingSwitch = `{%- for message in messages %}{{ message.content }}{%- endfor %}{%- if add_generation_prompt %}{{- '<|im_start|>assistant\n<think>\n' }}{%- if not enable_thinking -%}{{- '</think>' -}}{%- endif -%}{%- endif %}`
	// NVIDIA-Nemotron-3-Nano: an open block with thinking on, a closed one
	// with it off.
	nemotron3Nano = `{%- if add_generation_prompt %}{%- if enable_thinking %}{{- '<|im_start|>assistant\n<think>\n' }}{%- else %}{{- '<|im_start|>assistant\n<think></think>' }}{%- endif %}{%- endif %}`
	// Laguna-S-2.1: the opening tag with thinking on, a lone closing tag
	// with it off.
	lagunaS = `{%- if add_generation_prompt -%}{{- "<assistant>" -}}{%- if enable_thinking -%}{{- '<think>' -}}{%- else -%}{{- '</think>' -}}{%- endif -%}{%- endif -%}`
	// MiniCPM5: the opening tag only when enable_thinking is true.
	miniCPM5 = `{%- if add_generation_prompt %}{{- '<|im_start|>assistant\n' }}{%- if enable_thinking is defined %}{%- if enable_thinking is false %}{{- '<think>\n\n</think>\n\n' }}{%- elif enable_thinking is true %}{{- '<think>\n' }}{%- endif %}{%- endif %}{%- endif %}`
	// MiniMax-M3 writes its tags through variables.
	miniMaxM3 = `{%- set think_begin_token = '<mm:think>' -%}{%- set think_end_token = '</mm:think>' -%}{%- if add_generation_prompt -%}{{- bos_token ~ 'ai' ~ '\n' }}{%- if thinking_mode is defined and thinking_mode == "disabled" -%}{{- think_end_token }}{%- elif thinking_mode is defined and thinking_mode == "enabled" -%}{{- think_begin_token }}{%- endif -%}{%- endif -%}`
	// Seed-OSS closes the block it writes for a thinking budget of 0.
	seedOSS = `{%- set think_begin_token = '<seed:think>' -%}{%- set think_end_token = '</seed:think>' -%}{%- if add_generation_prompt %}{{ bos_token+"assistant\n" }}{%- if thinking_budget == 0 %}{{ think_begin_token + "\n" + "The current thinking budget is 0." + "\n" + think_end_token }}{%- endif %}{%- endif %}`
	// Kimi-K3 builds its tags in a macro: open_tag('think') writes
	// <|open|>think<|sep|>, which no reading of the source resolves.
	kimiK3 = `{%- macro open_tag(tag) -%}{{- '<|open|>' + tag + '<|sep|>' -}}{%- endmacro -%}{%- if add_generation_prompt -%}{{- open_tag('message') -}}{{- open_tag('think' if thinking else 'response') -}}{%- endif -%}`
	// GLM-4.6 writes a closed block, in an inline if, when thinking is off.
	glm46 = `{%- if add_generation_prompt -%}<|assistant|>{{- '\n<think></think>' if (enable_thinking is defined and not enable_thinking) else '' -}}{%- endif -%}`
)

func TestTemplateOpensReasoning(t *testing.T) {
	for _, tt := range []struct {
		name, template string
		open           bool
	}{
		{"deepseek-r1", r1Template, true},
		{"qwen3 hybrid", qwen3Hybrid, false},
		{"ollama go template ending in <think>", goThinking, true},
		{"llama 3", llamaTemplate, false},
		{"empty", "", false},
	} {
		if got, _ := registry.TemplateReasoningStart(tt.template); got != tt.open {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.open)
		}
		if got := registry.DetectTemplate(tt.template).OpensReasoning; got != tt.open {
			t.Errorf("%s: DetectTemplate says %v, want %v", tt.name, got, tt.open)
		}
	}
}

// TestTemplateReasoningStart: a template says the output starts inside a
// block only when its generation prompt opens one on every path, and
// outside only when it leaves none open on any path; where thinking on or
// off decides, or the prompt writes what cannot be resolved, it says
// neither, and the output's first closing tag decides.
func TestTemplateReasoningStart(t *testing.T) {
	const open, closed, neither = "open", "closed", "neither"
	for _, tt := range []struct{ name, template, want string }{
		{"deepseek-r1", r1Template, open},
		{"qwen3 hybrid", qwen3Hybrid, closed},
		{"ollama go template ending in <think>", goThinking, open},
		{"llama 3", llamaTemplate, closed},
		{"qwq, closed when thinking is off", qwqThinkingSwitch, neither},
		{"nemotron 3 nano, open or closed", nemotron3Nano, neither},
		{"laguna-s, open or a lone close", lagunaS, neither},
		{"minicpm5, open when enable_thinking is true", miniCPM5, neither},
		{"minimax-m3, tags in variables", miniMaxM3, neither},
		{"seed-oss, a closed block in variables", seedOSS, closed},
		{"kimi-k3, tags built by a macro", kimiK3, neither},
		{"glm-4.6, a closed block in an inline if", glm46, closed},
	} {
		o, c := registry.TemplateReasoningStart(tt.template)
		got := neither
		switch {
		case o && c:
			got = "both"
		case o:
			got = open
		case c:
			got = closed
		}
		if got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
		if tt.want != neither {
			continue
		}
		// Thinking on: the output holds the block's closing tag, and a call
		// drafted before it is reasoning, one-shot and streamed.
		call := `<tool_call>{"name": "f", "arguments": {"n": 1}}</tool_call>`
		chunks := []string{"I could write ", call, " now.", "</think>", "Sure.", call}
		opts := &registry.Options{Dialect: "hermes", Template: tt.template}
		text := strings.Join(chunks, "")
		res := registry.Parse(text, opts)
		if len(res.Calls) != 1 || !strings.Contains(res.Reasoning, "f") {
			t.Errorf("%s: thinking on: %d calls, reasoning %q; want the drafted call left in the reasoning", tt.name, len(res.Calls), res.Reasoning)
		}
		p := registry.Stream(opts)
		var all []stream.Event
		for i, c := range chunks {
			evs := p.Write(c)
			for _, ev := range evs {
				if ev.Kind == stream.Call && i < 4 {
					t.Errorf("%s: a call reported after chunk %d %q, before the closing tag", tt.name, i, c)
				}
			}
			all = append(all, evs...)
		}
		all = append(all, p.Close()...)
		if err := streamtest.Compare(res, p, all); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}

// TestTemplateSettlesReasoningStart: with a template and neither reasoning
// option, the template says where the output starts, for Parse and Stream
// alike, so that a stream of a template-opened model streams its reasoning
// from the first byte and another model's answer text and calls at once.
func TestTemplateSettlesReasoningStart(t *testing.T) {
	call := `<tool_call>{"name": "f", "arguments": {}}</tool_call>`
	for _, tt := range []struct {
		name, template, text string
		first                stream.Kind // the first event of the first delta
		reasoning            string
		calls                int
	}{
		{"opened by the template", r1Template, "Thinking it over.</think>Sure." + call, stream.Reasoning, "Thinking it over.", 1},
		{"opened by the model", qwen3Hybrid, "Sure, calling it." + call + " Done.", stream.Content, "", 1},
		{"a stray closing tag is text when the template opens nothing", llamaTemplate, "Sure.</think> " + call, stream.Content, "", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			opts := &registry.Options{Dialect: "hermes", Template: tt.template}
			res := registry.Parse(tt.text, opts)
			if res.Reasoning != tt.reasoning || len(res.Calls) != tt.calls {
				t.Fatalf("parse: reasoning %q, %d calls", res.Reasoning, len(res.Calls))
			}
			p := registry.Stream(opts)
			evs := p.Write(tt.text[:12])
			if len(evs) == 0 || evs[0].Kind != tt.first {
				t.Errorf("first delta: %v, want %v first", evs, tt.first)
			}
			all := append(append([]stream.Event(nil), evs...), streamtest.Feed(p, []string{tt.text[12:]})...)
			if err := streamtest.Compare(res, p, all); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestReasoningStartWithoutOptions pins how every dialect reads a closing
// reasoning tag with no opening one when the caller set neither
// ReasoningOpen nor ReasoningClosed and gave no template: as the end of a
// block the template opened, unless the dialect's family never opens one
// (dialects.Syntax.ReasoningClosed) or the output opens with a call, and
// then as ReasoningClosed reads it. Both sides are checked: where the rule
// settles the start, and where a closing tag still decides.
func TestReasoningStartWithoutOptions(t *testing.T) {
	for _, name := range registry.Names() {
		d, _ := registry.Lookup(name)
		syn := dialects.SyntaxOf(d)
		for _, tags := range syn.Reasoning {
			read := func(text string, closed bool) *toolcall.Result {
				o := &registry.Options{Dialect: name}
				o.ReasoningClosed = closed
				return registry.Parse(text, o)
			}
			// Text first: the template may have opened the block.
			text := "Let me think" + tags.Close + " Answer."
			unknown := read(text, false)
			if syn.ReasoningClosed {
				if err := streamtest.SameResult(unknown, read(text, true)); err != nil {
					t.Errorf("%s: %q: its templates open no block, but it is not read as ReasoningClosed reads it: %v", name, text, err)
				}
			} else if unknown.Reasoning != "Let me think" {
				t.Errorf("%s: %q: reasoning %q, want the text before the closing tag", name, text, unknown.Reasoning)
			}
			// A call first: the output did not open inside reasoning.
			for _, s := range syn.Starts {
				text := "\n " + s + " Let me think" + tags.Close + " Answer."
				if err := streamtest.SameResult(read(text, false), read(text, true)); err != nil {
					t.Errorf("%s: %q opens with a call, but is not read as ReasoningClosed reads it: %v", name, text, err)
				}
			}
			for _, c := range []byte("{[") {
				if strings.IndexByte(syn.Bare, c) < 0 {
					continue
				}
				text := string(c) + `"name": "f"` + tags.Close + " Answer."
				if err := streamtest.SameResult(read(text, false), read(text, true)); err != nil {
					t.Errorf("%s: %q opens with a bare call, but is not read as ReasoningClosed reads it: %v", name, text, err)
				}
			}
		}
	}
}
