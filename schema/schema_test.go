package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dialectkit/toolcall"
)

// toolShapes declares the same kind of tool in every shape ParseTools
// accepts, Ollama's nullable type lists included.
const toolShapes = `[
	{"type":"function","function":{"name":"get_weather","description":"Weather","parameters":{
		"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"]}}},
	{"type":"function","function":{"name":"search","parameters":{
		"type":"object","required":["query"],"properties":{"query":{"type":"string","description":"q"},"limit":{"type":["integer","null"]}}}}},
	{"name":"read_file","description":"bare shape","parameters":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}},
	{"name":"list_dir","input_schema":{"type":"object","properties":{"dir":{"type":"string"}}}},
	{"type":"function","function":{"name":"now"}}
]`

func TestParsedToolShapes(t *testing.T) {
	tools, err := toolcall.ParseTools([]byte(toolShapes))
	if err != nil {
		t.Fatal(err)
	}
	set, err := NewSet(tools...)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := set.Names(), []string{"get_weather", "list_dir", "now", "read_file", "search"}; !slices.Equal(got, want) {
		t.Errorf("Names() = %q, want %q", got, want)
	}
	var order []string
	for _, tool := range set.Tools() {
		order = append(order, tool.Name)
	}
	if want := []string{"get_weather", "search", "read_file", "list_dir", "now"}; !slices.Equal(order, want) {
		t.Errorf("Tools() order = %q, want %q", order, want)
	}
	tests := []struct {
		tool, args string
		ok         bool
	}{
		{"get_weather", `{"city":"Paris","days":2}`, true},
		{"get_weather", `{"days":2}`, false},
		{"search", `{"query":"go","limit":null}`, true},
		{"search", `{"query":"go","limit":5}`, true},
		{"search", `{"query":"go","limit":"5"}`, false},
		{"read_file", `{"path":"/etc/hosts"}`, true},
		{"list_dir", `{}`, true},
		{"list_dir", `{"dir":1}`, false},
		{"now", `{}`, true},
		{"now", `{"tz":"UTC"}`, true}, // no schema given: any object is accepted
	}
	for _, tt := range tests {
		_, _, verr := set.validate(tt.tool, json.RawMessage(tt.args), Options{})
		if (verr == nil) != tt.ok {
			t.Errorf("%s %s: error %v, want ok=%v", tt.tool, tt.args, verr, tt.ok)
		}
	}
}

func TestSetLookups(t *testing.T) {
	var set Set // the zero value is usable
	for _, name := range []string{"Read", "write", "WRITE"} {
		if err := set.Add(toolcall.Tool{Name: name}); err != nil {
			t.Fatal(err)
		}
	}
	if err := set.Add(toolcall.Tool{Name: "Read", Parameters: json.RawMessage(`{"type":"object","properties":{"p":{}}}`)}); err != nil {
		t.Fatal(err)
	}
	if set.Len() != 3 {
		t.Errorf("Len() = %d after replacing a tool, want 3", set.Len())
	}
	if tool, ok := set.Lookup("Read"); !ok || len(tool.PropertyNames()) != 1 {
		t.Errorf("Lookup(Read) = %v, %v, want the replacement", tool, ok)
	}
	if _, ok := set.Lookup("read"); ok {
		t.Error("Lookup is case-sensitive")
	}
	if name, ok := set.LookupFold("READ"); !ok || name != "Read" {
		t.Errorf("LookupFold(READ) = %q, %v", name, ok)
	}
	if _, ok := set.LookupFold("Write"); ok {
		t.Error("LookupFold matched an ambiguous name")
	}
	var nilSet *Set
	if nilSet.Len() != 0 || nilSet.Names() != nil || nilSet.Tools() != nil {
		t.Error("a nil set is not empty")
	}
	if _, ok := nilSet.Lookup("x"); ok {
		t.Error("a nil set found a tool")
	}
}

