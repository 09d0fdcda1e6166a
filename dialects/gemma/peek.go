package gemma

import (
	"slices"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/shown"
)

// Peek returns the pieces Close would return now, leaving r as it was
// (dialects.Peeker): a copy of r is closed, with its own arrays of held
// text and pieces and its own fork of the shown scan. The output so far
// is a string r only appends to.
func (r *reader) Peek() []dialects.Piece {
	f := *r
	f.out = nil
	f.content.held = slices.Clone(r.content.held)
	f.reasoning.held = slices.Clone(r.reasoning.held)
	f.hold.reasoning.held = slices.Clone(r.hold.reasoning.held)
	f.hold.opens, f.hold.pend = slices.Clone(r.hold.opens), slices.Clone(r.hold.pend)
	f.shown = shown.ShownScan{}
	r.shown.ForkTo(&f.shown)
	return f.Close()
}
