package render

import (
	"github.com/dialectkit/toolcall"
)

// pyCall writes NAME(key=value, …) with Python literal values. The
// pythonic dialects read only ASCII identifiers as keyword names (hyphens
// allowed); a key outside that set is written as it is and cannot be read
// back, which docs/render.md lists.
func pyCall(w *writer, c toolcall.Call, _ int) {
	w.WriteString(c.Name)
	w.WriteByte('(')
	first := true
	for _, m := range arguments(c.Arguments).members {
		if !first {
			w.WriteString(", ")
		}
		first = false
		w.WriteString(m.key)
		w.WriteByte('=')
		w.python(m.value)
	}
	w.WriteByte(')')
}

// builtinCall writes Llama 3.1's built-in tool call, NAME.call(key=value).
func builtinCall(w *writer, c toolcall.Call, i int) {
	pyCall(w, toolcall.Call{Name: c.Name + ".call", Arguments: c.Arguments}, i)
}

// pyDictCall writes a call as a Python dict, {'name': …, 'arguments': {…}}
// (Sarashina).
func pyDictCall(w *writer, c toolcall.Call, _ int) {
	w.WriteString("{'name': ")
	w.pyString(c.Name)
	w.WriteString(", 'arguments': ")
	w.python(arguments(c.Arguments))
	w.WriteByte('}')
}
