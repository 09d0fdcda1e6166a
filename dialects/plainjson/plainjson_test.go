package plainjson_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/plainjson"
	"github.com/dialectkit/toolcall/internal/corpustest"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/schema"
)

type wantCall struct{ name, args string }

func weatherTools(t testing.TB) *schema.Set {
	t.Helper()
	s, err := schema.NewSet(toolcall.Tool{Name: "get_weather", Parameters: json.RawMessage(
		`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"]}`)})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestDialect(t *testing.T) {
	tests := []struct {
		name      string
		text      string
		tools     bool
		chunks    []string
		calls     []wantCall
		content   string
		reasoning string
		codes     []toolcall.Code
		repairs   []toolcall.RepairKind
	}{
		{name: "single", text: `{"name": "get_weather", "arguments": {"city": "Paris"}}`,
			calls: []wantCall{{"get_weather", `{"city":"Paris"}`}}},
		// Inline code and quotations are shown.ShownScan's, as in
		// every family: a run of two backticks is closed only by a run of
		// two; a quote that a word and a blank precede opens a quotation.
		{name: "a value after a run of two backticks closed by none is in inline code", text: "Try ``a` {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}", content: "Try ``a` {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}",
			chunks: []string{"Try ``", "a` {\"name\"", ": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}"}},
		{name: "a value after a quote that a word and a blank precede is quoted", text: "He said \"it {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}", content: "He said \"it {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}"},
		{name: "a value after a quotation closed on its line is not quoted", text: "He said \"hi\" and then {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}", calls: []wantCall{{"get_weather", `{"city":"Paris"}`}}, content: "He said \"hi\" and then"},
		{name: "a call in a tilde fence", text: "Sure.\n~~~json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n~~~\nDone.", calls: []wantCall{{"get_weather", `{"city":"Paris"}`}}, content: "Sure.\nDone.",
			chunks: []string{"Sure.\n~", "~~js", "on\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n~~", "~\nDone."}},
		{name: "an output that opens with a json fence opens with a call", text: "~~~json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n~~~\nok</think>done", calls: []wantCall{{"get_weather", `{"city":"Paris"}`}}, content: "ok</think>done"},
		{name: "an output that opens with a python fence does not", text: "```python\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```\nok</think>done", reasoning: "```python\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```\nok", content: "done"},
		{name: "parameters alias", text: `{"name": "get_weather", "parameters": {"city": "Oslo", "days": 2}}`,
			calls: []wantCall{{"get_weather", `{"city":"Oslo","days":2}`}}},
		{name: "args alias and tool alias", text: `{"tool": "echo", "args": {"text": "hi"}}`,
			calls: []wantCall{{"echo", `{"text":"hi"}`}}},
		{name: "parallel array", text: `[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"x": 1}}]`,
			chunks: []string{`[{"name": "a", "argu`, `ments": {}}, {"name": "b", "arguments": {"x": 1}}]`},
			calls:  []wantCall{{"a", `{}`}, {"b", `{"x":1}`}}},
		{name: "consecutive objects", text: "{\"name\": \"a\", \"arguments\": {}}\n{\"name\": \"b\", \"arguments\": {}};{\"name\": \"c\", \"arguments\": {}}",
			calls: []wantCall{{"a", `{}`}, {"b", `{}`}, {"c", `{}`}}},
		{name: "a closing bracket too many after the calls", tools: true, text: `[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]]`,
			chunks: []string{`[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]`, `]`},
			calls:  []wantCall{{"get_weather", `{"city":"Tokyo"}`}}, repairs: []toolcall.RepairKind{toolcall.RepairExtraClosing}},
		{name: "a closing bracket too many after calls on their own line", tools: true, text: "Calling:\n[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tokyo\"}}]]\nDone.",
			calls: []wantCall{{"get_weather", `{"city":"Tokyo"}`}}, content: "Calling:\n\nDone.", repairs: []toolcall.RepairKind{toolcall.RepairExtraClosing}},
		{name: "a brace too many after a call", text: "{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tokyo\"}}}\n",
			calls: []wantCall{{"get_weather", `{"city":"Tokyo"}`}}, repairs: []toolcall.RepairKind{toolcall.RepairExtraClosing}},
		{name: "openai shape", text: `{"type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Rome\"}"}, "id": "call_1"}`,
			calls: []wantCall{{"get_weather", `{"city":"Rome"}`}}, repairs: []toolcall.RepairKind{toolcall.RepairDoubleEncoded}},
		{name: "name only", text: `{"name": "ping"}`, calls: []wantCall{{"ping", `{}`}},
			repairs: []toolcall.RepairKind{toolcall.RepairEmptyArguments}},
		{name: "a fenced call in prose takes its fence", tools: true, text: "Sure!\n```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```\nDone.",
			chunks:  []string{"Sure!\n``", "`json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n``", "`\nDone."},
			calls:   []wantCall{{"get_weather", `{"city":"Paris"}`}},
			content: "Sure!\nDone."},
		{name: "a fence holding more than the call stays", tools: true, text: "See:\n```\nnote:\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```",
			calls:   []wantCall{{"get_weather", `{"city":"Paris"}`}},
			content: "See:\n```\nnote:\n\n```"},
		// A call of a fence goes out as its line ends: what follows it in
		// the fence does not unmake it, and the fence goes with its calls.
		{name: "two values in a fence are two calls, the fence going with them", text: "Sure.\n```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Rome\"}}\n```\nDone.",
			calls: []wantCall{{"get_weather", `{"city":"Paris"}`}, {"get_weather", `{"city":"Rome"}`}}, content: "Sure.\nDone."},
		{name: "a fenced list is its calls", text: "```json\n[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}},\n {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Rome\"}}]\n```",
			calls: []wantCall{{"get_weather", `{"city":"Paris"}`}, {"get_weather", `{"city":"Rome"}`}}},
		{name: "text after a call in its fence is content", text: "```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\nNote this.\n```",
			calls: []wantCall{{"get_weather", `{"city":"Paris"}`}}, content: "Note this."},
		{name: "a value that is no call after a call in its fence is content", text: "```json\n[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}, {\"name\": \"Ada\", \"born\": 1815}]\n```",
			calls: []wantCall{{"get_weather", `{"city":"Paris"}`}}, content: `{"name": "Ada", "born": 1815}`},
		{name: "no call", text: "The capital of France is Paris.", content: "The capital of France is Paris."},
		{name: "json that is not a call", text: `{"name": "Ada", "age": 36}`, content: `{"name": "Ada", "age": 36}`},
		{name: "surrounding text after a colon", text: `I'll look: {"name": "get_weather", "arguments": {"city": "Lima"}} Done.`,
			chunks:  []string{"I'll look: {", `"name": "get_weather", "arguments": {"city": "Lima"}} Done.`},
			calls:   []wantCall{{"get_weather", `{"city":"Lima"}`}},
			content: "I'll look:  Done."},
		{name: "inside a line of prose", text: `I'll look. {"name": "get_weather", "arguments": {"city": "Lima"}} Done.`,
			chunks:  []string{"I'll look. {", `"name": "get_weather", "arguments": {"city": "Lima"}} Done.`},
			content: `I'll look. {"name": "get_weather", "arguments": {"city": "Lima"}} Done.`},
		// A list after text, cut inside the string of its next element:
		// the stream reads that string as a string (Syntax.Quotes), so the
		// text after the list decides, as in the one-shot parse.
		{name: "a list after text and before text on its line, cut in a string", text: `[x] [{"name": "a", "arguments": {}}, {"name": "b", "arguments": {}}][/x]`,
			chunks:  []string{`[x] [{"name": "a", "arguments": {}}, {"`, `name": "b", "arguments": {}}][/x]`},
			content: `[x] [{"name": "a", "arguments": {}}, {"name": "b", "arguments": {}}][/x]`},
		{name: "example in prose without arguments is not a call", text: `Use {"name": "value"} to name things.`,
			content: `Use {"name": "value"} to name things.`},
		{name: "prose object naming an undeclared tool", tools: true,
			text:    `For example {"name": "delete_all", "arguments": {}} would be bad.`,
			content: `For example {"name": "delete_all", "arguments": {}} would be bad.`},
		{name: "an object with prose on its line is mentioned, not called", tools: true,
			text:    `I think {"name": "get_weather", "arguments": {"city": "Oslo"}} would work, but I will not call it`,
			content: `I think {"name": "get_weather", "arguments": {"city": "Oslo"}} would work, but I will not call it`},
		{name: "an object on its own line after prose naming a declared tool", tools: true,
			text:  "Calling:\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}",
			calls: []wantCall{{"get_weather", `{"city":"Oslo"}`}}, content: "Calling:"},
		{name: "an object prose presents as an example is shown, not called", tools: true,
			text:    "For example:\n```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}\n```\nThat is the format.",
			content: "For example:\n```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}\n```\nThat is the format."},
		{name: "whole output naming an undeclared tool is an error", tools: true,
			text: `{"name": "get_wether", "arguments": {"city": "Oslo"}}`, codes: []toolcall.Code{toolcall.CodeUnknownTool}},
		{name: "malformed repaired", text: `{"name": "get_weather", "arguments": {"city": "Paris",}}`,
			calls: []wantCall{{"get_weather", `{"city":"Paris"}`}}, repairs: []toolcall.RepairKind{toolcall.RepairTrailingComma}},
		{name: "truncated at the end", text: `{"name": "get_weather", "arguments": {"city": "Par`,
			codes: []toolcall.Code{toolcall.CodeTruncated}},
		{name: "envelope cut after complete arguments", text: `{"name": "get_weather", "arguments": {"city": "Paris"}`,
			codes: []toolcall.Code{toolcall.CodeTruncated}},
		{name: "array cut after a complete call", text: `[{"name": "get_weather", "arguments": {"city": "Paris"}}`,
			calls: []wantCall{{"get_weather", `{"city":"Paris"}`}}},
		{name: "array cut inside its second call", text: `[{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "get_weather", "arguments": {"city": "Os`,
			calls: []wantCall{{"get_weather", `{"city":"Paris"}`}}, codes: []toolcall.Code{toolcall.CodeTruncated}},
		{name: "arguments not an object", text: `[{"name": "a", "arguments": [1, 2]}, {"name": "b", "arguments": {}}]`,
			calls: []wantCall{{"b", `{}`}}, codes: []toolcall.Code{toolcall.CodeNotObject}},
		{name: "escaped strings", text: `{"name": "write", "arguments": {"text": "say \"hi\"\n\\path \u00e9"}}`,
			calls: []wantCall{{"write", `{"text":"say \"hi\"\n\\path \u00e9"}`}}},
		// A value inside a line of prose is shown, not made (the table of
		// what is a call); one alone, after a colon, ending its line or in
		// a run of calls stays a call.
		{name: "object inside a sentence", text: `You can call {"name": "get_weather", "arguments": {"city": "Paris"}} to see the weather.`,
			content: `You can call {"name": "get_weather", "arguments": {"city": "Paris"}} to see the weather.`},
		{name: "object in an aside", text: `I would run it (see {"name": "get_weather", "arguments": {"city": "Paris"}}) later.`,
			chunks:  []string{`I would run it (see {"name": "get_weather", "arg`, `uments": {"city": "Paris"}}`, `) later.`},
			content: `I would run it (see {"name": "get_weather", "arguments": {"city": "Paris"}}) later.`},
		{name: "object in an aside closing the sentence", text: `I checked it (see {"name": "get_weather", "arguments": {"city": "Paris"}}).`,
			content: `I checked it (see {"name": "get_weather", "arguments": {"city": "Paris"}}).`},
		{name: "list inside a sentence", text: `You can call [{"name": "get_weather", "arguments": {"city": "Paris"}}], then read it.`,
			content: `You can call [{"name": "get_weather", "arguments": {"city": "Paris"}}], then read it.`},
		{name: "object in a quotation", text: `He typed “{"name": "get_weather", "arguments": {"city": "Paris"}}” into the box.`,
			content: `He typed “{"name": "get_weather", "arguments": {"city": "Paris"}}” into the box.`},
		// Streamed, the quotation mark is cut across deltas: it still
		// opens the quotation, and the value cut in it is text.
		{name: "object in a quotation the output cuts", text: `He typed “{"name": "get_weather", "arguments"`,
			content: `He typed “{"name": "get_weather", "arguments"`},
		{name: "object inside a sentence, tools declared", tools: true, text: `You can call {"name": "get_weather", "arguments": {"city": "Paris"}} to see the weather.`,
			content: `You can call {"name": "get_weather", "arguments": {"city": "Paris"}} to see the weather.`},
		{name: "object after a colon", text: `Sure: {"name": "get_weather", "arguments": {"city": "Paris"}} coming up.`,
			calls: []wantCall{{"get_weather", `{"city":"Paris"}`}}, content: "Sure:  coming up."},
		{name: "object followed by its sentence's end", text: `I will check the weather {"name": "get_weather", "arguments": {"city": "Paris"}}.`,
			content: `I will check the weather {"name": "get_weather", "arguments": {"city": "Paris"}}.`},
		{name: "object ending its line", text: `I will check the weather {"name": "get_weather", "arguments": {"city": "Paris"}}`,
			calls: []wantCall{{"get_weather", `{"city":"Paris"}`}}, content: "I will check the weather"},
		{name: "object before text that ends no sentence", text: `Some text and then {"name": "get_weather", "arguments": {"city": "Paris"}} more text`,
			content: `Some text and then {"name": "get_weather", "arguments": {"city": "Paris"}} more text`},
		{name: "a run of objects after a colon", text: `Results: {"name": "get_weather", "arguments": {"city": "Paris"}}; {"name": "get_weather", "arguments": {"city": "Rome"}} Want more?`,
			calls: []wantCall{{"get_weather", `{"city":"Paris"}`}, {"get_weather", `{"city":"Rome"}`}}, content: "Results: ;  Want more?"},
		{name: "reasoning", text: "<think>The user wants weather.</think>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Bern\"}}",
			chunks:    []string{"<thi", "nk>The user wants weather.</th", "ink>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Bern\"}}"},
			calls:     []wantCall{{"get_weather", `{"city":"Bern"}`}},
			reasoning: "The user wants weather."},
		{name: "a closing tag inside a JSON string of a reasoning block is text",
			text:      "<think>I could call {\"name\": \"f\", \"arguments\": {\"a\": \"</think>\"}} but no.</think>\n{\"name\": \"g\", \"arguments\": {}}",
			chunks:    []string{"<think>I could call {\"name\": \"f\", \"arguments\": {\"a\": \"</thi", "nk>\"}} but", " no.</think>\n{\"name\": \"g\", \"arguments\": {}}"},
			calls:     []wantCall{{"g", `{}`}},
			reasoning: "I could call {\"name\": \"f\", \"arguments\": {\"a\": \"</think>\"}} but no."},
		// A reasoning block in the middle of the answer: the answer text
		// read on both sides of it is one text, in which the value is
		// inside the inline code opened before the block.
		{name: "a reasoning block inside inline code before a value", text: "Run `a <think>hmm</think> {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}` later.",
			content: "Run `a {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}` later.", reasoning: "hmm"},
		{name: "a reasoning block between two runs of calls", text: "<think>a</think>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\nNow: <think>b</think>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Rome\"}}\nDone.",
			calls: []wantCall{{"get_weather", `{"city":"Paris"}`}, {"get_weather", `{"city":"Rome"}`}}, content: "Now: Done.", reasoning: "ab"},
		{name: "a closing tag inside a JSON string does not end the block the template opened",
			text:      "I could call {\"name\": \"f\", \"arguments\": {\"a\": \"</think>\"}} but no.</think>\n{\"name\": \"g\", \"arguments\": {}}",
			chunks:    []string{"I could call {\"name\": \"f\", \"arguments\": {\"a\": \"</think>", "\"}} but no.</think>\n{\"name\": \"g\", \"arguments\": {}}"},
			calls:     []wantCall{{"g", `{}`}},
			reasoning: "I could call {\"name\": \"f\", \"arguments\": {\"a\": \"</think>\"}} but no."},
		{name: "an opening tag inside a string of a list in the prose is text",
			text:    "Tags like [\"<think>\", \"b\"] are fine.\n{\"name\": \"g\", \"arguments\": {}}",
			chunks:  []string{"Tags like [\"<thi", "nk>\", \"b", "\"] are fine.\n{\"name\": \"g\", \"arguments\": {}}"},
			calls:   []wantCall{{"g", `{}`}},
			content: "Tags like [\"<think>\", \"b\"] are fine."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.chunks != nil && strings.Join(tt.chunks, "") != tt.text {
				t.Fatalf("chunks do not add up to the text")
			}
			opts := &dialects.Options{}
			if tt.tools {
				opts.Tools = weatherTools(t)
			}
			// Streamed in every cut, the row must give the same answer.
			if err := streamtest.Check(plainjson.Dialect, tt.text, tt.chunks, opts); err != nil {
				t.Errorf("stream: %v", err)
			}
			// The Reader reads every cutting of the row as it reads it
			// whole, whatever the template says of reasoning.
			for _, o := range []dialects.Options{*opts, {Tools: opts.Tools, ReasoningOpen: true}, {Tools: opts.Tools, ReasoningClosed: true}} {
				if err := streamtest.CheckReader(plainjson.Dialect.(dialects.Incremental), tt.text, &o); err != nil {
					t.Errorf("reader (open %v, closed %v): %v", o.ReasoningOpen, o.ReasoningClosed, err)
				}
			}
			res := dialects.Parse(plainjson.Dialect, tt.text, opts)
			if len(res.Calls) != len(tt.calls) {
				t.Fatalf("got %d calls %+v (errors %v), want %d", len(res.Calls), res.Calls, res.Errors, len(tt.calls))
			}
			for i, w := range tt.calls {
				if res.Calls[i].Name != w.name || string(res.Calls[i].Arguments) != w.args {
					t.Errorf("call %d = %s %s, want %s %s", i, res.Calls[i].Name, res.Calls[i].Arguments, w.name, w.args)
				}
				if !strings.HasPrefix(res.Calls[i].ID, "call_") && res.Calls[i].ID == "" {
					t.Errorf("call %d has no id", i)
				}
			}
			if res.Content != tt.content {
				t.Errorf("content = %q, want %q", res.Content, tt.content)
			}
			if res.Reasoning != tt.reasoning {
				t.Errorf("reasoning = %q, want %q", res.Reasoning, tt.reasoning)
			}
			if len(res.Errors) != len(tt.codes) {
				t.Fatalf("errors = %v, want codes %v", res.Errors, tt.codes)
			}
			for i, c := range tt.codes {
				if res.Errors[i].Code != c {
					t.Errorf("error %d = %v, want %s", i, res.Errors[i], c)
				}
			}
			for _, k := range tt.repairs {
				found := false
				for _, r := range res.Repairs {
					found = found || r.Kind == k
				}
				if !found {
					t.Errorf("repairs %v lack %s", res.Repairs, k)
				}
			}
		})
	}
}

