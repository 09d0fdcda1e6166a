package hermes

import (
	"strings"

	"github.com/dialectkit/toolcall/dialects"
)

// Peek returns the pieces Close would return now, leaving r as it was
// (dialects.Peeker): a copy of r with its own copy of the held text and a
// fresh extractor (each unit is read with one reset for it) is closed.
func (r *reader) Peek() []dialects.Piece {
	if r.closed {
		return nil
	}
	f := *r
	f.h = hold{view: r.h.text()}
	if r.h.inAcc {
		// The held text in the array r writes on: what the copy
		// returns must not view it.
		f.h.view = strings.Clone(f.h.view)
	}
	f.x = extractor{}
	f.out = f.outs[:0]
	return f.Close()
}
