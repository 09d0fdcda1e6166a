package schema

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/kaptinlin/jsonschema"
	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/coded"
	"github.com/dialectkit/toolcall/lenient"
)

// maxListed bounds how many names or constants a message lists.
const maxListed = 12

// Validate checks args, which must be a JSON object, against the tool's
// schema. It returns the arguments (the same bytes unless coercion changed
// them), the coercions made (toolcall.RepairCoercion repairs), and an error:
//
//   - toolcall.CodeSchema when the arguments break the schema. The error
//     lists every violation (JSON Pointer path, keyword, expected and actual
//     type, message), carries the first one's Path, Expected and Actual, and
//     in Missing the required properties that are absent, each written as
//     its JSON Pointer without the leading "/" ("city", "address/zip").
//     Messages name paths, keywords, types and schema constants, never
//     argument values.
//   - toolcall.CodeInvalidJSON when args is not valid JSON or repeats a key,
//     toolcall.CodeNotObject when it is not an object.
//
// A property the schema does not declare is accepted unless the schema
// says additionalProperties: false. In strict mode (opts.Strict, or a tool
// declared strict) a top-level property the schema does not declare is a
// violation whenever the schema declares properties; a tool whose schema
// declares an empty properties object then accepts only {}. A tool given no schema at all
// accepts any object: the caller did not say what it takes.
//
// The error is a *toolcall.Error, reached with errors.As; valid arguments
// give a nil error.
func (t *Tool) Validate(args json.RawMessage, opts Options) (json.RawMessage, []toolcall.Repair, error) {
	out, repairs, e := t.validate(args, opts)
	return out, repairs, coded.Err(e)
}

// validate is Validate with the concrete error.
func (t *Tool) validate(args json.RawMessage, opts Options) (json.RawMessage, []toolcall.Repair, *toolcall.Error) {
	return t.validateKnown(args, opts, false)
}

// validateKnown is validate; strict says that args is known to be strict
// JSON (RFC 8259, UTF-8), which the fast path then need not check again.
func (t *Tool) validateKnown(args json.RawMessage, opts Options, strict bool) (json.RawMessage, []toolcall.Repair, *toolcall.Error) {
	if t == nil {
		return args, nil, toolcall.NewError(toolcall.CodeInvalidTool, "no tool to validate against")
	}
	if t.fast != nil && !opts.Coerce && (strict || lenient.Valid(args)) && t.validFast(args, opts) {
		return args, nil, nil
	}
	root, e := parseObject(args)
	if e != nil {
		return args, nil, t.tag(e, args)
	}
	if t.compiled == nil && len(t.Parameters) > 0 {
		return args, nil, t.tag(toolcall.NewError(toolcall.CodeInvalidTool, "tool schema was not compiled: build tools with NewTool or Set.Add"), args)
	}
	out := args
	var (
		repairs  []toolcall.Repair
		declined map[string]string
	)
	if opts.Coerce && t.compiled != nil {
		out, repairs, declined = coerce(root, args, t.compiled, opts.AllowRisky)
		if len(repairs) > 0 {
			root = gjson.ParseBytes(out)
		}
	}
	if t.fast != nil && len(repairs) > 0 && t.validFast(out, opts) {
		return out, repairs, nil
	}
	var found violations
	if t.strictFor(opts) && t.strict != nil {
		t.undeclared(root, &found)
	}
	if t.compiled != nil {
		r := t.compiled.ValidateJSON(out)
		if !r.IsValid() {
			if fe := r.Errors["format"]; fe != nil && fe.Code == "invalid_json" {
				return out, repairs, t.tag(duplicateKeyError(root), out)
			}
			found.collect(r, t.compiled, root, "")
			if len(found.list) == 0 {
				// Every failure sat inside a construct the walk does not
				// descend into; still report the mismatch.
				found.add(toolcall.Violation{Keyword: "schema", Message: "arguments: do not match the schema"})
			}
		}
	}
	if len(found.list) == 0 {
		return out, repairs, nil
	}
	return out, repairs, t.schemaError(&found, declined, out)
}

