package render

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/schema"
)

// Example is the call a Tools prompt shows: the first tool, with
// ExampleArguments. ok is false when there are no tools.
func Example(tools []toolcall.Tool) (call toolcall.Call, ok bool) {
	if len(tools) == 0 {
		return toolcall.Call{}, false
	}
	t := tools[0]
	return toolcall.Call{Name: t.Name, Arguments: exampleArguments(t.Parameters, nil)}, true
}

// Example arguments.

// maxExampleDepth bounds the nesting of generated examples (and of $ref
// chains), so a recursive schema ends.
const maxExampleDepth = 6

// ExampleArguments returns example arguments for tool, a compact JSON
// object: every required property, and the extra top-level properties
// named in include when the schema declares them, each with a placeholder
// of the declared type. A const, enum, default or examples value is used
// when the schema gives one; numbers respect minimum and maximum; strings
// with a known format get a value of that format. A tool without a schema
// gets {}.
func ExampleArguments(tool *schema.Tool, include ...string) json.RawMessage {
	if tool == nil {
		return json.RawMessage("{}")
	}
	return exampleArguments(tool.Parameters, include)
}

// exampleArguments is ExampleArguments for a schema given as JSON; a schema
// that is not a JSON object gets {}.
func exampleArguments(params json.RawMessage, include []string) json.RawMessage {
	params = bytes.TrimSpace(params)
	if len(params) == 0 || params[0] != '{' || !gjson.ValidBytes(params) {
		return json.RawMessage("{}")
	}
	root := gjson.ParseBytes(params)
	x := exampler{root: root}
	var b strings.Builder
	x.object(&b, root, 0, include)
	return json.RawMessage(b.String())
}

type exampler struct {
	root gjson.Result
}

func (x *exampler) value(b *strings.Builder, s gjson.Result, depth int) {
	if depth > maxExampleDepth || !s.IsObject() {
		b.WriteString(`"..."`)
		return
	}
	if ref := s.Get(`\$ref`); ref.Exists() {
		if target, ok := x.resolve(ref.String()); ok {
			x.value(b, target, depth+1)
			return
		}
	}
	for _, key := range []string{"const", "enum.0", "default", "examples.0"} {
		if v := s.Get(key); v.Exists() {
			b.WriteString(compactRaw(v.Raw))
			return
		}
	}
	typ := firstType(s.Get("type"))
	if typ == "" {
		switch {
		case s.Get("properties").Exists():
			typ = "object"
		case s.Get("items").Exists():
			typ = "array"
		}
	}
	if typ == "" {
		for _, comb := range []string{"anyOf", "oneOf", "allOf"} {
			if branch := firstBranch(s.Get(comb)); branch.Exists() {
				x.value(b, branch, depth+1)
				return
			}
		}
	}
	switch typ {
	case "object":
		x.object(b, s, depth, nil)
	case "array":
		b.WriteByte('[')
		if items := s.Get("items"); items.IsObject() {
			x.value(b, items, depth+1)
		}
		b.WriteByte(']')
	case "integer", "number":
		b.WriteString(exampleNumber(s, typ == "integer"))
	case "boolean":
		b.WriteString("true")
	case "null":
		b.WriteString("null")
	default:
		b.WriteString(exampleString(s))
	}
}

// object writes the required properties of s in declaration order, then
// required names that no "properties" entry declares.
func (x *exampler) object(b *strings.Builder, s gjson.Result, depth int, include []string) {
	if ref := s.Get(`\$ref`); ref.Exists() && depth <= maxExampleDepth {
		if target, ok := x.resolve(ref.String()); ok {
			x.object(b, target, depth+1, include)
			return
		}
	}
	want := map[string]bool{}
	for _, r := range s.Get("required").Array() {
		want[r.String()] = true
	}
	for _, k := range include {
		want[k] = true
	}
	b.WriteByte('{')
	n := 0
	written := map[string]bool{}
	s.Get("properties").ForEach(func(k, prop gjson.Result) bool {
		name := k.String()
		if !want[name] || written[name] {
			return true
		}
		written[name] = true
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		b.WriteString(k.Raw)
		b.WriteByte(':')
		if depth >= maxExampleDepth {
			b.WriteString(`"..."`)
		} else {
			x.value(b, prop, depth+1)
		}
		return true
	})
	for _, r := range s.Get("required").Array() {
		if name := r.String(); !written[name] {
			written[name] = true
			if n > 0 {
				b.WriteByte(',')
			}
			n++
			b.WriteString(r.Raw)
			b.WriteString(`:"..."`)
		}
	}
	b.WriteByte('}')
}

// resolve follows a local reference ("#/$defs/x", "#/definitions/x").
func (x *exampler) resolve(ref string) (gjson.Result, bool) {
	if ref == "#" {
		return x.root, true
	}
	if !strings.HasPrefix(ref, "#/") {
		return gjson.Result{}, false
	}
	cur := x.root
	for _, part := range strings.Split(ref[2:], "/") {
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		cur = cur.Get(gjsonEscape(part))
		if !cur.Exists() {
			return gjson.Result{}, false
		}
	}
	return cur, cur.IsObject()
}

// gjsonEscape escapes the characters gjson's path syntax gives a meaning.
func gjsonEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`.*?|#@\!=<>%`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func firstType(t gjson.Result) string {
	if t.IsArray() {
		for _, x := range t.Array() {
			if x.String() != "null" {
				return x.String()
			}
		}
		if len(t.Array()) > 0 {
			return "null"
		}
		return ""
	}
	return t.String()
}

// firstBranch picks the first alternative that is not just {"type": "null"}.
func firstBranch(alts gjson.Result) gjson.Result {
	var first gjson.Result
	for _, a := range alts.Array() {
		if !first.Exists() {
			first = a
		}
		if a.Get("type").String() != "null" {
			return a
		}
	}
	return first
}

func compactRaw(raw string) string {
	var buf bytes.Buffer
	if json.Compact(&buf, []byte(raw)) != nil {
		return `"..."`
	}
	return buf.String()
}

// exampleNumber is 1, moved inside the schema's bounds.
func exampleNumber(s gjson.Result, integer bool) string {
	v := 1.0
	if m := s.Get("minimum"); m.Type == gjson.Number && v < m.Float() {
		v = m.Float()
	}
	if m := s.Get("exclusiveMinimum"); m.Type == gjson.Number && v <= m.Float() {
		v = m.Float() + 1
	}
	if m := s.Get("maximum"); m.Type == gjson.Number && v > m.Float() {
		v = m.Float()
	}
	if m := s.Get("exclusiveMaximum"); m.Type == gjson.Number && v >= m.Float() {
		v = m.Float() - 1
	}
	if integer {
		v = math.Ceil(v)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

var formatExamples = map[string]string{
	"date-time": "2025-01-31T12:00:00Z",
	"date":      "2025-01-31",
	"time":      "12:00:00",
	"email":     "user@example.com",
	"uri":       "https://example.com",
	"url":       "https://example.com",
	"hostname":  "example.com",
	"ipv4":      "192.0.2.1",
	"ipv6":      "2001:db8::1",
	"uuid":      "123e4567-e89b-12d3-a456-426614174000",
}

// exampleString is a placeholder string: a value of the declared format,
// or "...", padded to minLength.
func exampleString(s gjson.Result) string {
	v, ok := formatExamples[s.Get("format").String()]
	if !ok {
		v = "..."
		if n := int(s.Get("minLength").Int()); n > len(v) {
			v += strings.Repeat(".", min(n, 256)-len(v))
		}
	}
	return strconv.Quote(v)
}
