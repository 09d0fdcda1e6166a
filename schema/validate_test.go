package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
)

// weatherSchema is the 3-property schema of the tests and benchmarks.
const weatherSchema = `{"type":"object","properties":{
	"city":{"type":"string","minLength":1},
	"days":{"type":"integer","minimum":1,"maximum":14},
	"unit":{"type":"string","enum":["C","F"]}},
	"required":["city","days"]}`

// nestedSchema exercises paths below the top level.
const nestedSchema = `{"type":"object","properties":{
	"address":{"type":"object","properties":{"zip":{"type":"string","pattern":"^[0-9]{5}$"},"line":{"type":"string"}},"required":["zip"]},
	"tags":{"type":"array","items":{"$ref":"#/$defs/Tag"},"maxItems":3},
	"mode":{"anyOf":[{"type":"string"},{"type":"null"}]},
	"level":{"const":"high"},
	"ratio":{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1,"multipleOf":0.25}},
	"$defs":{"Tag":{"type":"string","maxLength":5}}}`

func mustTool(t testing.TB, name, params string) *Tool {
	t.Helper()
	tool, err := NewTool(toolcall.Tool{Name: name, Parameters: json.RawMessage(params)})
	if err != nil {
		t.Fatalf("NewTool(%s): %v", name, err)
	}
	return tool
}

func TestValidateValidPassesByteForByte(t *testing.T) {
	tool := mustTool(t, "weather", weatherSchema)
	for _, args := range []string{
		`{"city":"Paris","days":3}`,
		`{"days":14,"unit":"F","city":"Oslo"}`,
		`{ "city" : "Lima", "days" : 1 }`,
		`{"city":"Rome","days":3.0}`,
	} {
		for _, opts := range []Options{{}, {Coerce: true}, {Coerce: true, AllowRisky: true}} {
			out, repairs, err := tool.validate(json.RawMessage(args), opts)
			if err != nil {
				t.Errorf("%s %+v: unexpected error %v", args, opts, err)
			}
			if string(out) != args || len(repairs) != 0 {
				t.Errorf("%s %+v: got %s %v, want the input unchanged", args, opts, out, repairs)
			}
		}
	}
}

