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
		if got := registry.TemplateOpensReasoning(tt.template); got != tt.open {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.open)
		}
		if got := registry.DetectTemplate(tt.template).OpensReasoning; got != tt.open {
			t.Errorf("%s: DetectTemplate says %v, want %v", tt.name, got, tt.open)
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

func TestOpensCall(t *testing.T) {
	syn := &dialects.Syntax{Starts: []string{"<tool_call>", "[TOOL_CALLS]"}, Bare: "{(`"}
	for text, want := range map[string]bool{
		"<tool_call>":            true,
		" \n\t<TOOL_CALL>{":      true,
		"[tool_calls] [":         true,
		"{\"name\"":              true,
		"  {":                    true,
		"(f)":                    false, // only '{' and '[' of Bare open a call here
		"`{}`":                   false,
		"[x]":                    false, // '[' is not in Bare
		"<tool_cal":              false,
		"Sure. <tool_call>":      false,
		"\u00a0<tool_call>":      false, // only ASCII space, tab and line breaks are skipped
		"<tool_call\u212a":       false,
		"":                       false,
		"<think>a</think><tool_": false,
	} {
		if got := dialects.OpensCall(text, syn); got != want {
			t.Errorf("OpensCall(%q) = %v, want %v", text, got, want)
		}
	}
}
