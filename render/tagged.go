package render

import (
	"strings"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects/tagged"
)

// taggedLayout is what a tagged descriptor does not say: where the family's
// template breaks lines, and the framing a few dialects add around calls.
type taggedLayout struct {
	// lines puts a line break after the section start, after each opening
	// tag and each parameter, and between a key and its value.
	lines bool
	// padValues puts every value on its own line (Qwen3-Coder).
	padValues bool
	// scopePerCall wraps every call in its own section (Qwen3-Coder and
	// Seed-OSS write one <tool_call> block per call); otherwise one section
	// holds every call of the turn.
	scopePerCall bool
	// sep is written between calls ("\n" when lines is set and sep empty).
	sep string
	// before and after are written around each call (step3's
	// <｜tool_call_begin｜>function<｜tool_sep｜> … <｜tool_call_end｜>, glimmer's
	// message header).
	before func(c toolcall.Call, i int) string
	after  string
	// toolAttrs are extra attributes of the opening tag (Kimi-K3's index).
	toolAttrs func(i int) string
	// server is MiroThinker's server name.
	server string
	// jsonFallback writes the arguments as one JSON object after the name
	// when a value cannot be raw text (GLM's JSON-arguments variant).
	jsonFallback bool
}

// taggedSpec builds the spec of a tagged-parameter dialect from its
// descriptor: every literal comes from the descriptor, the line breaks
// from the layout.
func taggedSpec(d *tagged.Dialect, l taggedLayout, p *prompt, res resultFunc) spec {
	desc := d.Descriptor()
	t := &taggedWriter{d: desc, l: l}
	if t.l.sep == "" && l.lines {
		t.l.sep = "\n"
	}
	lits := []string{desc.ScopeStart, desc.ScopeEnd, desc.ToolStart, desc.ToolEnd, desc.KeyStart,
		desc.KeyEnd, desc.ValStart, desc.ValEnd, desc.ChildPrefix}
	lits = append(lits, desc.Filler...)
	lits = append(lits, desc.ToolSep...)
	lits = append(lits, desc.EndOfTurn...)
	for _, w := range desc.LooseWrappers {
		lits = append(lits, w.Start, w.End)
	}
	if desc.NameChild != "" {
		for _, k := range append([]string{desc.NameChild, desc.ArgumentsChild}, desc.IgnoreChildren...) {
			lits = append(lits, "</"+k+">")
		}
	}
	lits = append(lits, d.Markers()...)
	lits = append(lits, l.after)
	return spec{name: desc.Name, lits: lits, raw: lits, calls: t.calls, prompt: p, result: res}
}

// taggedWriter writes the calls of one tagged descriptor.
type taggedWriter struct {
	d tagged.Descriptor
	l taggedLayout
}

func (t *taggedWriter) nl(w *writer) {
	if t.l.lines {
		w.WriteByte('\n')
	}
}

func (t *taggedWriter) calls(w *writer, calls []toolcall.Call) {
	scope := t.d.ScopeStart != "" && !t.l.scopePerCall
	if scope {
		w.WriteString(t.d.ScopeStart)
		t.nl(w)
	}
	for i, c := range calls {
		if i > 0 {
			w.WriteString(t.l.sep)
		}
		if t.l.before != nil {
			w.WriteString(t.l.before(c, i))
		}
		if t.l.scopePerCall {
			w.WriteString(t.d.ScopeStart)
			t.nl(w)
		}
		t.call(w, c, i)
		if t.l.scopePerCall {
			t.nl(w)
			w.WriteString(t.d.ScopeEnd)
		}
		w.WriteString(t.l.after)
	}
	if scope {
		t.nl(w)
		w.WriteString(t.d.ScopeEnd)
	}
}

// call writes one call: the opening literal with the name, the parameters,
// the closing literal.
func (t *taggedWriter) call(w *writer, c toolcall.Call, i int) {
	d := &t.d
	args := arguments(c.Arguments)
	w.WriteString(d.ToolStart)
	switch d.ToolName {
	case tagged.NameShorthand:
		w.WriteByte('=')
		w.WriteString(c.Name)
		w.WriteString(d.TagEnd)
	case tagged.NameText:
		if d.NameChild != "" {
			t.mcpCall(w, c.Name, args)
			w.WriteString(d.ToolEnd)
			return
		}
		w.WriteString(c.Name)
		switch {
		case t.l.jsonFallback && w.needsJSONFallback(args):
			w.WriteByte('\n')
			w.json(args)
			w.WriteString(d.ToolEnd)
			return
		case len(d.ToolSep) > 0:
			w.WriteString(d.ToolSep[0])
		case t.l.lines:
		default:
			// The name ends at a tag or a line break; a name followed by no
			// parameter needs nothing more.
		}
	default:
		attr(w, d.ToolName, c.Name)
		if t.l.toolAttrs != nil {
			w.WriteString(t.l.toolAttrs(i))
		}
		w.WriteString(d.TagEnd)
	}
	if d.ToolName != tagged.NameText || len(d.ToolSep) == 0 {
		t.nl(w)
	}
	for _, m := range args.members {
		t.param(w, m.key, m.value)
		t.nl(w)
	}
	w.WriteString(d.ToolEnd)
}

