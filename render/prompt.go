package render

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
)

// prompt is a dialect's system-prompt text: a template whose {tools} is
// replaced by the tool list in the family's style and whose {example} is
// replaced by one call written with the dialect's own Calls.
type prompt struct {
	text string
	list listStyle
	// example, when set, writes the example call instead of the dialect's
	// own Calls (the ollama dialect is a server's wire format, which no
	// model writes: its prompt shows the native call).
	example callsFunc
}

// listStyle is how a family's template presents tool definitions.
type listStyle int

const (
	// listLines: one {"type": "function", "function": {…}} per line
	// (Qwen, Hermes).
	listLines listStyle = iota
	// listFunctionLines: one {"name": …, "description": …, "parameters": …}
	// per line.
	listFunctionLines
	// listArray: [{"type": "function", "function": {…}}, …] on one line
	// (Mistral's [AVAILABLE_TOOLS], LFM2).
	listArray
	// listFunctionArray: [{"name": …, …}, …] on one line.
	listFunctionArray
	// listIndented: each function object indented by four spaces, a blank
	// line between them (Llama 3.x, tojson(indent=4)).
	listIndented
	// listQwenXML: Qwen3-Coder's <function><name>…</name>…</function>.
	listQwenXML
	// listTypeScript: harmony's and Functionary's TypeScript namespace.
	listTypeScript
	// listSections: "### NAME", a description line and the parameters
	// (DeepSeek V3.1).
	listSections
	// listMCP: MiroThinker's "## Server name" / "### Tool name" sections.
	listMCP
	// listGemma4 and listFunctionGemma: declarations in Gemma's own object
	// syntax.
	listGemma4
	listFunctionGemma
)

func (p *prompt) write(w *writer, r *renderer, tools []toolcall.Tool) {
	text := p.text
	for text != "" {
		i := strings.IndexByte(text, '{')
		if i < 0 {
			w.WriteString(text)
			return
		}
		w.WriteString(text[:i])
		text = text[i:]
		switch {
		case strings.HasPrefix(text, "{tools}"):
			p.list.write(w, tools)
			text = text[len("{tools}"):]
		case strings.HasPrefix(text, "{example}"):
			if ex, ok := Example(tools); ok {
				calls := r.calls
				if p.example != nil {
					calls = p.example
				}
				calls(w, []toolcall.Call{ex})
			}
			text = text[len("{example}"):]
		default:
			w.WriteByte('{')
			text = text[1:]
		}
	}
}

// parameters is a tool's schema, {"type": "object", "properties": {}} when
// it has none.
func parameters(t toolcall.Tool) *node {
	p := bytes.TrimSpace(t.Parameters)
	if len(p) == 0 || !gjson.ValidBytes(p) {
		return parseJSON(`{"type": "object", "properties": {}}`)
	}
	return parseJSON(string(p))
}

// function writes {"name": …, "description": …, "parameters": …}.
func (w *writer) function(t toolcall.Tool) {
	w.WriteString(`{"name": `)
	w.jsonString(t.Name)
	if t.Description != "" {
		w.WriteString(`, "description": `)
		w.jsonString(t.Description)
	}
	w.WriteString(`, "parameters": `)
	w.json(parameters(t))
	w.WriteByte('}')
}

// openAITool writes {"type": "function", "function": {…}}.
func (w *writer) openAITool(t toolcall.Tool) {
	w.WriteString(`{"type": "function", "function": `)
	w.function(t)
	w.WriteByte('}')
}

