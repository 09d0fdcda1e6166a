package registry

import (
	"strings"

	"github.com/dialectkit/toolcall/dialects"
)

// generationTail is how much of the end of a template without an
// add_generation_prompt section is read as its generation prompt.
const generationTail = 400

// TemplateReasoningStart reads where a chat template's generation prompt
// leaves the model's output: open says it opens a reasoning block it does
// not close on every path through the prompt (DeepSeek-R1's
// "<｜Assistant｜><think>\n"), closed that it opens none on any path
// (Llama 3; Qwen3's hybrid template, whose only block, written when
// thinking is off, is closed: the model writes its own <think>). They are
// the values of Options.ReasoningOpen and ReasoningClosed for its output.
//
// Neither is set when it depends: a Jinja generation prompt that opens the
// block only under a condition (if enable_thinking), or opens it and closes
// it under one (if not enable_thinking: </think>), or writes something the
// reading cannot resolve (a macro that builds the tag, as Kimi-K3's
// open_tag('think'), or a variable set outside the template). The
// output's first closing tag then decides, as with no template: setting
// either option there would read a thinking model's reasoning as its
// answer, and a call it drafted while thinking as a call to run, or an
// answer as reasoning. Variables the template sets to a string literal
// ({% set think_begin_token = '<seed:think>' %}) are resolved. A template
// that is not Jinja is read from its last few hundred bytes, as written.
func TemplateReasoningStart(template string) (open, closed bool) {
	return defaultRegistry.TemplateReasoningStart(template)
}

// TemplateReasoningStart is the package's TemplateReasoningStart over the
// reasoning tags of r's dialects.
func (r *Registry) TemplateReasoningStart(template string) (open, closed bool) {
	var tags []dialects.ReasoningTags
	seen := map[dialects.ReasoningTags]bool{}
	for _, d := range r.Dialects() {
		for _, t := range dialects.SyntaxOf(d).Reasoning {
			if !seen[t] && t.Open != "" && t.Close != "" {
				seen[t] = true
				tags = append(tags, t)
			}
		}
	}
	if i := strings.LastIndex(template, "add_generation_prompt"); i >= 0 {
		if pieces, ok := generationPrompt(template, i); ok {
			return readStart(pieces, tags)
		}
		template = template[i:]
	} else if len(template) > generationTail {
		template = template[len(template)-generationTail:]
	}
	for _, t := range tags {
		if open := strings.LastIndex(template, t.Open); open >= 0 && strings.LastIndex(template, t.Close) < open {
			return true, false
		}
	}
	return false, true
}

// reasoningStart sets the reasoning start of d from the template, when the
// caller gave a template and set neither ReasoningOpen nor ReasoningClosed.
func (r *Registry) reasoningStart(o *Options, d *dialects.Options) {
	if o.Template == "" || o.ReasoningOpen || o.ReasoningClosed {
		return
	}
	d.ReasoningOpen, d.ReasoningClosed = r.TemplateReasoningStart(o.Template)
}
