package strictjson

import (
	"strings"

	"github.com/dialectkit/toolcall/internal/jsonscan"
)

// IndexTag returns the offset of the first tag in text that does not stand
// inside a string of a JSON value, or -1. Structure inside a string is
// text: a reasoning tag written in an argument ("a <think> b") neither
// opens nor closes a block. A tag is inside a string when a JSON value
// that opens before it (one of the few nearest brackets) holds it in one
// of its strings and reads on, as strict JSON, past it; the search then
// goes on past that value, so that each byte is read a bounded number of
// times.
func IndexTag(text, tag string) int {
	for from := 0; from <= len(text); {
		i := strings.Index(text[from:], tag)
		if i < 0 {
			return -1
		}
		i += from
		end, ok := InsideString(text, from, i)
		if !ok {
			return i
		}
		from = end
	}
	return -1
}

// maxAround bounds the brackets before a tag tried as the start of a JSON
// value that holds it.
const maxAround = 8

// InsideString reports whether offset at lies inside a string of a strict
// JSON value that opens in text[floor:at] (at one of the few nearest
// brackets before at) and reads on past it, and where that value ends: a
// marker at at is then text of the value, not markup. The value is held
// to the default depth limit.
func InsideString(text string, floor, at int) (end int, ok bool) {
	if !quoteOnLine(text, floor, at) {
		return 0, false
	}
	p := at
	for range maxAround {
		k := strings.LastIndexAny(text[floor:p], "{[")
		if k < 0 {
			return 0, false
		}
		p = floor + k
		if end, ok := RunsPast(text, p, at, len(text), 0); ok {
			return end, true
		}
	}
	return 0, false
}

// RunsPast reports whether the JSON value that opens at s[p] holds offset
// at inside one of its strings and reads on past it, up to limit, as
// strict JSON within the depth limit (Check with maxDepth): a marker found
// at at is then text of an argument, not markup. It returns where the
// value ends.
func RunsPast(s string, p, at, limit, maxDepth int) (end int, ok bool) {
	if p >= at || s[p] != '{' && s[p] != '[' || !quoteOnLine(s, p, at) || !jsonscan.EndsInString(s[p:at]) {
		return 0, false
	}
	end, complete := strictValueEnd(s[:limit], p)
	if !complete || end <= at {
		return 0, false
	}
	_, ok = Check(s[p:end], maxDepth)
	return end, ok
}

// quoteOnLine reports whether a double quote stands in s[from:at] after
// its last line break. A string of strict JSON holds no raw line break, so
// a string that holds offset at opens there: without such a quote, at is
// inside no string of a strict value (the test costs the bytes back to
// the nearest quote or line break, where finding the brackets a value may
// open at costs the bytes back to them, each read to at).
func quoteOnLine(s string, from, at int) bool {
	for i := at - 1; i >= from; i-- {
		switch s[i] {
		case '"':
			return true
		case '\n':
			return false
		}
	}
	return false
}

// strictValueEnd is jsonscan.ValueEnd for a value that must be strict JSON:
// it stops, incomplete, at the first byte outside a string that strict
// JSON never has there (a single quote, a backtick, a letter of no
// literal, a '<'), where the value is already known not to be strict.
// jsonscan.ValueEnd reads such a text on to its end; asked at each of n
// openings (one per tag, as RunsPast is), it made n readings of the rest of
// the text.
func strictValueEnd(s string, start int) (end int, complete bool) {
	depth := 0
	for i := start; i < len(s); i++ {
		switch c := s[i]; {
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				return i + 1, true
			}
		case c == '"':
			j := jsonscan.StringEndIn(s, i)
			if j >= len(s) {
				return len(s), false
			}
			i = j
		case !strictOutside[c]:
			return len(s), false
		}
	}
	return len(s), false
}

// TagFinder finds the first occurrence of a tag in a text that grows, not
// inside a string of a JSON value (the rule of IndexTag), reading the text
// once: a Reader asks it again after each delta. The zero value is ready;
// a finder is for one tag and one text.
type TagFinder struct {
	from  int  // where the search goes on
	floor int  // where a value holding the tag may open
	cand  int  // a tag found that may yet turn out inside a string, when has
	has   bool // cand holds a tag
	check int  // the length of the text when cand was last looked at
}

