package retry

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall/lenient"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/schema"
)

// NativeDialect is the dialect name of calls the server returned in its
// tool_calls field (Response.NativeCalls).
const NativeDialect = "native"

// CallFormatter is implemented by a dialect that can write a call in its own
// wire syntax. The re-ask shows the model a correct call in the format it
// was trained on; a dialect implementing this interface is asked first, and
// the built-in formatters cover the common dialects. The method uses only
// standard types, so a dialect package implements it without importing
// this one.
type CallFormatter interface {
	// FormatCall writes one call to name with args, a compact JSON object.
	FormatCall(name string, args json.RawMessage) string
}

// FormatCall writes a call in the named dialect's syntax: with the dialect's
// own CallFormatter when reg holds one, else with a built-in formatter, else
// as the JSON object {"name": …, "arguments": {…}}, which is also the form
// for native calls. reg may be nil.
func FormatCall(reg *registry.Registry, dialect, name string, args json.RawMessage) string {
	return formatCall(reg, dialect, name, args, "")
}

// formatCall is FormatCall with a sample of the model's output, which tells
// apart the variants of one dialect (Mistral's two call syntaxes).
func formatCall(reg *registry.Registry, dialect, name string, args json.RawMessage, sample string) string {
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage("{}")
	}
	if reg != nil {
		if d, ok := reg.Lookup(dialect); ok {
			if f, ok := d.(CallFormatter); ok {
				return f.FormatCall(name, args)
			}
		}
	}
	if f, ok := formatters[dialect]; ok {
		return f(name, args, sample)
	}
	return jsonCall(name, args, "name", "arguments")
}

type formatter func(name string, args json.RawMessage, sample string) string

// wrapJSON formats a call as a JSON object between open and close.
func wrapJSON(open, close, nameKey, argsKey string) formatter {
	return func(name string, args json.RawMessage, _ string) string {
		return open + jsonCall(name, args, nameKey, argsKey) + close
	}
}

// formatters are the built-in formatters, by dialect name. Each one's
// output parses back to the same call through its dialect (the tests check
// every one of them).
var formatters = map[string]formatter{
	NativeDialect:      wrapJSON("", "", "name", "arguments"),
	"ollama":           wrapJSON("", "", "name", "arguments"),
	"json":             wrapJSON("", "", "name", "arguments"),
	"hermes":           wrapJSON("<tool_call>\n", "\n</tool_call>", "name", "arguments"),
	"llama3_json":      wrapJSON("", "", "name", "parameters"),
	"markdown_json":    wrapJSON("```json\n", "\n```", "name", "arguments"),
	"xlam":             wrapJSON("[", "]", "name", "arguments"),
	"functools":        wrapJSON("functools[", "]", "name", "arguments"),
	"granite":          wrapJSON("<|tool_call|>[", "]", "name", "arguments"),
	"granite_20b_fc":   wrapJSON("<function_call> ", "", "name", "arguments"),
	"tool_calls_array": wrapJSON("<tool_calls>[", "]</tool_calls>", "name", "arguments"),
	"minimax_m1":       wrapJSON("<tool_calls>\n", "\n</tool_calls>", "name", "arguments"),
	"nemotron_v2":      wrapJSON("<TOOLCALL>[", "]</TOOLCALL>", "name", "arguments"),
	"longcat":          wrapJSON("<longcat_tool_call>", "</longcat_tool_call>", "name", "arguments"),
	"internlm2":        wrapJSON("<|action_start|><|plugin|>\n", "<|action_end|>", "name", "parameters"),
	"gigachat3":        wrapJSON("<|function_call|>", "", "name", "arguments"),
	"mistral":          mistralCall,
	"pythonic":         pythonCall("[", "]"),
	"llama4_pythonic":  pythonCall("<|python_start|>[", "]<|python_end|>"),
	"lfm2":             pythonCall("<|tool_call_start|>[", "]<|tool_call_end|>"),
	"olmo3":            pythonCall("<function_calls>", "</function_calls>"),
	"qwen3_coder":      qwenXMLCall("<tool_call>", "</tool_call>"),
	"seed_oss":         qwenXMLCall("<seed:tool_call>", "</seed:tool_call>"),
	"glm45":            glmCall,
	"minimax_m2":       minimaxM2Call,
	"deepseek_v31": func(name string, args json.RawMessage, _ string) string {
		return "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>" + name + "<｜tool▁sep｜>" + spacedJSON(args) + "<｜tool▁call▁end｜><｜tool▁calls▁end｜>"
	},
	"deepseek_v3": func(name string, args json.RawMessage, _ string) string {
		return "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>" + name + "\n```json\n" + spacedJSON(args) + "\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>"
	},
	"kimi_k2": func(name string, args json.RawMessage, _ string) string {
		return "<|tool_calls_section_begin|><|tool_call_begin|>functions." + name + ":0<|tool_call_argument_begin|>" + spacedJSON(args) + "<|tool_call_end|><|tool_calls_section_end|>"
	},
	"functionary_v3_1": func(name string, args json.RawMessage, _ string) string {
		return "<function=" + name + ">" + spacedJSON(args) + "</function>"
	},
	"harmony": func(name string, args json.RawMessage, _ string) string {
		return "<|start|>assistant<|channel|>commentary to=functions." + name + " <|constrain|>json<|message|>" + spacedJSON(args) + "<|call|>"
	},
	"apertus": func(name string, args json.RawMessage, _ string) string {
		var b strings.Builder
		b.WriteString("<|tools_prefix|>[{")
		lenientQuote(&b, name)
		b.WriteString(": " + spacedJSON(args) + "}]<|tools_suffix|>")
		return b.String()
	},
	"gemma4": func(name string, args json.RawMessage, _ string) string {
		return "<|tool_call>call:" + name + gemmaValue(gjson.ParseBytes(args), `<|"|>`) + "<tool_call|>"
	},
	"functiongemma": func(name string, args json.RawMessage, _ string) string {
		return "<start_function_call>call:" + name + gemmaValue(gjson.ParseBytes(args), "<escape>") + "<end_function_call>"
	},
}