func TestValidateViolations(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		args   string
		opts   Options
		// The first violation, lifted onto the error.
		path, keyword, expected, actual string
		count                           int
		missing                         []string
		message                         string // a substring of the first violation's message
	}{
		{name: "type", schema: weatherSchema, args: `{"city":"Paris","days":"three"}`,
			path: "/days", keyword: "type", expected: "integer", actual: "string", count: 1,
			message: "/days: expected integer, got string"},
		{name: "type of a fraction", schema: weatherSchema, args: `{"city":"Paris","days":2.5}`,
			path: "/days", keyword: "type", expected: "integer", actual: "number", count: 1},
		{name: "required", schema: weatherSchema, args: `{"days":3}`,
			path: "/city", keyword: "required", expected: "string", actual: "missing", count: 1,
			missing: []string{"city"}, message: "/city: required property is missing"},
		{name: "required, several", schema: weatherSchema, args: `{"unit":"C"}`,
			path: "/city", keyword: "required", expected: "string", actual: "missing", count: 2,
			missing: []string{"city", "days"}},
		{name: "enum", schema: weatherSchema, args: `{"city":"Paris","days":3,"unit":"Kelvin"}`,
			path: "/unit", keyword: "enum", expected: `one of "C", "F"`, actual: "string", count: 1,
			message: `/unit: must be one of "C", "F"`},
		{name: "maximum", schema: weatherSchema, args: `{"city":"Paris","days":30}`,
			path: "/days", keyword: "maximum", expected: "<= 14", actual: "integer", count: 1,
			message: "/days: must be at most 14"},
		{name: "minimum", schema: weatherSchema, args: `{"city":"Paris","days":0}`,
			path: "/days", keyword: "minimum", expected: ">= 1", actual: "integer", count: 1,
			message: "/days: must be at least 1"},
		{name: "minLength", schema: weatherSchema, args: `{"city":"","days":2}`,
			path: "/city", keyword: "minLength", expected: "at least 1 character", actual: "string", count: 1,
			message: "/city: must be at least 1 character long"},
		{name: "strict mode rejects undeclared properties", schema: weatherSchema, args: `{"city":"Paris","days":3,"country":"FR"}`, opts: Options{Strict: true},
			path: "/country", keyword: "additionalProperties", expected: "a declared property", actual: "undeclared property", count: 1,
			message: "/country: property is not declared by the schema (declared: city, days, unit)"},
		{name: "additionalProperties false in the schema", schema: `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`,
			args: `{"a":"x","b":1}`,
			path: "/b", keyword: "additionalProperties", expected: "a declared property", actual: "undeclared property", count: 1,
			message: "/b: property is not allowed by the schema"},
		{name: "nested type", schema: nestedSchema, args: `{"address":{"zip":75001}}`,
			path: "/address/zip", keyword: "type", expected: "string", actual: "integer", count: 1},
		{name: "nested required", schema: nestedSchema, args: `{"address":{"line":"x"}}`,
			path: "/address/zip", keyword: "required", expected: "string", actual: "missing", count: 1,
			missing: []string{"address/zip"}},
		{name: "nested pattern", schema: nestedSchema, args: `{"address":{"zip":"7500"}}`,
			path: "/address/zip", keyword: "pattern", expected: "a string matching ^[0-9]{5}$", actual: "string", count: 1},
		{name: "array item through $ref", schema: nestedSchema, args: `{"tags":["ok","toolong",3]}`,
			path: "/tags/1", keyword: "maxLength", expected: "at most 5 characters", actual: "string", count: 2},
		{name: "maxItems", schema: nestedSchema, args: `{"tags":["a","b","c","d"]}`,
			path: "/tags", keyword: "maxItems", expected: "at most 3 items", actual: "array", count: 1},
		{name: "anyOf names the alternatives", schema: nestedSchema, args: `{"mode":5}`,
			path: "/mode", keyword: "anyOf", expected: "string or null", actual: "integer", count: 1,
			message: "/mode: must match one of the alternative schemas (string or null)"},
		{name: "const", schema: nestedSchema, args: `{"level":"low"}`,
			path: "/level", keyword: "const", expected: `"high"`, actual: "string", count: 1},
		{name: "exclusive bounds", schema: nestedSchema, args: `{"ratio":1}`,
			path: "/ratio", keyword: "exclusiveMaximum", expected: "< 1", actual: "integer", count: 1},
		{name: "multipleOf", schema: nestedSchema, args: `{"ratio":0.3}`,
			path: "/ratio", keyword: "multipleOf", expected: "a multiple of 0.25", actual: "number", count: 1},
		{name: "empty properties are declared properties", schema: `{"type":"object","properties":{}}`, args: `{"x":1}`, opts: Options{Strict: true},
			path: "/x", keyword: "additionalProperties", actual: "undeclared property", expected: "a declared property", count: 1},
		{name: "every violation is reported", schema: weatherSchema, args: `{"days":30,"unit":"K","x":1}`, opts: Options{Strict: true},
			path: "/city", keyword: "required", expected: "string", actual: "missing", count: 4, missing: []string{"city"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := mustTool(t, "tool", tt.schema)
			_, _, err := tool.validate(json.RawMessage(tt.args), tt.opts)
			if err == nil {
				t.Fatalf("Validate(%s) passed, want a violation", tt.args)
			}
			if err.Code != toolcall.CodeSchema || !errors.Is(err, toolcall.ErrSchema) {
				t.Fatalf("code = %s, want %s", err.Code, toolcall.CodeSchema)
			}
			if err.Tool != "tool" || err.Raw != tt.args {
				t.Errorf("Tool/Raw = %q/%q", err.Tool, err.Raw)
			}
			if len(err.Violations) != tt.count {
				t.Errorf("got %d violations %+v, want %d", len(err.Violations), err.Violations, tt.count)
			}
			first := err.Violations[0]
			if first.Path != tt.path || first.Keyword != tt.keyword || first.Expected != tt.expected || first.Actual != tt.actual {
				t.Errorf("first violation = %+v, want path %q keyword %q expected %q actual %q",
					first, tt.path, tt.keyword, tt.expected, tt.actual)
			}
			if err.Path != first.Path || err.Expected != first.Expected || err.Actual != first.Actual {
				t.Errorf("error details %q/%q/%q differ from the first violation %+v", err.Path, err.Expected, err.Actual, first)
			}
			if !slices.Equal(err.Missing, tt.missing) {
				t.Errorf("Missing = %q, want %q", err.Missing, tt.missing)
			}
			if tt.message != "" && !strings.Contains(first.Message, tt.message) {
				t.Errorf("message %q does not contain %q", first.Message, tt.message)
			}
			if !strings.Contains(err.Error(), first.Message) {
				t.Errorf("Error() = %q does not mention the first violation", err.Error())
			}
		})
	}
}

