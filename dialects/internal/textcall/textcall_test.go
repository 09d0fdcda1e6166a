package textcall_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/textcall"
	"github.com/dialectkit/toolcall/internal/coded"
	"github.com/dialectkit/toolcall/internal/textlayer"
	"github.com/dialectkit/toolcall/lenient"
	"github.com/dialectkit/toolcall/schema"
)

func TestJoiner(t *testing.T) {
	// Each step is text to write, or "|" for a cut.
	tests := []struct {
		steps []string
		want  string
	}{
		{[]string{"no cut at all  \n"}, "no cut at all  \n"},
		{[]string{"Let me check.\n", "|"}, "Let me check."},
		{[]string{"|", "\n\nDone."}, "Done."},
		{[]string{"Before.\n\n", "|", "\nAfter."}, "Before.\nAfter."},
		{[]string{"Calling ", "|", " now."}, "Calling now."},
		{[]string{"a ", "|", "  ", "|", "\n", "|", " b"}, "a\nb"},
		{[]string{"  ", "|", "|", "  "}, ""},
		{[]string{"x", "|", "y"}, "x y"},
	}
	for _, tt := range tests {
		var j textcall.Joiner
		for _, s := range tt.steps {
			if s == "|" {
				j.Cut()
			} else {
				j.Write(s)
			}
		}
		if got := j.String(); got != tt.want {
			t.Errorf("%q: got %q, want %q", tt.steps, got, tt.want)
		}
	}
}

func TestShape(t *testing.T) {
	tests := []struct {
		obj                     string
		strong, weak, nameFirst bool
	}{
		{`{"name": "a", "arguments": {}}`, true, false, true},
		{`{"arguments": {}, "name": "a"}`, true, false, false},
		{`{"tool_name": "a", "tool_args": {"x": 1}, "id": "1", "type": "function"}`, true, false, true},
		{`{"name": "a"}`, false, true, true},
		{`{"type": "function", "function": {"name": "a", "arguments": "{}"}}`, true, false, true},
		{`{"name": "my-app", "version": "1.0"}`, false, false, true},
		{`{"name": "a", "description": "d", "parameters": {}}`, false, false, true},
		{`{"name": "a", "parameters": {"type": "object", "properties": {}}}`, false, false, true},
		{`{"name": 5, "arguments": {}}`, false, false, false},
		{`{"database": "postgres"}`, false, false, false},
		{`[{"name": "a", "arguments": {}}]`, false, false, false},
	}
	for _, tt := range tests {
		sh := textcall.Shape(gjson.Parse(tt.obj))
		if sh.Strong != tt.strong || sh.Weak != tt.weak || (sh.Strong || sh.Weak) && sh.NameFirst != tt.nameFirst {
			t.Errorf("%s: %+v", tt.obj, sh)
		}
	}
}

func TestAccepts(t *testing.T) {
	tools, err := toolcall.ParseTools([]byte(`[{"name": "get_time", "parameters": {"type": "object"}}]`))
	if err != nil {
		t.Fatal(err)
	}
	set, err := schema.NewSet(tools...)
	if err != nil {
		t.Fatal(err)
	}
	none := &dialects.Options{}
	declared := &dialects.Options{Tools: set}
	tests := []struct {
		obj    string
		level  textcall.Evidence
		opts   *dialects.Options
		accept bool
	}{
		{`{"name": "x", "arguments": {}}`, textcall.Prose, none, true},
		{`{"arguments": {}, "name": "x"}`, textcall.Prose, none, false},
		{`{"name": "x"}`, textcall.Prose, none, false},
		{`{"name": "get_time"}`, textcall.Prose, declared, true},
		{`{"name": "x", "arguments": {}}`, textcall.Prose, declared, false},
		{`{"name": "GET_TIME", "arguments": {}}`, textcall.Prose, declared, true},
		{`{"name": "x"}`, textcall.Framed, none, true},
		{`{"name": "x"}`, textcall.Framed, declared, false},
		{`{"arguments": {}, "name": "x"}`, textcall.Framed, declared, true},
	}
	for _, tt := range tests {
		if got := textcall.Accepts(gjson.Parse(tt.obj), tt.level, tt.opts); got != tt.accept {
			t.Errorf("%s at level %d with %d tools: %v", tt.obj, tt.level, tt.opts.Tools.Len(), got)
		}
	}
}

func TestOpensWithName(t *testing.T) {
	for raw, want := range map[string]bool{
		`{"name": "a"}`:        true,
		` { 'tool_name': 'a'}`: true,
		`[ {"function": {}}]`:  true,
		`{"names": []}`:        false,
		`{"arguments": {}}`:    false,
		`{name: "a"}`:          true,
		`{see the docs}`:       false,
		`[1, 2]`:               false,
		`{"name"`:              true,
		`{"name`:               false,
		``:                     false,
	} {
		if got := textcall.OpensWithName(raw); got != want {
			t.Errorf("%q: %v", raw, got)
		}
	}
}