func TestUnknownTool(t *testing.T) {
	set, err := NewSet(toolcall.Tool{Name: "zeta"}, toolcall.Tool{Name: "alpha"}, toolcall.Tool{Name: "mid"})
	if err != nil {
		t.Fatal(err)
	}
	for _, call := range []func() *toolcall.Error{
		func() *toolcall.Error { _, e := set.resolve("get_wether"); return e },
		func() *toolcall.Error {
			_, _, e := set.validate("get_wether", json.RawMessage(`{}`), Options{})
			return e
		},
	} {
		e := call()
		if e == nil || e.Code != toolcall.CodeUnknownTool || !errors.Is(e, toolcall.ErrUnknownTool) {
			t.Fatalf("got %v, want %s", e, toolcall.CodeUnknownTool)
		}
		if !slices.Equal(e.Known, []string{"alpha", "mid", "zeta"}) {
			t.Errorf("Known = %q, want the sorted names", e.Known)
		}
	}
	var empty *Set
	if _, e := empty.resolve("x"); e == nil || e.Code != toolcall.CodeUnknownTool || len(e.Known) != 0 {
		t.Errorf("Resolve on a nil set = %v", e)
	}
	if tool, e := set.resolve("mid"); e != nil || tool.Name != "mid" {
		t.Errorf("Resolve(mid) = %v, %v", tool, e)
	}
}

func TestInvalidTools(t *testing.T) {
	tests := []struct {
		name, params string
		wrapped      bool // the compiler's error is the cause
		mention      string
	}{
		{"not JSON", `{"type":`, false, "not a JSON object"},
		{"not an object", `["string"]`, false, "not a JSON object"},
		{"unknown type", `{"type":"object","properties":{"a":{"type":"strnig"}}}`, true, `unknown type "strnig"`},
		{"bad pattern", `{"type":"object","properties":{"a":{"type":"string","pattern":"(("}}}`, true, "regex"},
		{"bad keyword value", `{"type":"object","properties":{"a":{"minimum":"ten"}}}`, true, ""},
		{"properties not an object", `{"type":"object","properties":[1]}`, true, ""},
		{"unresolved $ref", `{"type":"object","properties":{"a":{"$ref":"#/$defs/Nope"}}}`, true, "unresolved $ref"},
		{"remote $ref is not fetched", `{"type":"object","properties":{"a":{"$ref":"https://example.invalid/s.json"}}}`, true, "unresolved $ref"},
		{"root is not an object", `{"type":"array","items":{}}`, true, "arguments are always an object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := toolcall.Tool{Name: "broken", Parameters: json.RawMessage(tt.params)}
			set, err := NewSet(toolcall.Tool{Name: "fine"}, tool)
			if set != nil || err == nil {
				t.Fatalf("NewSet accepted %s", tt.params)
			}
			var e *toolcall.Error
			if !errors.As(err, &e) || e.Code != toolcall.CodeInvalidTool || !errors.Is(err, toolcall.ErrInvalidTool) {
				t.Fatalf("error = %v, want %s", err, toolcall.CodeInvalidTool)
			}
			if e.Tool != "broken" || !strings.Contains(e.Message, `"broken"`) || !strings.Contains(e.Message, tt.mention) {
				t.Errorf("error %q does not name the tool and %q", e.Message, tt.mention)
			}
			if tt.wrapped && errors.Unwrap(err) == nil {
				t.Error("the compiler's error is not wrapped")
			}
			var s Set
			if s.Add(tool) == nil || s.Len() != 0 {
				t.Error("Add kept an invalid tool")
			}
		})
	}
	if _, err := NewTool(toolcall.Tool{Name: " "}); err == nil {
		t.Error("a tool without a name was accepted")
	}
	bare := &Tool{Tool: toolcall.Tool{Name: "raw", Parameters: json.RawMessage(`{"type":"object"}`)}}
	if _, _, e := bare.validate(json.RawMessage(`{}`), Options{}); e == nil || e.Code != toolcall.CodeInvalidTool {
		t.Errorf("an uncompiled tool validated: %v", e)
	}
}

func TestSchemaDialects(t *testing.T) {
	draft7 := `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object",
		"properties":{"n":{"type":"integer","exclusiveMaximum":10}},"definitions":{"X":{"type":"string"}}}`
	tool := mustTool(t, "d7", draft7)
	if _, _, err := tool.validate(json.RawMessage(`{"n":3}`), Options{}); err != nil {
		t.Errorf("draft-07 valid: %v", err)
	}
	if _, _, err := tool.validate(json.RawMessage(`{"n":10}`), Options{}); err == nil || err.Violations[0].Keyword != "exclusiveMaximum" {
		t.Errorf("draft-07 invalid: %v", err)
	}
}

