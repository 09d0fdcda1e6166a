package hermes

import (
	"github.com/dialectkit/toolcall/dialects"
)

// Peek returns the pieces Close would return now, leaving r as it was
// (dialects.Peeker): a copy of r with a fresh extractor (each unit is
// read with one reset for it) is closed. The copy views r's output,
// whose text stays as it is (sofar.Output), read whole first (the
// deltas appended join it), so that the copy writes nothing to it.
func (r *reader) Peek() []dialects.Piece {
	if r.closed {
		return nil
	}
	r.in.Text()
	f := *r
	f.x = extractor{}
	// The unit's tags are shifted in place when the unit is read: the
	// copy reads its own.
	f.lines.seen = append([]tag(nil), r.lines.seen...)
	f.out = f.outs[:0]
	return f.Close()
}
