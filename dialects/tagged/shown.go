package tagged

import (
	"strings"

	"github.com/dialectkit/toolcall/internal/shown"
)

// shownState decides whether markup at a place of the output is shown
// rather than made, by what precedes it (shown.ShownScan.ShownAt):
// inside inline code, a quotation, or a fence labelled with a programming
// language or presented as an example. It reads the output once, as it
// grows; until the first byte that may open a quotation, code or a fence,
// nothing is shown and the scan is not read at all, and until a call
// holds a backtick, no call needs telling it.
type shownState struct {
	// scan reads the output, once markup after the first such byte is
	// asked about or a call holds a backtick (nil before); spare, when
	// not nil, is where it is made then.
	scan, spare *shown.ShownScan
	// bytes are where those bytes lie: a fact of the output, shared by
	// the copies of a state a Reader tries stretches with.
	bytes *shownBytes
}

// shownBytes says where the output's first byte that may open a
// quotation, code or a fence lies (sig), and its first backtick (tick),
// once found up to to; -1 none.
type shownBytes struct{ sig, tick, to int }

func newShownBytes() shownBytes { return shownBytes{sig: -1, tick: -1} }

// opensShown are the bytes that may open a quotation (an ASCII quote, or
// the first byte of a typographic one), inline code or a fence.
var opensShown = [256]bool{'`': true, '~': true, '"': true, '\'': true, 0xE2: true}

// find looks for the first byte that may open a shown part, and the first
// backtick, up to upto: each byte of the output is looked at once.
func (s *shownBytes) find(src string, upto int) {
	if s.to >= upto || s.tick >= 0 {
		return
	}
	if s.sig < 0 {
		i := s.to
		for i < upto && !opensShown[src[i]] {
			i++
		}
		if i < upto {
			s.sig = i
		}
	}
	if s.sig >= 0 {
		from := max(s.to, s.sig)
		if k := strings.IndexByte(src[from:upto], '`'); k >= 0 {
			s.tick = from + k
		}
	}
	s.to = upto
}

// at reports whether markup at src[i] is shown. src is the output so far:
// each call passes the output the last one did or a longer one, and i
// does not fall below the last i asked.
func (s *shownState) at(src string, i int) bool {
	s.bytes.find(src, i)
	if s.bytes.sig < 0 || i <= s.bytes.sig {
		return false
	}
	s.start()
	return s.scan.ShownAt(src, i)
}

// call tells the scan that src[start:end] is a call or a section read as
// one: the backticks in it open no inline code. A call before the first
// backtick needs no telling.
func (s *shownState) call(src string, start, end int) {
	s.bytes.find(src, end)
	if s.bytes.tick >= 0 && s.bytes.tick < end {
		s.start()
		s.scan.Call(start, end)
	}
}

// start makes the scan, when there is none yet.
func (s *shownState) start() {
	if s.scan != nil {
		return
	}
	s.scan, s.spare = s.spare, nil
	if s.scan == nil {
		s.scan = new(shown.ShownScan)
	}
	*s.scan = shown.ShownScan{}
}