// validFast runs the fast path on arguments known to be valid JSON.
func (t *Tool) validFast(args []byte, opts Options) bool {
	var names map[string]struct{}
	if t.strictFor(opts) {
		names = t.strict
	}
	return t.fast.validFast(args, names)
}

// strictFor reports whether strict mode applies to the tool: asked for, or
// the tool declared strict.
func (t *Tool) strictFor(opts Options) bool { return opts.Strict || t.Tool.Strict }

// tag fills the call-independent context of an error about args.
func (t *Tool) tag(e *toolcall.Error, args []byte) *toolcall.Error {
	e.Tool = t.Name
	e.Raw = string(args)
	return e
}

// parseObject parses arguments that must be a JSON object.
func parseObject(args []byte) (gjson.Result, *toolcall.Error) {
	if !lenient.Valid(args) {
		return gjson.Result{}, toolcall.NewError(toolcall.CodeInvalidJSON, "arguments are not valid JSON")
	}
	root := gjson.ParseBytes(args)
	if !root.IsObject() {
		return root, toolcall.NewError(toolcall.CodeNotObject, "arguments are "+article(jsonType(root))+", not an object")
	}
	return root, nil
}

func article(noun string) string {
	if strings.IndexByte("aeiou", noun[0]) >= 0 {
		return "an " + noun
	}
	if noun == "null" {
		return noun
	}
	return "a " + noun
}

// duplicateKeyError explains why the validator refused JSON that gjson
// accepts: an object repeats a key, which the validator's decoder rejects
// and whose meaning (first or last wins?) differs between consumers.
func duplicateKeyError(root gjson.Result) *toolcall.Error {
	path, ok := duplicateKey(root, "", 0)
	if !ok {
		return toolcall.NewError(toolcall.CodeInvalidJSON, "arguments are not valid JSON")
	}
	e := toolcall.NewError(toolcall.CodeInvalidJSON, "arguments repeat the key "+location(path))
	e.Path = path
	return e
}

func duplicateKey(v gjson.Result, path string, depth int) (string, bool) {
	if depth > maxDepth {
		return "", false
	}
	var (
		found string
		ok    bool
	)
	if v.IsObject() {
		seen := map[string]bool{}
		v.ForEach(func(k, val gjson.Result) bool {
			p := path + "/" + escapePointer(k.Str)
			if seen[k.Str] {
				found, ok = p, true
				return false
			}
			seen[k.Str] = true
			found, ok = duplicateKey(val, p, depth+1)
			return !ok
		})
	} else if v.IsArray() {
		i := 0
		v.ForEach(func(_, val gjson.Result) bool {
			found, ok = duplicateKey(val, fmt.Sprintf("%s/%d", path, i), depth+1)
			i++
			return !ok
		})
	}
	return found, ok
}

// undeclared reports top-level properties the schema does not declare.
func (t *Tool) undeclared(root gjson.Result, found *violations) {
	root.ForEach(func(k, _ gjson.Result) bool {
		if _, ok := t.strict[k.Str]; ok {
			return true
		}
		path := "/" + escapePointer(k.Str)
		msg := "property is not declared by the schema"
		if len(t.props) == 0 {
			msg = "the tool takes no arguments"
		} else {
			msg += " (declared: " + listNames(t.props) + ")"
		}
		found.add(toolcall.Violation{Path: path, Keyword: "additionalProperties",
			Expected: "a declared property", Actual: "undeclared property", Message: location(path) + ": " + msg})
		return true
	})
}

