package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/dialectkit/toolcall"
)

// Change is one difference between two versions of a tool's parameter
// schema, as [Compare] reports it.
type Change struct {
	// Path is where in the arguments the change applies, as a JSON
	// Pointer ("" for the arguments object, "/address/zip"; "*" stands for
	// every item of an array).
	Path string `json:"path"`
	// Kind names the change: required_added, required_removed,
	// property_added, property_removed, type_changed, type_widened,
	// enum_narrowed, enum_widened, additional_closed, additional_opened.
	Kind string `json:"kind"`
	// Breaking reports that arguments valid under the old schema may be
	// invalid under the new one.
	Breaking bool `json:"breaking"`
	// Message says what changed, in a few words.
	Message string `json:"message"`
}

// Compare reports how the parameter schema new differs from old, each
// change marked breaking when arguments valid under old may fail new:
//
//   - a required property added, or a property made required: breaking;
//   - a type changed: breaking, unless the new types include the old ones
//     (string → [string, null], integer → number), which only widens;
//   - a property removed: not breaking when the new schema allows extra
//     properties (no "additionalProperties": false), since arguments that
//     still carry it are accepted; breaking when it does not;
//   - enum values removed, or an enum added: breaking; values added: not;
//   - "additionalProperties": false added: breaking.
//
// Nested objects and array items are compared the same way. Compare reads
// the schemas as written: it does not resolve $ref, and it compares
// anyOf/oneOf branches only through their types. Note that this library's
// strict mode (Options.Strict, or a tool declared strict) rejects undeclared properties even without
// "additionalProperties": false: a caller that validates strictly should
// treat property_removed as breaking. An invalid schema gives a
// toolcall.CodeInvalidTool error.
func Compare(old, new json.RawMessage) ([]Change, error) {
	o, err := decodeSchema(old, "old")
	if err != nil {
		return nil, err
	}
	n, err := decodeSchema(new, "new")
	if err != nil {
		return nil, err
	}
	var c comparer
	c.compare("", o, n, 0)
	sort.SliceStable(c.out, func(i, j int) bool { return c.out[i].Path < c.out[j].Path })
	return c.out, nil
}

// Breaking returns the breaking changes among changes.
func Breaking(changes []Change) []Change {
	var out []Change
	for _, c := range changes {
		if c.Breaking {
			out = append(out, c)
		}
	}
	return out
}

func decodeSchema(raw json.RawMessage, which string) (map[string]any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return map[string]any{}, nil
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, toolcall.Errorf(toolcall.CodeInvalidTool, err, "the "+which+" schema is not a JSON object")
	}
	return m, nil
}

type comparer struct{ out []Change }

// maxCompareDepth bounds the recursion over nested schemas.
const maxCompareDepth = 64

func (c *comparer) add(path, kind string, breaking bool, format string, args ...any) {
	c.out = append(c.out, Change{Path: path, Kind: kind, Breaking: breaking, Message: fmt.Sprintf(format, args...)})
}

func (c *comparer) compare(path string, o, n map[string]any, depth int) {
	if depth > maxCompareDepth {
		return
	}
	c.types(path, o, n)
	c.enums(path, o, n)
	oProps, _ := o["properties"].(map[string]any)
	nProps, _ := n["properties"].(map[string]any)
	oReq, nReq := stringSet(o["required"]), stringSet(n["required"])
	extra := n["additionalProperties"] != false
	for _, k := range sortedKeys(nReq) {
		if !oReq[k] {
			if _, existed := oProps[k]; existed {
				c.add(pointer(path, k), "required_added", true, "property %q became required", k)
			} else {
				c.add(pointer(path, k), "required_added", true, "required property %q added", k)
			}
		}
	}
	for _, k := range sortedKeys(oReq) {
		if !nReq[k] {
			c.add(pointer(path, k), "required_removed", false, "property %q is no longer required", k)
		}
	}
	for _, k := range sortedKeys(oProps) {
		if _, ok := nProps[k]; !ok {
			if extra {
				c.add(pointer(path, k), "property_removed", false, "property %q removed; extra properties are allowed, so arguments that carry it still pass", k)
			} else {
				c.add(pointer(path, k), "property_removed", true, "property %q removed and extra properties are not allowed", k)
			}
		}
	}
	for _, k := range sortedKeys(nProps) {
		nsub, _ := nProps[k].(map[string]any)
		osub, existed := oProps[k].(map[string]any)
		if _, had := oProps[k]; !had {
			if !nReq[k] {
				c.add(pointer(path, k), "property_added", false, "optional property %q added", k)
			}
			continue
		}
		if existed && nsub != nil {
			c.compare(pointer(path, k), osub, nsub, depth+1)
		}
	}
	switch oa, na := o["additionalProperties"], n["additionalProperties"]; {
	case oa != false && na == false:
		c.add(path, "additional_closed", true, "extra properties are no longer allowed")
	case oa == false && na != false:
		c.add(path, "additional_opened", false, "extra properties are now allowed")
	}
	oi, _ := o["items"].(map[string]any)
	ni, _ := n["items"].(map[string]any)
	if oi != nil && ni != nil {
		c.compare(pointer(path, "*"), oi, ni, depth+1)
	}
}

