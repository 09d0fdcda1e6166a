package stream

import (
	"strings"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/jsonscan"
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
// a list opened at depth zero (each call of [{…}, {…}]). A bracket inside
// a candidate's marker (MiniMax-M3's "]<]minimax[>[", Mistral's
// "[TOOL_CALLS]") is none: the marker is passed over whole. Which
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

	pos    int  // bytes examined
	depth  int  // bracket depth outside strings
	inList bool // the value at depth zero is a list
	inStr  bool // inside a "…" string at depth > 0
	asked  int  // points returned
}

// endSet is the closing markers of a set of dialects, looked up by their
// last byte, and their markers that hold a bracket (marks), looked up by
// their first byte: a bracket inside a marker (MiniMax-M3's
// "]<]minimax[>[", Mistral's "[TOOL_CALLS]") opens and closes no value.
type endSet struct {
	last  [256]bool
	words []string
	first [256]bool
	marks []string
}

// PointSet is the closing markers of a set of candidate dialects, the part
// of Points shared by every output.
type PointSet struct{ ends endSet }

// NewPointSet collects the closing markers of the candidates
// (dialects.Syntax Ends and CallEnds).
func NewPointSet(candidates []dialects.Dialect) *PointSet {
	s := &PointSet{}
	seen, marked := map[string]bool{}, map[string]bool{}
	for _, d := range candidates {
		syn := dialects.SyntaxOf(d)
		if syn.Opaque {
			continue
		}
		ends := append(syn.Ends[:len(syn.Ends):len(syn.Ends)], syn.CallEnds...)
		for _, w := range ends {
			if w == "" || seen[w] {
				continue
			}
			seen[w] = true
			s.ends.words = append(s.ends.words, w)
			s.ends.last[w[len(w)-1]] = true
		}
		marks := append(append(ends, syn.Starts...), syn.Tokens...)
		for _, w := range syn.Reasoning {
			marks = append(marks, w.Open, w.Close)
		}
		for _, w := range marks {
			if w == "" || marked[w] || !strings.ContainsAny(w, "{}[]()") {
				continue
			}
			marked[w] = true
			s.ends.marks = append(s.ends.marks, w)
			s.ends.first[w[0]] = true
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
		if !pt.inStr && pt.ends.first[c] {
			// A marker that holds a bracket is passed over whole; the
			// text may end inside one, which the next bytes tell.
			n, partial := pt.ends.markAt(text[pt.pos:])
			if partial {
				return 0, false
			}
			if n > 0 {
				pt.pos += n
				if pt.ends.endsAt(text[:pt.pos]) {
					pt.asked++
					return pt.pos, true
				}
				continue
			}
		}
		pt.pos++
		point := false
		switch {
		case pt.inStr:
			pt.inStr = c != '"' || jsonscan.Escaped(text, pt.pos-1)
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
				// A list's element is a point in a fence too: the
				// dialects that read fenced calls send each element of
				// a fenced list as it closes.
				point = pt.depth == 0 || pt.lists && pt.depth == 1 && pt.inList
			}
		}
		if !point && pt.ends.last[c] {
			point = pt.ends.endsAt(text[:pt.pos])
		}
		if point {
			pt.asked++
			return pt.pos, true
		}
	}
	return 0, false
}

// endsAt reports whether text ends with a closing marker.
func (s *endSet) endsAt(text string) bool {
	for _, w := range s.words {
		if strings.HasSuffix(text, w) {
			return true
		}
	}
	return false
}

// markAt returns the length of the longest marker holding a bracket that
// text begins with (0: none), and whether text is a proper prefix of one,
// which more text may make the longest.
func (s *endSet) markAt(text string) (n int, partial bool) {
	for _, m := range s.marks {
		switch {
		case len(text) < len(m):
			if strings.HasPrefix(m, text) {
				return 0, true
			}
		case strings.HasPrefix(text, m):
			n = max(n, len(m))
		}
	}
	return n, false
}