// jsonCall writes {"name": "f", "arguments": {…}} with the given keys.
func jsonCall(name string, args json.RawMessage, nameKey, argsKey string) string {
	var b strings.Builder
	b.WriteString(`{"` + nameKey + `": `)
	lenientQuote(&b, name)
	b.WriteString(`, "` + argsKey + `": `)
	b.WriteString(spacedJSON(args))
	b.WriteByte('}')
	return b.String()
}

func lenientQuote(b *strings.Builder, s string) {
	var buf bytes.Buffer
	lenient.WriteJSONString(&buf, s)
	b.Write(buf.Bytes())
}

// mistralCall writes the v11 syntax [TOOL_CALLS]name[ARGS]{…} when the
// model's own output used it, else the older [TOOL_CALLS][{…}] array.
func mistralCall(name string, args json.RawMessage, sample string) string {
	if strings.Contains(sample, "[ARGS]") {
		return "[TOOL_CALLS]" + name + "[ARGS]" + spacedJSON(args)
	}
	return "[TOOL_CALLS][" + jsonCall(name, args, "name", "arguments") + "]"
}

// spacedJSON writes compact JSON with a space after each colon and comma,
// the way models are shown JSON in their chat templates. Key order is kept.
func spacedJSON(raw json.RawMessage) string {
	v := gjson.ParseBytes(raw)
	if !v.IsObject() && !v.IsArray() {
		return string(bytes.TrimSpace(raw))
	}
	var b strings.Builder
	writeSpaced(&b, v)
	return b.String()
}

func writeSpaced(b *strings.Builder, v gjson.Result) {
	switch {
	case v.IsObject():
		b.WriteByte('{')
		first := true
		v.ForEach(func(k, val gjson.Result) bool {
			if !first {
				b.WriteString(", ")
			}
			first = false
			b.WriteString(k.Raw)
			b.WriteString(": ")
			writeSpaced(b, val)
			return true
		})
		b.WriteByte('}')
	case v.IsArray():
		b.WriteByte('[')
		for i, item := range v.Array() {
			if i > 0 {
				b.WriteString(", ")
			}
			writeSpaced(b, item)
		}
		b.WriteByte(']')
	default:
		b.WriteString(v.Raw)
	}
}

// pythonCall writes open + name(key=value, …) + close with Python literals.
func pythonCall(open, close string) formatter {
	return func(name string, args json.RawMessage, _ string) string {
		var b strings.Builder
		b.WriteString(open + name + "(")
		i := 0
		gjson.ParseBytes(args).ForEach(func(k, v gjson.Result) bool {
			if i > 0 {
				b.WriteString(", ")
			}
			i++
			b.WriteString(k.String() + "=")
			writePython(&b, v)
			return true
		})
		b.WriteString(")" + close)
		return b.String()
	}
}