// The validator also checks a missing required property's schema against
// null; the resulting type and "properties" errors must not reach the user.
func TestMissingRequiredIsReportedOnce(t *testing.T) {
	schema := `{"type":"object","properties":{
		"city":{"type":"string","enum":["Paris","Oslo"],"minLength":2},
		"nested":{"type":"object","properties":{"id":{"$ref":"#/$defs/Id"}},"required":["id"]}},
		"required":["city","nested"],"$defs":{"Id":{"type":"integer"}}}`
	tool := mustTool(t, "t", schema)
	for _, tt := range []struct {
		args    string
		missing []string
	}{
		{`{}`, []string{"city", "nested"}},
		{`{"city":"Paris","nested":{}}`, []string{"nested/id"}},
	} {
		_, _, err := tool.validate(json.RawMessage(tt.args), Options{})
		if err == nil {
			t.Fatalf("%s passed", tt.args)
		}
		for _, v := range err.Violations {
			if v.Keyword != "required" {
				t.Errorf("%s: unexpected %+v next to the missing properties", tt.args, v)
			}
			if strings.Contains(v.Message, "null") {
				t.Errorf("%s: message %q mentions the validator's synthetic null", tt.args, v.Message)
			}
		}
		if !slices.Equal(err.Missing, tt.missing) || len(err.Violations) != len(tt.missing) {
			t.Errorf("%s: Missing = %q with %d violations, want %q", tt.args, err.Missing, len(err.Violations), tt.missing)
		}
	}
}

// Messages, Expected and Actual never carry argument values, only paths,
// keywords, types and schema constants.
func TestMessagesHoldNoValues(t *testing.T) {
	const secret = "hunter2-SECRET"
	tool := mustTool(t, "weather", weatherSchema)
	nested := mustTool(t, "nested", nestedSchema)
	cases := []struct {
		tool *Tool
		args string
	}{
		{tool, `{"city":"` + secret + `","days":"` + secret + `"}`},
		{tool, `{"city":"Paris","days":3,"unit":"` + secret + `"}`},
		{tool, `{"city":"Paris","days":987654321}`},
		{nested, `{"address":{"zip":"` + secret + `"},"tags":["` + secret + `"],"level":"` + secret + `"}`},
		{nested, `{"mode":{"k":"` + secret + `"},"ratio":987654321}`},
	}
	for _, c := range cases {
		_, _, err := c.tool.validate(json.RawMessage(c.args), Options{Coerce: true})
		if err == nil {
			t.Fatalf("%s passed", c.args)
		}
		texts := []string{err.Error(), err.Message, err.Expected, err.Actual}
		for _, v := range err.Violations {
			texts = append(texts, v.Message, v.Expected, v.Actual)
		}
		for _, text := range texts {
			if strings.Contains(text, secret) || strings.Contains(text, "987654321") {
				t.Errorf("%s: %q leaks an argument value", c.args, text)
			}
		}
	}
}

func TestStrictModeScope(t *testing.T) {
	tests := []struct {
		name, schema, args string
		opts               Options
		ok                 bool
	}{
		{"JSON Schema accepts undeclared properties", weatherSchema, `{"city":"a","days":1,"extra":true}`, Options{}, true},
		{"strict mode rejects them", weatherSchema, `{"city":"a","days":1,"extra":true}`, Options{Strict: true}, false},
		{"additionalProperties false rejects them", `{"type":"object","properties":{"a":{}},"additionalProperties":false}`, `{"a":1,"b":2}`, Options{}, false},
		{"nested objects are not strict", nestedSchema, `{"address":{"zip":"75001","floor":3}}`, Options{Strict: true}, true},
		{"no properties, no strictness", `{"type":"object"}`, `{"anything":1}`, Options{Strict: true}, true},
		{"additionalProperties schema decides", `{"type":"object","properties":{"a":{}},"additionalProperties":{"type":"integer"}}`, `{"a":1,"b":2}`, Options{Strict: true}, true},
		{"additionalProperties schema still checks", `{"type":"object","properties":{"a":{}},"additionalProperties":{"type":"integer"}}`, `{"a":1,"b":"x"}`, Options{Strict: true}, false},
		{"patternProperties decides", `{"type":"object","properties":{"a":{}},"patternProperties":{"^x_":{}}}`, `{"a":1,"y":2}`, Options{Strict: true}, true},
		{"allOf branches declare", `{"type":"object","properties":{"a":{}},"allOf":[{"properties":{"b":{}}}]}`, `{"a":1,"b":2}`, Options{Strict: true}, true},
		{"anyOf branches declare", `{"type":"object","properties":{"a":{}},"anyOf":[{"properties":{"b":{}}},{"properties":{"c":{}}}]}`, `{"c":1}`, Options{Strict: true}, true},
		{"root $ref declares", `{"$ref":"#/$defs/Args","$defs":{"Args":{"type":"object","properties":{"a":{}}}}}`, `{"b":1}`, Options{Strict: true}, false},
		{"no parameters accepts {}", "", `{}`, Options{Strict: true}, true},
		{"no parameters, not strict", "", `{"x":1}`, Options{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := mustTool(t, "t", tt.schema)
			_, _, err := tool.validate(json.RawMessage(tt.args), tt.opts)
			if (err == nil) != tt.ok {
				t.Errorf("Validate(%s) error = %v, want ok=%v", tt.args, err, tt.ok)
			}
		})
	}
}

