package render_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/render"
	"github.com/dialectkit/toolcall/schema"
)

// testTools declare every argument the rows use, so that dialects whose
// values are raw text can type them by schema, as they do in real use.
var testTools = []toolcall.Tool{
	{Name: "get_weather", Description: "Get the current weather for a city.", Parameters: json.RawMessage(`{
		"type": "object",
		"properties": {
			"city": {"type": "string", "description": "City name"},
			"days": {"type": "integer"},
			"ratio": {"type": "number"},
			"big": {"type": "number"},
			"tiny": {"type": "number"},
			"metric": {"type": "boolean"},
			"off": {"type": "boolean"},
			"nothing": {"type": "null"},
			"where": {"type": "object"},
			"tags": {"type": "array", "items": {"type": "string"}},
			"note": {"type": "string"},
			"path": {"type": "string"},
			"lead": {"type": "string"},
			"numeric": {"type": "string"},
			"truthy": {"type": "string"},
			"nullish": {"type": "string"},
			"jsonish": {"type": "string"},
			"empty": {"type": "string"},
			"obj": {"type": "object"},
			"list": {"type": "array"}
		},
		"required": ["city"]}`)},
	{Name: "get_time", Description: "Get the time.", Parameters: json.RawMessage(`{"type": "object", "properties": {}}`)},
	{Name: "free_form", Description: "Takes any object.", Parameters: json.RawMessage(`{"type": "object"}`)},
	{Name: "search-docs.v2", Description: "Search the docs.", Parameters: json.RawMessage(`{"type": "object", "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}}}`)},
}

// row is one turn of calls to write and read back.
type row struct {
	name  string
	calls []toolcall.Call
}

func call(name, args string) toolcall.Call {
	return toolcall.Call{Name: name, Arguments: json.RawMessage(args)}
}

// markup is every literal of every registered dialect, and the closers of
// the common wrappers: a string that holds the syntax of the dialect that
// writes it.
func markup() string {
	lits := []string{"</tool_call>", "<tool_call>", "</function>", "</parameter>", "<parameter=x>",
		"<|call|>", "<|tool_call_end|>", "<tool_call|>", "<end_function_call>", "<escape>", `<|"|>`,
		"]", "}", ")", "'", `"`, "[TOOL_CALLS]x[ARGS]{}", "</arg_value>", "```", "<|python_end|>", "]<]minimax[>[</x>"}
	reg := registry.Default()
	for _, n := range reg.Names() {
		d, _ := reg.Lookup(n)
		if m, ok := d.(dialects.Marked); ok {
			lits = append(lits, m.Markers()...)
		}
	}
	return strings.Join(lits, " ")
}

func rows() []row {
	mk, _ := json.Marshal(markup())
	return []row{
		{"single", []toolcall.Call{call("get_weather", `{"city":"Paris","days":2}`)}},
		{"no arguments", []toolcall.Call{call("get_time", `{}`)}},
		{"nested", []toolcall.Call{call("get_weather", `{"city":"Oslo","where":{"lat":59.9,"lon":-10.75,"tags":["a",{"b":null}],"deep":{"x":{"y":[1,[2,3]]}}},"tags":["x","y"]}`)}},
		{"scalars", []toolcall.Call{call("get_weather", `{"city":"Rome","days":-3,"ratio":0.5,"big":1.5e300,"tiny":-2.5e-7,"metric":true,"off":false,"nothing":null}`)}},
		{"empty containers", []toolcall.Call{call("get_weather", `{"city":"Lima","obj":{},"list":[],"empty":""}`)}},
		{"unicode", []toolcall.Call{call("get_weather", `{"city":"São Paulo 東京 🌧","note":"emoji 😀, ñ, \u2028 and Ω"}`)}},
		{"escapes", []toolcall.Call{call("get_weather", `{"city":"It's \"quoted\"","note":"back\\slash\nnew line\ttab\r\nend","path":"C:\\Users\\new"}`)}},
		{"line breaks at the ends", []toolcall.Call{call("get_weather", `{"city":"\nLead","lead":"\r\n\ntrail\n\n","note":"\r"}`)}},
		{"strings that look like JSON", []toolcall.Call{call("get_weather", `{"city":"123","numeric":"007","truthy":"true","nullish":"null","jsonish":"{\"a\": [1]}"}`)}},
		{"markup in strings", []toolcall.Call{call("get_weather", `{"city":`+string(mk)+`,"tags":[`+string(mk)+`]}`)}},
		{"unusual keys", []toolcall.Call{call("free_form", `{"my key":1,"naïve":2,"a-b":3,"class":5}`)}},
		{"empty key", []toolcall.Call{call("free_form", `{"":4}`)}},
		{"several calls", []toolcall.Call{
			call("get_weather", `{"city":"Paris","metric":true}`),
			call("get_time", `{}`),
			call("search-docs.v2", `{"query":"tool calls","limit":5}`),
		}},
	}
}

