package schema

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/kaptinlin/jsonschema"
	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/lenient"
)

// maxDepth bounds how deep coercion (and the duplicate-key search) walks
// into arguments; a recursive schema otherwise follows any nesting.
const maxDepth = 128

// Reasons a coercion was not applied; they end up in the violation message
// of the mismatch, so they never mention the value.
const (
	reasonLeadingZeros = "leading zeros would be lost"
	reasonFraction     = "the fraction would be truncated"
	reasonRisky        = " is risky; set AllowRisky to apply it"
)

// coercer converts argument values toward their schema. It rebuilds only
// the parts it changes, writing members back in their original order.
type coercer struct {
	allowRisky bool
	repairs    []toolcall.Repair
	// declined maps the path of each value a coercion was refused for to
	// the reason.
	declined map[string]string
}

// coerce converts the arguments (parsed, and as text) toward s. It returns
// args itself when nothing changed.
func coerce(parsed gjson.Result, args []byte, s *jsonschema.Schema, allowRisky bool) ([]byte, []toolcall.Repair, map[string]string) {
	c := &coercer{allowRisky: allowRisky}
	out, changed := c.value(parsed, s, "", 0)
	if !changed {
		return args, c.repairs, c.declined
	}
	return []byte(out), c.repairs, c.declined
}

// value coerces v toward s. It reports whether the returned JSON differs
// from v.Raw.
func (c *coercer) value(v gjson.Result, s *jsonschema.Schema, path string, depth int) (string, bool) {
	if s == nil || depth > maxDepth {
		return v.Raw, false
	}
	s = deref(s)
	types := declaredTypes(s)
	// A union whose branches all declare types is resolved branch by
	// branch; one with an unconstrained branch (anyOf of required lists,
	// say) constrains no type, and s's own keywords apply.
	if branches := alternatives(s); len(s.Type) == 0 && len(branches) > 0 && types != nil {
		return c.union(v, branches, path, depth)
	}
	if len(types) == 0 || admits(types, v) {
		return c.descend(v, s, path, depth)
	}
	converted, ok := c.convert(v, types, path)
	if !ok {
		return v.Raw, false
	}
	out, _ := c.descend(gjson.Parse(converted), s, path, depth)
	return out, true
}

// union tries the branches of anyOf/oneOf in order: the first one that
// already admits the value's type is followed (for the coercion of nested
// values); failing that, the first one the value can be converted to.
func (c *coercer) union(v gjson.Result, branches []*jsonschema.Schema, path string, depth int) (string, bool) {
	for _, b := range branches {
		if t := declaredTypes(b); len(t) == 0 || admits(t, v) {
			return c.value(v, b, path, depth+1)
		}
	}
	for _, b := range branches {
		if converted, ok := c.convert(v, declaredTypes(b), path); ok {
			out, _ := c.descend(gjson.Parse(converted), deref(b), path, depth+1)
			return out, true
		}
	}
	return v.Raw, false
}

// descend coerces the members of an object or the elements of an array
// toward their subschemas.
func (c *coercer) descend(v gjson.Result, s *jsonschema.Schema, path string, depth int) (string, bool) {
	switch {
	case v.IsObject():
		type member struct{ key, value string }
		var (
			members []member
			changed bool
		)
		v.ForEach(func(k, val gjson.Result) bool {
			out, ch := val.Raw, false
			if sub := propertySchema(s, k.Str); sub != nil {
				out, ch = c.value(val, sub, path+"/"+escapePointer(k.Str), depth+1)
			}
			changed = changed || ch
			members = append(members, member{k.Raw, out})
			return true
		})
		if !changed {
			return v.Raw, false
		}
		var b strings.Builder
		b.WriteByte('{')
		for i, m := range members {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(m.key)
			b.WriteByte(':')
			b.WriteString(m.value)
		}
		b.WriteByte('}')
		return b.String(), true
	case v.IsArray():
		var (
			items   []string
			changed bool
		)
		i := 0
		v.ForEach(func(_, val gjson.Result) bool {
			out, ch := val.Raw, false
			if sub := itemSchema(s, i); sub != nil {
				out, ch = c.value(val, sub, path+"/"+strconv.Itoa(i), depth+1)
			}
			changed = changed || ch
			items = append(items, out)
			i++
			return true
		})
		if !changed {
			return v.Raw, false
		}
		return "[" + strings.Join(items, ",") + "]", true
	}
	return v.Raw, false
}

