package render

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// guard is a set of literals that written text must not spell out,
// bucketed by first byte so that most bytes cost one table probe.
type guard struct {
	byFirst [256][]string
}

func newGuard(lists ...[]string) *guard {
	g := &guard{}
	seen := map[string]bool{}
	for _, list := range lists {
		for _, lit := range list {
			if len(lit) < 2 || seen[lit] {
				continue
			}
			seen[lit] = true
			g.byFirst[lit[0]] = append(g.byFirst[lit[0]], lit)
		}
	}
	return g
}

// at reports whether a guarded literal starts at s[i].
func (g *guard) at(s string, i int) bool {
	if g == nil {
		return false
	}
	for _, lit := range g.byFirst[s[i]] {
		if len(s)-i >= len(lit) && s[i+1] == lit[1] && s[i:i+len(lit)] == lit {
			return true
		}
	}
	return false
}

// in reports whether s holds a guarded literal.
func (g *guard) in(s string) bool {
	for i := 0; i < len(s); i++ {
		if g.at(s, i) {
			return true
		}
	}
	return false
}

// writer builds the text of one rendering.
type writer struct {
	strings.Builder
	// guard holds the literals escaped in JSON and Python strings.
	guard *guard
	// raw holds the literals that end a raw-text value.
	raw *guard
	// quote is the quote of Python strings: ' (Llama's pythonic prompts)
	// or " (OLMo 3, LFM2).
	quote byte
}

// JSON.

// json writes v as JSON the way chat templates show it: a space after
// every colon and comma, keys in their order, strings re-escaped.
func (w *writer) json(v *node) {
	switch v.kind {
	case objectKind:
		w.WriteByte('{')
		for i, m := range v.members {
			if i > 0 {
				w.WriteString(", ")
			}
			w.jsonString(m.key)
			w.WriteString(": ")
			w.json(m.value)
		}
		w.WriteByte('}')
	case arrayKind:
		w.WriteByte('[')
		for i, item := range v.items {
			if i > 0 {
				w.WriteString(", ")
			}
			w.json(item)
		}
		w.WriteByte(']')
	case stringKind:
		w.jsonString(v.text)
	default:
		w.WriteString(literal(v))
	}
}

// literal is how JSON writes a number, a boolean or null.
func literal(v *node) string {
	switch v.kind {
	case numberKind:
		return v.text
	case trueKind:
		return "true"
	case falseKind:
		return "false"
	}
	return "null"
}

// sub is a new writer with w's rules.
func (w *writer) sub() *writer { return &writer{guard: w.guard, raw: w.raw, quote: w.quote} }

// jsonText is w.json into a string.
func (w *writer) jsonText(v *node) string {
	sub := w.sub()
	sub.json(v)
	return sub.String()
}

const hexDigits = "0123456789abcdef"

// jsonString writes s as a JSON string: quote, backslash and control
// characters escaped, invalid UTF-8 as U+FFFD, and the first character of
// every guarded literal as a \u escape, so that the literal cannot be
// found in the written text.
func (w *writer) jsonString(s string) {
	w.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if w.guard.at(s, i) {
			r, size := utf8.DecodeRuneInString(s[i:])
			w.uEscape(r)
			i += size
			continue
		}
		switch {
		case c == '"':
			w.WriteString(`\"`)
		case c == '\\':
			w.WriteString(`\\`)
		case c == '\n':
			w.WriteString(`\n`)
		case c == '\r':
			w.WriteString(`\r`)
		case c == '\t':
			w.WriteString(`\t`)
		case c < 0x20:
			w.uEscape(rune(c))
		case c < utf8.RuneSelf:
			w.WriteByte(c)
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				w.WriteString(`\ufffd`)
			} else {
				w.WriteString(s[i : i+size])
			}
			i += size
			continue
		}
		i++
	}
	w.WriteByte('"')
}

