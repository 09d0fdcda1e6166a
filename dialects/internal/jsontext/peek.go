package jsontext

import (
	"slices"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/shown"
	"github.com/dialectkit/toolcall/internal/sofar"
)

// Peek returns the pieces Close would return now, leaving r as it was
// (dialects.Peeker): a copy of r is closed, with its own arrays of held
// blanks, of the line and of the answer text read, its own shown scan and
// its own fence reader. The text it reads
// (cur) is a string r never writes again.
func (r *reader) Peek() []dialects.Piece {
	f := *r
	f.buf = sofar.Output{} // the copy reads cur, and writes nothing more
	if r.tc != nil {
		tc := *r.tc
		f.tc = &tc
	}
	f.blanks, f.rblanks, f.line = slices.Clone(r.blanks), slices.Clone(r.rblanks), slices.Clone(r.line)
	// The answer text read and its shown scan: the copy appends to its
	// own (a clipped slice reallocates) and forks the scan.
	f.seen = slices.Clip(r.seen)
	f.shown = shown.ShownScan{}
	r.shown.ForkTo(&f.shown)
	f.out = f.outs[:0]
	f.step(true)
	return f.out
}
