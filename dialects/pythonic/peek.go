package pythonic

import (
	"slices"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/shown"
)

// Peek returns the pieces Close would return now, leaving r as it was
// (dialects.Peeker): a copy of r is closed, with its own record of where
// its literals occur and its own fork of the shown scan. The output so
// far is a string r only appends to.
func (r *reader) Peek() []dialects.Piece {
	f := *r
	f.out = nil
	f.ahead = slices.Clone(r.ahead)
	f.shown = shown.ShownScan{}
	r.shown.ForkTo(&f.shown)
	return f.Close()
}
