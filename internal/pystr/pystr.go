// Package pystr reads Python string literals as Python does, for every
// reader of Python text (the lenient package's loose-literal grammar, the
// pythonic dialects' call scanner and Reader, the check that code was cut
// off), which must agree byte for byte: where a literal ends (Lit, End)
// and what its body says (Unescape).
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

// Lit follows a Python string literal byte by byte, as Python's tokenizer
// reads it: a literal in three quotes ends at the next three unescaped
// quotes, one in one quote at the next unescaped quote, and in both a
// backslash escapes the byte after it (a quote, a backslash, a line
// break). It is the one definition of where a Python string ends: End
// reads a literal whole with it, and readers of text that arrives in
// pieces keep one in their state. The zero Lit is outside any literal.
type Lit struct {
	q      byte // the literal's quote, 0 outside a literal
	triple bool
	esc    bool
	run    int // closing quotes in a row, in a triple-quoted literal
}

// Step is what one byte of a literal's body did.
type Step uint8

const (
	// In: the byte is part of the literal.
	In Step = iota
	// Closed: the byte ended the literal.
	Closed
	// Broken: an unescaped line break in a literal in one quote. Python
	// stops there with a syntax error; a reader of a model's values takes
	// the line break as part of the string (models write them), a reader
	// of code as the end of a broken literal. It is the one place where
	// readers differ, and each says which it takes.
	Broken
)

// Open starts the literal whose opening quote is text[i] (' or ") and
// returns how many bytes its opening takes: 3 for a triple quote, 1
// otherwise. It returns 0, opening nothing, when fewer than three bytes
// remain and more text may come (final false): the next bytes say whether
// the quote opens a triple-quoted literal.
func (l *Lit) Open(text string, i int, final bool) int {
	q := text[i]
	if i+2 >= len(text) && !final {
		return 0
	}
	*l = Lit{q: q}
	if i+2 < len(text) && text[i+1] == q && text[i+2] == q {
		l.triple = true
		return 3
	}
	return 1
}

// IsOpen reports whether a literal is open.
func (l *Lit) IsOpen() bool { return l.q != 0 }

// Feed reads the next byte of the open literal's body.
func (l *Lit) Feed(c byte) Step {
	switch {
	case l.esc:
		l.esc = false
		l.run = 0
		return In
	case c == '\\':
		l.esc = true
		l.run = 0
		return In
	case c != l.q:
		l.run = 0
		if c == '\n' && !l.triple {
			return Broken
		}
		return In
	case !l.triple:
		l.q = 0
		return Closed
	}
	l.run++
	if l.run == 3 {
		*l = Lit{}
		return Closed
	}
	return In
}

// End returns the index just past the Python string literal whose opening
// quote is s[i], and false when s ends inside it. An unescaped line break
// in a literal in one quote is read as part of it (Broken): use Lit to
// stop there.
func End(s string, i int) (int, bool) {
	var l Lit
	for j := i + l.Open(s, i, true); j < len(s); j++ {
		if l.Feed(s[j]) == Closed {
			return j + 1, true
		}
	}
	return len(s), false
}
