// Package jsonscan holds the byte scans over JSON text that several
// packages share, written once so they agree.
package jsonscan

import (
	"bytes"
	"strings"
	"unsafe"

	"github.com/dialectkit/toolcall/internal/textlayer"
)

// StringEnd returns the offset of the quote that closes the JSON string
// opening at b[i], or len(b) when none does. It jumps from quote to quote
// (a vectorised search) and counts the backslashes before each: an even
// run leaves the quote unescaped.
func StringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return len(b)
		}
		j += k
		if !escaped(b, i, j) {
			return j
		}
		j++
	}
	return len(b)
}

// escaped reports whether an odd run of backslashes ends right before
// b[j], looking back no further than b[i+1].
func escaped[T string | []byte](b T, i, j int) bool {
	n := 0
	for m := j - 1; m > i && b[m] == '\\'; m-- {
		n++
	}
	return n%2 == 1
}

// Escaped reports whether the byte at s[i] is escaped: an odd run of
// backslashes ends right before it (a quote so escaped ends no string, a
// backslash so escaped escapes nothing).
func Escaped(s string, i int) bool { return escaped(s, -1, i) }

// EscapedAfter is Escaped for s[i] when s follows text that ends with a
// run of n backslashes: a run of them that begins s goes on from those
// (a reader that keeps only the end of what came before s).
func EscapedAfter(n int, s string, i int) bool {
	k := 0
	for m := i - 1; m >= 0 && s[m] == '\\'; m-- {
		k++
	}
	if k == i {
		k += n
	}
	return k%2 == 1
}

// Backslashes returns the length of the run of backslashes that ends s.
func Backslashes(s string) int {
	k := 0
	for k < len(s) && s[len(s)-1-k] == '\\' {
		k++
	}
	return k
}

// StringScan is StringEnd for a reader that has only the start of the
// text yet: Next is given the text, longer at each call, and reads each
// byte a bounded number of times over all the calls. Start it with
// NewStringScan.
type StringScan struct {
	// from is the opening quote, or a byte inside the string that is no
	// backslash: the closing quote is looked for after it, and the
	// backslashes before a quote are counted back to it.
	from int
}

// NewStringScan returns a scan of the JSON string whose opening quote is
// at offset open.
func NewStringScan(open int) StringScan { return StringScan{from: open} }

// Next returns the offset of the closing quote and true once text holds
// it, or len(text) and false.
func (s *StringScan) Next(text string) (end int, closed bool) {
	if j := StringEndIn(text, s.from); j < len(text) {
		return j, true
	}
	// Go on from the last byte that is no backslash: a run of them at the
	// end may escape the quote to come.
	k := len(text) - 1
	for k > s.from && text[k] == '\\' {
		k--
	}
	s.from = k
	return len(text), false
}

// StringEndIn is StringEnd on a string, read in place.
func StringEndIn(s string, i int) int {
	return StringEnd(unsafe.Slice(unsafe.StringData(s), len(s)), i)
}

// EndsInString reports whether s, the start of a JSON value, ends inside
// one of its double-quoted strings (read by StringEnd).
func EndsInString(s string) bool {
	for i := 0; i < len(s); i++ {
		k := strings.IndexByte(s[i:], '"')
		if k < 0 {
			return false
		}
		if i = StringEndIn(s, i+k); i >= len(s) {
			return true
		}
	}
	return false
}

// WithoutRemovableSyntax returns src with the syntax repair removes by
// rule blanked out: comments outside strings (// and # to the end of the
// line, /* … */) and the opening run and info word of a code fence that
// opens a line (```json, ~~~json; textlayer.OpensFence). Strings,
// in double or single quotes, are kept whole.
func WithoutRemovableSyntax(src []byte) []byte {
	var out []byte // a copy, made at the first blank
	blank := func(from, to int) {
		if out == nil {
			out = append([]byte(nil), src...)
		}
		for k := from; k < to; k++ {
			out[k] = ' '
		}
	}
	text := unsafe.String(unsafe.SliceData(src), len(src)) // read only, in place
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '"' || c == '\'' && (i == 0 || !isWordByte(src[i-1])):
			j := i + 1
			for j < len(src) && src[j] != c && src[j] != '\n' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			i = j
		case c == '#' || c == '/' && i+1 < len(src) && src[i+1] == '/':
			j := i
			for j < len(src) && src[j] != '\n' {
				j++
			}
			blank(i, j)
			i = j
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			j := i + 2
			for j+1 < len(src) && !(src[j] == '*' && src[j+1] == '/') {
				j++
			}
			j = min(j+2, len(src))
			blank(i, j)
			i = j - 1
		case textlayer.IsFenceByte(c) && lineStart(src, i) && textlayer.OpensFence(text, i, len(text), true):
			j := textlayer.RunEnd(text, i, len(text))
			j += len(textlayer.InfoWord(text[j:]))
			blank(i, j)
			i = j - 1
		}
	}
	if out == nil {
		return src
	}
	return out
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= '0' && c <= '9'
}

// lineStart reports whether only blanks stand between the start of the
// line and src[i].
func lineStart(src []byte, i int) bool {
	for k := i - 1; k >= 0 && src[k] != '\n'; k-- {
		if src[k] != ' ' && src[k] != '\t' {
			return false
		}
	}
	return true
}
