package schema

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// typeAliases are the type names tool schemas in the wild use in place of
// JSON Schema's own (Python and C spellings), with the type each stands for.
// vLLM and other servers accept them; JSON Schema does not.
var typeAliases = map[string]string{
	"float":  "number",
	"double": "number",
	"int":    "integer",
	"bool":   "boolean",
	"dict":   "object",
	"list":   "array",
	"str":    "string",
}

// aliasType returns the JSON Schema type a "type" value that is not one
// stands for: an alias from typeAliases, or a JSON type written in other
// case ("STRING", as Gemini schemas write it).
func aliasType(t string) (string, bool) {
	if slices.Contains(jsonTypes, t) {
		return "", false
	}
	low := strings.ToLower(t)
	if slices.Contains(jsonTypes, low) {
		return low, true
	}
	mapped, ok := typeAliases[low]
	return mapped, ok
}

// Keywords whose values are data, not schemas: a "type" inside them is a
// value and is left as written.
var dataKeywords = map[string]bool{"enum": true, "const": true, "default": true, "examples": true, "example": true}

// Keywords whose values map names to schemas: their keys are names, never
// keywords.
var schemaMaps = map[string]bool{"properties": true, "patternProperties": true, "$defs": true,
	"definitions": true, "dependentSchemas": true}

// mapTypeAliases rewrites the "type" keywords of a schema that use an alias
// into the JSON Schema type it stands for. It returns the schema unchanged
// and no notes when there was nothing to map; otherwise the rewritten schema
// (key order kept) and one note per mapped keyword, naming its place as a
// JSON Pointer.
func mapTypeAliases(params []byte) ([]byte, []string) {
	root := gjson.ParseBytes(params)
	if !hasAlias(root, 0) {
		return params, nil
	}
	var (
		buf   bytes.Buffer
		notes []string
	)
	buf.Grow(len(params))
	writeSchema(&buf, root, "", &notes, 0)
	return buf.Bytes(), notes
}

// hasAlias reports whether any "type" keyword under v uses an alias; it
// spares the common case a rewrite.
func hasAlias(v gjson.Result, depth int) bool {
	if depth > maxAliasDepth {
		return false
	}
	found := false
	v.ForEach(func(k, val gjson.Result) bool {
		if k.Type == gjson.String && k.Str == "type" && typeAliased(val) {
			found = true
		} else if (val.IsObject() || val.IsArray()) && !(k.Type == gjson.String && dataKeywords[k.Str]) {
			found = hasAlias(val, depth+1)
		}
		return !found
	})
	return found
}

// maxAliasDepth bounds the walk; the compiler rejects deeper schemas on its
// own terms.
const maxAliasDepth = 128

func typeAliased(v gjson.Result) bool {
	if v.Type == gjson.String {
		_, ok := aliasType(v.Str)
		return ok
	}
	aliased := false
	if v.IsArray() {
		v.ForEach(func(_, e gjson.Result) bool {
			if e.Type == gjson.String {
				_, aliased = aliasType(e.Str)
			}
			return !aliased
		})
	}
	return aliased
}

// writeSchema writes v, a schema at path, with its aliases mapped.
func writeSchema(buf *bytes.Buffer, v gjson.Result, path string, notes *[]string, depth int) {
	if !v.IsObject() || depth > maxAliasDepth {
		buf.WriteString(v.Raw)
		return
	}
	buf.WriteByte('{')
	first := true
	v.ForEach(func(k, val gjson.Result) bool {
		if !first {
			buf.WriteByte(',')
		}
		first = false
		buf.WriteString(k.Raw)
		buf.WriteByte(':')
		key := k.String()
		at := path + "/" + escapePointer(key)
		switch {
		case key == "type":
			writeType(buf, val, path, notes)
		case dataKeywords[key]:
			buf.WriteString(val.Raw)
		case schemaMaps[key] && val.IsObject():
			buf.WriteByte('{')
			n := 0
			val.ForEach(func(name, sub gjson.Result) bool {
				if n > 0 {
					buf.WriteByte(',')
				}
				n++
				buf.WriteString(name.Raw)
				buf.WriteByte(':')
				writeSchema(buf, sub, at+"/"+escapePointer(name.String()), notes, depth+1)
				return true
			})
			buf.WriteByte('}')
		case val.IsArray():
			buf.WriteByte('[')
			i := 0
			val.ForEach(func(_, sub gjson.Result) bool {
				if i > 0 {
					buf.WriteByte(',')
				}
				writeSchema(buf, sub, at+"/"+strconv.Itoa(i), notes, depth+1)
				i++
				return true
			})
			buf.WriteByte(']')
		default:
			writeSchema(buf, val, at, notes, depth+1)
		}
		return true
	})
	buf.WriteByte('}')
}

// writeType writes a "type" value (a name or a list of names) with its
// aliases mapped, noting each.
func writeType(buf *bytes.Buffer, v gjson.Result, path string, notes *[]string) {
	one := func(e gjson.Result) {
		if e.Type == gjson.String {
			if t, ok := aliasType(e.Str); ok {
				buf.WriteString(strconv.Quote(t))
				where := path
				if where == "" {
					where = "/"
				}
				*notes = append(*notes, fmt.Sprintf("%s: type %q read as %q", where, e.Str, t))
				return
			}
		}
		buf.WriteString(e.Raw)
	}
	if !v.IsArray() {
		one(v)
		return
	}
	buf.WriteByte('[')
	i := 0
	v.ForEach(func(_, e gjson.Result) bool {
		if i > 0 {
			buf.WriteByte(',')
		}
		i++
		one(e)
		return true
	})
	buf.WriteByte(']')
}