func TestValidateRejectsNonObjects(t *testing.T) {
	tool := mustTool(t, "weather", weatherSchema)
	empty := mustTool(t, "empty", "")
	tests := []struct {
		tool *Tool
		args string
		code toolcall.Code
		path string
	}{
		{tool, `{"city":"a",`, toolcall.CodeInvalidJSON, ""},
		{tool, ``, toolcall.CodeInvalidJSON, ""},
		{tool, "\x00\xff", toolcall.CodeInvalidJSON, ""},
		{tool, `[1,2]`, toolcall.CodeNotObject, ""},
		{tool, `"city"`, toolcall.CodeNotObject, ""},
		{empty, `null`, toolcall.CodeNotObject, ""},
		{tool, `{"city":"a","days":1,"city":"b"}`, toolcall.CodeInvalidJSON, "/city"},
		{tool, `{"city":"a","days":1,"unit":{"x":1,"y":{"k":1,"k":2}}}`, toolcall.CodeInvalidJSON, "/unit/y/k"},
	}
	for _, tt := range tests {
		_, _, err := tt.tool.validate(json.RawMessage(tt.args), Options{})
		if err == nil || err.Code != tt.code || err.Path != tt.path {
			t.Errorf("Validate(%q) = %v (path %q), want %s at %q", tt.args, err, errPath(err), tt.code, tt.path)
		}
	}
}

func errPath(e *toolcall.Error) string {
	if e == nil {
		return ""
	}
	return e.Path
}

// Huge and deeply nested arguments give an answer, not a crash.
func TestValidateHugeAndDeep(t *testing.T) {
	tool := mustTool(t, "nested", `{"type":"object","properties":{"tree":{"$ref":"#/$defs/Node"}},
		"$defs":{"Node":{"type":"object","properties":{"child":{"$ref":"#/$defs/Node"},"n":{"type":"integer"}}}}}`)
	deep := strings.Repeat(`{"child":`, 300) + `{"n":"5"}` + strings.Repeat(`}`, 300)
	_, _, err := tool.validate(json.RawMessage(`{"tree":`+deep+`}`), Options{Coerce: true})
	if err == nil || err.Code != toolcall.CodeSchema {
		t.Errorf("deep arguments: got %v, want a schema error beyond the coercion depth", err)
	}
	big := `{"tree":{"n":1,"child":{"n":2}},"pad":"` + strings.Repeat("x", 1<<20) + `"}`
	_, _, err = tool.validate(json.RawMessage(big), Options{Coerce: true})
	if err != nil {
		t.Errorf("large arguments: %v", err)
	}
}

func TestValidateReturnsInputSlice(t *testing.T) {
	tool := mustTool(t, "weather", weatherSchema)
	args := json.RawMessage(`{"city":"Paris","days":3}`)
	out, _, _ := tool.validate(args, Options{Coerce: true})
	if &out[0] != &args[0] || !bytes.Equal(out, args) {
		t.Error("valid arguments were copied or changed")
	}
}

