package retry_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/retry"
	"github.com/dialectkit/toolcall/schema"
)

// scriptedModel answers with its texts in order, as a model behind Ollama
// or llama.cpp would.
type scriptedModel struct{ answers []string }

func (m *scriptedModel) Chat(_ context.Context, req *client.Request) (*client.Response, error) {
	answer := m.answers[0]
	m.answers = m.answers[1:]
	return &client.Response{Content: answer, Done: true, DoneReason: "stop", PromptTokens: 50 * len(req.Messages), CompletionTokens: 20}, nil
}

// A model's first call has a string where the schema wants an integer; the
// loop sends the error back as that call's tool result, with a correct
// example in the model's own format, and the second answer is valid.
func Example() {
	tools, _ := schema.NewSet(toolcall.Tool{
		Name:       "get_weather",
		Parameters: json.RawMessage(`{"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}, "required": ["city"]}`),
	})
	model := &scriptedModel{answers: []string{
		`<tool_call>{"name": "get_weather", "arguments": {"city": "Paris", "days": "two"}}</tool_call>`,
		`<tool_call>{"name": "get_weather", "arguments": {"city": "Paris", "days": 2}}</tool_call>`,
	}}
	cfg := config.Default()
	cfg.RetryDelay = 0
	loop := &retry.Loop{Model: model, Tools: tools, Config: &cfg}

	out, err := loop.Run(context.Background(), &client.Request{
		Model:    "qwen2.5:7b",
		Messages: []client.Message{{Role: "user", Content: "Weather in Paris for two days?"}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range out.Result.Calls {
		fmt.Println(c.Name, string(c.Arguments))
	}
	fmt.Println("attempts:", len(out.Attempts), "tokens:", out.TotalTokens())
	fmt.Println("sent back:")
	fmt.Println(out.Attempts[0].Reflections[0].Text)
	// Output:
	// get_weather {"city":"Paris","days":2}
	// attempts: 2 tokens: 240
	// sent back:
	// Your call to "get_weather" failed with TLP-004: /days: expected integer, got string
	// Field: /days
	// Expected: integer, got: string
	// What you wrote: {"city":"Paris","days":"two"}
	// A correct call in your format (hermes):
	// <tool_call>
	// {"name": "get_weather", "arguments": {"city": "...", "days": 1}}
	// </tool_call>
	// Fix this call and make it again. Calls without an error were accepted: do not repeat them.
}

func ExampleFormatCall() {
	args := json.RawMessage(`{"city":"Paris","days":2}`)
	for _, d := range []string{"hermes", "pythonic", "qwen3_coder", retry.NativeDialect} {
		fmt.Println(retry.FormatCall(nil, d, "get_weather", args))
	}
	// Output:
	// <tool_call>
	// {"name": "get_weather", "arguments": {"city": "Paris", "days": 2}}
	// </tool_call>
	// [get_weather(city='Paris', days=2)]
	// <tool_call>
	// <function=get_weather>
	// <parameter=city>
	// Paris
	// </parameter>
	// <parameter=days>
	// 2
	// </parameter>
	// </function>
	// </tool_call>
	// {"name": "get_weather", "arguments": {"city": "Paris", "days": 2}}
}

func ExampleExampleArguments() {
	tool, _ := schema.NewTool(toolcall.Tool{Name: "book", Parameters: json.RawMessage(`{
		"type": "object",
		"properties": {
			"room":   {"type": "string", "enum": ["small", "large"]},
			"date":   {"type": "string", "format": "date"},
			"guests": {"type": "integer", "minimum": 2},
			"note":   {"type": "string"}
		},
		"required": ["room", "date", "guests"]}`)})
	fmt.Println(string(retry.ExampleArguments(tool)))
	// Output: {"room":"small","date":"2025-01-31","guests":2}
}

func TestExampleArguments(t *testing.T) {
	tests := []struct {
		name, schema string
		include      []string
		want         string
		invalid      bool // the placeholder cannot satisfy the schema
	}{
		{"declaration order", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"},"c":{"type":"boolean"}},"required":["c","b"]}`, nil, `{"b":1,"c":true}`, false},
		{"include an optional key", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"required":["b"]}`, []string{"a", "zz"}, `{"a":"...","b":1}`, false},
		{"const default examples", `{"type":"object","properties":{"a":{"const":"x"},"b":{"type":"integer","default":7},"c":{"type":"string","examples":["Oslo"]}},"required":["a","b","c"]}`, nil, `{"a":"x","b":7,"c":"Oslo"}`, false},
		{"bounds", `{"type":"object","properties":{"a":{"type":"integer","minimum":5},"b":{"type":"integer","exclusiveMinimum":5},"c":{"type":"number","maximum":0.5},"d":{"type":"integer","exclusiveMaximum":0}},"required":["a","b","c","d"]}`, nil, `{"a":5,"b":6,"c":0.5,"d":-1}`, false},
		{"formats", `{"type":"object","properties":{"a":{"type":"string","format":"date-time"},"b":{"type":"string","format":"email"},"c":{"type":"string","minLength":5}},"required":["a","b","c"]}`, nil, `{"a":"2025-01-31T12:00:00Z","b":"user@example.com","c":"....."}`, false},
		{"nested", `{"type":"object","properties":{"loc":{"type":"object","properties":{"lat":{"type":"number"},"lon":{"type":"number"}},"required":["lat","lon"]},"tags":{"type":"array","items":{"type":"string"}}},"required":["loc","tags"]}`, nil, `{"loc":{"lat":1,"lon":1},"tags":["..."]}`, false},
		{"refs", `{"type":"object","$defs":{"unit":{"type":"string","enum":["C","F"]}},"properties":{"u":{"$ref":"#/$defs/unit"}},"required":["u"]}`, nil, `{"u":"C"}`, false},
		{"recursive ref ends", `{"type":"object","properties":{"node":{"$ref":"#"}},"required":["node"]}`, nil, `{"node":{"node":{"node":{"node":"..."}}}}`, true},
		{"nullable", `{"type":"object","properties":{"a":{"type":["null","string"]},"b":{"anyOf":[{"type":"null"},{"type":"integer"}]}},"required":["a","b"]}`, nil, `{"a":"...","b":1}`, false},
		{"required without properties", `{"type":"object","required":["x"]}`, nil, `{"x":"..."}`, false},
		{"no schema", ``, nil, `{}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool, err := schema.NewTool(toolcall.Tool{Name: "t", Parameters: json.RawMessage(tt.schema)})
			if err != nil {
				t.Fatal(err)
			}
			got := string(retry.ExampleArguments(tool, tt.include...))
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			if _, _, verr := tool.Validate(json.RawMessage(got), schema.Options{}); (verr != nil) != tt.invalid {
				t.Errorf("validation of the example: %v", verr)
			}
		})
	}
	if got := string(retry.ExampleArguments(nil)); got != "{}" {
		t.Errorf("nil tool: %s", got)
	}
}

// FormatCall writes a call in every registered dialect, and each one
// parses back to the same call through its dialect.
func TestFormatCallRoundTrip(t *testing.T) {
	set, err := schema.NewSet(toolcall.Tool{Name: "get_weather", Parameters: json.RawMessage(`{"type":"object","properties":{
		"city":{"type":"string"},"days":{"type":"integer"},"metric":{"type":"boolean"},
		"tags":{"type":"array","items":{"type":"string"}},"where":{"type":"object"},"note":{"type":"string"}}}`)})
	if err != nil {
		t.Fatal(err)
	}
	args := json.RawMessage(`{"city":"It's \"São\" Paulo","days":2,"metric":false,"tags":["a","b"],"where":{"lat":1.5,"ok":null},"note":"a\\b\tc\nd"}`)
	var want any
	_ = json.Unmarshal(args, &want)
	for _, name := range registry.Names() {
		out := retry.FormatCall(nil, name, "get_weather", args)
		opts := &registry.Options{Dialect: name}
		opts.Tools = set
		res := registry.Parse(out, opts)
		if len(res.Errors) > 0 || len(res.Calls) != 1 {
			t.Errorf("%s: %v\n%s", name, res.Errors, out)
			continue
		}
		var got any
		_ = json.Unmarshal(res.Calls[0].Arguments, &got)
		if res.Calls[0].Name != "get_weather" || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: parsed %s %s\n%s", name, res.Calls[0].Name, res.Calls[0].Arguments, out)
		}
		if strings.TrimSpace(res.Content) != "" {
			t.Errorf("%s: content %q left over", name, res.Content)
		}
	}
}

// The sample of the model's output picks the variant it used.
func TestFormatCallVariant(t *testing.T) {
	args := json.RawMessage(`{"city":"Oslo"}`)
	if got := retry.FormatCall(nil, "mistral", "f", args); got != `[TOOL_CALLS]f[ARGS]{"city": "Oslo"}` {
		t.Errorf("mistral: %q", got)
	}
}

// A dialect's own CallFormatter comes first.
type customDialect struct{}

func (customDialect) Name() string { return "custom" }
func (customDialect) Extract(string, *dialects.Options) *dialects.Extraction {
	return &dialects.Extraction{}
}
func (customDialect) FormatCall(name string, args json.RawMessage) string {
	return "CALL " + name + " " + string(args)
}

func TestCallFormatterInterface(t *testing.T) {
	reg := registry.New(customDialect{})
	if got := retry.FormatCall(reg, "custom", "f", json.RawMessage(`{"a":1}`)); got != `CALL f {"a":1}` {
		t.Errorf("got %q", got)
	}
	if got := retry.FormatCall(reg, "unknown", "f", nil); got != `{"name": "f", "arguments": {}}` {
		t.Errorf("fallback %q", got)
	}
}
