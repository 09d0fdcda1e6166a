package tagged

import (
	"slices"

	"github.com/dialectkit/toolcall/dialects"
)

// Syntax describes the dialect to the stream engine: the section is the
// region when the dialect has one, else each call; end-of-turn literals,
// loose wrappers and a trailing JSON call hold the stream back.
func (t *Dialect) Syntax() dialects.Syntax {
	d := &t.desc
	syn := dialects.Syntax{ReasoningClosed: d.ReasoningClosed}
	syn.Reasoning = d.reasoningTags()
	switch {
	case d.frame != nil:
		// Messages framed by recipient headers, which need no marker:
		// nothing is certain before the end. An output that opens with
		// the framing (a message, its header, a call block) opens outside
		// reasoning, as one that opens with a call does
		// (dialects.ImplicitReasoning).
		return dialects.Syntax{Opaque: true, ReasoningClosed: d.ReasoningClosed, Reasoning: syn.Reasoning, Starts: slices.Clone(t.markers)}
	case d.ScopeStart != "" && d.ScopeOptional:
		syn.Starts = []string{d.ScopeStart, d.ToolStart}
		syn.Ends = []string{d.ScopeEnd, d.ToolEnd}
	case d.ScopeStart != "":
		syn.Starts, syn.Ends = []string{d.ScopeStart}, []string{d.ScopeEnd}
		syn.Tokens = append(syn.Tokens, d.ToolStart)
		if d.ToolEnd != "" {
			syn.CallEnds = []string{d.ToolEnd}
		}
	default:
		syn.Starts, syn.Ends = []string{d.ToolStart}, []string{d.ToolEnd}
		// A frame around calls is part of their region.
		for _, f := range t.frames {
			syn.Starts = append(syn.Starts, f.Start)
			syn.Ends = append(syn.Ends, f.End)
		}
	}
	for _, m := range t.markers {
		// A reasoning tag that announces the dialect (LongCat's) is the
		// stream's as a reasoning tag already.
		if !isReasoningTag(m, syn.Reasoning) {
			syn.Tokens = append(syn.Tokens, m)
		}
	}
	syn.Tokens = append(syn.Tokens, d.Evidence...)
	syn.Tokens = append(syn.Tokens, d.EndOfTurn...)
	syn.Tokens = append(syn.Tokens, d.Strip...)
	for _, w := range d.LooseWrappers {
		syn.Tokens = append(syn.Tokens, w.Start)
	}
	if d.TrailingJSONCall {
		syn.Bare = "{"
	}
	return syn
}

func isReasoningTag(s string, tags []dialects.ReasoningTags) bool {
	for _, t := range tags {
		if s == t.Open || s == t.Close {
			return true
		}
	}
	return false
}