// TagState is what a TagFinder knows of its tag.
type TagState uint8

// The states of a search.
const (
	// TagNone: no tag in the text so far.
	TagNone TagState = iota
	// TagPending: a tag at the offset returned, that more text may show
	// inside a string.
	TagPending
	// TagFound: the first tag, at the offset returned.
	TagFound
)

// Reset starts the search over, for a new text.
func (f *TagFinder) Reset() { *f = TagFinder{} }

// Shift moves the finder's offsets when n bytes are dropped from the front
// of its text.
func (f *TagFinder) Shift(n int) {
	f.from, f.floor = max(f.from-n, 0), max(f.floor-n, 0)
	if f.has {
		f.cand -= n
	}
	f.check = max(f.check-n, 0)
}

// Find looks for tag in text, which extends the text of the last call.
// A tag that a JSON value opened before it may hold in a string is
// pending until the value is read (it is looked at again each time the
// text has doubled, so the search stays linear in time); final says the
// text is whole, and decides it. The offset is -1 with TagNone.
func (f *TagFinder) Find(text, tag string, final bool) (int, TagState) {
	for {
		if !f.has {
			i := strings.Index(text[f.from:], tag)
			if i < 0 {
				f.from = max(f.from, len(text)-len(tag)+1)
				return -1, TagNone
			}
			f.cand, f.has, f.check = f.from+i, true, 0
		}
		if !final && f.check > 0 && len(text) < 2*f.check {
			return f.cand, TagPending
		}
		f.check = len(text)
		if end, in := InsideString(text, f.floor, f.cand); in {
			f.from, f.floor, f.has = end, end, false
			continue
		}
		if final || !mayHoldTag(text, f.floor, f.cand) {
			return f.cand, TagFound
		}
		return f.cand, TagPending
	}
}

// At is Find for a marker the caller found itself at text[at], one of
// several it looks for: TagFound when it is markup, TagPending while more
// text may show it inside a string of a JSON value, and TagNone when it
// lies inside one (it is text). The rule is IndexTag's: a marker inside
// a string of a strict JSON value that opens before it, after the last
// marker found, is text. The caller asks about its markers in the order
// of their offsets, each until it is decided; a marker a value already
// found holds is text without a look, so the search stays linear. A
// finder used with At is not used with Find.
func (f *TagFinder) At(text string, at int, final bool) TagState {
	if at < f.from {
		// Inside the value that held the last marker asked about: a '<'
		// of a strict JSON value stands in one of its strings.
		return TagNone
	}
	if !f.has || f.cand != at {
		f.cand, f.has, f.check = at, true, 0
	}
	if !final && f.check > 0 && len(text) < 2*f.check {
		return TagPending
	}
	f.check = len(text)
	if end, in := InsideString(text, f.floor, at); in {
		f.from, f.floor, f.has = end, end, false
		return TagNone
	}
	if final || !mayHoldTag(text, f.floor, at) {
		// Markup: a value that opens before it holds no later marker.
		f.from, f.floor, f.has = at+1, at+1, false
		return TagFound
	}
	return TagPending
}

// mayHoldTag reports whether a JSON value that opens at one of the
// brackets nearest before at (as InsideString looks for) holds at in one
// of its strings and is not complete yet: more text may show it holds the
// tag there.
func mayHoldTag(text string, floor, at int) bool {
	if !quoteOnLine(text, floor, at) {
		// No string that holds at has opened: no later byte opens one
		// before it (the brackets are not looked for, back to floor).
		return false
	}
	p := at
	for range maxAround {
		k := strings.LastIndexAny(text[floor:p], "{[")
		if k < 0 {
			return false
		}
		p = floor + k
		if jsonscan.EndsInString(text[p:at]) {
			if _, complete := jsonscan.ValueEnd(text, p); !complete {
				return true
			}
		}
	}
	return false
}
