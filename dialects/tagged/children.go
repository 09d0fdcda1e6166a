package tagged

import (
	"bytes"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/lenient"
)

// arrayItem is the element name of an array entry in NestedValues calls.
const arrayItem = "item"

// element is one ChildParams element: a leaf with raw text, or, with
// NestedValues, an object or array already written as JSON.
type element struct {
	key    string
	text   string // leaf text, trimmed as a value
	json   []byte // nested value; nil for a leaf
	closed bool
}

// childBody reads the children of a ChildParams call: parameters, and the
// name and arguments elements the descriptor names.
func (p *parser) childBody(rc *dialects.RawCall, from, to int) *toolcall.Error {
	d := p.d
	params := []dialects.Param{}
	hasArgs := false
	props := p.parameterSchema(rc.Name)
	pos := from
	for {
		pos = p.gap(pos, to)
		if pos >= to {
			break
		}
		if !p.isChildOpen(pos) {
			return p.junk(pos)
		}
		at := pos
		el, next, err := p.child(pos, to, 0, props)
		if err != nil {
			return err
		}
		pos = next
		if !el.closed {
			p.unclosed(pos, pointer(el.key))
		}
		switch {
		case d.NameChild != "" && el.key == d.NameChild:
			rc.Name = strings.TrimSpace(el.text)
		case d.ArgumentsChild != "" && el.key == d.ArgumentsChild:
			rc.Arguments, hasArgs = strings.TrimSpace(el.text), true
			if el.json != nil {
				rc.Arguments = string(el.json)
			}
		case slices.Contains(d.IgnoreChildren, el.key):
		case el.json != nil:
			params = p.addParam(params, dialects.Param{Key: el.key, Value: string(el.json), IsJSON: true}, at)
		default:
			params = p.addParam(params, dialects.Param{Key: el.key, Value: el.text}, at)
		}
	}
	if hasArgs {
		if len(params) > 0 {
			return toolcall.NewError(toolcall.CodeMalformedCall, "a call has both an arguments element and parameter elements")
		}
		if rc.Arguments == "" {
			rc.Arguments = "{}"
		}
		return nil
	}
	rc.Params = params
	return nil
}

// isChildOpen reports whether an element's opening tag starts at pos.
func (p *parser) isChildOpen(pos int) bool {
	open := p.d.ChildPrefix + "<"
	return strings.HasPrefix(p.text[pos:], open) && !strings.HasPrefix(p.text[pos+len(open):], "/")
}

// child reads the element whose opening tag starts at pos. schema is the
// JSON Schema of the object it belongs to (or of the array, for an
// <item>), used to type the leaves of nested values.
func (p *parser) child(pos, to, depth int, schema gjson.Result) (element, int, *toolcall.Error) {
	d := p.d
	open := pos + len(d.ChildPrefix) + 1
	limit := min(to, open+maxTagLen)
	gt := strings.IndexByte(p.text[open:limit], '>')
	if gt < 0 {
		return element{}, pos, toolcall.NewError(toolcall.CodeMalformedCall, "an element's opening tag is not closed")
	}
	tag := p.text[open : open+gt]
	contentStart := open + gt + 1
	selfClosing := strings.HasSuffix(tag, "/")
	tag = strings.TrimSuffix(tag, "/")
	key := tag
	if i := strings.IndexAny(tag, " \t\r\n"); i >= 0 {
		key = tag[:i]
	}
	if key == "" || strings.ContainsAny(key, "<&\"'=") {
		return element{}, pos, toolcall.NewError(toolcall.CodeMalformedCall, "an element has no valid name")
	}
	el := element{key: key}
	if selfClosing {
		el.closed = true
		return el, contentStart, nil
	}
	if !d.NestedValues {
		closeTag := d.ChildPrefix + "</" + key + ">"
		c := strings.Index(p.text[contentStart:to], closeTag)
		if c < 0 {
			el.text = trimValue(p.text[contentStart:to], false, p.escaped)
			return el, to, nil
		}
		el.text, el.closed = trimValue(p.text[contentStart:contentStart+c], true, p.escaped), true
		return el, contentStart + c + len(closeTag), nil
	}
	return p.nestedChild(el, contentStart, to, depth, schema)
}

// nestedChild reads the content of a NestedValues element: text up to its
// closing tag, or child elements that make an object or an array.
func (p *parser) nestedChild(el element, from, to, depth int, parent gjson.Result) (element, int, *toolcall.Error) {
	d := p.d
	schema := childSchema(parent, el.key)
	q := p.find[litChildOpen].next(p.text, from)
	if q < 0 || q >= to {
		el.text = trimValue(p.text[from:to], false, p.escaped)
		return el, to, nil
	}
	if !p.isChildOpen(q) {
		next, err := p.closeTag(q, to, el.key)
		if err != nil {
			return el, q, err
		}
		el.text, el.closed = trimValue(p.text[from:q], true, p.escaped), true
		return el, next, nil
	}
	if strings.TrimSpace(p.text[from:q]) != "" {
		return el, q, toolcall.NewError(toolcall.CodeMalformedCall, "an element mixes text and elements")
	}
	if depth+1 >= maxDepth {
		return el, q, toolcall.NewError(toolcall.CodeTooDeep, "elements are nested deeper than the limit")
	}
	var kids []element
	pos := q
	for {
		pos = p.gap(pos, to)
		if pos >= to {
			break // left open: it ends with the call
		}
		if p.isChildOpen(pos) {
			kid, next, err := p.child(pos, to, depth+1, schema)
			if err != nil {
				return el, pos, err
			}
			if !kid.closed {
				p.unclosed(next, pointer(el.key)+pointer(kid.key))
			}
			if kid.json == nil {
				kid.json = leafJSON(kid.text, childSchema(schema, kid.key))
			}
			kids = append(kids, kid)
			pos = next
			continue
		}
		if strings.HasPrefix(p.text[pos:], d.ChildPrefix+"</") {
			next, err := p.closeTag(pos, to, el.key)
			if err != nil {
				return el, pos, err
			}
			pos, el.closed = next, true
			break
		}
		return el, pos, p.junk(pos)
	}
	el.json = buildNested(kids)
	return el, pos, nil
}

