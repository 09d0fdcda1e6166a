// Package pystr decodes the body of a Python string literal, as Python
// reads it, for the two readers of Python literals: the lenient package's
// loose-literal grammar and the pythonic dialects' hand-written call
// scanner, which must agree byte for byte.
package pystr

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Unescape decodes the escapes of a Python string body: the usual escapes, \x, \u and \U (a UTF-16
// surrogate pair joined), a backslash before a line break dropped, and,
// when a backslash starts no escape Python knows (C:\Users\new), every
// backslash but those before quotes and backslashes kept as written.
func Unescape(body string) string {
	var b strings.Builder
	b.Grow(len(body))
	raw := rawBackslashes(body)
	for i := 0; i < len(body); i++ {
		ch := body[i]
		if ch != '\\' || i+1 == len(body) {
			b.WriteByte(ch)
			continue
		}
		i++
		e := body[i]
		if raw && e != '\\' && e != '\'' && e != '"' {
			b.WriteByte('\\')
			b.WriteByte(e)
			continue
		}
		switch e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case 'a':
			b.WriteByte('\a')
		case '0':
			b.WriteByte(0)
		case '\\', '\'', '"', '/':
			b.WriteByte(e)
		case '\n': // line continuation
		case 'x', 'u', 'U':
			n := 2
			if e == 'u' {
				n = 4
			} else if e == 'U' {
				n = 8
			}
			cp, ok := parseHex(body, i+1, n)
			if !ok {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			i += n
			if e == 'u' && cp >= 0xD800 && cp < 0xDC00 && i+6 < len(body) && body[i+1] == '\\' && body[i+2] == 'u' {
				if lo, ok := parseHex(body, i+3, 4); ok && lo >= 0xDC00 && lo < 0xE000 {
					cp = (cp-0xD800)<<10 + (lo - 0xDC00) + 0x10000
					i += 6
				}
			}
			if !utf8.ValidRune(cp) {
				cp = utf8.RuneError
			}
			b.WriteRune(cp)
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String()
}

// rawBackslashes reports whether body has a backslash that starts no
// escape Python knows: the sign of text whose backslashes are literal, as
// in C:\Users\new, where \n must then stay two characters as well.
func rawBackslashes(body string) bool {
	for i := 0; i < len(body); i++ {
		if body[i] != '\\' {
			continue
		}
		if i+1 == len(body) {
			return true
		}
		n := 0
		switch body[i+1] {
		case 'n', 't', 'r', 'b', 'f', 'v', 'a', '0', '\\', '\'', '"', '/', '\n':
		case 'x':
			n = 2
		case 'u':
			n = 4
		case 'U':
			n = 8
		default:
			return true
		}
		if _, ok := parseHex(body, i+2, n); n > 0 && !ok {
			return true
		}
		i += 1 + n
	}
	return false
}

func parseHex(s string, at, n int) (rune, bool) {
	if at+n > len(s) {
		return 0, false
	}
	v, err := strconv.ParseUint(s[at:at+n], 16, 32)
	return rune(v), err == nil
}
