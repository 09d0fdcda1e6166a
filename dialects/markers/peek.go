package markers

import (
	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
)

// peekMem is the memory Peek reads with, kept for the next Peek: the copy
// of the Reader it closes, the memory of that copy's reading, its pieces,
// and the copies of the calls of the Reader's own last reading (their
// errors are copied anew each time, as a reading may keep one).
type peekMem struct {
	f     reader
	mem   readMem
	out   []dialects.Piece
	x     dialects.Extraction
	calls []dialects.RawCall
}

// Peek returns the pieces Close would return now, leaving r as it was
// (dialects.Peeker): a copy of r is closed, with an extractor and a fork
// of the scan of what is shown of its own (r's keep their memory for r's
// readings; the copy reads r's scan and leaves it as it was). Close gives
// the calls of the last reading their offsets in the output, in place:
// when that reading is the one the copy uses, the copy sends copies of its
// calls. The pieces and calls returned are reused by the next Peek.
func (r *reader) Peek() []dialects.Piece {
	r.memory()
	p := r.peeks
	if p == nil {
		p = &peekMem{}
		r.peeks = p
	}
	f := &p.f
	*f = *r
	f.out, f.mem, f.peeks = p.out[:0], &p.mem, nil
	if r.hasRead && r.read.x != nil {
		p.x = *r.read.x
		p.calls = append(p.calls[:0], p.x.Calls...)
		for i := range p.calls {
			if e, ok := p.calls[i].Err.(*toolcall.Error); ok {
				c := *e // a reading may keep the error: never reused
				p.calls[i].Err = &c
			}
		}
		p.x.Calls = p.calls
		f.read.x = &p.x
	}
	out := f.Close()
	p.out = out
	return out
}
