package harmony

import (
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/shown"
)

// Peek returns the pieces Close would return now, leaving r as it was
// (dialects.Peeker): a copy of r is closed, its segment's joiner its own,
// with its own fork of the shown scan. The output so far is a string r
// only appends to.
func (r *reader) Peek() []dialects.Piece {
	if r.closed {
		return nil
	}
	f := *r
	f.out = nil
	switch r.text {
	case &r.content:
		f.text = &f.content
	case &r.reasoning:
		f.text = &f.reasoning
	}
	f.shown = shown.ShownScan{}
	r.shown.ForkTo(&f.shown)
	return f.Close()
}
