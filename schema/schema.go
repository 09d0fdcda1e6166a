// Package schema holds declared tools and validates call arguments against
// their JSON Schemas.
//
// A [Set] is the registry of declared tools: each tool's schema is compiled
// once, when it is added, and validation then reuses it from any number of
// goroutines. [Tool.Validate] checks one arguments object and reports every
// violation as a [toolcall.Violation] (JSON Pointer path, keyword, expected
// and actual type, a message that never quotes argument values). It follows
// JSON Schema: a property the schema does not declare is accepted unless
// the schema says additionalProperties: false. Strict mode (Options.Strict,
// or a tool declared with OpenAI's "strict": true) rejects undeclared
// top-level properties even without it. Coercion toward
// the schema ("5" → 5 for an integer field) is opt-in, recorded as repairs,
// and refuses or names the risky cases.
package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/kaptinlin/jsonschema"
	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/coded"
)

// Tool is a declared tool with its compiled schema. A Tool is immutable once
// built by [NewTool] or [Set.Add], and safe for concurrent use.
type Tool struct {
	toolcall.Tool
	compiled *jsonschema.Schema
	// fast validates the common keywords over the argument bytes, or is
	// nil when the schema uses others (see fast.go).
	fast *fastNode
	// props are the top-level property names in declaration order.
	props []string
	// strict is the set of top-level names strict mode accepts (for
	// Options.Strict, or always when the tool is declared strict), or nil when
	// strict mode does not apply to this schema (see strictNames).
	strict map[string]struct{}
	// aliases notes the "type" keywords written with an alias ("float",
	// "int", …) that compiling mapped to a JSON Schema type.
	aliases []string
}

// NewTool compiles t's parameter schema. A tool without a schema (nil
// Parameters) accepts any arguments object. An invalid schema gives a
// toolcall.CodeInvalidTool error wrapping the cause.
func NewTool(t toolcall.Tool) (*Tool, error) {
	if strings.TrimSpace(t.Name) == "" {
		return nil, toolcall.NewError(toolcall.CodeInvalidTool, "tool definition has no name")
	}
	if err := checkVersion(&t); err != nil {
		return nil, err
	}
	params := bytes.TrimSpace(t.Parameters)
	if len(params) == 0 || bytes.Equal(params, []byte("null")) {
		// No schema given is not "no parameters": the caller did not say,
		// so any arguments object is accepted. A tool that takes nothing
		// declares {"type": "object", "properties": {}}.
		t.Parameters = nil
		return &Tool{Tool: t}, nil
	}
	if !gjson.ValidBytes(params) || params[0] != '{' {
		return nil, invalidTool(t.Name, nil, "parameters are not a JSON object")
	}
	// Type aliases ("float", "int", "dict", …) are mapped before compiling,
	// as vLLM does: one such property must not reject the whole tool list.
	mapped, aliases := mapTypeAliases(params)
	compiled, err := compile(mapped)
	if err != nil {
		return nil, invalidTool(t.Name, err, err.Error())
	}
	ct := &Tool{Tool: t, compiled: compiled, props: declaredOrder(params), aliases: aliases}
	ct.strict = strictNames(compiled)
	ct.fast = compileFast(compiled)
	return ct, nil
}

func invalidTool(name string, cause error, why string) *toolcall.Error {
	e := toolcall.Errorf(toolcall.CodeInvalidTool, cause, fmt.Sprintf("schema of tool %q is invalid: %s", name, why))
	e.Tool = name
	return e
}

// TypeAliases returns one note per "type" keyword of the tool's schema that
// used an alias JSON Schema does not define ("float", "int", "bool", "dict",
// "list", "str", "double", or a type name in other case) and was read as
// the JSON Schema type it stands for, such as
// `/properties/count: type "int" read as "integer"`. Nil when there was none.
func (t *Tool) TypeAliases() []string {
	if t == nil {
		return nil
	}
	return slices.Clone(t.aliases)
}

// declaredOrder lists the top-level property names in the order the schema
// text declares them; the compiled schema keeps them in a map.
func declaredOrder(params []byte) []string {
	var names []string
	gjson.GetBytes(params, "properties").ForEach(func(k, _ gjson.Result) bool {
		names = append(names, k.String())
		return true
	})
	return names
}

// Set is a registry of declared tools. It is safe for concurrent use; the
// zero value is an empty set ready to use.
type Set struct {
	mu    sync.RWMutex
	tools map[string]*Tool
	order []string
	// versions holds every registered version of the tools that carry
	// one, oldest first; tools holds the newest.
	versions map[string][]*Tool
}