func (s listStyle) write(w *writer, tools []toolcall.Tool) {
	switch s {
	case listLines, listFunctionLines:
		for i, t := range tools {
			if i > 0 {
				w.WriteByte('\n')
			}
			if s == listLines {
				w.openAITool(t)
			} else {
				w.function(t)
			}
		}
	case listArray, listFunctionArray:
		w.WriteByte('[')
		for i, t := range tools {
			if i > 0 {
				w.WriteString(", ")
			}
			if s == listArray {
				w.openAITool(t)
			} else {
				w.function(t)
			}
		}
		w.WriteByte(']')
	case listIndented:
		for i, t := range tools {
			if i > 0 {
				w.WriteString("\n\n")
			}
			sub := w.sub()
			sub.function(t)
			var buf bytes.Buffer
			if json.Indent(&buf, []byte(sub.String()), "", "    ") != nil {
				w.WriteString(sub.String())
				continue
			}
			w.Write(buf.Bytes())
		}
	case listQwenXML:
		w.qwenTools(tools)
	case listTypeScript:
		w.typeScript(tools)
	case listSections:
		for i, t := range tools {
			if i > 0 {
				w.WriteString("\n\n")
			}
			w.WriteString("### " + t.Name + "\n")
			if t.Description != "" {
				w.WriteString("Description: " + t.Description + "\n\n")
			}
			w.WriteString("Parameters: ")
			w.json(parameters(t))
		}
	case listMCP:
		w.WriteString("## Server name: " + mcpServer + "\n")
		for i, t := range tools {
			if i > 0 {
				w.WriteString("\n\n")
			}
			w.WriteString("### Tool name: " + t.Name + "\n")
			if t.Description != "" {
				w.WriteString("Description: " + t.Description + "\n")
			}
			w.WriteString("Input JSON schema: ")
			w.json(parameters(t))
		}
	case listGemma4:
		w.gemmaTools(tools, "<|tool>", "<tool|>", gemma4Quote)
	case listFunctionGemma:
		w.gemmaTools(tools, "<start_function_declaration>", "<end_function_declaration>", fgEscape)
	}
}

// qwenTools writes Qwen3-Coder's tool list: every function with its name,
// description and one <parameter> element per property.
func (w *writer) qwenTools(tools []toolcall.Tool) {
	w.WriteString("<tools>")
	for _, t := range tools {
		w.WriteString("\n<function>\n<name>" + t.Name + "</name>")
		if t.Description != "" {
			w.WriteString("\n<description>" + strings.TrimSpace(t.Description) + "</description>")
		}
		params := parameters(t)
		w.WriteString("\n<parameters>")
		for _, m := range params.get("properties").objectMembers() {
			w.WriteString("\n<parameter>\n<name>" + m.key + "</name>")
			if typ := m.value.get("type"); typ != nil {
				w.WriteString("\n<type>")
				if typ.kind == stringKind {
					w.WriteString(typ.text)
				} else {
					w.json(typ)
				}
				w.WriteString("</type>")
			}
			if d := m.value.get("description").str(); d != "" {
				w.WriteString("\n<description>" + strings.TrimSpace(d) + "</description>")
			}
			if e := m.value.get("enum"); e != nil && e.kind == arrayKind {
				w.WriteString("\n<enum>")
				w.json(e)
				w.WriteString("</enum>")
			}
			w.WriteString("\n</parameter>")
		}
		if req := params.get("required"); req != nil && req.kind == arrayKind {
			w.WriteString("\n<required>")
			w.json(req)
			w.WriteString("</required>")
		}
		w.WriteString("\n</parameters>\n</function>")
	}
	w.WriteString("\n</tools>")
}

// typeScript writes the tools as harmony's TypeScript namespace.
func (w *writer) typeScript(tools []toolcall.Tool) {
	w.WriteString("namespace functions {\n\n")
	for _, t := range tools {
		comment(w, t.Description)
		w.WriteString("type " + t.Name + " = ")
		params := parameters(t)
		props := params.get("properties").objectMembers()
		switch {
		case params.get("properties") == nil:
			// No properties declared: any object.
			w.WriteString("(_: object) => any;\n\n")
			continue
		case len(props) == 0:
			w.WriteString("() => any;\n\n")
			continue
		}
		required := requiredSet(params)
		w.WriteString("(_: {\n")
		for _, m := range props {
			comment(w, m.value.get("description").str())
			w.WriteString(tsKey(m.key))
			if !required[m.key] {
				w.WriteByte('?')
			}
			w.WriteString(": " + tsType(m.value, 0))
			if d := m.value.get("default"); d != nil {
				w.WriteString(", // default: " + w.jsonText(d) + "\n")
			} else {
				w.WriteString(",\n")
			}
		}
		w.WriteString("}) => any;\n\n")
	}
	w.WriteString("} // namespace functions")
}

// objectMembers are an object node's members; nil for anything else.
func (n *node) objectMembers() []member {
	if n == nil || n.kind != objectKind {
		return nil
	}
	return n.members
}