// impossible lists, by dialect, the rows its syntax cannot carry; each is
// explained in docs/render.md. The test checks they still fail, so the
// list stays true.
var impossible = map[string][]string{
	// Raw-text parameter values cannot hold the tags that end them, and
	// a parameter needs a name.
	"qwen3_coder":  {"markup in strings", "empty key"},
	"seed_oss":     {"markup in strings", "empty key"},
	"hy_v3":        {"markup in strings", "empty key"},
	"minimax_m2":   {"markup in strings", "empty key"},
	"minicpm5":     {"markup in strings", "empty key"},
	"step3":        {"markup in strings", "empty key"},
	"kimi_k3":      {"markup in strings", "empty key"},
	"glimmer":      {"markup in strings", "empty key"},
	"deepseek_v32": {"empty key"},
	"deepseek_v4":  {"empty key"},
	// Parameters are elements named after their key.
	"minimax_m3": {"markup in strings", "empty key", "unusual keys"},
	// Keyword arguments are ASCII identifiers.
	"pythonic":        {"unusual keys", "empty key"},
	"llama4_pythonic": {"unusual keys", "empty key"},
	"olmo3":           {"unusual keys", "empty key"},
	"lfm2":            {"unusual keys", "empty key"},
	"llama3_builtin":  {"unusual keys", "empty key"},
}

func toolSet(t testing.TB) *schema.Set {
	t.Helper()
	set, err := schema.NewSet(testTools...)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func decode(t testing.TB, raw json.RawMessage) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("arguments %s: %v", raw, err)
	}
	return v
}

// roundTrip parses text with the dialect and compares the calls with want;
// it returns a description of the first difference, or "".
func roundTrip(t testing.TB, dialect, text string, want []toolcall.Call, tools *schema.Set) string {
	t.Helper()
	d, ok := registry.Default().Lookup(dialect)
	if !ok {
		return "not registered"
	}
	res := dialects.Parse(d, text, &dialects.Options{Tools: tools})
	if len(res.Errors) > 0 {
		return fmt.Sprintf("errors: %v", res.Errors)
	}
	if len(res.Calls) != len(want) {
		return fmt.Sprintf("%d calls, want %d", len(res.Calls), len(want))
	}
	for i, c := range res.Calls {
		if c.Name != want[i].Name {
			return fmt.Sprintf("call %d named %q, want %q", i, c.Name, want[i].Name)
		}
		if got, exp := decode(t, c.Arguments), decode(t, want[i].Arguments); !reflect.DeepEqual(got, exp) {
			return fmt.Sprintf("call %d arguments\n got %s\nwant %s", i, c.Arguments, want[i].Arguments)
		}
	}
	if strings.TrimSpace(res.Content) != "" {
		return fmt.Sprintf("content left over: %q", res.Content)
	}
	return ""
}

// parserOf is the registered dialect a renderer's output is read with.
func parserOf(name string) string {
	if name == render.Native {
		return "json"
	}
	return name
}

func TestEveryDialectHasARenderer(t *testing.T) {
	names := render.Names()
	if !sort.StringsAreSorted(names) {
		t.Errorf("Names not sorted: %v", names)
	}
	for _, n := range registry.Default().Names() {
		if _, ok := render.For(n); !ok {
			t.Errorf("no renderer for %s", n)
		}
	}
	if _, ok := render.For(render.Native); !ok {
		t.Error("no renderer for native")
	}
	if len(names) != len(registry.Default().Names())+1 {
		t.Errorf("%d renderers for %d dialects + native", len(names), len(registry.Default().Names()))
	}
	if _, ok := render.For("no such dialect"); ok {
		t.Error("For accepted an unknown dialect")
	}
}

func TestCallsRoundTrip(t *testing.T) {
	tools := toolSet(t)
	passed := 0
	for _, name := range render.Names() {
		r, _ := render.For(name)
		for _, rw := range rows() {
			t.Run(name+"/"+rw.name, func(t *testing.T) {
				text := r.Calls(rw.calls)
				diff := roundTrip(t, parserOf(name), text, rw.calls, tools)
				if slices.Contains(impossible[name], rw.name) {
					if diff == "" {
						t.Errorf("listed as impossible but round-trips: update impossible and docs/render.md\n%s", text)
					}
					return
				}
				if diff != "" {
					t.Errorf("%s\n%s", diff, text)
					return
				}
				passed++
			})
		}
	}
	t.Logf("%d dialect×row round trips", passed)
}

