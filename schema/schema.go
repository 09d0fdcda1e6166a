// Package schema holds declared tools and validates call arguments against
// their JSON Schemas.
package schema

import (
	"encoding/json"
	"sort"
	"strings"
	"sync"

	"github.com/kaptinlin/jsonschema"
	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
)

// Tool is a declared tool with its compiled schema.
type Tool struct {
	toolcall.Tool
	compiled *jsonschema.Schema
}

// Set is a registry of declared tools. It is safe for concurrent use.
type Set struct {
	mu    sync.RWMutex
	tools map[string]*Tool
	order []string
}

// NewSet returns a set holding tools, each schema compiled once.
func NewSet(tools ...toolcall.Tool) (*Set, error) {
	s := &Set{tools: map[string]*Tool{}}
	for _, t := range tools {
		if err := s.Add(t); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Add registers a tool, compiling its schema.
func (s *Set) Add(t toolcall.Tool) error {
	ct := &Tool{Tool: t}
	if len(t.Parameters) > 0 {
		c, err := jsonschema.NewCompiler().Compile(t.Parameters)
		if err != nil {
			return toolcall.Errorf(toolcall.CodeInvalidTool, err, "schema of tool "+t.Name+" does not compile")
		}
		ct.compiled = c
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.tools[t.Name]; !dup {
		s.order = append(s.order, t.Name)
	}
	s.tools[t.Name] = ct
	return nil
}

// Lookup returns the tool with exactly this name.
func (s *Set) Lookup(name string) (*Tool, bool) {
	if s == nil {
		return nil, false
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, ok := s.tools[name]
	return t, ok
}

// Len is the number of tools.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.order)
}

// Names returns the tool names, sorted.
func (s *Set) Names() []string {
	if s == nil {
		return nil
	}
	s.mu.RLock()
	names := append([]string(nil), s.order...)
	s.mu.RUnlock()
	sort.Strings(names)
	return names
}

// Options configure validation. The zero value validates strictly and does
// not coerce.
type Options struct {
	// AllowAdditional accepts properties the schema does not declare even
	// when additionalProperties is not set (strict mode is the default).
	AllowAdditional bool
	// Coerce converts values toward the schema ("5" → 5 for an integer).
	Coerce bool
}

// Validate checks args (a JSON object) against the tool's schema. It returns
// the arguments, changed only by coercion, and the repairs coercion made.
func (t *Tool) Validate(args json.RawMessage, opts Options) (json.RawMessage, []toolcall.Repair, *toolcall.Error) {
	if t.compiled == nil {
		return args, nil, nil
	}
	r := t.compiled.ValidateJSON(args)
	if r.IsValid() {
		return args, nil, nil
	}
	e := toolcall.NewError(toolcall.CodeSchema, "arguments do not match the schema of tool "+t.Name)
	e.Tool = t.Name
	return args, nil, e
}

// LookupFold returns the tool whose name equals name when case is ignored,
// if exactly one does.
func (s *Set) LookupFold(name string) (string, bool) {
	if s == nil {
		return "", false
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	found := ""
	for _, n := range s.order {
		if strings.EqualFold(n, name) {
			if found != "" {
				return "", false
			}
			found = n
		}
	}
	return found, found != ""
}

// PropertyNames returns the tool's parameter names in the order the schema
// declares them; positional arguments map onto this order.
func (t *Tool) PropertyNames() []string {
	if t == nil || len(t.Parameters) == 0 {
		return nil
	}
	var names []string
	gjson.GetBytes(t.Parameters, "properties").ForEach(func(k, _ gjson.Result) bool {
		names = append(names, k.String())
		return true
	})
	return names
}

// PropertyTypes returns the JSON Schema types allowed for a top-level
// property ("type" as a string or a list, or the types of anyOf/oneOf
// branches), or nil when the schema does not say.
func (t *Tool) PropertyTypes(key string) []string {
	if t == nil || len(t.Parameters) == 0 {
		return nil
	}
	props := gjson.GetBytes(t.Parameters, "properties")
	var prop gjson.Result
	props.ForEach(func(k, v gjson.Result) bool {
		if k.String() == key {
			prop = v
			return false
		}
		return true
	})
	return typesOf(prop)
}

func typesOf(prop gjson.Result) []string {
	if !prop.Exists() {
		return nil
	}
	var types []string
	add := func(v gjson.Result) {
		if v.Type == gjson.String {
			types = append(types, v.String())
		} else if v.IsArray() {
			for _, x := range v.Array() {
				types = append(types, x.String())
			}
		}
	}
	add(prop.Get("type"))
	for _, k := range []string{"anyOf", "oneOf"} {
		for _, branch := range prop.Get(k).Array() {
			add(branch.Get("type"))
		}
	}
	if len(types) == 0 {
		if e := prop.Get("enum"); e.IsArray() && len(e.Array()) > 0 {
			for _, v := range e.Array() {
				switch v.Type {
				case gjson.String:
					types = append(types, "string")
				case gjson.Number:
					types = append(types, "number")
				case gjson.True, gjson.False:
					types = append(types, "boolean")
				}
			}
		}
	}
	return types
}
