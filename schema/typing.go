package schema

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/lenient"
)

// TypeText types the raw text of one argument of a tagged-parameter dialect
// (qwen3_coder, glm45, …), where every value arrives as text.
//
// The rule, the same for every dialect:
//   - isString (the dialect marked the value as a string) keeps it as text;
//     isJSON (the dialect marked it as JSON) parses it as JSON, repairing
//     if needed, and keeps it as text if that fails.
//   - With a declared tool whose schema types the property, the schema
//     decides: a string property keeps the text as it is (so "00123" stays
//     "00123"); integer, number, boolean and null properties take the value
//     when the text spells one; object and array properties parse the text
//     as (lenient) JSON. Text that spells none of the allowed types stays a
//     string, and validation then reports the mismatch.
//   - Without a tool or a type, text that is valid JSON other than a bare
//     string is kept as JSON ("5" → 5, "true" → true, "[1,2]" → [1,2]), and
//     everything else is a string.
//
// It returns the JSON value and, when the value is not a plain string, the
// conversion as a coercion repair. Repairs never hold the value itself.
func TypeText(t *Tool, key, text string, isString, isJSON bool) (json []byte, r *toolcall.Repair) {
	note := func(to string) *toolcall.Repair {
		return &toolcall.Repair{Kind: toolcall.RepairCoercion, Offset: -1, CallIndex: -1,
			Detail: "/" + escapePointer(key) + ": text→" + to}
	}
	if isString {
		return quote(text), nil
	}
	if isJSON {
		if v, ok := jsonValue(text); ok {
			return v, nil
		}
		return quote(text), nil
	}
	types := t.PropertyTypes(key)
	if len(types) == 0 {
		trimmed := strings.TrimSpace(text)
		if trimmed != "" && trimmed[0] != '"' && gjson.Valid(trimmed) {
			return []byte(trimmed), note(kindName(trimmed))
		}
		return quote(text), nil
	}
	has := func(want string) bool {
		for _, ty := range types {
			if ty == want {
				return true
			}
		}
		return false
	}
	trimmed := strings.TrimSpace(text)
	if has("null") && (trimmed == "null" || trimmed == "None") {
		return []byte("null"), note("null")
	}
	if has("string") {
		return quote(text), nil
	}
	if has("integer") {
		if _, err := strconv.ParseInt(trimmed, 10, 64); err == nil {
			return []byte(strings.TrimPrefix(trimmed, "+")), note("integer")
		}
		if f, err := strconv.ParseFloat(trimmed, 64); err == nil && f == float64(int64(f)) && !has("number") {
			return []byte(strconv.FormatInt(int64(f), 10)), note("integer")
		}
	}
	if has("number") || has("integer") {
		if f, err := strconv.ParseFloat(trimmed, 64); err == nil && gjson.Valid(trimmed) {
			_ = f
			return []byte(trimmed), note("number")
		}
	}
	if has("boolean") {
		switch strings.ToLower(trimmed) {
		case "true":
			return []byte("true"), note("boolean")
		case "false":
			return []byte("false"), note("boolean")
		}
	}
	if has("object") || has("array") {
		if v, ok := jsonValue(trimmed); ok && (v[0] == '{' || v[0] == '[') {
			return v, note(kindName(string(v)))
		}
	}
	return quote(text), nil
}

func jsonValue(text string) ([]byte, bool) {
	trimmed := strings.TrimSpace(text)
	if trimmed == "" {
		return nil, false
	}
	if gjson.Valid(trimmed) {
		return []byte(trimmed), true
	}
	r := lenient.Repair([]byte(trimmed), nil)
	if r.Err != nil {
		return nil, false
	}
	return r.Output, true
}

func kindName(v string) string {
	switch v[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

func quote(s string) []byte {
	var b bytes.Buffer
	lenient.WriteJSONString(&b, s)
	return b.Bytes()
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