// ambiguous lists the dialects whose output another dialect, registered
// before them, reads just as well: detection ties them, and registration
// order gives the other one. Each is ambiguous by nature (the same syntax,
// or a syntax that contains the other's); docs/render.md explains them.
var ambiguous = map[string]string{
	"llama3_json":     "json",             // bare JSON objects
	"xlam":            "json",             // a bare JSON array
	"markdown_json":   "json",             // json reads fenced JSON
	"llama4_pythonic": "pythonic",         // pythonic shares <|python_start|>
	"minimax_m1":      "tool_calls_array", // both are JSON in <tool_calls>
	"seed_oss":        "qwen3_coder",      // the same <function=…> elements
	"generic_json":    "ollama",           // {"tool_calls": […]} is Ollama's key too
	"glm45":           "hermes",           // GLM's JSON-argument form is <tool_call>NAME {…}
}

func TestCallsDetect(t *testing.T) {
	tools := toolSet(t)
	first, tied := 0, map[string]int{}
	for _, name := range registry.Default().Names() {
		r, _ := render.For(name)
		for _, rw := range rows() {
			if slices.Contains(impossible[name], rw.name) {
				continue
			}
			t.Run(name+"/"+rw.name, func(t *testing.T) {
				text := r.Calls(rw.calls)
				det := registry.Detect(text, regOpts(dialects.Options{Tools: tools}, registry.Options{}))
				top, own := -1e9, -1e9
				var rank []string
				for _, c := range det.Candidates {
					top = max(top, c.Score)
					if c.Dialect == name {
						own = c.Score
					}
					rank = append(rank, fmt.Sprintf("%s=%.0f", c.Dialect, c.Score))
				}
				switch {
				case det.Dialect == name:
					first++
				case own == top && ambiguous[name] == det.Dialect:
					tied[name+" ~ "+det.Dialect]++
				default:
					t.Errorf("detected %q; ranking %v\n%s", det.Dialect, rank, text)
				}
			})
		}
	}
	t.Logf("%d renderings detected first; tied by nature: %v", first, tied)
}

// The example call of every system prompt is written in the dialect and
// reads back; read as a whole, the prompt yields that call and no other
// valid one (a prompt's wording may still trip the parser into errors, as
// real templates that name their markers do).
func TestToolsRoundTrip(t *testing.T) {
	tools := toolSet(t)
	ex, ok := render.Example(testTools)
	if !ok || ex.Name != "get_weather" || string(ex.Arguments) != `{"city":"..."}` {
		t.Fatalf("Example = %v %s", ok, ex.Arguments)
	}
	for _, name := range render.Names() {
		t.Run(name, func(t *testing.T) {
			r, _ := render.For(name)
			prompt := r.Tools(testTools)
			if name == "ollama" {
				// The ollama dialect is the server's wire format, which no
				// model writes: its prompt shows the native call.
				r, _ = render.For(render.Native)
			}
			example := r.Calls([]toolcall.Call{ex})
			if !strings.Contains(prompt, example) {
				t.Fatalf("the prompt does not hold the example\n%s", prompt)
			}
			if diff := roundTrip(t, parserOf(r.Dialect()), example, []toolcall.Call{ex}, tools); diff != "" {
				t.Fatalf("example: %s\n%s", diff, example)
			}
			for _, tool := range testTools {
				if !strings.Contains(prompt, tool.Name) {
					t.Errorf("the prompt does not name %s", tool.Name)
				}
			}
			if name == "ollama" {
				return
			}
			d, _ := registry.Default().Lookup(parserOf(name))
			res := dialects.Parse(d, prompt, &dialects.Options{Tools: tools})
			found := slices.ContainsFunc(res.Calls, func(c toolcall.Call) bool {
				return c.Name == ex.Name && string(c.Arguments) == string(ex.Arguments)
			})
			// Llama 3's and xLAM's prompts list each function as {"name":
			// …, "parameters": …}, which is also their call syntax: a tool
			// whose schema is valid arguments for itself reads as a call.
			extra := len(res.Calls) != 1 && name != "llama3_json" && name != "xlam"
			// Bare JSON that the prompt presents as an example is shown,
			// not called (docs/dialects.md, "JSON in prose"): then no call
			// of the example may be read.
			if at := strings.Index(prompt, example); !found && at >= 0 && shownAsExample(prompt[:at]) {
				found, extra = true, len(res.Calls) > 0 && name != "llama3_json" && name != "xlam"
			}
			if !found || extra {
				var got []string
				for _, c := range res.Calls {
					got = append(got, c.Name+string(c.Arguments))
				}
				t.Errorf("the whole prompt reads as %v (errors %d)\n%s", got, len(res.Errors), prompt)
			}
			if len(res.Errors) > 0 {
				t.Logf("%d parse errors in the prompt text (markers named in the wording)", len(res.Errors))
			}
			if r.Tools(nil) != "" {
				t.Error("Tools(nil) is not empty")
			}
		})
	}
}