func TestCorpus(t *testing.T) { corpustest.RunDialects(t, plainjson.Dialect) }

// TestCorpusReader reads every corpus vector of the dialect with its
// Reader, cut every way (streamtest.CorpusReader).
func TestCorpusReader(t *testing.T) {
	streamtest.CorpusReader(t, plainjson.Dialect.(dialects.Incremental))
}

func TestHostileInputs(t *testing.T) {
	for _, in := range []string{
		strings.Repeat("{", 100000),
		strings.Repeat("[", 50000) + strings.Repeat("]", 50000),
		strings.Repeat(`{"name": "a", "arguments": {}}`, 20000),
		"\x00\xff\xfe{\"name\":\x00}",
		strings.Repeat(`"\\`, 30000),
	} {
		res := dialects.Parse(plainjson.Dialect, in, nil)
		for _, e := range res.Errors {
			if e.Code == "" {
				t.Errorf("uncoded error %v", e)
			}
		}
	}
}

func ExampleDialect() {
	res := dialects.Parse(plainjson.Dialect, `[{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "get_time", "parameters": {}}]`, nil)
	for _, c := range res.Calls {
		fmt.Println(c.Name, string(c.Arguments))
	}
	// Output:
	// get_weather {"city":"Paris"}
	// get_time {}
}

func BenchmarkSingleCall(b *testing.B) {
	text := `{"name": "get_weather", "arguments": {"city": "San Francisco", "unit": "celsius", "days": 3}}`
	b.Run("plainjson", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			dialects.Parse(plainjson.Dialect, text, nil)
		}
	})
	b.Run("encoding-json-baseline", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var v struct {
				Name      string         `json:"name"`
				Arguments map[string]any `json:"arguments"`
			}
			_ = json.Unmarshal([]byte(text), &v)
		}
	})
}
