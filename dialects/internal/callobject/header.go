package callobject

import (
	"strings"

	"github.com/dialectkit/toolcall/internal/textlayer"
)

// Header reads, as its text arrives, the start of a call object written
// {"name": "…", "arguments": … in that order, blanks allowed between
// its tokens: an object that begins so names its tool before its
// arguments, so an engine that knows the object will end as a call or a
// failed call whatever follows can announce it (dialects.PieceCallStart)
// and send its argument text as it arrives. Set At to the offset of the
// object's '{' before the first Next; Next reads each byte once over all
// its calls.
type Header struct {
	// At is where the reading goes on: the object's '{' at first.
	At int
	k  int // the token expected at At (headerTokens)
	// [n0, n1) is the name once read; scan is how far a name not ended
	// yet was searched.
	n0, n1, scan int
}

// headerTokens are the tokens of a header in order; "" is the name.
var headerTokens = [...]string{"{", `"name"`, ":", `"`, "", `"`, ",", `"arguments"`, ":"}

// Next reads t, the text so far (longer at each call): args is the offset
// of the first byte of the arguments' value and ok is true once the
// header is read whole; more says t ends before the header is known to
// be one or not (ok and more false: it is not one). The name is
// t[h.Name()].
func (h *Header) Next(t string) (args int, ok, more bool) {
	i := h.At
	for ; h.k < len(headerTokens); h.k++ {
		for i < len(t) && textlayer.IsSpace(t[i]) {
			i++
		}
		want := headerTokens[h.k]
		if want == "" {
			// The name: up to its closing quote; an escape or a line
			// break in it is no name a header announces.
			h.scan = max(h.scan, i)
			e := strings.IndexAny(t[h.scan:], "\"\\\n")
			if e < 0 {
				h.At, h.scan = i, len(t)
				return 0, false, true
			}
			if e += h.scan; t[e] != '"' || e == i {
				return 0, false, false
			}
			h.n0, h.n1, i = i, e, e
			continue
		}
		n := min(len(want), len(t)-i)
		if t[i:i+n] != want[:n] {
			return 0, false, false
		}
		if n < len(want) {
			h.At = i
			return 0, false, true
		}
		i += n
	}
	for i < len(t) && textlayer.IsSpace(t[i]) {
		i++
	}
	h.At = i
	if i == len(t) {
		return 0, false, true
	}
	return i, true, false
}

// Name returns where the name read is in the text: [start, end).
func (h *Header) Name() (start, end int) { return h.n0, h.n1 }