// schemaError builds the TLP-004 error: violations sorted (top-level
// properties in the schema's declaration order, then by path and
// keyword), hints about declined coercions appended, the first one's
// details lifted onto the error.
func (t *Tool) schemaError(found *violations, declined map[string]string, args []byte) *toolcall.Error {
	rank := func(path string) int {
		first, _, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
		if i := slices.Index(t.props, unescapePointer(first)); i >= 0 {
			return i
		}
		return len(t.props)
	}
	vs := found.list
	slices.SortStableFunc(vs, func(a, b toolcall.Violation) int {
		return cmp.Or(cmp.Compare(rank(a.Path), rank(b.Path)), cmp.Compare(a.Path, b.Path), cmp.Compare(a.Keyword, b.Keyword))
	})
	for i := range vs {
		if reason, ok := declined[vs[i].Path]; ok && (vs[i].Keyword == "type" || vs[i].Keyword == "anyOf" || vs[i].Keyword == "oneOf") {
			vs[i].Message += " (not coerced: " + reason + ")"
		}
	}
	var msg strings.Builder
	for i, v := range vs {
		if i == 3 {
			fmt.Fprintf(&msg, "; and %d more", len(vs)-3)
			break
		}
		if i > 0 {
			msg.WriteString("; ")
		}
		msg.WriteString(v.Message)
	}
	e := toolcall.NewError(toolcall.CodeSchema, msg.String())
	e.Violations = vs
	e.Path, e.Expected, e.Actual = vs[0].Path, vs[0].Expected, vs[0].Actual
	e.Missing = found.missing
	return t.tag(e, args)
}

// violations accumulates what the walk over a validation result finds.
type violations struct {
	list    []toolcall.Violation
	missing []string
	seen    map[[2]string]bool // path and keyword of each violation in list
}

// add records v unless a violation of the same keyword at the same path is
// already recorded (a schema reached twice, through allOf or $ref), and
// reports whether it did.
func (f *violations) add(v toolcall.Violation) bool {
	key := [2]string{v.Path, v.Keyword}
	if f.seen[key] {
		return false
	}
	if f.seen == nil {
		f.seen = map[[2]string]bool{}
	}
	f.seen[key] = true
	f.list = append(f.list, v)
	return true
}

// summaryCodes are errors that only say "something below failed"; the
// details under them say what.
var summaryCodes = map[string]bool{
	"property_mismatch": true, "properties_mismatch": true,
	"additional_property_mismatch": true, "additional_properties_mismatch": true,
	"pattern_property_mismatch": true, "pattern_properties_mismatch": true, "pattern_property_not_match": true,
	"item_mismatch": true, "items_mismatch": true,
	"prefix_item_mismatch": true, "prefix_items_mismatch": true,
	"ref_mismatch": true, "dynamic_ref_mismatch": true, "all_of_item_mismatch": true,
	"dependent_schema_mismatch": true, "dependent_schemas_mismatch": true,
	"unevaluated_property_mismatch": true, "unevaluated_properties_mismatch": true,
	"unevaluated_item_mismatch": true, "unevaluated_items_mismatch": true,
	"if_then_mismatch": true, "if_else_mismatch": true, "content_schema_mismatch": true,
}

// opaqueBranches are details the walk does not descend into: their
// failures are expected (an anyOf branch that did not match, an if that
// was false) and the keyword's own error describes the problem.
var opaqueBranches = []string{"/anyOf/", "/oneOf/", "/not", "/if", "/contains", "/propertyNames/"}

// collect walks a validation result, keeping s (the schema node evaluated)
// and inst (the instance) in step with it, and records one violation per
// failed keyword. The validator also evaluates a missing required
// property's schema against null, which yields a type error and a
// "properties" summary next to the "required" one; those evaluations are
// dropped here, so a missing property is reported once, as missing.
func (f *violations) collect(r *jsonschema.EvaluationResult, s *jsonschema.Schema, inst gjson.Result, path string) {
	if r == nil || r.Valid {
		return
	}
	keywords := make([]string, 0, len(r.Errors))
	for k := range r.Errors {
		keywords = append(keywords, k)
	}
	slices.Sort(keywords)
	children := &members{v: inst}
	for _, k := range keywords {
		e := r.Errors[k]
		if summaryCodes[e.Code] {
			continue
		}
		if e.Keyword == "required" {
			f.required(e, s, children, path)
			continue
		}
		f.add(describe(e, s, inst, path, r.EvaluationPath))
	}
	for _, d := range r.Details {
		ep := d.EvaluationPath
		if slices.ContainsFunc(opaqueBranches, func(p string) bool { return strings.HasPrefix(ep, p) }) {
			continue
		}
		child, childPath := inst, path
		// A dependent schema applies to the object itself, though the
		// validator gives it the location of the property it depends on.
		if loc := d.InstanceLocation; loc != "" && !strings.HasPrefix(ep, "/dependentSchemas/") {
			key := loc[1:]
			var ok bool
			child, ok = children.get(key)
			if !ok && strings.HasPrefix(ep, "/properties/") {
				continue // the missing-required evaluation against null
			}
			childPath = path + "/" + escapePointer(key)
		}
		f.collect(d, navigate(s, ep), child, childPath)
	}
}

