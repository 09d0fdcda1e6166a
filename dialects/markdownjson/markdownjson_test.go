package markdownjson_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/markdownjson"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/schema"
)

type call struct{ name, args string }

type row struct {
	name      string
	text      string
	open      bool
	tools     string
	calls     []call
	content   string
	reasoning string
	errs      []toolcall.Code
	repairs   []toolcall.RepairKind
	chunks    []string
}

var rows = []row{
	// A fence of tildes is a fence, as one of backticks is (CommonMark).
	{name: "a call in a tilde fence", text: "Sure.\n~~~json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n~~~\nDone.", calls: []call{{"get_weather", `{"city":"Paris"}`}}, content: "Sure.\nDone.",
		chunks: []string{"Sure.\n~", "~~js", "on\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n~~", "~\nDone."}},
	// A call of a fence goes out as its line ends, a list's element as
	// the byte after it is read: what follows it in the fence does not
	// unmake it. A fence whose body begins with something that is not a
	// call is read whole when it closes: text.
	{name: "two values in a fence", text: "Sure.\n```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Rome\"}}\n```\nDone.", calls: []call{{"get_weather", `{"city":"Paris"}`}, {"get_weather", `{"city":"Rome"}`}}, content: "Sure.\nDone."},
	{name: "a fenced list, element by element", text: "```json\n[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}},\n {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Rome\"}}]\n```", calls: []call{{"get_weather", `{"city":"Paris"}`}, {"get_weather", `{"city":"Rome"}`}}},
	{name: "text after a call in its fence is content", text: "```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\nNote this.\n```", calls: []call{{"get_weather", `{"city":"Paris"}`}}, content: "Note this."},
	{name: "a value that is no call after a call in its fence is content", text: "```json\n[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}, {\"name\": \"Ada\", \"born\": 1815}]\n```", calls: []call{{"get_weather", `{"city":"Paris"}`}}, content: `{"name": "Ada", "born": 1815}`},
	{name: "a fence whose first value is no call is text", text: "```json\n{\"name\": \"Ada\", \"born\": 1815}\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```", content: "```json\n{\"name\": \"Ada\", \"born\": 1815}\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```"},
	{name: "a fence whose body begins with text is text", text: "```json\nHere:\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```", content: "```json\nHere:\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```"},
	{name: "tildes inside a line open no fence", text: "Sure ~~~json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n~~~\nDone.", content: "Sure ~~~json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n~~~\nDone."},
	// The backticks are a line of the tilde fence: text after its call
	// (a call goes out as its line ends; what follows in the fence does
	// not unmake it), not its close, which would leave "~~~" opening a
	// fence of its own.
	{name: "a tilde fence closes only with tildes", text: "~~~json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```\n~~~", calls: []call{{"get_weather", `{"city":"Paris"}`}}, content: "```"},
	// An output that opens with a fence labelled as JSON or as a call
	// (textlayer.LabelOf) opens with a call: a stray closing tag after it
	// ends no reasoning block; a label that names a language is no call.
	{name: "an output that opens with a tool_calls fence opens with a call", text: "```tool_calls\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```\nok</think>done", calls: []call{{"get_weather", `{"city":"Paris"}`}}, content: "ok</think>done"},
	{name: "an output that opens with a toolcall fence opens with a call", text: "```toolcall\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```\nok</think>done", calls: []call{{"get_weather", `{"city":"Paris"}`}}, content: "ok</think>done",
		chunks: []string{"```tool", "call\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```\nok</th", "ink>done"}},
	{name: "an output that opens with a jsonc fence opens with a call", text: "```JSONC\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```\nok</think>done", calls: []call{{"get_weather", `{"city":"Paris"}`}}, content: "ok</think>done"},
	{name: "an output that opens with a tilde json fence opens with a call", text: "~~~json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n~~~\nok</think>done", calls: []call{{"get_weather", `{"city":"Paris"}`}}, content: "ok</think>done"},
	{name: "a jsonnet fence is a program, not a call", text: "```jsonnet\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```\nok</think>done", reasoning: "```jsonnet\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```\nok", content: "done"},
	{name: "a json_schema fence is not a json fence", text: "```json_schema\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```\nok</think>done", reasoning: "```json_schema\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```\nok", content: "done"},
	{name: "a call shown in inline code is content", text: "The syntax is `{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}`, but I won't call it now.", content: "The syntax is `{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}`, but I won't call it now.", chunks: []string{"The syntax is `{\"nam", "e\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}`, but I won't call it now."}},
	{name: "a call in a fence presented as an example is content", text: "For example:\n```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```\nbut I won't call it.", content: "For example:\n```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```\nbut I won't call it.", chunks: []string{"For example:\n```json", "\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```\nbut I won't call it."}},
	{
		name:    "single fenced call",
		text:    "I'll use the tool.\n\n```json\n{\"name\": \"test_tool\", \"arguments\": {\"param\": \"value\"}}\n```\n",
		calls:   []call{{"test_tool", `{"param":"value"}`}},
		content: "I'll use the tool.",
		chunks:  []string{"I'll use the tool.\n\n``", "`js", "on\n{\"name\": \"test_tool\", \"arguments\": {\"param\": \"value\"}}\n`", "``\n"},
	},
	{
		name:    "a call closed twice in its fence",
		text:    "Sure.\n```json\n{\"name\": \"a\", \"arguments\": {\"x\": 1}}}\n```\nDone.",
		calls:   []call{{"a", `{"x":1}`}},
		content: "Sure.\nDone.",
		repairs: []toolcall.RepairKind{toolcall.RepairExtraClosing},
		chunks:  []string{"Sure.\n```json\n{\"name\": \"a\", \"arguments\": {\"x\": 1}}", "}\n```\nDone."},
	},
	{
		name:  "array of calls in one fence",
		text:  "```json\n[{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\", \"arguments\": {\"x\": 1}}]\n```",
		calls: []call{{"a", `{}`}, {"b", `{"x":1}`}},
	},
	{
		name:    "one call per fence",
		text:    "First:\n```json\n{\"name\": \"a\", \"arguments\": {}}\n```\nThen:\n```json\n{\"name\": \"b\", \"arguments\": {}}\n```\nDone.",
		calls:   []call{{"a", `{}`}, {"b", `{}`}},
		content: "First:\nThen:\nDone.",
	},
	{
		name:    "no call",
		text:    "Paris is the capital of France.",
		content: "Paris is the capital of France.",
	},
	{
		name:    "call-shaped JSON outside a fence is not this dialect",
		text:    `Use {"name": "a", "arguments": {}} to call it.`,
		content: `Use {"name": "a", "arguments": {}} to call it.`,
	},
	{
		name:  "fence without a language",
		text:  "\n```\n{\"name\": \"test_tool\", \"arguments\": {\"param\": \"value\"}}\n```\n",
		calls: []call{{"test_tool", `{"param":"value"}`}},
	},
	{
		name:  "tool_name and tool_args",
		text:  "```json\n{\"tool_name\": \"calculate\", \"tool_args\": {\"expression\": \"2 + 2\"}}\n```",
		calls: []call{{"calculate", `{"expression":"2 + 2"}`}},
	},
	{
		name:  "tool_call envelope",
		text:  "```json\n{\"tool_call\": {\"name\": \"a\", \"arguments\": {\"x\": 1}}}\n```",
		calls: []call{{"a", `{"x":1}`}},
	},
	{
		name:  "OpenAI envelope",
		text:  "```json\n{\"type\": \"function\", \"function\": {\"name\": \"a\", \"arguments\": \"{\\\"x\\\": 1}\"}}\n```",
		calls: []call{{"a", `{"x":1}`}},
	},
	{
		name:    "fenced data is content",
		text:    "Here's some config:\n\n```json\n{\n  \"database\": \"postgres\",\n  \"port\": 5432\n}\n```\n",
		content: "Here's some config:\n\n```json\n{\n  \"database\": \"postgres\",\n  \"port\": 5432\n}\n```", // the spaces that end it are not content (textlayer.Edges)
	},
	{
		name:    "fenced data with a name field is content",
		text:    "```json\n{\"name\": \"Ada\", \"born\": 1815}\n```",
		content: "```json\n{\"name\": \"Ada\", \"born\": 1815}\n```",
	},
	{
		name:    "a code fence in another language is content",
		text:    "```python\n{\"name\": \"a\", \"arguments\": {}}\n```",
		content: "```python\n{\"name\": \"a\", \"arguments\": {}}\n```",
	},
	{
		name:    "malformed arguments repaired",
		text:    "```json\n{'name': 'a', 'arguments': {'on': True, 'v': None}}\n```",
		calls:   []call{{"a", `{"on":true,"v":null}`}},
		repairs: []toolcall.RepairKind{toolcall.RepairSingleQuotes},
	},
	{
		name:  "a bad call beside a good one",
		text:  "```json\n{\"name\": \"bad\", \"arguments\": [1]}\n```\n```json\n{\"name\": \"good\", \"arguments\": {}}\n```",
		calls: []call{{"good", `{}`}},
		errs:  []toolcall.Code{toolcall.CodeNotObject},
	},
	{
		name: "output cut off inside a fenced call",
		text: "```json\n{\"name\": \"a\", \"arguments\": {\"text\": \"Once upon",
		errs: []toolcall.Code{toolcall.CodeTruncated},
	},
	{
		name:  "unclosed fence around a whole call",
		text:  "```json\n{\"name\": \"a\", \"arguments\": {}}\n",
		calls: []call{{"a", `{}`}},
	},
	{
		name:  "escaped strings",
		text:  "```json\n{\"name\": \"write\", \"arguments\": {\"text\": \"a \\\"quote\\\" \\\\ back\\nslash \\u00e9 ```\"}}\n```",
		calls: []call{{"write", "{\"text\":\"a \\\"quote\\\" \\\\ back\\nslash é ```\"}"}},
	},
	{
		name:      "fence inside reasoning is not a call",
		text:      "<think>Maybe:\n```json\n{\"name\": \"a\", \"arguments\": {}}\n```\n</think>\n```json\n{\"name\": \"b\", \"arguments\": {}}\n```",
		calls:     []call{{"b", `{}`}},
		reasoning: "Maybe:\n```json\n{\"name\": \"a\", \"arguments\": {}}\n```",
		chunks:    []string{"<think>Maybe:\n```json\n{\"name\": \"a\", \"arguments\": {}}\n```\n</thi", "nk>\n```", "json\n{\"name\": \"b\", \"arguments\": {}}\n```"},
	},
	{
		name:      "a closing tag inside a JSON string of a reasoning block is text",
		text:      "<think>I could call {\"name\": \"f\", \"arguments\": {\"a\": \"</think>\"}} but no.</think>\n```json\n{\"name\": \"g\", \"arguments\": {}}\n```",
		calls:     []call{{"g", `{}`}},
		reasoning: "I could call {\"name\": \"f\", \"arguments\": {\"a\": \"</think>\"}} but no.",
		chunks:    []string{"<think>I could call {\"name\": \"f\", \"arguments\": {\"a\": \"</thi", "nk>\"}} but", " no.</think>\n```json\n{\"name\": \"g\", \"arguments\": {}}\n```"},
	},
	{
		name:      "a closing tag inside a JSON string does not end the block the template opened",
		text:      "I could call {\"name\": \"f\", \"arguments\": {\"a\": \"</think>\"}} but no.</think>\n```json\n{\"name\": \"g\", \"arguments\": {}}\n```",
		open:      true,
		calls:     []call{{"g", `{}`}},
		reasoning: "I could call {\"name\": \"f\", \"arguments\": {\"a\": \"</think>\"}} but no.",
	},
	{
		name:      "reasoning opened by the template",
		text:      "Need a tool.</think>\n```json\n{\"name\": \"a\", \"arguments\": {}}\n```",
		open:      true,
		calls:     []call{{"a", `{}`}},
		reasoning: "Need a tool.",
	},
	{
		name:    "name-only object naming no declared tool",
		text:    "```json\n{\"name\": \"Ada\"}\n```",
		tools:   `[{"name": "get_time", "parameters": {"type": "object"}}]`,
		content: "```json\n{\"name\": \"Ada\"}\n```",
	},
	{
		name:  "name-only object naming a declared tool",
		text:  "```json\n{\"name\": \"get_time\"}\n```",
		tools: `[{"name": "get_time", "parameters": {"type": "object"}}]`,
		calls: []call{{"get_time", `{}`}},
	},
	// A reasoning tag inside a string of a JSON value in the prose is text
	// (the rule of dialects.SplitReasoning): it opens no block that would
	// swallow the call after it.
	{
		name:    "a <think> in a string of JSON in the prose is text",
		text:    "Sure: {\"name\": \"f\", \"arguments\": {\"q\": \"<think>\"}} then\n```json\n{\"name\": \"g\", \"arguments\": {}}\n```\n",
		calls:   []call{{"g", `{}`}},
		content: "Sure: {\"name\": \"f\", \"arguments\": {\"q\": \"<think>\"}} then",
	},
	{
		name:      "a <think> in a string of a value over lines, then a block",
		text:      "Use {\n  \"s\": \"a <think> b\"\n} and <think>hm</think>```json\n{\"name\": \"g\", \"arguments\": {}}\n```",
		calls:     []call{{"g", `{}`}},
		content:   "Use {\n  \"s\": \"a <think> b\"\n} and",
		reasoning: "hm",
	},
	{
		name:      "a <think> in a value that never closes opens a block",
		text:      "Say {\"s\": \"<think>x",
		content:   "Say {\"s\": \"",
		reasoning: "x",
	},
}

