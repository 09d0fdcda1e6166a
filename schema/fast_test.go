package schema

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/longtest"
	"github.com/dialectkit/toolcall/lenient"
)

// slowTool is t without its fast path: the library decides alone.
func slowTool(t *Tool) *Tool {
	c := *t
	c.fast = nil
	return &c
}

// agree checks that the fast path and the library agree on args: whatever
// the fast path accepts the library accepts, and whatever it rejects
// outright the library rejects. It reports the fast path's answer.
func agree(tb testing.TB, t *Tool, args []byte, opts Options) fastResult {
	tb.Helper()
	_, _, slowErr := slowTool(t).validate(args, opts)
	_, _, fastErr := t.validate(args, opts)
	if (slowErr == nil) != (fastErr == nil) {
		tb.Fatalf("tool %s, args %s, opts %+v: with the fast path %v, without %v", t.Name, args, opts, fastErr, slowErr)
	}
	// Told that strict JSON is strict (as Finish tells Set.CheckStrict),
	// the validation answers the same.
	if lenient.Valid(args) {
		out, _, knownErr := t.validateKnown(args, opts, true)
		out2, _, _ := t.validate(args, opts)
		if fmt.Sprint(knownErr) != fmt.Sprint(fastErr) || !bytes.Equal(out, out2) {
			tb.Fatalf("tool %s, args %s, opts %+v: known strict %v, checked %v", t.Name, args, opts, knownErr, fastErr)
		}
	}
	if t.fast == nil || !argsValid(args) {
		return fastUnsure
	}
	var names map[string]struct{}
	if t.strictFor(opts) {
		names = t.strict
	}
	r := t.fast.check(args, names)
	switch {
	case r == fastValid && slowErr != nil:
		tb.Fatalf("tool %s, args %s: fast path accepts what the library rejects: %v", t.Name, args, slowErr)
	case r == fastInvalid && slowErr == nil:
		tb.Fatalf("tool %s, args %s: fast path rejects what the library accepts", t.Name, args)
	}
	return r
}

func argsValid(b []byte) bool { _, e := parseObject(b); return e == nil }