// required records one violation per missing required property.
func (f *violations) required(e *jsonschema.EvaluationError, s *jsonschema.Schema, inst *members, path string) {
	var names []string
	if s != nil {
		names = s.Required
	} else {
		names = quotedNames(e.Params)
	}
	for _, name := range names {
		if _, present := inst.get(name); present {
			continue
		}
		p := path + "/" + escapePointer(name)
		v := toolcall.Violation{Path: p, Keyword: "required", Actual: "missing",
			Message: location(p) + ": required property is missing"}
		if t := declaredTypes(propertySchema(s, name)); len(t) > 0 {
			v.Expected = strings.Join(t, " or ")
		}
		if f.add(v) {
			f.missing = append(f.missing, p[1:])
		}
	}
}

// quotedNames parses the validator's "'a', 'b'" parameter, used only when
// the schema node of a required error is unknown.
func quotedNames(params map[string]any) []string {
	raw, _ := params["property"].(string)
	if raw == "" {
		raw, _ = params["properties"].(string)
	}
	var names []string
	for _, part := range strings.Split(raw, ", ") {
		if len(part) >= 2 && part[0] == '\'' && part[len(part)-1] == '\'' {
			names = append(names, part[1:len(part)-1])
		}
	}
	return names
}

// navigate returns the schema node a detail with evaluation path ep (relative
// to its parent, whose node is s) evaluated, or nil when unknown.
func navigate(s *jsonschema.Schema, ep string) *jsonschema.Schema {
	if s == nil {
		return nil
	}
	index := func(list []*jsonschema.Schema, i string) *jsonschema.Schema {
		var n int
		if _, err := fmt.Sscan(i, &n); err != nil || n < 0 || n >= len(list) {
			return nil
		}
		return list[n]
	}
	if ep == "" {
		if s.ResolvedRef != nil {
			return s.ResolvedRef
		}
		return s.ResolvedDynamicRef
	}
	kw, rest, _ := strings.Cut(ep[1:], "/")
	switch kw {
	case "properties":
		if s.Properties != nil {
			return (*s.Properties)[rest]
		}
	case "additionalProperties":
		return s.AdditionalProperties
	case "items":
		return s.Items
	case "prefixItems":
		return index(s.PrefixItems, rest)
	case "allOf":
		return index(s.AllOf, rest)
	case "then":
		return s.Then
	case "else":
		return s.Else
	case "dependentSchemas":
		return s.DependentSchemas[rest]
	case "unevaluatedProperties":
		return s.UnevaluatedProperties
	case "unevaluatedItems":
		return s.UnevaluatedItems
	case "contentSchema":
		return s.ContentSchema
	}
	return nil
}

// members indexes the members of an object, or the elements of an array,
// on first use: the walk looks up one child per failed detail, and a
// linear search each time would make large invalid arguments quadratic.
type members struct {
	v      gjson.Result
	built  bool
	byKey  map[string]gjson.Result
	byItem []gjson.Result
}

// get returns the value of key in an object, or the element at a decimal
// index in an array.
func (m *members) get(key string) (gjson.Result, bool) {
	if !m.built {
		m.built = true
		switch {
		case m.v.IsObject():
			m.byKey = map[string]gjson.Result{}
			m.v.ForEach(func(k, val gjson.Result) bool {
				if _, dup := m.byKey[k.Str]; !dup {
					m.byKey[k.Str] = val
				}
				return true
			})
		case m.v.IsArray():
			m.byItem = m.v.Array()
		}
	}
	if m.byKey != nil {
		val, ok := m.byKey[key]
		return val, ok
	}
	i, err := strconv.Atoi(key)
	if err != nil || i < 0 || i >= len(m.byItem) {
		return gjson.Result{}, false
	}
	return m.byItem[i], true
}

