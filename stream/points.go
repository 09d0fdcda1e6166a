package stream

import "strings"

// MaxDecisions caps the points at which a detecting stream (and the
// one-shot detection that must agree with it) asks whether the output so
// far decides its dialect. Each ask is one detection over the text read so
// far; past the cap the dialect is detected from the whole output.
const MaxDecisions = 8

// Points finds the places in an output where its dialect may be decided
// early: right after a call region's closing marker (of any candidate
// dialect), and right after a bracket that closes a value opened at depth
// zero ({…}, […], (…), the end of a bare JSON or pythonic call). Which
// bytes are points depends only on the bytes before them, so a stream that
// reads the output delta by delta finds exactly the points a one-shot
// parse of the whole output finds, and both decide the same way.
//
// Build one with NewPoints per output (it is cheap: the end markers are
// shared), and call Next with the output so far, as often as it grows.
type Points struct {
	ends *endSet

	pos     int  // bytes examined
	depth   int  // bracket depth outside strings
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

// NewPointSet collects the closing markers of the candidates.
func NewPointSet(candidates []*Profile) *PointSet {
	s := &PointSet{}
	seen := map[string]bool{}
	for _, cp := range candidates {
		if cp.opaque {
			continue
		}
		for _, w := range cp.syn.Ends {
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
func (s *PointSet) Points() *Points { return &Points{ends: &s.ends} }

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
			pt.depth++
		case c == '}' || c == ']' || c == ')':
			if pt.depth > 0 {
				pt.depth--
				point = pt.depth == 0
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