// mutations derives arguments around valid ones: each top-level value
// swapped for values of other types and sizes, each property dropped, an
// undeclared one added, a key repeated.
func mutations(args []byte) [][]byte {
	out := [][]byte{args}
	root := gjson.ParseBytes(args)
	if !root.IsObject() {
		return out
	}
	var keys []string
	var raws []string
	root.ForEach(func(k, v gjson.Result) bool {
		keys = append(keys, k.Raw)
		raws = append(raws, v.Raw)
		return true
	})
	build := func(skip int, replace string, extra string) []byte {
		var b strings.Builder
		b.WriteByte('{')
		first := true
		for i := range keys {
			if i == skip && replace == "" {
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			v := raws[i]
			if i == skip {
				v = replace
			}
			b.WriteString(keys[i] + ":" + v)
		}
		if extra != "" {
			if !first {
				b.WriteByte(',')
			}
			b.WriteString(extra)
		}
		b.WriteByte('}')
		return []byte(b.String())
	}
	values := []string{`0`, `1`, `-1`, `1.5`, `2.0`, `1e2`, `1e400`, `100000000000000000000000`, `""`, `"x"`,
		`"` + strings.Repeat("é", 70) + `"`, `"a\nb"`, `"\ud83d\ude00"`, `"\ud800"`, `true`, `false`, `null`,
		`[]`, `[1,"a"]`, `{}`, `{"a":1,"a":2}`, `{"k":"v"}`}
	for i := range keys {
		out = append(out, build(i, "", ""))
		for _, v := range values {
			out = append(out, build(i, v, ""))
		}
		// The value itself, mutated one level down.
		if sub := gjson.Parse(raws[i]); sub.IsObject() {
			for _, m := range mutations([]byte(raws[i]))[1:] {
				out = append(out, build(i, string(m), ""))
			}
		}
	}
	out = append(out, build(-1, "", `"undeclared_extra":1`))
	if len(keys) > 0 {
		out = append(out, build(-1, "", keys[0]+":"+raws[0]))
		out = append(out, build(-1, "", `"\u0061b":1`))
	}
	return out
}

// inferSchema writes the schema a tool author would declare for args:
// every member typed as it is, all of them required.
func inferSchema(v gjson.Result) string {
	switch {
	case v.IsObject():
		var props, req []string
		v.ForEach(func(k, e gjson.Result) bool {
			props = append(props, k.Raw+":"+inferSchema(e))
			req = append(req, k.Raw)
			return true
		})
		return `{"type":"object","properties":{` + strings.Join(props, ",") + `},"required":[` + strings.Join(req, ",") + `]}`
	case v.IsArray():
		items := v.Array()
		if len(items) == 0 {
			return `{"type":"array"}`
		}
		return `{"type":"array","items":` + inferSchema(items[0]) + `}`
	}
	return `{"type":"` + jsonType(v) + `"}`
}

// schemaCases are the schemas of testdata/fastpath.jsonl with their valid
// arguments, and a schema inferred from each expected call of the dialect
// corpus with the call's arguments.
func schemaCases(tb testing.TB) (cases []struct {
	tool *Tool
	args [][]byte
}) {
	add := func(name string, schema []byte, args [][]byte) {
		tool, err := NewTool(toolcall.Tool{Name: name, Parameters: schema})
		if err != nil {
			tb.Fatalf("%s: %v", name, err)
		}
		cases = append(cases, struct {
			tool *Tool
			args [][]byte
		}{tool, args})
	}
	data, err := os.ReadFile("testdata/fastpath.jsonl")
	if err != nil {
		tb.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var v struct {
			Name   string            `json:"name"`
			Schema json.RawMessage   `json:"schema"`
			Args   []json.RawMessage `json:"args"`
		}
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			tb.Fatal(err)
		}
		var args [][]byte
		for _, a := range v.Args {
			args = append(args, a)
		}
		add(v.Name, v.Schema, args)
	}
	f, err := os.Open("../testdata/corpus/dialects.dev.jsonl")
	if err != nil {
		return cases
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	seen := map[string]bool{}
	for sc.Scan() {
		var v struct {
			Expected []struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"expected"`
		}
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			tb.Fatal(err)
		}
		for _, c := range v.Expected {
			root := gjson.ParseBytes(c.Arguments)
			if !root.IsObject() || seen[string(c.Arguments)] {
				continue
			}
			seen[string(c.Arguments)] = true
			var compact bytes.Buffer
			if json.Compact(&compact, c.Arguments) != nil {
				continue
			}
			add(c.Name, []byte(inferSchema(root)), [][]byte{c.Arguments, compact.Bytes()})
		}
	}
	return cases
}

// The fast path and the library agree on the schema corpus, over valid
// arguments and mutations of them; and the fast path vouches for the valid
// ones.
func TestFastPathAgreesOnCorpus(t *testing.T) {
	tools, fast, cases, accepted, validCases := 0, 0, 0, 0, 0
	for _, c := range schemaCases(t) {
		tools++
		if c.tool.fast != nil {
			fast++
		}
		for _, valid := range c.args {
			for i, args := range mutations(valid) {
				for _, opts := range []Options{{}, {Strict: true}} {
					cases++
					r := agree(t, c.tool, args, opts)
					if i == 0 && opts == (Options{}) && c.tool.fast != nil {
						validCases++
						if r == fastValid {
							accepted++
						} else {
							t.Logf("%s: the fast path does not vouch for %s", c.tool.Name, args)
						}
					}
				}
			}
		}
	}
	t.Logf("%d schemas, %d with a fast path; %d cases agree; fast path accepts %d of %d valid arguments", tools, fast, cases, accepted, validCases)
	if fast*10 < tools*9 {
		t.Errorf("only %d of %d corpus schemas have a fast path", fast, tools)
	}
	if accepted*10 < validCases*9 {
		t.Errorf("the fast path vouches for only %d of %d valid arguments", accepted, validCases)
	}
}

// randomSchema builds a schema out of the keywords the fast path knows,
// nesting up to depth.
func randomSchema(r *rand.Rand, depth int) string {
	types := []string{"string", "integer", "number", "boolean", "null", "object", "array"}
	var parts []string
	kind := types[r.IntN(len(types))]
	switch r.IntN(10) {
	case 0:
		return `true`
	case 1:
		if depth > 0 {
			n := 1 + r.IntN(3)
			var alts []string
			for range n {
				alts = append(alts, randomSchema(r, depth-1))
			}
			kw := []string{"anyOf", "oneOf", "allOf"}[r.IntN(3)]
			return `{"` + kw + `":[` + strings.Join(alts, ",") + `]}`
		}
	case 2:
		parts = append(parts, fmt.Sprintf(`"type":["%s","%s"]`, kind, types[r.IntN(len(types))]))
	case 3:
		// no type at all
	default:
		parts = append(parts, `"type":"`+kind+`"`)
	}
	switch kind {
	case "string":
		if r.IntN(2) == 0 {
			parts = append(parts, fmt.Sprintf(`"minLength":%d`, r.IntN(3)))
		}
		if r.IntN(2) == 0 {
			parts = append(parts, fmt.Sprintf(`"maxLength":%d`, r.IntN(5)))
		}
		if r.IntN(3) == 0 {
			parts = append(parts, `"enum":["a","b","é",""]`)
		}
		if r.IntN(6) == 0 {
			parts = append(parts, `"const":"a"`)
		}
		if r.IntN(4) == 0 {
			parts = append(parts, `"format":"email"`)
		}
	case "integer", "number":
		bounds := []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}
		vals := []string{"0", "1", "-1", "1.5", "2", "100000000000000000000"}
		for range r.IntN(3) {
			parts = append(parts, fmt.Sprintf(`"%s":%s`, bounds[r.IntN(4)], vals[r.IntN(len(vals))]))
		}
		if r.IntN(3) == 0 {
			parts = append(parts, `"enum":[1,2.5,-1,"1",null]`)
		}
	case "object":
		if depth > 0 {
			names := []string{"a", "b", "c"}
			var props []string
			for _, n := range names[:r.IntN(4)] {
				props = append(props, `"`+n+`":`+randomSchema(r, depth-1))
			}
			parts = append(parts, `"properties":{`+strings.Join(props, ",")+`}`)
			switch r.IntN(3) {
			case 0:
				parts = append(parts, `"required":["a"]`)
			case 1:
				parts = append(parts, `"required":["a","d"]`)
			}
			switch r.IntN(4) {
			case 0:
				parts = append(parts, `"additionalProperties":false`)
			case 1:
				parts = append(parts, `"additionalProperties":`+randomSchema(r, depth-1))
			}
		}
		if r.IntN(4) == 0 {
			parts = append(parts, fmt.Sprintf(`"minProperties":%d,"maxProperties":%d`, r.IntN(2), 1+r.IntN(3)))
		}
	case "array":
		if depth > 0 && r.IntN(3) > 0 {
			parts = append(parts, `"items":`+randomSchema(r, depth-1))
		}
		if r.IntN(2) == 0 {
			parts = append(parts, fmt.Sprintf(`"minItems":%d,"maxItems":%d`, r.IntN(2), 1+r.IntN(3)))
		}
	case "boolean", "null":
		if r.IntN(3) == 0 {
			parts = append(parts, `"enum":[true,null]`)
		}
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// randomValue builds a JSON value leaning on what the schemas above test.
func randomValue(r *rand.Rand, depth int) string {
	switch r.IntN(9) {
	case 0:
		return []string{`0`, `1`, `-1`, `1.5`, `2.0`, `2`, `1e0`, `15e-1`, `-0`, `100000000000000000000`, `100000000000000000001`, `1e400`}[r.IntN(12)]
	case 1:
		return []string{`""`, `"a"`, `"b"`, `"é"`, `"ab"`, `"abcdef"`, `"\u0061"`, `"\ud83d\ude00"`, `"\ud800"`, `"a\"b"`, `"x@y.z"`, `"1"`}[r.IntN(12)]
	case 2:
		return []string{`true`, `false`, `null`}[r.IntN(3)]
	case 3, 4:
		if depth > 0 {
			var items []string
			for range r.IntN(4) {
				items = append(items, randomValue(r, depth-1))
			}
			return "[" + strings.Join(items, ",") + "]"
		}
		return `[]`
	default:
		if depth > 0 {
			names := []string{"a", "b", "c", "d", "a", `\u0061`}
			var members []string
			for range r.IntN(4) {
				members = append(members, `"`+names[r.IntN(len(names))]+`":`+randomValue(r, depth-1))
			}
			return "{" + strings.Join(members, ", ") + "}"
		}
		return `{}`
	}
}

// The fast path and the library agree on random schemas made of the
// keywords the fast path handles and random arguments.
func TestFastPathAgreesOnRandomSchemas(t *testing.T) {
	schemas, perSchema := 400, 40
	if longtest.Enabled() {
		schemas, perSchema = 20000, 200
	}
	r := rand.New(rand.NewPCG(1, 2))
	counts := map[fastResult]int{}
	for range schemas {
		body := randomSchema(r, 2)
		if !strings.HasPrefix(body, `{"type":"object"`) {
			body = `{"type":"object","properties":{"a":` + body + `,"b":` + randomSchema(r, 2) + `},"required":["a"]}`
		}
		tool, err := NewTool(toolcall.Tool{Name: "t", Parameters: json.RawMessage(body)})
		if err != nil {
			continue
		}
		for range perSchema {
			args := randomValue(r, 3)
			if args[0] != '{' {
				args = `{"a":` + args + `}`
			}
			for _, opts := range []Options{{}, {Strict: true}} {
				counts[agree(t, tool, []byte(args), opts)]++
			}
		}
	}
	t.Logf("valid %d, invalid %d, unsure %d", counts[fastValid], counts[fastInvalid], counts[fastUnsure])
	if counts[fastValid] == 0 || counts[fastInvalid] == 0 {
		t.Errorf("the random cases do not exercise both answers: %v", counts)
	}
}

// A flat three-property schema validates without allocating.
func TestFastPathDoesNotAllocate(t *testing.T) {
	tool, err := NewTool(toolcall.Tool{Name: "weather", Parameters: json.RawMessage(weatherSchema)})
	if err != nil {
		t.Fatal(err)
	}
	if tool.fast == nil {
		t.Fatal("the weather schema has no fast path")
	}
	allocs := testing.AllocsPerRun(100, func() {
		if _, _, err := tool.validate(benchValid, Options{}); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("valid arguments cost %v allocations", allocs)
	}
}

// Schemas with keywords the fast path leaves to the library have none.
func TestFastPathDeclines(t *testing.T) {
	for _, body := range []string{
		`{"type":"object","properties":{"a":{"type":"string","pattern":"^x"}}}`,
		`{"type":"object","properties":{"a":{"type":"integer","multipleOf":2}}}`,
		`{"type":"object","properties":{"a":{"type":"array","uniqueItems":true}}}`,
		`{"type":"object","properties":{"a":{"not":{"type":"string"}}}}`,
		`{"type":"object","properties":{"a":{"enum":[[1],{"x":1}]}}}`,
		`{"type":"object","if":{"required":["a"]},"then":{"required":["b"]}}`,
		`{"$defs":{"n":{"type":"object","properties":{"next":{"$ref":"#/$defs/n"}}}},"$ref":"#/$defs/n"}`,
	} {
		tool, err := NewTool(toolcall.Tool{Name: "t", Parameters: json.RawMessage(body)})
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		if tool.fast != nil {
			t.Errorf("%s: has a fast path", body)
		}
	}
}

// FuzzFastPath holds the fast path to the library on the tools of the
// dialect corpus, random schemas and any arguments.
func FuzzFastPath(f *testing.F) {
	var tools []*Tool
	r := rand.New(rand.NewPCG(3, 4))
	for range 64 {
		body := `{"type":"object","properties":{"a":` + randomSchema(r, 2) + `,"b":` + randomSchema(r, 2) + `},"required":["a"]}`
		if tool, err := NewTool(toolcall.Tool{Name: "t", Parameters: json.RawMessage(body)}); err == nil && tool.fast != nil {
			tools = append(tools, tool)
		}
	}
	if tool, err := NewTool(toolcall.Tool{Name: "weather", Parameters: json.RawMessage(weatherSchema)}); err == nil {
		tools = append(tools, tool)
	}
	for _, s := range []string{`{}`, `{"a":1}`, `{"a":"x","b":[1,2]}`, `{"a":{"a":null},"b":1.5}`, `{"city":"Paris","days":3}`,
		`{"a":"\u00e9","a":1}`, `{"a":1e400}`, `{"a":[{"b":"\ud800"}]}`} {
		for i := range tools {
			f.Add([]byte(s), uint8(i), false)
		}
	}
	f.Fuzz(func(t *testing.T, args []byte, pick uint8, additional bool) {
		tool := tools[int(pick)%len(tools)]
		agree(t, tool, args, Options{Strict: !additional})
	})
}