func TestMarkdownJSON(t *testing.T) {
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			opts := &dialects.Options{ReasoningOpen: r.open}
			if r.tools != "" {
				opts.Tools = toolSet(t, r.tools)
			}
			// Streamed in every cut, the row must give the same answer.
			if err := streamtest.Check(markdownjson.Dialect, r.text, r.chunks, opts); err != nil {
				t.Errorf("stream: %v", err)
			}
			// The Reader reads every cutting of the row as it reads it
			// whole, whatever the template says of reasoning.
			for _, o := range []dialects.Options{*opts, {Tools: opts.Tools, ReasoningOpen: true}, {Tools: opts.Tools, ReasoningClosed: true}} {
				if err := streamtest.CheckReader(markdownjson.Dialect.(dialects.Incremental), r.text, &o); err != nil {
					t.Errorf("reader (open %v, closed %v): %v", o.ReasoningOpen, o.ReasoningClosed, err)
				}
			}
			res := dialects.Parse(markdownjson.Dialect, r.text, opts)
			if len(res.Calls) != len(r.calls) {
				t.Fatalf("got %d calls %+v (errors %v), want %d", len(res.Calls), res.Calls, res.Errors, len(r.calls))
			}
			for i, w := range r.calls {
				if got := res.Calls[i]; got.Name != w.name || !sameJSON(got.Arguments, []byte(w.args)) {
					t.Errorf("call %d: %s %s, want %s %s", i, got.Name, got.Arguments, w.name, w.args)
				}
			}
			if res.Content != r.content {
				t.Errorf("content %q, want %q", res.Content, r.content)
			}
			if res.Reasoning != r.reasoning {
				t.Errorf("reasoning %q, want %q", res.Reasoning, r.reasoning)
			}
			var codes []toolcall.Code
			for _, e := range res.Errors {
				codes = append(codes, e.Code)
			}
			if !slices.Equal(codes, r.errs) {
				t.Errorf("errors %v, want codes %v", res.Errors, r.errs)
			}
			for _, k := range r.repairs {
				if !slices.ContainsFunc(res.Repairs, func(rp toolcall.Repair) bool { return rp.Kind == k }) {
					t.Errorf("repairs %v lack %s", res.Repairs, k)
				}
			}
		})
	}
}

