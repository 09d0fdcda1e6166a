package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/kaptinlin/jsonschema"
)

// maxSchemaHops bounds how far the helpers below follow $ref chains and
// nested combinators, so that a recursive schema cannot loop them.
const maxSchemaHops = 32

// jsonTypes are the type names JSON Schema defines.
var jsonTypes = []string{"null", "boolean", "object", "array", "number", "string", "integer"}

// compile compiles a parameter schema with a compiler of its own (so $id
// values of different tools cannot collide) that never fetches remote
// references, then checks what the compiler lets through silently.
func compile(params []byte) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	// The compiler fetches http(s) $refs by default. A tool definition must
	// not make the library reach the network.
	delete(c.Loaders, "http")
	delete(c.Loaders, "https")
	s, err := c.Compile(params)
	if err != nil {
		return nil, err
	}
	if err := checkTree(s); err != nil {
		return nil, err
	}
	root := deref(s)
	if len(root.Type) > 0 && !slices.Contains(root.Type, "object") {
		return nil, fmt.Errorf("the root type is %v, but arguments are always an object", []string(root.Type))
	}
	return s, nil
}

// errUnresolvedRef is the cause of a schema whose $ref names nothing the
// schema defines.
var errUnresolvedRef = errors.New("unresolved $ref")

// checkTree rejects what the compiler accepts without complaint but would
// make validation silently wrong: unknown type names (a typo such as
// "strnig" would reject every value) and $refs that resolve to nothing
// (they would be ignored, so anything would pass).
func checkTree(root *jsonschema.Schema) error {
	seen := map[*jsonschema.Schema]bool{}
	var visit func(s *jsonschema.Schema) error
	visit = func(s *jsonschema.Schema) error {
		if s == nil || seen[s] {
			return nil
		}
		seen[s] = true
		for _, ty := range s.Type {
			if !slices.Contains(jsonTypes, ty) {
				return fmt.Errorf("unknown type %q", ty)
			}
		}
		if s.Ref != "" && s.ResolvedRef == nil {
			return fmt.Errorf("%w %q (only references inside the schema are followed)", errUnresolvedRef, s.Ref)
		}
		for _, sub := range children(s) {
			if err := visit(sub); err != nil {
				return err
			}
		}
		return nil
	}
	return visit(root)
}

// children lists every subschema of s, its $ref target included.
func children(s *jsonschema.Schema) []*jsonschema.Schema {
	out := []*jsonschema.Schema{s.ResolvedRef, s.Not, s.If, s.Then, s.Else, s.Items, s.Contains,
		s.AdditionalProperties, s.PropertyNames, s.UnevaluatedItems, s.UnevaluatedProperties, s.ContentSchema}
	out = append(out, s.AllOf...)
	out = append(out, s.AnyOf...)
	out = append(out, s.OneOf...)
	out = append(out, s.PrefixItems...)
	for _, m := range []*jsonschema.SchemaMap{s.Properties, s.PatternProperties} {
		if m != nil {
			for _, sub := range *m {
				out = append(out, sub)
			}
		}
	}
	for _, sub := range s.DependentSchemas {
		out = append(out, sub)
	}
	for _, sub := range s.Defs {
		out = append(out, sub)
	}
	return out
}

// deref follows a schema that is only a $ref (no type, properties, items or
// combinators of its own) to the schema it names.
func deref(s *jsonschema.Schema) *jsonschema.Schema {
	for i := 0; i < maxSchemaHops && s != nil && s.ResolvedRef != nil && !hasShape(s); i++ {
		s = s.ResolvedRef
	}
	return s
}

func hasShape(s *jsonschema.Schema) bool {
	return len(s.Type) > 0 || s.Properties != nil || s.Items != nil || len(s.PrefixItems) > 0 ||
		len(s.AnyOf) > 0 || len(s.OneOf) > 0 || len(s.AllOf) > 0
}

// declaredTypes returns the JSON types s admits: its type keyword, else
// those of its $ref target, else the union of its anyOf/oneOf branches
// (nil if any branch is unconstrained), else the first allOf branch that
// says, else the types of its const or enum values. Nil means s does not
// constrain the type.
func declaredTypes(s *jsonschema.Schema) []string {
	return typesAt(s, 0)
}

