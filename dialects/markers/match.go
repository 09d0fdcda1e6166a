package markers

import "strings"

// marker is a compiled marker: its literal parts, matched in order with
// optional whitespace between them. A space in a descriptor's marker
// stands for that optional whitespace, so "<|action_start|> <|plugin|>"
// matches both "<|action_start|><|plugin|>" and "<|action_start|>\n<|plugin|>".
type marker struct {
	text  string // as written in the descriptor
	parts []string
}

func compileMarker(s string) marker {
	var parts []string
	for _, p := range strings.Split(s, " ") {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return marker{text: s, parts: parts}
}

// matchAt reports whether the marker starts at s[i], and where it ends.
func (m marker) matchAt(s string, i int) (end int, ok bool) {
	for k, p := range m.parts {
		if k > 0 {
			i = skipBlank(s, i)
		}
		if !strings.HasPrefix(s[i:], p) {
			return 0, false
		}
		i += len(p)
	}
	return i, true
}

// cutIn reports whether the output ends inside one of ms at s[i], past
// blanks: what is left of the text is a proper prefix of the marker.
func cutIn(ms []marker, s string, i int) bool {
	i = skipBlank(s, i)
	if i >= len(s) {
		return false
	}
	for _, m := range ms {
		j := i
		for k, p := range m.parts {
			if k > 0 {
				j = skipBlank(s, j)
			}
			if rest := s[j:]; len(rest) < len(p) {
				if strings.HasPrefix(p, rest) {
					return true
				}
				break
			}
			if !strings.HasPrefix(s[j:], p) {
				break
			}
			j += len(p)
		}
	}
	return false
}

// markerSet is a list of markers with a table of their first bytes, so a
// scanner can test a position for any of them cheaply.
type markerSet struct {
	list  []marker
	first [256]bool
}

func newMarkerSet(ms ...[]marker) *markerSet {
	set := &markerSet{}
	for _, group := range ms {
		for _, m := range group {
			if len(m.parts) == 0 {
				continue
			}
			set.list = append(set.list, m)
			set.first[m.parts[0][0]] = true
		}
	}
	return set
}

// in reports whether a marker of the set starts in s[from:to], reading
// on past to for the rest of it; a nil set holds none.
func (set *markerSet) in(s string, from, to int) bool {
	if set == nil {
		return false
	}
	for k := from; k < to; k++ {
		if set.first[s[k]] {
			if _, ok := set.matchAt(s, k); ok {
				return true
			}
		}
	}
	return false
}

// matchAt reports whether a marker of the set starts at s[i], and where
// the first one listed that does ends.
func (set *markerSet) matchAt(s string, i int) (end int, ok bool) {
	if i >= len(s) || !set.first[s[i]] {
		return 0, false
	}
	return matchAny(set.list, s, i)
}

// matchIndex reports which marker of the set, the first one listed,
// starts at s[i], and where it ends.
func (set *markerSet) matchIndex(s string, i int) (k, end int, ok bool) {
	if i >= len(s) || !set.first[s[i]] {
		return -1, 0, false
	}
	for k, m := range set.list {
		if end, ok := m.matchAt(s, i); ok {
			return k, end, true
		}
	}
	return -1, 0, false
}

// matchAny reports whether one of ms starts at s[i], and where it ends.
func matchAny(ms []marker, s string, i int) (end int, ok bool) {
	for _, m := range ms {
		if end, ok := m.matchAt(s, i); ok {
			return end, true
		}
	}
	return 0, false
}

// indexAny finds the first of ms in s[from:limit], returning its start and
// end offsets in s, or -1.
func indexAny(ms []marker, s string, from, limit int) (at, end int) {
	at = -1
	for _, m := range ms {
		for i := from; i < limit; {
			j := strings.Index(s[i:limit], m.parts[0])
			if j < 0 {
				break
			}
			if e, ok := m.matchAt(s, i+j); ok {
				if at < 0 || i+j < at {
					at, end = i+j, e
				}
				break
			}
			i += j + 1
		}
		if at >= 0 {
			limit = at // a later marker can only win by starting earlier
		}
	}
	return at, end
}

// finder finds, again and again at increasing offsets, the next place where
// one of a set of markers starts. It remembers where each marker occurs
// next, so the whole text is searched once per marker, not once per query:
// queries must come with non-decreasing offsets.
//
// The Reader gives it the places its scan found where an opener's first
// part starts (known): below limit, those are all the places a marker may
// start, and find looks no further; the text from limit on, which the
// scan has not read yet, is searched.
type finder struct {
	s    string
	set  *markerSet
	next []int // next occurrence of each marker's first part; -2 unknown, -1 none
	last int   // the last query's offset
	// known are the places, in the output, where an opener's first part
	// starts, in order, those before off+limit all of them; off is where
	// s begins in the output, c the first place not passed.
	known      []int
	off, limit int
	c          int
}

// init readies f for s, keeping its memory in buf when it is large enough.
func (f *finder) init(s string, set *markerSet, buf []int) {
	f.s, f.set, f.last = s, set, 0
	f.known, f.off, f.limit, f.c = nil, 0, 0, 0
	if cap(buf) >= len(set.list) {
		f.next = buf[:len(set.list)]
	} else {
		f.next = make([]int, len(set.list))
	}
	for i := range f.next {
		f.next[i] = -2
	}
}

// find returns the marker that starts first at or after from (the earliest
// listed one on a tie), with its start and end, or k = -1.
func (f *finder) find(from int) (k, at, end int) {
	if from < f.last { // not expected; stay correct rather than fast
		for i := range f.next {
			f.next[i] = -2
		}
		f.c = 0
	}
	f.last = from
	if from > len(f.s) {
		return -1, -1, 0
	}
	for ; f.c < len(f.known) && f.known[f.c]-f.off < f.limit; f.c++ {
		if at := f.known[f.c] - f.off; at >= from {
			if k, e, ok := f.set.matchIndex(f.s, at); ok {
				return k, at, e
			}
		}
	}
	if f.limit > 0 {
		// Every place before limit is known: the search goes on after.
		from = max(from, f.limit)
		f.last = from
	}
	for {
		k, at = -1, -1
		for j, m := range f.set.list {
			n := f.next[j]
			if n == -1 {
				continue
			}
			if n < from {
				idx := strings.Index(f.s[from:], m.parts[0])
				if idx < 0 {
					f.next[j] = -1
					continue
				}
				n = from + idx
				f.next[j] = n
			}
			if at < 0 || n < at {
				k, at = j, n
			}
		}
		if k < 0 {
			return -1, -1, 0
		}
		if e, ok := f.set.list[k].matchAt(f.s, at); ok {
			return k, at, e
		}
		// The first part matched but the rest did not: look further.
		idx := strings.Index(f.s[at+1:], f.set.list[k].parts[0])
		if idx < 0 {
			f.next[k] = -1
		} else {
			f.next[k] = at + 1 + idx
		}
	}
}