// convert turns v into one of types, recording the change. A conversion
// that would lose information is refused; a risky one is applied only
// with AllowRisky. Either way the reason is kept for the violation message.
func (c *coercer) convert(v gjson.Result, types []string, path string) (string, bool) {
	from := jsonType(v)
	out, to, risky, refusal := candidate(v, types)
	switch {
	case refusal != "":
		c.decline(path, refusal)
		return "", false
	case to == "":
		return "", false
	case risky && !c.allowRisky:
		c.decline(path, from+"→"+strings.Fields(to)[0]+reasonRisky)
		return "", false
	}
	c.repairs = append(c.repairs, toolcall.Repair{Kind: toolcall.RepairCoercion, Offset: -1, CallIndex: -1,
		Detail: location(path) + ": " + from + "→" + to, Risky: risky})
	return out, true
}

func (c *coercer) decline(path, reason string) {
	if c.declined == nil {
		c.declined = map[string]string{}
	}
	c.declined[path] = reason
}

// candidate picks the conversion of v toward types. It returns the new JSON
// and the target ("integer", "array (wrapped)", …), or a refusal, or
// nothing when no conversion applies.
func candidate(v gjson.Result, types []string) (out, to string, risky bool, refusal string) {
	has := func(t string) bool { return slices.Contains(types, t) }
	switch v.Type {
	case gjson.String:
		text := strings.TrimSpace(v.Str)
		if has("null") && text == "null" {
			return "null", "null", false, ""
		}
		if has("integer") || has("number") {
			if n, ok := parseNumber(text); ok {
				switch {
				case n.leadingZeros:
					return "", "", false, reasonLeadingZeros
				case n.integral && has("integer"):
					spelled := n.integer
					if spelled == "" {
						spelled = n.json
					}
					return spelled, "integer", n.big, ""
				case has("number"):
					return n.json, "number", n.big, ""
				default:
					return "", "", false, reasonFraction
				}
			}
		}
		if has("boolean") && (strings.EqualFold(text, "true") || strings.EqualFold(text, "false")) {
			return strings.ToLower(text), "boolean", true, ""
		}
		if encoded := encodedContainer(text); encoded != "" && has(encoded) {
			return compactJSON(text), encoded + " (decoded JSON text)", false, ""
		}
		if has("array") {
			return "[" + v.Raw + "]", "array (wrapped)", false, ""
		}
	case gjson.Number:
		switch {
		case has("string"):
			return `"` + v.Raw + `"`, "string", false, ""
		case has("array"):
			return "[" + v.Raw + "]", "array (wrapped)", false, ""
		case has("integer"):
			return "", "", false, reasonFraction
		}
	case gjson.True, gjson.False:
		switch {
		case has("string"):
			return `"` + v.Raw + `"`, "string", false, ""
		case has("array"):
			return "[" + v.Raw + "]", "array (wrapped)", false, ""
		}
	case gjson.JSON:
		if v.IsObject() && has("array") {
			return "[" + v.Raw + "]", "array (wrapped)", false, ""
		}
	}
	return "", "", false, ""
}

// encodedContainer returns "object" or "array" when text is a JSON object
// or array, else "".
func encodedContainer(text string) string {
	if text == "" || !lenient.ValidString(text) {
		return ""
	}
	switch text[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	}
	return ""
}

// admits reports whether v's JSON type is one of types; an integer is a
// number, and a number with a zero fraction is an integer (as the validator
// counts them).
func admits(types []string, v gjson.Result) bool {
	t := jsonType(v)
	for _, want := range types {
		if want == t || want == "number" && t == "integer" {
			return true
		}
	}
	return false
}

func compactJSON(text string) string {
	var b bytes.Buffer
	if json.Compact(&b, []byte(text)) != nil {
		return text
	}
	return b.String()
}