// param writes one parameter in the descriptor's style.
func (t *taggedWriter) param(w *writer, key string, v *node) {
	d := &t.d
	switch d.Params {
	case tagged.PairParams:
		w.WriteString(d.KeyStart)
		w.WriteString(key)
		w.WriteString(d.KeyEnd)
		t.nl(w)
		w.WriteString(d.ValStart)
		t.value(w, w.rawValue(v))
		w.WriteString(d.ValEnd)
	case tagged.ChildParams:
		t.child(w, key, v)
	default:
		w.WriteString(d.KeyStart)
		if d.Key == tagged.NameShorthand {
			w.WriteByte('=')
			w.WriteString(key)
		} else {
			attr(w, d.Key, key)
		}
		text := w.rawValue(v)
		switch {
		case d.StringAttr != "":
			// DSML declares the kind: string="true" is raw text, "false"
			// is JSON, which also carries a string raw text cannot.
			if v.kind == stringKind && w.rawSafe(text) {
				attr(w, d.StringAttr, "true")
			} else {
				attr(w, d.StringAttr, "false")
				text = w.jsonText(v)
			}
		case d.TypeAttr != "":
			attr(w, d.TypeAttr, jsonType(v))
		}
		w.WriteString(d.TagEnd)
		t.value(w, text)
		w.WriteString(d.ValEnd)
	}
}

// value writes a raw value so that the parser's trimming (one leading and
// one trailing line break) gives back exactly text.
func (t *taggedWriter) value(w *writer, text string) {
	lead, trail := valuePadding(text, t.l.padValues)
	w.WriteString(lead)
	w.WriteString(text)
	w.WriteString(trail)
}

// valuePadding returns the line breaks to write around a raw value. The
// parser drops one leading "\n" (or "\r\n") and one trailing "\n" (or
// "\r\n"), so a value that starts or ends with a line break gets one more;
// with pad every value gets them, as Qwen3-Coder's template writes.
func valuePadding(text string, pad bool) (lead, trail string) {
	if pad || strings.HasPrefix(text, "\n") || strings.HasPrefix(text, "\r\n") {
		lead = "\n"
	}
	switch {
	case pad && strings.HasSuffix(text, "\r"):
		trail = "\r\n"
	case pad || strings.HasSuffix(text, "\n"):
		trail = "\n"
	}
	return lead, trail
}

// child writes a ChildParams element: a leaf holds raw text; with
// NestedValues an object holds one element per member and an array one
// <item> per entry. Values the element syntax cannot spell (empty
// containers, keys that are not element names, an object whose every key is
// "item") are written as JSON text, which the parser reads as JSON.
func (t *taggedWriter) child(w *writer, key string, v *node) {
	d := &t.d
	w.WriteString(d.ChildPrefix + "<" + key + ">")
	switch {
	case d.NestedValues && v.kind == objectKind && nestable(v):
		for _, m := range v.members {
			t.child(w, m.key, m.value)
		}
	case d.NestedValues && v.kind == arrayKind && len(v.items) > 0:
		for _, item := range v.items {
			t.child(w, "item", item)
		}
	default:
		t.value(w, w.rawValue(v))
	}
	w.WriteString(d.ChildPrefix + "</" + key + ">")
}

// nestable reports whether an object can be written as child elements.
func nestable(v *node) bool {
	items := 0
	for _, m := range v.members {
		if !elementName(m.key) {
			return false
		}
		if m.key == "item" {
			items++
		}
	}
	return len(v.members) > 0 && items < len(v.members)
}

// elementName reports whether key can name an element.
func elementName(key string) bool {
	return key != "" && !strings.ContainsAny(key, " \t\r\n<>&\"'=/")
}

// mcpCall writes MiroThinker's children: the server, the tool name and the
// arguments as JSON.
func (t *taggedWriter) mcpCall(w *writer, name string, args *node) {
	w.WriteString("\n<server_name>" + t.l.server + "</server_name>\n<tool_name>")
	w.WriteString(name)
	w.WriteString("</tool_name>\n<" + t.d.ArgumentsChild + ">\n")
	w.json(args)
	w.WriteString("\n</" + t.d.ArgumentsChild + ">\n")
}

// attr writes ` key="value"`, single-quoted when value holds a double
// quote.
func attr(w *writer, key, value string) {
	q := `"`
	if strings.Contains(value, `"`) {
		q = `'`
	}
	w.WriteString(" " + key + "=" + q + value + q)
}

// jsonType is the JSON Schema type of a value, as Kimi-K3 declares it.
func jsonType(v *node) string {
	switch v.kind {
	case objectKind:
		return "object"
	case arrayKind:
		return "array"
	case stringKind:
		return "string"
	case trueKind, falseKind:
		return "boolean"
	case numberKind:
		if strings.ContainsAny(v.text, ".eE") {
			return "number"
		}
		return "integer"
	}
	return "null"
}
