package markers

import (
	"slices"

	"github.com/dialectkit/toolcall/dialects"
)

// Syntax describes the dialect to detection (dialects.Syntax): its
// section and call markers, the closing markers where an output may decide
// its dialect (none for a form without a closing marker, which runs to the
// next marker or the end of the output), and its other tokens.
func (d *Dialect) Syntax() dialects.Syntax {
	syn := dialects.Syntax{Reasoning: d.reasoning, ReasoningClosed: d.desc.ReasoningClosed,
		Answer: slices.Clone(d.desc.Answer)}
	for _, m := range d.secStart {
		syn.Starts = append(syn.Starts, m.text)
	}
	for _, m := range d.secEnd {
		syn.Ends = append(syn.Ends, m.text)
	}
	closed := true
	for _, f := range d.forms {
		for _, m := range f.start {
			syn.Starts = append(syn.Starts, m.text)
		}
		for _, m := range f.end {
			syn.Ends = append(syn.Ends, m.text)
		}
		closed = closed && len(f.end) > 0
		if f.Implicit {
			// The prompt may have written the first marker: the output can
			// open with a bare header, any tool name.
			return dialects.Syntax{Opaque: true, ReasoningClosed: d.desc.ReasoningClosed}
		}
	}
	if !closed {
		// A form without an end marker runs to the next marker or the end
		// of the output; another form's end marker must not cut it short.
		syn.Tokens = append(syn.Tokens, syn.Ends...)
		syn.Ends = nil
	}
	for _, m := range d.stripSet {
		syn.Tokens = append(syn.Tokens, m.text)
	}
	syn.Tokens = append(syn.Tokens, d.barePrefix...)
	for _, w := range d.desc.BareWrappers {
		syn.Tokens = append(syn.Tokens, w.Start)
	}
	syn.Tokens = append(syn.Tokens, d.markers...)
	if d.bare {
		syn.Bare = "{[`"
	}
	return syn
}