func TestChunksJoinToText(t *testing.T) {
	n := 0
	for _, r := range rows {
		if r.chunks == nil {
			continue
		}
		n++
		if got := strings.Join(r.chunks, ""); got != r.text {
			t.Errorf("%s: chunks join to %q, want %q", r.name, got, r.text)
		}
	}
	if n < 2 {
		t.Errorf("only %d rows carry chunks", n)
	}
}

func TestMarkers(t *testing.T) {
	m, ok := markdownjson.Dialect.(dialects.Marked)
	if !ok || m.Markers() != nil {
		t.Fatalf("markdown_json must be marker-less")
	}
	// A fence holding nothing but call objects is the dialect's own
	// syntax (as the json dialect's whole output is), so detection keeps a
	// failing call's error; a fence of other JSON is not.
	ext := markdownjson.Dialect.Extract("```json\n{\"name\": \"a\", \"arguments\": {}}\n```", nil)
	if !ext.Marked || len(ext.Calls) != 1 {
		t.Fatalf("extraction %+v", ext)
	}
	ext = markdownjson.Dialect.Extract("Config:\n```json\n{\"port\": 8080}\n```", nil)
	if ext.Marked || len(ext.Calls) != 0 {
		t.Fatalf("extraction %+v", ext)
	}
}