func TestOtherKeywords(t *testing.T) {
	tool := mustTool(t, "k", `{"type":"object","properties":{
		"a":{"type":"string"},"b":{"type":"string"},
		"o":{"oneOf":[{"type":"integer"},{"type":"number"}]},
		"n":{"not":{"type":"string"}},
		"m":{"type":"object","propertyNames":{"pattern":"^[a-z]+$"}},
		"u":{"type":"array","uniqueItems":true,"contains":{"type":"integer"}},
		"p":{"type":"object","minProperties":1},
		"f":false},
		"dependentRequired":{"a":["b"]},
		"dependentSchemas":{"b":{"properties":{"a":{"minLength":2}}}}}`)
	tests := []struct {
		args, path, keyword, message string
	}{
		{`{"o":1}`, "/o", "oneOf", "/o: must match exactly one of the alternative schemas, but matches several"},
		{`{"o":"x"}`, "/o", "oneOf", "/o: must match one of the alternative schemas (integer or number)"},
		{`{"n":"x"}`, "/n", "not", "/n: must not match the excluded schema"},
		{`{"m":{"Bad":1}}`, "/m", "propertyNames", "/m: has a property name the schema does not allow"},
		{`{"u":[1,1]}`, "/u", "uniqueItems", "/u: must not repeat an item"},
		{`{"u":["x"]}`, "/u", "contains", "/u: must contain at least 1 item matching the contains schema"},
		{`{"p":{}}`, "/p", "minProperties", "/p: must have at least 1 property"},
		{`{"a":"x"}`, "", "dependentRequired", "arguments: misses properties that a present property requires (a requires b)"},
		{`{"a":"x","b":"y"}`, "/a", "minLength", "/a: must be at least 2 characters long"},
		{`{"f":1}`, "/f", "false", "/f: property must not be present"},
	}
	for _, tt := range tests {
		_, _, err := tool.validate(json.RawMessage(tt.args), Options{})
		if err == nil {
			t.Errorf("%s passed", tt.args)
			continue
		}
		v := err.Violations[0]
		if len(err.Violations) != 1 || v.Path != tt.path || v.Keyword != tt.keyword || v.Message != tt.message {
			t.Errorf("%s: violations %+v, want one %s at %q: %q", tt.args, err.Violations, tt.keyword, tt.path, tt.message)
		}
	}
}

// Many violations at once: every one is reported, and the walk stays
// linear (this would take minutes if lookups were quadratic).
func TestManyViolations(t *testing.T) {
	const n = 20000
	var b strings.Builder
	b.WriteString(`{"ids":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"x"`)
	}
	b.WriteString(`]`)
	for i := range n {
		fmt.Fprintf(&b, `,"extra%d":1`, i)
	}
	b.WriteString(`}`)
	tool := mustTool(t, "c", `{"type":"object","properties":{"ids":{"type":"array","items":{"type":"integer"}}}}`)
	_, _, err := tool.validate(json.RawMessage(b.String()), Options{Coerce: true, Strict: true})
	if err == nil || len(err.Violations) != 2*n {
		t.Fatalf("got %v violations, want %d", len(err.Violations), 2*n)
	}
	if len(err.Message) > 1000 {
		t.Errorf("the error message is %d bytes long", len(err.Message))
	}
}

// A tool declared with OpenAI's "strict": true is validated in strict mode
// whatever the options say; the same schema without it follows JSON
// Schema.
func TestDeclaredStrict(t *testing.T) {
	params := `{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`
	for _, tc := range []struct {
		def  string
		opts Options
		ok   bool
	}{
		{`{"type":"function","function":{"name":"bash","parameters":` + params + `}}`, Options{}, true},
		{`{"type":"function","function":{"name":"bash","parameters":` + params + `}}`, Options{Strict: true}, false},
		{`{"type":"function","function":{"name":"bash","strict":true,"parameters":` + params + `}}`, Options{}, false},
		{`{"name":"bash","strict":true,"parameters":` + params + `}`, Options{}, false},
	} {
		tools, err := toolcall.ParseTools([]byte(tc.def))
		if err != nil {
			t.Fatal(err)
		}
		tool, err := NewTool(tools[0])
		if err != nil {
			t.Fatal(err)
		}
		_, _, verr := tool.Validate(json.RawMessage(`{"command":"ls","description":"list"}`), tc.opts)
		if (verr == nil) != tc.ok {
			t.Errorf("%s %+v: error %v, want ok %v", tc.def, tc.opts, verr, tc.ok)
		}
		if _, _, err := tool.Validate(json.RawMessage(`{"command":"ls"}`), tc.opts); err != nil {
			t.Errorf("%s: declared arguments rejected: %v", tc.def, err)
		}
	}
}