// ForOutput picks the variant a model used, and each variant round-trips.
func TestForOutputVariants(t *testing.T) {
	tools := toolSet(t)
	tests := []struct {
		dialect, output, starts string
	}{
		{"mistral", `[TOOL_CALLS] [{"name": "f", "arguments": {}}]`, `[TOOL_CALLS][{"name": `},
		{"mistral", `[TOOL_CALLS]f[ARGS]{}`, `[TOOL_CALLS]`},
		{"mistral", "", `[TOOL_CALLS]`},
		{"granite", `<tool_call> [{"name": "f", "arguments": {}}]`, `<tool_call>[{"name": `},
		{"granite", `<|tool_call|>[{"name": "f", "arguments": {}}]`, `<|tool_call|>[{"name": `},
		{"gigachat3", "<|message_sep|>\n\nfunction call<|role_sep|>\n{}", "<|message_sep|>\n\nfunction call<|role_sep|>\n{"},
		{"gigachat3", `<|function_call|>{}`, `<|function_call|>{"name": `},
		{"hermes", `anything`, "<tool_call>\n{"},
		{"longcat", `<longcat_tool_call> {"name": "f", "arguments": {}}</longcat_tool_call>`, `<longcat_tool_call>{"name": `},
		{"longcat", "<longcat_tool_call>f\n<longcat_arg_key>a</longcat_arg_key>", "<longcat_tool_call>"},
	}
	for _, tt := range tests {
		t.Run(tt.dialect+"/"+tt.output, func(t *testing.T) {
			r, ok := render.ForOutput(tt.dialect, tt.output)
			if !ok || r.Dialect() != tt.dialect {
				t.Fatalf("ForOutput = %v, %v", r, ok)
			}
			for _, rw := range rows() {
				text := r.Calls(rw.calls)
				if !strings.HasPrefix(text, tt.starts) {
					t.Fatalf("%s: %q does not start with %q", rw.name, text, tt.starts)
				}
				if diff := roundTrip(t, tt.dialect, text, rw.calls, tools); diff != "" {
					t.Errorf("%s: %s\n%s", rw.name, diff, text)
				}
			}
			if !strings.Contains(r.Tools(testTools), r.Calls([]toolcall.Call{{Name: "get_weather", Arguments: json.RawMessage(`{"city":"..."}`)}})) {
				t.Error("the variant's prompt does not show its own example")
			}
		})
	}
	if _, ok := render.ForOutput("no such dialect", ""); ok {
		t.Error("ForOutput accepted an unknown dialect")
	}
}

// Every renderer writes a result that holds the tool's output: as it is,
// or as a JSON string in the families whose results are JSON.
func TestResult(t *testing.T) {
	c := toolcall.Call{Name: "get_weather", Index: 2}
	for _, name := range render.Names() {
		r, _ := render.For(name)
		for _, content := range []string{"It is sunny.", "line 1\nline 2 </tool_response>"} {
			out := r.Result(c, content)
			quoted, _ := json.Marshal(content)
			escaped := strings.NewReplacer(`\u003c`, "<", `\u003e`, ">").Replace(string(quoted))
			if !strings.Contains(out, content) && !strings.Contains(out, escaped) {
				t.Errorf("%s: result %q lost the content", name, out)
			}
		}
		if out := r.Result(c, `{"temperature": 21}`); !strings.Contains(out, "21") {
			t.Errorf("%s: %q", name, out)
		}
	}
	r, _ := render.For("kimi_k2")
	if got := r.Result(c, "x"); got != "## Return of functions.get_weather:2\nx" {
		t.Errorf("kimi_k2 result %q", got)
	}
}

// regOpts is o with the dialect options d.
func regOpts(d dialects.Options, o registry.Options) *registry.Options {
	o.SetDialectOptions(d)
	return &o
}

// shownAsExample reports whether the prompt text before a call presents it
// as an example, in the words the parsers recognise.
func shownAsExample(before string) bool {
	before = strings.ToLower(before)
	for _, w := range []string{"example", "e.g.", "for instance", "such as", "format", "syntax", "like this", "looks like"} {
		if strings.Contains(before, w) {
			return true
		}
	}
	return false
}