// requiredSet is a schema's "required" list as a set.
func requiredSet(schema *node) map[string]bool {
	required := map[string]bool{}
	if r := schema.get("required"); r != nil {
		for _, item := range r.items {
			required[item.str()] = true
		}
	}
	return required
}

// comment writes text as // comment lines.
func comment(w *writer, text string) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	for _, line := range strings.Split(text, "\n") {
		w.WriteString("// " + strings.TrimSpace(line) + "\n")
	}
}

// tsKey quotes a property name that is not an identifier.
func tsKey(k string) string {
	if isKeyword(k) && !strings.Contains(k, "-") {
		return k
	}
	b, _ := json.Marshal(k)
	return string(b)
}

// tsType is the TypeScript type of a JSON Schema.
func tsType(s *node, depth int) string {
	if s == nil || depth > maxExampleDepth {
		return "any"
	}
	if e := s.get("enum"); e != nil && e.kind == arrayKind {
		alts := make([]string, 0, len(e.items))
		for _, v := range e.items {
			alts = append(alts, tsLiteral(v))
		}
		return strings.Join(alts, " | ")
	}
	if c := s.get("const"); c != nil {
		return tsLiteral(c)
	}
	for _, comb := range []string{"anyOf", "oneOf"} {
		if alts := s.get(comb); alts != nil && alts.kind == arrayKind {
			out := make([]string, 0, len(alts.items))
			for _, a := range alts.items {
				out = append(out, tsType(a, depth+1))
			}
			return strings.Join(out, " | ")
		}
	}
	t := s.get("type")
	switch {
	case t != nil && t.kind == arrayKind:
		out := make([]string, 0, len(t.items))
		for _, x := range t.items {
			out = append(out, tsScalar(x.str(), s, depth))
		}
		return strings.Join(out, " | ")
	case t != nil:
		return tsScalar(t.str(), s, depth)
	case s.get("properties") != nil:
		return tsScalar("object", s, depth)
	case s.get("items") != nil:
		return tsScalar("array", s, depth)
	}
	return "any"
}

// tsLiteral writes an enum or const value as a TypeScript literal.
func tsLiteral(v *node) string {
	w := &writer{}
	w.json(v)
	return w.String()
}

func tsScalar(typ string, s *node, depth int) string {
	switch typ {
	case "string", "boolean", "null":
		return typ
	case "integer", "number":
		return "number"
	case "array":
		items := s.get("items")
		if items == nil || items.kind != objectKind {
			return "any[]"
		}
		it := tsType(items, depth+1)
		if strings.Contains(it, " | ") {
			it = "(" + it + ")"
		}
		return it + "[]"
	case "object":
		props := s.get("properties").objectMembers()
		if len(props) == 0 {
			return "object"
		}
		required := requiredSet(s)
		parts := make([]string, 0, len(props))
		for _, m := range props {
			k := tsKey(m.key)
			if !required[m.key] {
				k += "?"
			}
			parts = append(parts, k+": "+tsType(m.value, depth+1))
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	}
	return "any"
}

// gemmaTools writes declaration:NAME{description:…,parameters:{…}} blocks,
// with the upper-case type names of Gemma's templates.
func (w *writer) gemmaTools(tools []toolcall.Tool, open, close, delim string) {
	for i, t := range tools {
		if i > 0 {
			w.WriteByte('\n')
		}
		decl := &node{kind: objectKind, members: []member{
			{key: "description", value: &node{kind: stringKind, text: t.Description}},
			{key: "parameters", value: upperTypes(parameters(t))},
		}}
		w.WriteString(open + "declaration:" + t.Name)
		w.gemma(decl, delim)
		w.WriteString(close)
	}
}

// upperTypes returns a copy of a schema whose "type" names are
// upper-cased.
func upperTypes(s *node) *node {
	switch s.kind {
	case objectKind:
		out := &node{kind: objectKind, members: make([]member, len(s.members))}
		for i, m := range s.members {
			v := m.value
			if m.key == "type" && v.kind == stringKind {
				v = &node{kind: stringKind, text: strings.ToUpper(v.text)}
			} else {
				v = upperTypes(v)
			}
			out.members[i] = member{key: m.key, value: v}
		}
		return out
	case arrayKind:
		out := &node{kind: arrayKind, items: make([]*node, len(s.items))}
		for i, item := range s.items {
			out.items[i] = upperTypes(item)
		}
		return out
	}
	return s
}