// closeTag checks that the closing tag at pos closes key, and returns the
// position after it.
func (p *parser) closeTag(pos, to int, key string) (int, *toolcall.Error) {
	start := pos + len(p.d.ChildPrefix) + 2
	limit := min(to, start+maxTagLen)
	gt := strings.IndexByte(p.text[start:limit], '>')
	if gt < 0 || strings.TrimSpace(p.text[start:start+gt]) != key {
		return pos, toolcall.NewError(toolcall.CodeMalformedCall, "an element is closed by another element's tag")
	}
	return start + gt + 1, nil
}

// buildNested writes child elements as a JSON array when every one is an
// <item>, else as an object (a repeated key keeps its last value).
func buildNested(kids []element) []byte {
	var b bytes.Buffer
	isArray := len(kids) > 0
	for _, k := range kids {
		if k.key != arrayItem {
			isArray = false
			break
		}
	}
	if isArray {
		b.WriteByte('[')
		for i, k := range kids {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(k.json)
		}
		b.WriteByte(']')
		return b.Bytes()
	}
	var uniq []element
	for _, k := range kids {
		if i := slices.IndexFunc(uniq, func(u element) bool { return u.key == k.key }); i >= 0 {
			uniq[i] = k
			continue
		}
		uniq = append(uniq, k)
	}
	b.WriteByte('{')
	for i, k := range uniq {
		if i > 0 {
			b.WriteByte(',')
		}
		lenient.WriteJSONString(&b, k.key)
		b.WriteByte(':')
		b.Write(k.json)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// parameterSchema returns the parameters schema of the declared tool name,
// or a missing result.
func (p *parser) parameterSchema(name string) gjson.Result {
	if p.opts.Tools == nil || name == "" {
		return gjson.Result{}
	}
	tool, ok := p.opts.Tools.Lookup(name)
	if !ok {
		alt, ok := p.opts.Tools.LookupFold(name)
		if !ok {
			return gjson.Result{}
		}
		tool, _ = p.opts.Tools.Lookup(alt)
	}
	if tool == nil || len(tool.Parameters) == 0 {
		return gjson.Result{}
	}
	return gjson.ParseBytes(tool.Parameters)
}

// childSchema is the schema of the element key inside a value whose schema
// is parent: an array's items for <item>, else the object's property.
func childSchema(parent gjson.Result, key string) gjson.Result {
	if !parent.IsObject() {
		return gjson.Result{}
	}
	if key == arrayItem {
		if items := parent.Get("items"); items.IsObject() {
			return items
		}
	}
	var found gjson.Result
	parent.Get("properties").ForEach(func(k, v gjson.Result) bool {
		if k.String() == key {
			found = v
			return false
		}
		return true
	})
	return found
}

// leafJSON types the text of a nested leaf by its schema, the way
// schema.TypeText types a top-level value: a string property keeps the
// text; otherwise text that is JSON of an allowed type (any type, without a
// schema) is kept as JSON, and anything else is a string.
func leafJSON(text string, schema gjson.Result) []byte {
	types := schemaTypes(schema)
	var b bytes.Buffer
	if slices.Contains(types, "string") {
		lenient.WriteJSONString(&b, text)
		return b.Bytes()
	}
	trimmed := strings.TrimSpace(text)
	if trimmed != "" && trimmed[0] != '"' && lenient.ValidString(trimmed) && admits(types, gjson.Parse(trimmed)) {
		return []byte(trimmed)
	}
	if slices.Contains(types, "boolean") {
		switch strings.ToLower(trimmed) {
		case "true", "false":
			return []byte(strings.ToLower(trimmed))
		}
	}
	lenient.WriteJSONString(&b, text)
	return b.Bytes()
}

// schemaTypes lists the types a schema allows through its "type" keyword.
func schemaTypes(s gjson.Result) []string {
	t := s.Get("type")
	switch {
	case t.Type == gjson.String:
		return []string{t.String()}
	case t.IsArray():
		var out []string
		for _, v := range t.Array() {
			out = append(out, v.String())
		}
		return out
	}
	return nil
}

func admits(types []string, v gjson.Result) bool {
	if len(types) == 0 {
		return true
	}
	kind := ""
	switch {
	case v.Type == gjson.Number:
		kind = "number"
		if !strings.ContainsAny(v.Raw, ".eE") && slices.Contains(types, "integer") {
			return true
		}
	case v.Type == gjson.True || v.Type == gjson.False:
		kind = "boolean"
	case v.Type == gjson.Null:
		kind = "null"
	case v.IsArray():
		kind = "array"
	case v.IsObject():
		kind = "object"
	}
	return slices.Contains(types, kind)
}
