package render

import (
	"strings"

	"github.com/dialectkit/toolcall"
)

// gemmaCall writes call:NAME{key:value,…}, Gemma's own object syntax.
func gemmaCall(delim string) body {
	return func(w *writer, c toolcall.Call, _ int) {
		w.WriteString("call:")
		w.WriteString(c.Name)
		w.gemma(arguments(c.Arguments), delim)
	}
}

// gemma writes v in Gemma's object syntax: bare keys, strings between
// delimiter tokens, other scalars bare. A string that holds a delimiter or
// a marker is written as a JSON string instead, which the Gemma parsers
// also read, since raw text between delimiters cannot escape anything.
func (w *writer) gemma(v *node, delim string) {
	switch v.kind {
	case objectKind:
		w.WriteByte('{')
		for i, m := range v.members {
			if i > 0 {
				w.WriteByte(',')
			}
			if bareGemmaKey(m.key) && w.rawSafe(m.key) {
				w.WriteString(m.key)
			} else {
				w.jsonString(m.key)
			}
			w.WriteByte(':')
			w.gemma(m.value, delim)
		}
		w.WriteByte('}')
	case arrayKind:
		w.WriteByte('[')
		for i, item := range v.items {
			if i > 0 {
				w.WriteByte(',')
			}
			w.gemma(item, delim)
		}
		w.WriteByte(']')
	case stringKind:
		if w.rawSafe(v.text) {
			w.WriteString(delim)
			w.WriteString(v.text)
			w.WriteString(delim)
		} else {
			w.jsonString(v.text)
		}
	default:
		w.WriteString(literal(v))
	}
}

// bareGemmaKey reports whether a key can be written without quotes: the
// parser reads a bare key up to ':' and trims it.
func bareGemmaKey(k string) bool {
	return k != "" && k == strings.TrimSpace(k) && !strings.ContainsAny(k, ":{}[],\"'\n\r\t")
}