// TestOffsetsAfterReasoning checks that call offsets index the original
// text even though reasoning was cut out before the fences were read.
func TestOffsetsAfterReasoning(t *testing.T) {
	text := "<think>plan</think>\nOK\n```json\n{\"name\": \"a\", \"arguments\": {}}\n```"
	ext := markdownjson.Dialect.Extract(text, nil)
	if len(ext.Calls) != 1 {
		t.Fatalf("calls %+v", ext.Calls)
	}
	if got, want := ext.Calls[0].Offset, strings.Index(text, `{"name"`); got != want {
		t.Errorf("offset %d, want %d", got, want)
	}
}

func TestHostileInput(t *testing.T) {
	inputs := []string{
		strings.Repeat("```", 100000),
		strings.Repeat("```json\n{", 50000),
		strings.Repeat("```json\n{\"name\": \"a\"", 20000),
		"```json\n" + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + "\n```",
		"```json\n\x00\xff{\"name\x00\n```",
		strings.Repeat("<think>```", 50000),
	}
	for _, in := range inputs {
		if res := dialects.Parse(markdownjson.Dialect, in, nil); len(res.Calls) > 0 {
			t.Errorf("%d calls invented from %.40q", len(res.Calls), in)
		}
	}
}

func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}

func toolSet(t testing.TB, js string) *schema.Set {
	t.Helper()
	tools, err := toolcall.ParseTools([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	set, err := schema.NewSet(tools...)
	if err != nil {
		t.Fatal(err)
	}
	return set
}
