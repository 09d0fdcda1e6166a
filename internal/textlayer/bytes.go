package textlayer

import (
	"strings"
	"unicode/utf8"
)

// IsSpace reports whether c is a space, a tab or a line break ('\r' or
// '\n'): the blanks around a call and between the words of prose, JSON's
// whitespace, and what the edges of content drop (TrimSpace). It is the
// one space set of every family: other characters Unicode calls spaces
// (U+00A0, U+3000, '\f', '\v') are text, in the content and in a value.
func IsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// TrimSpace returns s without the spaces (IsSpace) that begin and end it.
func TrimSpace[S ~string | ~[]byte](s S) S { return TrimRight(TrimLeft(s)) }

// TrimLeft returns s without the spaces (IsSpace) that begin it.
func TrimLeft[S ~string | ~[]byte](s S) S {
	i := 0
	for i < len(s) && IsSpace(s[i]) {
		i++
	}
	return s[i:]
}

// TrimRight returns s without the spaces (IsSpace) that end it.
func TrimRight[S ~string | ~[]byte](s S) S {
	i := len(s)
	for i > 0 && IsSpace(s[i-1]) {
		i--
	}
	return s[:i]
}

// SkipSpace returns the first offset at or after i that is not IsSpace.
func SkipSpace(s string, i int) int {
	for i < len(s) && IsSpace(s[i]) {
		i++
	}
	return i
}

// IsBlank reports whether c is a blank inside a line: a space, a tab or a
// carriage return.
func IsBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

// ClosingPunct reports whether c is punctuation that closes a word of
// prose: a sentence's or a list's (. , ; : ! ?), a closing bracket, or a
// closing quote. It is the one set every reader of prose uses; what may
// follow a word is never a reason to read a call, only to read text as
// prose.
func ClosingPunct(c byte) bool {
	switch c {
	case '.', ',', ';', ':', '!', '?', ')', ']', '}', '"', '\'':
		return true
	}
	return false
}

// WordByte reports whether c is a byte of a word of prose: an ASCII letter
// or digit, or a byte of a non-ASCII character.
func WordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// AtLineEnd reports whether only blanks (spaces, tabs, carriage returns)
// stand between text[k:] and the end of its line or of the text.
func AtLineEnd(text string, k int) bool {
	for k < len(text) && IsBlank(text[k]) {
		k++
	}
	return k == len(text) || text[k] == '\n'
}

// CodeSpanRun reports whether a run of n backticks opens or closes inline
// code (the table's InInlineCode): as CommonMark pairs code spans, a run
// of one or two opens code whatever stands around it, and the next run of
// exactly its length in its paragraph closes it. A run of three or more
// is a fence's, wherever it stands (models glue a fence to the prose
// before it: "for you.```json"), and does neither.
func CodeSpanRun(n int) bool { return n < 3 }

// IncompleteTail returns the length of the character at the end of s that
// more bytes may complete (the first bytes of a multi-byte UTF-8
// character cut by the end of what arrived), or 0: text read as it
// arrives holds those bytes until the character is whole, so that a
// character is read the same however the text was cut.
func IncompleteTail(s string) int {
	for k := 1; k < utf8.UTFMax && k <= len(s); k++ {
		if c := s[len(s)-k]; utf8.RuneStart(c) {
			if utf8.FullRuneInString(s[len(s)-k:]) {
				return 0
			}
			return k
		}
	}
	return 0
}

// CutLiteral returns where text[from:] ends with the first bytes of lit,
// cut short by the end of the text (a proper prefix of lit, the longest),
// or len(text): text read as it arrives holds those bytes until the next
// delta says whether lit is written there.
func CutLiteral(text string, from int, lit string) int {
	if lit == "" {
		return len(text)
	}
	for k := max(from, len(text)-len(lit)+1); k < len(text); k++ {
		// A suffix that may be lit's first bytes begins with its first byte.
		if text[k] == lit[0] && strings.HasPrefix(lit, text[k:]) {
			return k
		}
	}
	return len(text)
}

// OpensCall reports whether text, after leading spaces, tabs and line
// breaks, begins with one of starts, the literals a dialect's calls begin
// with (ASCII letters in any case, as the stream engine matches markers),
// or with a '{' or '[' that bare lists (a bare JSON call, a call list). A
// blank in a start stands for any run of blanks, none included, as the
// markers family writes its markers (`<|action_start|> <|plugin|>`).
func OpensCall(text, bare string, starts []string) bool {
	text = TrimLeft(text)
	if text == "" {
		return false
	}
	if c := text[0]; (c == '{' || c == '[') && strings.IndexByte(bare, c) >= 0 {
		return true
	}
	for _, s := range starts {
		if s != "" && opensWithFold(text, s) {
			return true
		}
	}
	return false
}

// opensWithFold reports whether text begins with start, ASCII letters in
// any case, a blank of start matching any run of blanks of text.
func opensWithFold(text, start string) bool {
	i := 0
	for j := 0; j < len(start); j++ {
		if start[j] == ' ' {
			for i < len(text) && IsSpace(text[i]) {
				i++
			}
			continue
		}
		if i == len(text) || !equalFoldASCII(text[i:i+1], start[j:j+1]) {
			return false
		}
		i++
	}
	return true
}

// OpensWith reports whether text, after leading spaces, tabs and line
// breaks, begins with one of prefixes, as written.
func OpensWith(text string, prefixes []string) bool {
	text = TrimLeft(text)
	for _, s := range prefixes {
		if s != "" && strings.HasPrefix(text, s) {
			return true
		}
	}
	return false
}

// equalFoldASCII reports whether a and b, of the same length, are equal
// with ASCII letters compared in any case.
func equalFoldASCII(a, b string) bool {
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// Span is a byte range [Start, End) of a text.
type Span struct{ Start, End int }