func writePython(b *strings.Builder, v gjson.Result) {
	switch v.Type {
	case gjson.String:
		writePythonString(b, v.String())
	case gjson.True:
		b.WriteString("True")
	case gjson.False:
		b.WriteString("False")
	case gjson.Null:
		b.WriteString("None")
	case gjson.Number:
		b.WriteString(v.Raw)
	default:
		if v.IsArray() {
			b.WriteByte('[')
			for i, item := range v.Array() {
				if i > 0 {
					b.WriteString(", ")
				}
				writePython(b, item)
			}
			b.WriteByte(']')
			return
		}
		b.WriteByte('{')
		first := true
		v.ForEach(func(k, val gjson.Result) bool {
			if !first {
				b.WriteString(", ")
			}
			first = false
			writePythonString(b, k.String())
			b.WriteString(": ")
			writePython(b, val)
			return true
		})
		b.WriteByte('}')
	}
}

// writePythonString writes s as a single-quoted Python string literal.
func writePythonString(b *strings.Builder, s string) {
	b.WriteByte('\'')
	for _, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case '\'':
			b.WriteString(`\'`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				b.WriteString(`\x` + strconv.FormatInt(int64(r)+0x100, 16)[1:])
				continue
			}
			b.WriteRune(r)
		}
	}
	b.WriteByte('\'')
}

// rawParam is how tagged-parameter dialects write a value: strings as raw
// text, everything else as JSON.
func rawParam(v gjson.Result) string {
	if v.Type == gjson.String {
		return v.String()
	}
	return spacedJSON(json.RawMessage(v.Raw))
}

func qwenXMLCall(open, close string) formatter {
	return func(name string, args json.RawMessage, _ string) string {
		var b strings.Builder
		b.WriteString(open + "\n<function=" + name + ">\n")
		gjson.ParseBytes(args).ForEach(func(k, v gjson.Result) bool {
			b.WriteString("<parameter=" + k.String() + ">\n" + rawParam(v) + "\n</parameter>\n")
			return true
		})
		b.WriteString("</function>\n" + close)
		return b.String()
	}
}

func glmCall(name string, args json.RawMessage, _ string) string {
	var b strings.Builder
	b.WriteString("<tool_call>" + name + "\n")
	gjson.ParseBytes(args).ForEach(func(k, v gjson.Result) bool {
		b.WriteString("<arg_key>" + k.String() + "</arg_key>\n<arg_value>" + rawParam(v) + "</arg_value>\n")
		return true
	})
	b.WriteString("</tool_call>")
	return b.String()
}

func minimaxM2Call(name string, args json.RawMessage, _ string) string {
	var b strings.Builder
	b.WriteString("<minimax:tool_call>\n<invoke name=\"" + name + "\">\n")
	gjson.ParseBytes(args).ForEach(func(k, v gjson.Result) bool {
		b.WriteString("<parameter name=\"" + k.String() + "\">" + rawParam(v) + "</parameter>\n")
		return true
	})
	b.WriteString("</invoke>\n</minimax:tool_call>")
	return b.String()
}

// gemmaValue writes a value in Gemma's object syntax: bare keys, strings
// between quote tokens, other scalars bare.
func gemmaValue(v gjson.Result, quote string) string {
	var b strings.Builder
	var write func(v gjson.Result)
	write = func(v gjson.Result) {
		switch {
		case v.IsObject():
			b.WriteByte('{')
			first := true
			v.ForEach(func(k, val gjson.Result) bool {
				if !first {
					b.WriteByte(',')
				}
				first = false
				b.WriteString(k.String() + ":")
				write(val)
				return true
			})
			b.WriteByte('}')
		case v.IsArray():
			b.WriteByte('[')
			for i, item := range v.Array() {
				if i > 0 {
					b.WriteByte(',')
				}
				write(item)
			}
			b.WriteByte(']')
		case v.Type == gjson.String:
			b.WriteString(quote + v.String() + quote)
		default:
			b.WriteString(v.Raw)
		}
	}
	write(v)
	return b.String()
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
	if tool == nil || len(tool.Parameters) == 0 {
		return json.RawMessage("{}")
	}
	root := gjson.ParseBytes(tool.Parameters)
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