// member looks key up once; see members.
func member(v gjson.Result, key string) (gjson.Result, bool) {
	m := members{v: v}
	return m.get(key)
}

// describe turns one validator error into a violation whose message is
// built from the keyword and schema facts, never from the instance value
// (the validator's own messages quote it: "30 should be at most 14").
func describe(e *jsonschema.EvaluationError, s *jsonschema.Schema, inst gjson.Result, path, ep string) toolcall.Violation {
	v := toolcall.Violation{Path: path, Keyword: e.Keyword, Actual: jsonType(inst)}
	param := func(name string) string {
		if x, ok := e.Params[name]; ok {
			return fmt.Sprint(x)
		}
		return "?"
	}
	var text string
	switch e.Keyword {
	case "type":
		v.Expected = param("expected")
		if s != nil && len(s.Type) > 0 {
			v.Expected = strings.Join(s.Type, " or ")
		}
		text = "expected " + v.Expected + ", got " + v.Actual
	case "enum":
		v.Expected = "one of the allowed values"
		if s != nil {
			v.Expected = "one of " + listValues(s.Enum)
		}
		text = "must be " + v.Expected
	case "const":
		v.Expected = "the constant value"
		if s != nil && s.Const != nil {
			v.Expected = listValues([]any{s.Const.Value})
		}
		text = "must equal " + v.Expected
	case "minimum":
		v.Expected = ">= " + param("minimum")
		text = "must be at least " + param("minimum")
	case "maximum":
		v.Expected = "<= " + param("maximum")
		text = "must be at most " + param("maximum")
	case "exclusiveMinimum":
		v.Expected = "> " + param("exclusive_minimum")
		text = "must be greater than " + param("exclusive_minimum")
	case "exclusiveMaximum":
		v.Expected = "< " + param("exclusive_maximum")
		text = "must be less than " + param("exclusive_maximum")
	case "multipleOf":
		v.Expected = "a multiple of " + param("divisor")
		text = "must be " + v.Expected
	case "minLength":
		v.Expected = "at least " + count(param("min_length"), "character")
		text = "must be " + v.Expected + " long"
	case "maxLength":
		v.Expected = "at most " + count(param("max_length"), "character")
		text = "must be " + v.Expected + " long"
	case "pattern":
		v.Expected = "a string matching " + param("pattern")
		text = "must match the pattern " + param("pattern")
	case "format":
		v.Expected = "format " + param("format")
		text = "must be a valid " + param("format")
	case "minItems":
		v.Expected = "at least " + count(param("min_items"), "item")
		text = "must have " + v.Expected
	case "maxItems":
		v.Expected = "at most " + count(param("max_items"), "item")
		text = "must have " + v.Expected
	case "uniqueItems":
		v.Expected = "unique items"
		text = "must not repeat an item"
	case "contains", "minContains":
		v.Keyword = "contains"
		v.Expected = "at least " + count(param("min_contains"), "item") + " matching the contains schema"
		text = "must contain " + v.Expected
	case "maxContains":
		v.Expected = "at most " + count(param("max_contains"), "item") + " matching the contains schema"
		text = "must contain " + v.Expected
	case "minProperties":
		v.Expected = "at least " + count(param("min_properties"), "property")
		text = "must have " + v.Expected
	case "maxProperties":
		v.Expected = "at most " + count(param("max_properties"), "property")
		text = "must have " + v.Expected
	case "dependentRequired":
		v.Expected = "the properties its present properties depend on"
		text = "misses properties that a present property requires"
		if s != nil {
			text += " (" + dependencies(s, inst) + ")"
		}
	case "anyOf", "oneOf":
		v.Expected = "one of the alternative schemas"
		if s != nil {
			if t := declaredTypes(s); len(t) > 0 {
				v.Expected = strings.Join(t, " or ")
			}
		}
		text = "must match one of the alternative schemas (" + v.Expected + ")"
		if e.Code == "one_of_multiple_matches" {
			text = "must match exactly one of the alternative schemas, but matches several"
		}
	case "not":
		v.Expected = "a value the not schema excludes"
		text = "must not match the excluded schema"
	case "propertyNames":
		v.Expected = "property names matching the propertyNames schema"
		text = "has a property name the schema does not allow"
	case "unevaluatedItems":
		v.Expected = "no items beyond those the schema describes"
		text = "has items the schema does not allow"
	case "additionalProperties":
		v.Expected, v.Actual = "a declared property", "undeclared property"
		text = "has a property the schema does not allow"
	case "schema": // a false schema: nothing is allowed here
		switch {
		case strings.HasPrefix(ep, "/additionalProperties/"), strings.HasPrefix(ep, "/unevaluatedProperties"):
			v.Keyword, _, _ = strings.Cut(ep[1:], "/")
			v.Expected, v.Actual = "a declared property", "undeclared property"
			text = "property is not allowed by the schema"
		case strings.HasPrefix(ep, "/properties/"):
			v.Keyword = "false"
			v.Expected = "absent"
			text = "property must not be present"
		default:
			v.Keyword = "false"
			v.Expected = "nothing"
			text = "no value is allowed here"
		}
	default:
		v.Expected = "a value satisfying " + e.Keyword
		text = "does not satisfy the " + e.Keyword + " keyword"
	}
	v.Message = location(v.Path) + ": " + text
	return v
}

