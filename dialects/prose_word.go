package dialects

import (
	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/coded"
)

// Mentioned reports whether the marker text[at:end], which opened only the
// calls given and all of them failed to read (none cut off by the end of
// the output), is a word of a sentence: a word and a blank stand right
// before it on its line, and a blank and a word right after it ("put the
// name between [TOOL_CALLS] and [ARGS]"). Engines keep such a marker as
// content, with no error to re-ask about; a call that reads stays a call
// wherever it stands, and one that follows its marker directly keeps its
// error.
func Mentioned(text string, at, end int, calls []RawCall) bool {
	if len(calls) == 0 {
		return false
	}
	for _, rc := range calls {
		e := coded.As(rc.Err)
		if e == nil || e.Code == toolcall.CodeTruncated || rc.AtEnd {
			return false
		}
	}
	return InSentence(text, at, end)
}

// InSentence reports whether text[at:end] stands inside a sentence on its
// line: a word and a blank right before it, a blank and a word right after
// it ("try it like [f(a=1)] to see"). It is the shape Mentioned checks for
// markers, and the pythonic family checks for a call list in prose.
func InSentence(text string, at, end int) bool {
	j := at
	for j > 0 && (text[j-1] == ' ' || text[j-1] == '\t') {
		j--
	}
	return j < at && WordAround(text, j, end)
}

// WordAround reports whether text[j-1] ends a word and text[end:] starts
// with blanks and then a word: a marker standing between j and end, with
// blanks around it, is a word of a sentence ("between [TOOL_CALLS] and
// [ARGS]"), not the start of a call, which follows its marker with a name,
// a value or a line break. j is where the blanks before the marker start.
func WordAround(text string, j, end int) bool {
	if j == 0 || !proseWordByte(text[j-1]) {
		return false
	}
	k := end
	for k < len(text) && (text[k] == ' ' || text[k] == '\t') {
		k++
	}
	return k > end && k < len(text) && proseWordByte(text[k])
}

// proseWordByte reports whether c is a letter or digit, or a byte of a
// non-ASCII character.
func proseWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}
