package markers

import (
	"slices"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/shown"
)

// Peek returns the pieces Close would return now, leaving r as it was
// (dialects.Peeker): a copy of r is closed, with an extractor and a scan
// of its own (r's keep their memory for r's readings). Close gives the
// calls of the last reading their offsets in the output, in place: when
// that reading is the one the copy uses, the copy sends copies of its
// calls.
func (r *reader) Peek() []dialects.Piece {
	f := *r
	f.out = nil
	f.x, f.scratch = extractor{}, shown.ShownScan{}
	if r.hasRead && r.read.x != nil {
		x := *r.read.x
		x.Calls = slices.Clone(x.Calls)
		for i := range x.Calls {
			if e, ok := x.Calls[i].Err.(*toolcall.Error); ok {
				c := *e
				x.Calls[i].Err = &c
			}
		}
		f.read.x = &x
	}
	return f.Close()
}
