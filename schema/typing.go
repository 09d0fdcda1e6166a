package schema

import (
	"bytes"
	"slices"
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
//   - With a declared tool whose schema types the property (see
//     [Tool.PropertyTypes]: type, $ref, anyOf/oneOf, enum), the declared
//     type decides. A property that admits null takes "null" (or Python's
//     "None") as null. A property that admits a string keeps the text as it
//     is, so "00123" stays "00123" and "true" stays "true", unless the
//     property also admits an object or array and the text is exactly that
//     container in valid JSON ("[1,2]" → [1,2]). Otherwise an
//     integer or number property takes text that spells a decimal number
//     ("5", "+5", "5.0", "007", "1e3"; an integer property gets the plain
//     digits, and a fractional value stays a number so that validation
//     reports a number where an integer is expected); a boolean property
//     takes true or false in any case ("False" → false); an object or array
//     property parses the text as (lenient) JSON. Text that spells none of
//     the allowed types stays a string, and validation then reports the
//     mismatch.
//   - Without a tool or a type, text that is valid JSON other than a bare
//     string is kept as JSON ("5" → 5, "true" → true, "[1,2]" → [1,2]), and
//     everything else is a string.
//
// Surrounding whitespace is ignored when reading a non-string value; a
// string keeps the text unchanged. It returns the JSON value and, when the
// value is not a plain string, the conversion as a coercion repair. Repairs
// never hold the value itself.
func TypeText(t *Tool, key, text string, isString, isJSON bool) (json []byte, r *toolcall.Repair) {
	note := func(to string) *toolcall.Repair {
		return &toolcall.Repair{Kind: toolcall.RepairCoercion, Offset: -1, CallIndex: -1,
			Detail: "/" + escapePointer(key) + ": text→" + to}
	}
	if isString {
		return quote(text), nil
	}
	trimmed := strings.TrimSpace(text)
	if isJSON {
		if v, ok := jsonValue(trimmed); ok {
			return v, nil
		}
		return quote(text), nil
	}
	types := t.PropertyTypes(key)
	if len(types) == 0 {
		if trimmed != "" && trimmed[0] != '"' && lenient.ValidString(trimmed) {
			return []byte(trimmed), note(jsonType(gjson.Parse(trimmed)))
		}
		return quote(text), nil
	}
	has := func(want string) bool { return slices.Contains(types, want) }
	if has("null") && (trimmed == "null" || trimmed == "None") {
		return []byte("null"), note("null")
	}
	if has("string") {
		// A union of a string with an object or array takes text that is
		// exactly that JSON container as the container: the model wrote
		// the structure the schema offers, not a string holding it.
		if c := containerType(trimmed); c != "" && has(c) && lenient.ValidString(trimmed) {
			return []byte(trimmed), note(c)
		}
		return quote(text), nil
	}
	if has("integer") || has("number") {
		if n, ok := parseNumber(trimmed); ok {
			if n.integral && has("integer") && n.integer != "" {
				return []byte(n.integer), note("integer")
			}
			return []byte(n.json), note(jsonType(gjson.Parse(n.json)))
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
			return v, note(jsonType(gjson.ParseBytes(v)))
		}
	}
	return quote(text), nil
}

// jsonValue parses text as JSON, repairing it if needed.
func jsonValue(trimmed string) ([]byte, bool) {
	if trimmed == "" {
		return nil, false
	}
	if lenient.ValidString(trimmed) {
		return []byte(trimmed), true
	}
	r := lenient.Repair([]byte(trimmed), nil)
	if r.Err != nil || len(r.Output) == 0 {
		return nil, false
	}
	return r.Output, true
}

func quote(s string) []byte {
	var b bytes.Buffer
	lenient.WriteJSONString(&b, s)
	return b.Bytes()
}

// escapePointer escapes a key as a JSON Pointer reference token.
func escapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// containerType names the JSON container text starts with ("object" or
// "array"), or "" when it starts with neither.
func containerType(text string) string {
	switch {
	case strings.HasPrefix(text, "{"):
		return "object"
	case strings.HasPrefix(text, "["):
		return "array"
	}
	return ""
}