// uEscape writes r as \uXXXX, or as a surrogate pair beyond the BMP.
func (w *writer) uEscape(r rune) {
	if r > 0xFFFF {
		r -= 0x10000
		w.uEscape(0xD800 + (r>>10)&0x3FF)
		w.uEscape(0xDC00 + r&0x3FF)
		return
	}
	w.WriteString(`\u`)
	for shift := 12; shift >= 0; shift -= 4 {
		w.WriteByte(hexDigits[(r>>shift)&0xF])
	}
}

// Python literals.

// python writes v as a Python literal: quoted strings, True, False, None,
// lists and dicts.
func (w *writer) python(v *node) {
	switch v.kind {
	case objectKind:
		w.WriteByte('{')
		for i, m := range v.members {
			if i > 0 {
				w.WriteString(", ")
			}
			w.pyString(m.key)
			w.WriteString(": ")
			w.python(m.value)
		}
		w.WriteByte('}')
	case arrayKind:
		w.WriteByte('[')
		for i, item := range v.items {
			if i > 0 {
				w.WriteString(", ")
			}
			w.python(item)
		}
		w.WriteByte(']')
	case stringKind:
		w.pyString(v.text)
	case trueKind:
		w.WriteString("True")
	case falseKind:
		w.WriteString("False")
	case nullKind:
		w.WriteString("None")
	default:
		w.WriteString(v.text)
	}
}

// pyString writes s as a quoted Python string, escaping the quote,
// backslashes, control characters and the first character of every guarded
// literal (\xNN, \uNNNN or \UNNNNNNNN).
func (w *writer) pyString(s string) {
	q := w.quote
	if q == 0 {
		q = '\''
	}
	w.WriteByte(q)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			r = utf8.RuneError
		}
		switch {
		case w.guard.at(s, i):
			w.pyEscape(r)
		case r == '\\':
			w.WriteString(`\\`)
		case r == rune(q):
			w.WriteByte('\\')
			w.WriteByte(q)
		case r == '\n':
			w.WriteString(`\n`)
		case r == '\r':
			w.WriteString(`\r`)
		case r == '\t':
			w.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			w.pyEscape(r)
		default:
			w.WriteRune(r)
		}
		i += size
	}
	w.WriteByte(q)
}

func (w *writer) pyEscape(r rune) {
	switch {
	case r < 0x100:
		w.WriteString(`\x`)
		w.WriteByte(hexDigits[r>>4])
		w.WriteByte(hexDigits[r&0xF])
	case r < 0x10000:
		w.WriteString(`\u`)
		w.WriteString(pad(strconv.FormatInt(int64(r), 16), 4))
	default:
		w.WriteString(`\U`)
		w.WriteString(pad(strconv.FormatInt(int64(r), 16), 8))
	}
}

func pad(s string, n int) string {
	if len(s) >= n {
		return s
	}
	return strings.Repeat("0", n-len(s)) + s
}

// isKeyword reports whether s can be written as a keyword-argument name:
// an ASCII identifier, hyphens allowed between its parts, as the pythonic
// dialects read them ("list-files" is a tool and key name models write).
func isKeyword(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'):
		case c == '-' && s[i-1] != '-':
		default:
			return false
		}
	}
	return true
}

// Raw text.

// rawValue is how tagged-parameter dialects write a value: a string as its
// text, anything else as JSON.
func (w *writer) rawValue(v *node) string {
	if v.kind == stringKind {
		return v.text
	}
	return w.jsonText(v)
}

// rawSafe reports whether s can be written as raw text: it holds none of
// the literals that would end it.
func (w *writer) rawSafe(s string) bool { return !w.raw.in(s) }

// needsJSONFallback reports whether any string in v (keys included) cannot
// be written as raw text.
func (w *writer) needsJSONFallback(v *node) bool {
	switch v.kind {
	case objectKind:
		for _, m := range v.members {
			if m.key == "" || !w.rawSafe(m.key) || w.needsJSONFallback(m.value) {
				return true
			}
		}
	case arrayKind:
		for _, item := range v.items {
			if w.needsJSONFallback(item) {
				return true
			}
		}
	case stringKind:
		return !w.rawSafe(v.text)
	}
	return false
}