func TestFramed(t *testing.T) {
	tests := []struct {
		body  string
		names []string
		ok    bool
		codes []toolcall.Code
	}{
		{`{"name": "a", "arguments": {}}`, []string{"a"}, true, nil},
		{`[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {}}]`, []string{"a", "b"}, true, nil},
		{"{\"name\": \"a\", \"arguments\": {}}\n{\"name\": \"b\", \"arguments\": {}}", []string{"a", "b"}, true, nil},
		{`{"tool_call": {"name": "a", "arguments": {}}}`, []string{"a"}, true, nil},
		{`{"tool_calls": [{"name": "a", "arguments": {}}]}`, []string{"a"}, true, nil},
		{"```json\n{\"name\": \"a\", \"arguments\": {}}\n```", []string{"a"}, true, nil},
		{`{"name": "a", "arguments": {}} and some words`, nil, false, nil},
		{`{"database": "postgres"}`, nil, false, nil},
		{`[]`, nil, false, nil},
		{`{"name": "a", "arguments": {"x": "cut`, []string{""}, true, []toolcall.Code{toolcall.CodeTruncated}},
	}
	for _, tt := range tests {
		r := textcall.NewReader(tt.body, nil)
		calls, _, ok := r.Framed(0, len(tt.body), true)
		if ok != tt.ok || len(calls) != len(tt.names) {
			t.Errorf("%q: ok %v, %d calls %+v", tt.body, ok, len(calls), calls)
			continue
		}
		for i, c := range calls {
			var code toolcall.Code
			if c.Err != nil {
				code = coded.As(c.Err).Code
			}
			if c.Err == nil && c.Name != tt.names[i] || tt.codes != nil && code != tt.codes[i] {
				t.Errorf("%q: call %d is %q (error %v)", tt.body, i, c.Name, c.Err)
			}
		}
	}
}

// TestRepairBudget checks that a flood of broken JSON stops costing
// repairs, while every broken value is still reported as an error.
func TestRepairBudget(t *testing.T) {
	// A size limit below the input makes every repair fail, however
	// clever the lenient pipeline gets.
	r := textcall.NewReader("", &dialects.Options{Lenient: lenient.Options{MaxSize: 2}})
	for i := 0; i < textcall.MaxRepairFailures; i++ {
		if _, _, err := r.Parse("{:::"); err == nil {
			t.Fatal("broken JSON parsed")
		}
	}
	_, _, err := r.Parse("{:::")
	if err == nil || !strings.Contains(err.Message, "not attempted") {
		t.Fatalf("err %v, want repair skipped once the budget is spent", err)
	}
	if v, _, err := r.Parse(`{"ok": true}`); err != nil || !v.Get("ok").Bool() {
		t.Fatalf("valid JSON after the budget: %v %v", v, err)
	}
}

func ExampleShape() {
	for _, obj := range []string{
		`{"name": "get_weather", "arguments": {"city": "Tokyo"}}`,
		`{"name": "my-app", "version": "1.0"}`,
	} {
		sh := textcall.Shape(gjson.Parse(obj))
		fmt.Printf("%s: call=%v\n", sh.Name, sh.Strong || sh.Weak)
	}
	// Output:
	// get_weather: call=true
	// my-app: call=false
}

func TestCodeCut(t *testing.T) {
	for _, tt := range []struct {
		code string
		cut  bool
	}{
		{"print('hey')", false},
		{"print('hey'", true},
		{"print('h", true},
		{"print(", true},
		{"x = [1, 2,\n  3]", false},
		{"x = [1, 2,\n  3", true},
		{"brave_search.call(query=\"Who won the", true},
		{"# it's a comment\nprint(1)", false},
		{"# a comment (\nx = 1", false},
		{"s = '''a\nb'''", false},
		{"s = \"\"\"a\nb", true},
		{"s = 'a\\'b'", false},
		{"s = 'unclosed\nprint(1)", false}, // a syntax error, not a cut: the rest is there
		{"x = 1 + \\", true},
		{"x = 1 + \\\n  2", false},
		{"import os", false},
		{"d = {'a': (1, [2]", true},
		{"", false},
	} {
		if got := textcall.CodeCut(tt.code); got != tt.cut {
			t.Errorf("CodeCut(%q) = %v, want %v", tt.code, got, tt.cut)
		}
	}
}

// TestReasoningBlocks: the block the template opened comes first and
// swallows the written blocks that start inside it; the spans stay sorted
// and apart, so Inside finds them.
func TestReasoningBlocks(t *testing.T) {
	text := "a <think>b</think> c</think> d <think>e</think> f"
	got := textcall.ReasoningBlocks(text, true, true, dialects.Think)
	want := []textlayer.Span{{Start: 0, End: strings.Index(text, "b</think>") + len("b</think>")}, {Start: strings.Index(text, "<think>e"), End: strings.Index(text, " f")}}
	if !slices.Equal(got, want) {
		t.Fatalf("ReasoningBlocks = %v, want %v", got, want)
	}
	if got := textcall.ReasoningBlocks("x <call/>", true, true, dialects.Think); len(got) != 0 {
		t.Errorf("a block never closed: %v, want none", got)
	}
	two := []dialects.ReasoningTags{{Open: "[THINK]", Close: "[/THINK]"}, dialects.Think}
	text = "a [THINK]b</think> c[/THINK] d"
	got = textcall.ReasoningBlocks(text, false, true, two...)
	if want := []textlayer.Span{{Start: 0, End: strings.Index(text, " d")}}; !slices.Equal(got, want) || !textcall.Inside(got, strings.Index(text, "c")) {
		t.Errorf("overlapping blocks: %v, want %v", got, want)
	}
}
