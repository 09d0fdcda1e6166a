package textlayer

import "strings"

// IsSpace reports whether c is a space, a tab or a line break ('\r' or
// '\n'): the blanks around a call and between the words of prose.
func IsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// IsBlank reports whether c is a blank inside a line: a space, a tab or a
// carriage return.
func IsBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

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

// BacktickRuns counts the runs of one or two backticks in s: each opens or
// closes a span of inline code (a run of three or more is a fence's, not
// inline code's). An odd count leaves a span open at the end of s.
func BacktickRuns(s string) int {
	n := 0
	for i := 0; i < len(s); {
		k := strings.IndexByte(s[i:], '`')
		if k < 0 {
			break
		}
		j := i + k
		for j < len(s) && s[j] == '`' {
			j++
		}
		if j-(i+k) < 3 {
			n++
		}
		i = j
	}
	return n
}