// types compares the types a schema allows.
func (c *comparer) types(path string, o, n map[string]any) {
	ot, nt := schemaTypes(o), schemaTypes(n)
	if slices.Equal(ot, nt) {
		return
	}
	switch {
	case nt == nil:
		c.add(path, "type_widened", false, "type %s is now unconstrained", strings.Join(ot, "|"))
	case ot == nil:
		c.add(path, "type_changed", true, "type constrained to %s", strings.Join(nt, "|"))
	case covers(nt, ot):
		c.add(path, "type_widened", false, "type %s widened to %s", strings.Join(ot, "|"), strings.Join(nt, "|"))
	default:
		c.add(path, "type_changed", true, "type %s changed to %s", strings.Join(ot, "|"), strings.Join(nt, "|"))
	}
}

// covers reports whether every type of old is allowed by new ("number"
// allows integers).
func covers(new, old []string) bool {
	for _, t := range old {
		if !slices.Contains(new, t) && !(t == "integer" && slices.Contains(new, "number")) {
			return false
		}
	}
	return true
}

// schemaTypes lists a schema's types, sorted: "type" as a string or list,
// else the union of its anyOf/oneOf branches' types; nil when nothing
// constrains the type.
func schemaTypes(s map[string]any) []string {
	var out []string
	switch t := s["type"].(type) {
	case string:
		out = []string{t}
	case []any:
		for _, x := range t {
			if str, ok := x.(string); ok {
				out = append(out, str)
			}
		}
	default:
		for _, key := range []string{"anyOf", "oneOf"} {
			branches, _ := s[key].([]any)
			for _, b := range branches {
				bm, _ := b.(map[string]any)
				bt := schemaTypes(bm)
				if bt == nil {
					return nil
				}
				out = append(out, bt...)
			}
		}
	}
	if out == nil {
		return nil
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func (c *comparer) enums(path string, o, n map[string]any) {
	oe, oHas := o["enum"].([]any)
	ne, nHas := n["enum"].([]any)
	switch {
	case !nHas:
		if oHas {
			c.add(path, "enum_widened", false, "enum removed")
		}
		return
	case !oHas:
		c.add(path, "enum_narrowed", true, "enum of %d value(s) added", len(ne))
		return
	}
	key := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	ns := map[string]bool{}
	for _, v := range ne {
		ns[key(v)] = true
	}
	os := map[string]bool{}
	removed := 0
	for _, v := range oe {
		os[key(v)] = true
		if !ns[key(v)] {
			removed++
		}
	}
	added := 0
	for _, v := range ne {
		if !os[key(v)] {
			added++
		}
	}
	if removed > 0 {
		c.add(path, "enum_narrowed", true, "%d enum value(s) removed", removed)
	}
	if added > 0 {
		c.add(path, "enum_widened", false, "%d enum value(s) added", added)
	}
}

func stringSet(v any) map[string]bool {
	list, _ := v.([]any)
	out := map[string]bool{}
	for _, x := range list {
		if s, ok := x.(string); ok {
			out[s] = true
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func pointer(path, key string) string {
	key = strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1")
	return path + "/" + key
}
