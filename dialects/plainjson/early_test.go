package plainjson_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/plainjson"
	"github.com/dialectkit/toolcall/internal/streamtest"
)

// TestCallGoesOutWhenDecided writes an output to the Reader a byte at a
// time up to a point and counts the calls sent by then: a call goes out
// as soon as what decides it has been read (its value closed and what
// follows on its line; in a fence the table reads calls in, the byte
// after it that is no closing bracket, before the fence closes), not when
// the output ends; and not before, while a later byte can still change it
// (text after it on its line, closing brackets too many, a fence's label
// or the prose before a fence that makes it text, a </think> that would
// make it reasoning). The whole output is then held to the Reader's
// contract (streamtest.CheckReader).
func TestCallGoesOutWhenDecided(t *testing.T) {
	const (
		paris = `{"name": "get_weather", "arguments": {"city": "Paris"}}`
		rome  = `{"name": "get_weather", "arguments": {"city": "Rome"}}`
	)
	streamtest.CheckSent(t, plainjson.Dialect.(dialects.Incremental), []streamtest.Sent{
		{Name: "values on their own lines: the first at its line's end", Before: paris + "\n", Rest: rome, Calls: 1},
		{Name: "values after prose, each on its line", Before: "Let me check both.\n" + paris + "\n", Rest: rome + "\nDone.", Calls: 1},
		{Name: "a list that opens the output: an element once the next begins", Before: "[" + paris + ", {", Rest: `"name": "get_weather", "arguments": {"city": "Rome"}}]`, Calls: 1},
		{Name: "a list after a colon", Before: "Checking both: [" + paris + ",\n {", Rest: `"name": "get_weather", "arguments": {"city": "Rome"}}]`, Calls: 1},
		{Name: "a run after a colon", Before: "Results: " + paris + "; {", Rest: `"name": "get_weather", "arguments": {"city": "Rome"}}`, Calls: 1},
		{Name: "a fence at its closing line", Before: "```json\n" + paris + "\n```\n", Rest: "```json\n" + rome + "\n```", Calls: 1},
		{Name: "a fenced call at its line's end, before the fence's closing run", Before: "Sure.\n```json\n" + paris + "\n", Rest: "```\nDone.", Calls: 1},
		{Name: "a fenced call whose line may yet hold closing brackets too many", Before: "```json\n" + paris, Rest: "}\n```", Calls: 0},
		{Name: "a fenced list: an element once the next begins", Before: "```json\n[" + paris + ", {", Rest: `"name": "get_weather", "arguments": {"city": "Rome"}}]` + "\n```", Calls: 1},
		{Name: "a fenced list: the last element once the byte after the list's close is read", Before: "```json\n[" + paris + ", " + rome + "]\n", Rest: "```", Calls: 2},
		{Name: "a fenced list: the last element waits for brackets too many after the list", Before: "```json\n[" + paris + ", " + rome + "]", Rest: "]\n```", Calls: 1},
		{Name: "values of one fence, each at its line's end", Before: "```json\n" + paris + "\n" + rome + "\n", Rest: "```", Calls: 2},
		{Name: "a fence of a program waits for its close and is text", Before: "```python\n" + paris + "\n", Rest: "```", Calls: 0},
		{Name: "a fence presented as an example waits for its close and is text", Before: "For example:\n```json\n" + paris + "\n", Rest: "```", Calls: 0},
		{Name: "a fence whose body begins with text is read when it closes", Before: "```json\nHere:\n" + paris + "\n", Rest: "```", Calls: 0},
		{Name: "the last value of the output waits for what follows it on its line", Before: "Sure.\n" + paris, Rest: "}", Calls: 0},
		{Name: "a value text may follow on its line is held", Before: "I would use " + paris, Rest: " but not now.", Calls: 0},
		{Name: "a value a later closing tag could make reasoning is held", Before: "Checking.\n" + paris + "\n", Rest: "</think>\nDone.", Unknown: true, Calls: 0},
		{Name: "a value that opens the output settles the reasoning start", Before: paris + "\n", Rest: rome, Unknown: true, Calls: 1},
	})
}