// dependencies names, for each present property with dependentRequired
// entries, the ones missing.
func dependencies(s *jsonschema.Schema, inst gjson.Result) string {
	var parts []string
	keys := make([]string, 0, len(s.DependentRequired))
	for k := range s.DependentRequired {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if _, ok := member(inst, k); !ok {
			continue
		}
		var missing []string
		for _, dep := range s.DependentRequired[k] {
			if _, ok := member(inst, dep); !ok {
				missing = append(missing, dep)
			}
		}
		if len(missing) > 0 {
			parts = append(parts, k+" requires "+listNames(missing))
		}
	}
	return strings.Join(parts, "; ")
}

// count writes n followed by noun, plural unless n is 1.
func count(n, noun string) string {
	if n == "1" {
		return n + " " + noun
	}
	if strings.HasSuffix(noun, "y") {
		return n + " " + noun[:len(noun)-1] + "ies"
	}
	return n + " " + noun + "s"
}

// maxLocation bounds how much of a path a message shows; the path itself
// is kept whole in Violation.Path.
const maxLocation = 200

// location is how messages name a path: its JSON Pointer, or "arguments"
// for the root.
func location(path string) string {
	switch {
	case path == "":
		return "arguments"
	case len(path) > maxLocation:
		cut := maxLocation
		for cut > 0 && !utf8.RuneStart(path[cut]) {
			cut--
		}
		return path[:cut] + "…"
	}
	return path
}

// listNames joins names, at most maxListed of them.
func listNames(names []string) string {
	if len(names) <= maxListed {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:maxListed], ", ") + fmt.Sprintf(", … (%d more)", len(names)-maxListed)
}

// listValues renders schema constants as JSON, at most maxListed of them,
// each cut to a readable length.
func listValues(values []any) string {
	out := make([]string, 0, min(len(values), maxListed))
	for i, v := range values {
		if i == maxListed {
			out = append(out, fmt.Sprintf("… (%d more)", len(values)-maxListed))
			break
		}
		b, err := json.Marshal(v)
		text := string(b)
		if err != nil {
			text = fmt.Sprint(v)
		}
		if len(text) > 60 {
			text = text[:57] + "…"
		}
		out = append(out, text)
	}
	return strings.Join(out, ", ")
}

// jsonType names the JSON type of a value as JSON Schema does, integers
// included.
func jsonType(v gjson.Result) string {
	switch v.Type {
	case gjson.Null:
		if !v.Exists() {
			return "missing"
		}
		return "null"
	case gjson.False, gjson.True:
		return "boolean"
	case gjson.String:
		return "string"
	case gjson.Number:
		if n, ok := parseNumber(v.Raw); ok && n.integral {
			return "integer"
		}
		return "number"
	}
	if v.IsArray() {
		return "array"
	}
	return "object"
}

func unescapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}
