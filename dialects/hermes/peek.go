package hermes

import (
	"github.com/dialectkit/toolcall/dialects"
)

// Peek returns the pieces Close would return now, leaving r as it was
// (dialects.Peeker): a copy of r with a fresh extractor (each unit is
// read with one reset for it) is closed. The copy views r's output,
// whose text stays as it is (sofar.Output), and writes nothing to it.
func (r *reader) Peek() []dialects.Piece {
	if r.closed {
		return nil
	}
	f := *r
	f.x = extractor{}
	f.out = f.outs[:0]
	return f.Close()
}
