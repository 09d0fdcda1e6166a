package registry

import (
	"strings"

	"github.com/dialectkit/toolcall/dialects"
)

// generationTail is how much of the end of a template without an
// add_generation_prompt section is read as its generation prompt.
const generationTail = 400

// TemplateOpensReasoning reports whether a chat template opens a
// reasoning block for the model: its generation prompt (the text after
// the last add_generation_prompt of a Jinja template, or the last few
// hundred bytes of any other) writes an opening reasoning tag of some
// registered dialect (<think>, <seed:think>, [THINK], …) that it does not
// close. A stream of such a model's output starts inside reasoning
// (Options.ReasoningOpen); of any other template's, outside it
// (Options.ReasoningClosed). Qwen3's hybrid template, which writes
// <think>\n\n</think> only when thinking is off, opens nothing: the
// model writes its own <think>.
func TemplateOpensReasoning(template string) bool {
	return defaultRegistry.TemplateOpensReasoning(template)
}

// TemplateOpensReasoning is the package's TemplateOpensReasoning over the
// reasoning tags of r's dialects.
func (r *Registry) TemplateOpensReasoning(template string) bool {
	tail := template
	if i := strings.LastIndex(tail, "add_generation_prompt"); i >= 0 {
		tail = tail[i:]
	} else if len(tail) > generationTail {
		tail = tail[len(tail)-generationTail:]
	}
	seen := map[dialects.ReasoningTags]bool{}
	for _, d := range r.Dialects() {
		for _, tags := range dialects.SyntaxOf(d).Reasoning {
			if seen[tags] || tags.Open == "" || tags.Close == "" {
				continue
			}
			seen[tags] = true
			if open := strings.LastIndex(tail, tags.Open); open >= 0 && strings.LastIndex(tail, tags.Close) < open {
				return true
			}
		}
	}
	return false
}

// reasoningStart sets the reasoning start of d from the template, when the
// caller gave a template and set neither ReasoningOpen nor ReasoningClosed.
func (r *Registry) reasoningStart(o *Options, d *dialects.Options) {
	if o.Template == "" || o.ReasoningOpen || o.ReasoningClosed {
		return
	}
	open := r.TemplateOpensReasoning(o.Template)
	d.ReasoningOpen, d.ReasoningClosed = open, !open
}
