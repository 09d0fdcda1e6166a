// Package jsonscan holds the byte scans over JSON text that several
// packages share, written once so they agree.
package jsonscan

import (
	"bytes"
	"strings"
	"unsafe"
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
		backslashes := 0
		for m := j - 1; m > i && b[m] == '\\'; m-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			return j
		}
		j++
	}
	return len(b)
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
// line, /* … */) and the info word of a code fence that opens a line
// (```json). Strings,
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
		case c == '`' && i+2 < len(src) && src[i+1] == '`' && src[i+2] == '`' && lineStart(src, i):
			j := i + 3
			for j < len(src) && isWordByte(src[j]) {
				j++
			}
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