func TestPropertyNamesAndTypes(t *testing.T) {
	tool := mustTool(t, "t", typingSchema)
	want := []string{"order_id", "count", "ratio", "replace_all", "note", "limit", "config", "items", "unit", "size", "mixed"}
	if got := tool.PropertyNames(); !slices.Equal(got, want) {
		t.Errorf("PropertyNames() = %q, want %q", got, want)
	}
	for key, want := range map[string][]string{
		"count": {"integer"}, "note": {"string", "null"}, "unit": {"string"},
		"size": {"integer"}, "mixed": {"integer", "boolean"}, "missing": nil,
	} {
		if got := tool.PropertyTypes(key); !slices.Equal(got, want) {
			t.Errorf("PropertyTypes(%q) = %q, want %q", key, got, want)
		}
	}
	var none *Tool
	if none.PropertyNames() != nil || none.PropertyTypes("x") != nil {
		t.Error("a nil tool has properties")
	}
}

// One Set shared by many goroutines: validation, coercion, lookups and
// additions all at once (run with -race).
func TestConcurrentUse(t *testing.T) {
	set, err := NewSet(
		toolcall.Tool{Name: "weather", Parameters: json.RawMessage(weatherSchema)},
		toolcall.Tool{Name: "coerce", Parameters: json.RawMessage(coerceSchema)},
	)
	if err != nil {
		t.Fatal(err)
	}
	const workers, rounds = 32, 50
	var wg sync.WaitGroup
	failures := make(chan string, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds {
				if _, _, e := set.validate("weather", json.RawMessage(`{"city":"Paris","days":3}`), Options{}); e != nil {
					failures <- "valid call failed: " + e.Error()
					return
				}
				_, _, e := set.validate("weather", json.RawMessage(`{"days":30}`), Options{})
				if e == nil || len(e.Violations) != 2 || e.Missing[0] != "city" {
					failures <- fmt.Sprintf("invalid call: %v", e)
					return
				}
				out, reps, e := set.validate("coerce", json.RawMessage(`{"ids":"5","b":"true"}`), Options{Coerce: true, AllowRisky: true})
				if e != nil || string(out) != `{"ids":[5],"b":true}` || len(reps) != 3 {
					failures <- fmt.Sprintf("coercion: %s %v %v", out, reps, e)
					return
				}
				if i%10 == 0 {
					name := fmt.Sprintf("extra_%d_%d", w, i)
					if err := set.Add(toolcall.Tool{Name: name, Parameters: json.RawMessage(weatherSchema)}); err != nil {
						failures <- err.Error()
						return
					}
					if _, ok := set.Lookup(name); !ok {
						failures <- "added tool not found"
						return
					}
					_ = set.Names()
					_, _ = set.LookupFold("WEATHER")
				}
			}
		}()
	}
	wg.Wait()
	close(failures)
	for f := range failures {
		t.Error(f)
	}
	if set.Len() != 2+workers*rounds/10 {
		t.Errorf("Len() = %d", set.Len())
	}
}

// The exported methods return a plain nil error on success, never an
// interface holding a nil *toolcall.Error, and a *toolcall.Error otherwise.
func TestExportedErrorsAreNilOrCoded(t *testing.T) {
	ping, err := toolcall.ParseTool([]byte(`{"name":"ping","parameters":{"type":"object","properties":{"n":{"type":"integer"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	set, err := NewSet(ping)
	if err != nil {
		t.Fatal(err)
	}
	var none error
	if _, err := set.Resolve("ping"); err != none {
		t.Errorf("Resolve = %#v, want a nil error", err)
	}
	if _, _, err := set.Validate("ping", json.RawMessage(`{}`), Options{}); err != none {
		t.Errorf("Set.Validate = %#v, want a nil error", err)
	}
	tool, _ := set.Lookup("ping")
	if _, _, err := tool.Validate(json.RawMessage(`{}`), Options{}); err != none {
		t.Errorf("Tool.Validate = %#v, want a nil error", err)
	}
	_, _, err = tool.Validate(json.RawMessage(`{"n":"one"}`), Options{})
	var te *toolcall.Error
	if !errors.As(err, &te) || te.Code != toolcall.CodeSchema {
		t.Errorf("Tool.Validate = %v, want a TLP-004 *toolcall.Error", err)
	}
}
