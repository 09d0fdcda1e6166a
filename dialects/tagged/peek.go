package tagged

import (
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/shown"
)

// Peek returns the pieces Close would return now, leaving r as it was
// (dialects.Peeker): a copy of r is closed, with its own arrays (the
// literals found, the stretch's spans, the extraction), its own fork of
// the shown scan and of what it knows of the output's bytes. The output
// so far is a string r only appends to.
func (r *reader) Peek() []dialects.Piece {
	f := *r
	f.out = f.outBuf[:0]
	f.cands = append(f.candBuf[:0:0], r.cands...)
	f.st.spans, f.st.shown = nil, nil
	f.ext = dialects.Extraction{}
	f.shown.bytes = &f.shownBytes
	if r.shown.scan != nil {
		f.shown.scan = new(shown.ShownScan)
		r.shown.scan.ForkTo(f.shown.scan)
	}
	f.shown.spare, f.spare = nil, nil
	f.try = shownState{bytes: &f.shownBytes}
	return f.Close()
}