// TestArgumentsStream writes outputs to the Reader a byte at a time: a
// value that opens the output written {"name": …, "arguments": {… in that
// order is announced (PieceCallStart) once its arguments begin, and its
// argument text goes out as it arrives (PieceArguments), as written;
// a value that may yet turn out not to be a call is not announced (text
// before it, arguments before the name, arguments that are not an object,
// with tools declared a name that is none of them, a fence, whose body
// decides only when it closes). Every output is held to the Reader's
// contract (streamtest.CheckReader), one-shot reading included.
func TestArgumentsStream(t *testing.T) {
	rows := []struct {
		name  string
		text  string
		tools bool
		args  []string // the argument text announced, per call; nil: none
		codes []toolcall.Code
	}{
		{name: "a call that opens the output", text: `{"name": "get_weather", "arguments": {"city": "Paris", "days": 2}}`,
			args: []string{`{"city": "Paris", "days": 2}`}},
		{name: "blanks between the tokens", text: "\n  { \"name\" :\"get_weather\",\n \"arguments\":\n{\"city\": \"Paris\"}}\n",
			args: []string{`{"city": "Paris"}`}},
		{name: "a run of calls on their lines", text: "{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Rome\"}}",
			args: []string{`{"city": "Paris"}`, `{"city": "Rome"}`}},
		{name: "a declared tool", tools: true, text: `{"name": "get_weather", "arguments": {"city": "Paris"}} and more`,
			args: []string{`{"city": "Paris"}`}},
		{name: "a string holding braces and quotes", text: `{"name": "get_weather", "arguments": {"city": "P{a}r\"is"}}`,
			args: []string{`{"city": "P{a}r\"is"}`}},
		{name: "an announced value that cannot be read is a failed call", text: `{"name": "get_weather", "arguments": {"city": "Paris"}, @@ }`,
			args: []string{`{"city": "Paris"}`}, codes: []toolcall.Code{toolcall.CodeMalformedCall}},
		{name: "an announced value the output cuts", text: `{"name": "get_weather", "arguments": {"city": "Par`,
			args: []string{`{"city": "Par`}, codes: []toolcall.Code{toolcall.CodeTruncated}},
		{name: "prose before the value", text: "Sure.\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}"},
		{name: "arguments before the name", text: `{"arguments": {"city": "Paris"}, "name": "get_weather"}`},
		{name: "arguments that are not an object", text: `{"name": "get_weather", "arguments": "city"}`,
			codes: []toolcall.Code{toolcall.CodeNotObject}},
		{name: "an undeclared tool", tools: true, text: `{"name": "get_wether", "arguments": {"city": "Paris"}}`,
			codes: []toolcall.Code{toolcall.CodeUnknownTool}},
		{name: "a fence", text: "```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```"},
		{name: "a list", text: `[{"name": "get_weather", "arguments": {"city": "Paris"}}]`},
	}
	for _, tt := range rows {
		t.Run(tt.name, func(t *testing.T) {
			opts := &dialects.Options{ReasoningClosed: true}
			if tt.tools {
				opts.Tools = weatherTools(t)
			}
			inc := plainjson.Dialect.(dialects.Incremental)
			r := inc.NewReader(opts)
			var args []string
			var ps []dialects.Piece
			for i := 0; i < len(tt.text); i++ {
				for _, p := range r.Write(tt.text[i : i+1]) {
					ps = append(ps, p)
					if p.Kind == dialects.PieceArguments && !strings.HasSuffix(tt.text[:i+1], p.Text) {
						t.Errorf("arguments %q sent after %q: not the text last written", p.Text, tt.text[:i+1])
					}
				}
			}
			ps = append(ps, r.Close()...)
			for _, p := range ps {
				switch p.Kind {
				case dialects.PieceCallStart:
					args = append(args, "")
				case dialects.PieceArguments:
					args[p.Index] += p.Text
				}
			}
			if !slices.Equal(args, tt.args) {
				t.Errorf("arguments announced %q, want %q", args, tt.args)
			}
			if err := streamtest.CheckReader(inc, tt.text, opts); err != nil {
				t.Error(err)
			}
			res := dialects.Parse(plainjson.Dialect, tt.text, opts)
			var codes []toolcall.Code
			for _, e := range res.Errors {
				codes = append(codes, e.Code)
			}
			if !slices.Equal(codes, tt.codes) {
				t.Errorf("errors %v, want codes %v", res.Errors, tt.codes)
			}
		})
	}
}
