package dialects

import (
	"strings"

	"github.com/dialectkit/toolcall/internal/jsonscan"
)

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
		if end, in := InsideJSONString(text, f.floor, f.cand); in {
			f.from, f.floor, f.has = end, end, false
			continue
		}
		if final || !mayHoldTag(text, f.floor, f.cand) {
			return f.cand, TagFound
		}
		return f.cand, TagPending
	}
}

// mayHoldTag reports whether a JSON value that opens at one of the
// brackets nearest before at (as InsideJSONString looks for) holds at in
// one of its strings and is not complete yet: more text may show it holds
// the tag there.
func mayHoldTag(text string, floor, at int) bool {
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