func typesAt(s *jsonschema.Schema, depth int) []string {
	if s == nil || depth > maxSchemaHops {
		return nil
	}
	if len(s.Type) > 0 {
		return s.Type
	}
	if s.ResolvedRef != nil {
		if t := typesAt(s.ResolvedRef, depth+1); t != nil {
			return t
		}
	}
	if branches := alternatives(s); len(branches) > 0 {
		var union []string
		for _, b := range branches {
			t := typesAt(b, depth+1)
			if t == nil {
				return nil
			}
			union = addTypes(union, t...)
		}
		return union
	}
	for _, b := range s.AllOf {
		if t := typesAt(b, depth+1); t != nil {
			return t
		}
	}
	if s.Const != nil && s.Const.IsSet {
		return []string{valueType(s.Const.Value)}
	}
	var fromEnum []string
	for _, v := range s.Enum {
		fromEnum = addTypes(fromEnum, valueType(v))
	}
	return fromEnum
}

func addTypes(list []string, types ...string) []string {
	for _, t := range types {
		if !slices.Contains(list, t) {
			list = append(list, t)
		}
	}
	return list
}

// alternatives returns the anyOf or oneOf branches of s.
func alternatives(s *jsonschema.Schema) []*jsonschema.Schema {
	if len(s.AnyOf) > 0 {
		return s.AnyOf
	}
	return s.OneOf
}

// valueType names the JSON type of a decoded schema constant.
func valueType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case json.Number:
		if r, ok := new(big.Rat).SetString(string(x)); ok && r.IsInt() {
			return "integer"
		}
		return "number"
	case float64:
		if x == float64(int64(x)) {
			return "integer"
		}
		return "number"
	case float32, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return "integer"
	}
	return "number"
}

// propertySchema returns the schema that applies to member key of an object
// described by s: from properties (of s, its $ref target or its allOf
// branches), else additionalProperties when that is a schema. Nil means no
// schema constrains the member.
func propertySchema(s *jsonschema.Schema, key string) *jsonschema.Schema {
	return propertyAt(s, key, 0)
}

func propertyAt(s *jsonschema.Schema, key string, depth int) *jsonschema.Schema {
	if s == nil || depth > maxSchemaHops {
		return nil
	}
	if s.Properties != nil {
		if p, ok := (*s.Properties)[key]; ok {
			return p
		}
	}
	if p := propertyAt(s.ResolvedRef, key, depth+1); p != nil {
		return p
	}
	for _, b := range s.AllOf {
		if p := propertyAt(b, key, depth+1); p != nil {
			return p
		}
	}
	if ap := s.AdditionalProperties; ap != nil && ap.Boolean == nil {
		return ap
	}
	return nil
}

// itemSchema returns the schema that applies to element i of an array
// described by s (prefixItems, then items), following $ref.
func itemSchema(s *jsonschema.Schema, i int) *jsonschema.Schema {
	for hop := 0; s != nil && hop <= maxSchemaHops; hop++ {
		if i < len(s.PrefixItems) {
			return s.PrefixItems[i]
		}
		if s.Items != nil {
			if s.Items.Boolean != nil {
				return nil
			}
			return s.Items
		}
		s = s.ResolvedRef
	}
	return nil
}

// strictNames returns the top-level names strict mode accepts, or nil when
// strict mode does not apply: the schema declares no properties, or it
// already says what to do with others (additionalProperties,
// patternProperties, unevaluatedProperties). Properties declared in allOf,
// anyOf, oneOf, if/then/else and dependentSchemas branches count as
// declared.
func strictNames(root *jsonschema.Schema) map[string]struct{} {
	root = deref(root)
	if root.Properties == nil || root.AdditionalProperties != nil || root.PatternProperties != nil || root.UnevaluatedProperties != nil {
		return nil
	}
	names := map[string]struct{}{}
	var collect func(s *jsonschema.Schema, depth int)
	collect = func(s *jsonschema.Schema, depth int) {
		if s == nil || depth > maxSchemaHops {
			return
		}
		if s.Properties != nil {
			for k := range *s.Properties {
				names[k] = struct{}{}
			}
		}
		collect(s.ResolvedRef, depth+1)
		for _, sub := range s.DependentSchemas {
			collect(sub, depth+1)
		}
		for _, group := range [][]*jsonschema.Schema{s.AllOf, s.AnyOf, s.OneOf, {s.If, s.Then, s.Else}} {
			for _, b := range group {
				collect(b, depth+1)
			}
		}
	}
	collect(root, 0)
	return names
}