// NewSet returns a set holding tools, each schema compiled once. It fails on
// the first tool that does not compile.
func NewSet(tools ...toolcall.Tool) (*Set, error) {
	s := &Set{tools: make(map[string]*Tool, len(tools))}
	for _, t := range tools {
		if err := s.Add(t); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Add registers a tool, compiling its schema. A tool with the name of one
// already registered replaces it, unless both carry versions: the set then
// keeps every version (see versions.go), a version added again replacing
// that version. An invalid definition gives a
// toolcall.CodeInvalidTool error and leaves the set unchanged.
func (s *Set) Add(t toolcall.Tool) error {
	ct, err := NewTool(t)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tools == nil {
		s.tools = map[string]*Tool{}
	}
	if _, dup := s.tools[t.Name]; !dup {
		s.order = append(s.order, t.Name)
	}
	s.tools[t.Name] = s.keepVersion(ct)
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

// LookupFold returns the name of the tool whose name equals name when the
// case of ASCII letters is ignored, if exactly one does. Only ASCII letters
// fold: Unicode case folding would map lookalikes such as 'ſ' (U+017F) to
// 's' or the Kelvin sign (U+212A) to 'k', and let a name the model spelled
// with them reach a declared tool.
func (s *Set) LookupFold(name string) (string, bool) {
	if s == nil {
		return "", false
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	found := ""
	for _, n := range s.order {
		if asciiEqualFold(n, name) {
			if found != "" {
				return "", false
			}
			found = n
		}
	}
	return found, found != ""
}

// asciiEqualFold reports whether a and b are equal when the case of ASCII
// letters is ignored; every other byte must be equal.
func asciiEqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if x == y {
			continue
		}
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y || x < 'a' || x > 'z' {
			return false
		}
	}
	return true
}

// Resolve returns the tool with exactly this name, or a
// toolcall.CodeUnknownTool error whose Known field lists the declared names,
// sorted, so that the model can be told what it may call. Case-insensitive
// matching is the caller's choice, through LookupFold.
func (s *Set) Resolve(name string) (*Tool, error) {
	t, e := s.resolve(name)
	return t, coded.Err(e)
}

// resolve is Resolve with the concrete error.
func (s *Set) resolve(name string) (*Tool, *toolcall.Error) {
	if t, ok := s.Lookup(name); ok {
		return t, nil
	}
	e := toolcall.NewError(toolcall.CodeUnknownTool, fmt.Sprintf("no declared tool is named %q", name))
	e.Known = s.Names()
	return nil, e
}

// Validate resolves name, selects the version opts pins (the newest by
// default), and validates args against that version's schema; see
// [Tool.Validate], [Set.Select] and [Set.Check].
func (s *Set) Validate(name string, args json.RawMessage, opts Options) (json.RawMessage, []toolcall.Repair, error) {
	out, repairs, e := s.validate(name, args, opts)
	return out, repairs, coded.Err(e)
}

// validate is Validate with the concrete error.
func (s *Set) validate(name string, args json.RawMessage, opts Options) (json.RawMessage, []toolcall.Repair, *toolcall.Error) {
	t, err := s.selectVersion(name, opts)
	if err != nil {
		return args, nil, err
	}
	return s.check(t, args, opts, false)
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

// TypeAliases returns, for every tool in the order added, the notes of its
// Tool.TypeAliases prefixed with the tool's name: what compiling the set
// read differently from what was written, for a caller to report once.
func (s *Set) TypeAliases() []string {
	if s == nil {
		return nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []string
	for _, n := range s.order {
		for _, a := range s.tools[n].aliases {
			out = append(out, fmt.Sprintf("tool %q: %s", n, a))
		}
	}
	return out
}

// Names returns the tool names, sorted.
func (s *Set) Names() []string {
	if s == nil {
		return nil
	}
	s.mu.RLock()
	names := slices.Clone(s.order)
	s.mu.RUnlock()
	slices.Sort(names)
	return names
}

// Tools returns the declared tools in the order they were first added.
func (s *Set) Tools() []toolcall.Tool {
	if s == nil {
		return nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]toolcall.Tool, 0, len(s.order))
	for _, n := range s.order {
		out = append(out, s.tools[n].Tool)
	}
	return out
}

// Options configure validation. The zero value follows JSON Schema and does
// not coerce.
type Options struct {
	// Strict rejects top-level properties the schema does not declare
	// whenever the schema declares properties, even if it does not say
	// additionalProperties: false (strict mode). Without it such a
	// property is accepted, as JSON Schema says, unless the tool itself is
	// declared strict (toolcall.Tool.Strict, OpenAI's "strict": true).
	Strict bool
	// Coerce converts values toward the schema ("5" → 5 for an integer,
	// "true" → true for a boolean, a single value into a one-element array,
	// …) and records each change as a toolcall.RepairCoercion repair.
	Coerce bool
	// AllowRisky lets Coerce apply the coercions marked risky, such as the
	// string "false" into a boolean. Without it they are not applied and
	// validation reports the mismatch. Coercions that lose information
	// (dropping a fraction, dropping leading zeros) are never applied.
	AllowRisky bool
	// Versions chooses the version of each tool a call is validated
	// against and declares transitions between majors (see
	// VersionOptions); nil validates against each tool's newest version.
	// It is a pointer so that Options stays comparable.
	Versions *VersionOptions
}

// VersionOptions pin tool versions and declare transitions.
type VersionOptions struct {
	// Pins maps tool names to a version ("2", "2.1.0"): a call is
	// validated against the newest registered version with the pin's
	// major, and a tool with no such version is an error
	// (toolcall.CodeVersionMismatch). Tools not named, and tools declared
	// without versions, are validated against their newest version.
	Pins map[string]string
	// Transition names the tools in a transition between majors ("*" for
	// every tool): arguments that break the version selected but are valid
	// under the newest version of the previous major are accepted, recorded
	// as a toolcall.RepairSchemaMigration repair so the agent can upgrade
	// them.
	Transition []string
}

// PropertyNames returns the tool's parameter names in the order the schema
// declares them; positional arguments map onto this order.
func (t *Tool) PropertyNames() []string {
	if t == nil {
		return nil
	}
	return slices.Clone(t.props)
}

// PropertyTypes returns the JSON Schema types allowed for a top-level
// property: its "type" (a string or a list), else the types of the schema
// its $ref names, else the union of its anyOf/oneOf branches, else the
// types of its enum or const values. A key the schema does not declare
// takes the types of additionalProperties when that is a schema. It returns
// nil when nothing constrains the key's type.
func (t *Tool) PropertyTypes(key string) []string {
	if t == nil || t.compiled == nil {
		return nil
	}
	sub := propertySchema(t.compiled, key)
	if sub == nil {
		return nil
	}
	return slices.Clone(declaredTypes(sub))
}
