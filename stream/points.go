package stream

import (
	"strings"

	"github.com/dialectkit/toolcall/dialects"
)

// MaxDecisions caps the points at which a detecting stream (and the
// one-shot detection that must agree with it) asks whether the output so
// far decides its dialect. Each ask is one detection over the text read so
// far; past the cap the dialect is detected from the whole output.
const MaxDecisions = 8

// Points finds the places in an output where its dialect may be decided
// early: right after a call region's closing marker (of any candidate
// dialect), and right after a bracket that closes a value opened at depth
// zero ({…}, […], (…), the end of a bare JSON or pythonic call), or inside
// a list opened at depth zero (each call of [{…}, {…}]). Which
// bytes are points depends only on the bytes before them, so a stream that
// reads the output delta by delta finds exactly the points a one-shot
// parse of the whole output finds, and both decide the same way.
//
// Build one with NewPoints per output (it is cheap: the end markers are
// shared), and call Next with the output so far, as often as it grows.
type Points struct {
	ends *endSet
	// lists says a value that closes inside a list opened at depth zero
	// ([{…}, …], [f(…), …]) is a point too.
	lists bool

	pos     int  // bytes examined
	depth   int  // bracket depth outside strings
	inList  bool // the value at depth zero is a list
	ticks   int  // backticks in a row just before pos
	fenced  bool // a fence (```) came before: list elements are no points
	inStr   bool // inside a "…" string at depth > 0
	escaped bool // after a backslash in that string
	asked   int  // points returned
}

// endSet is the closing markers of a set of dialects, looked up by their
// last byte.
type endSet struct {
	last  [256]bool
	words []string
}

// PointSet is the closing markers of a set of candidate dialects, the part
// of Points shared by every output.
type PointSet struct{ ends endSet }

// NewPointSet collects the closing markers of the candidates
// (dialects.Syntax Ends and CallEnds).
func NewPointSet(candidates []dialects.Dialect) *PointSet {
	s := &PointSet{}
	seen := map[string]bool{}
	for _, d := range candidates {
		syn := dialects.SyntaxOf(d)
		if syn.Opaque {
			continue
		}
		for _, w := range append(syn.Ends[:len(syn.Ends):len(syn.Ends)], syn.CallEnds...) {
			if w == "" || seen[w] {
				continue
			}
			seen[w] = true
			s.ends.words = append(s.ends.words, w)
			s.ends.last[w[len(w)-1]] = true
		}
	}
	return s
}

// Points returns a fresh scanner over the set's markers.
func (s *PointSet) Points() *Points { return &Points{ends: &s.ends, lists: true} }

// Next returns the next point in text (the output so far; each call passes
// the same output, longer or not) after the last one returned, or false
// when text holds no further point or MaxDecisions points were returned.
func (pt *Points) Next(text string) (int, bool) {
	if pt.asked >= MaxDecisions {
		return 0, false
	}
	for pt.pos < len(text) {
		c := text[pt.pos]
		pt.pos++
		point := false
		if c == '`' {
			pt.ticks++
			pt.fenced = pt.fenced || pt.ticks >= 3
		} else {
			pt.ticks = 0
		}
		switch {
		case pt.inStr:
			switch {
			case pt.escaped:
				pt.escaped = false
			case c == '\\':
				pt.escaped = true
			case c == '"':
				pt.inStr = false
			}
		case c == '"' && pt.depth > 0:
			pt.inStr = true
		case c == '{' || c == '[' || c == '(':
			if pt.depth == 0 {
				pt.inList = c == '['
			}
			pt.depth++
		case c == '}' || c == ']' || c == ')':
			if pt.depth > 0 {
				pt.depth--
				// Inside a fence, a list's first element does not show
				// which dialect reads the fence.
				point = pt.depth == 0 || pt.lists && pt.depth == 1 && pt.inList && !pt.fenced
			}
		}
		if !point && pt.ends.last[c] {
			for _, w := range pt.ends.words {
				if strings.HasSuffix(text[:pt.pos], w) {
					point = true
					break
				}
			}
		}
		if point {
			pt.asked++
			return pt.pos, true
		}
	}
	return 0, false
}
