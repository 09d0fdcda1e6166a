package markers_test

import (
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects/markers"
)

// TestStrayClosersBeforeProse: closing brackets too many right after a
// call's arguments or call list, on its line, are its punctuation
// (extra_closing) whatever follows them: the prose after them is content
// without them, in every form of the markers engine that reads a JSON
// value (a name then arguments, a list of calls, bare JSON after a
// sentence, a frame after prose). Each row is streamed too (runTable).
func TestStrayClosersBeforeProse(t *testing.T) {
	extra := []toolcall.RepairKind{toolcall.RepairExtraClosing}
	for _, tc := range []struct {
		d    *markers.Dialect
		rows []row
	}{
		{markers.Mistral, []row{
			{name: "v11 arguments", text: `[TOOL_CALLS]f[ARGS]{"a":1}} and then more text`,
				calls: []want{c("f", `{"a":1}`)}, content: "and then more text", repairs: extra,
				chunks: []string{`[TOOL_CALLS]f[ARGS]{"a":1}`, `}`, ` and then more text`}},
			{name: "v11 arguments after prose", text: `Sure. [TOOL_CALLS]f[ARGS]{"a":1}}} and then more text`,
				calls: []want{c("f", `{"a":1}`)}, content: "Sure. and then more text", repairs: extra},
			{name: "v11 arguments then the next call", text: `[TOOL_CALLS]f[ARGS]{"a":1}} [TOOL_CALLS]g[ARGS]{"b":2}}} done`,
				calls: []want{c("f", `{"a":1}`), c("g", `{"b":2}`)}, content: "done", repairs: extra},
			{name: "call list", text: `[TOOL_CALLS][{"name":"f","arguments":{"a":1}}]] and then more text`,
				calls: []want{c("f", `{"a":1}`)}, content: "and then more text", repairs: extra,
				chunks: []string{`[TOOL_CALLS][{"name":"f","arguments":{"a":1}}]`, `] and then more text`}},
			{name: "blanks between", text: "[TOOL_CALLS]f[ARGS]{\"a\":1} }\t] and then",
				calls: []want{c("f", `{"a":1}`)}, content: "and then", repairs: extra},
			// Not on the arguments' line: the bracket opens the prose's line.
			{name: "a bracket on the next line is prose", text: "[TOOL_CALLS]f[ARGS]{\"a\":1}\n} and then",
				calls: []want{c("f", `{"a":1}`)}, content: "} and then"},
			// A bracket that is not too many is no repair.
			{name: "no bracket too many", text: `[TOOL_CALLS]f[ARGS]{"a":1} and then`,
				calls: []want{c("f", `{"a":1}`)}, content: "and then"},
		}},
		{markers.Llama3JSON, []row{
			{name: "after the python tag", text: `<|python_tag|>{"name":"f","parameters":{"a":1}}} and then text`,
				calls: []want{c("f", `{"a":1}`)}, content: "and then text", repairs: extra},
			{name: "bare after a colon", text: `Sure: {"name":"f","parameters":{"a":1}}} Done.`,
				calls: []want{c("f", `{"a":1}`)}, content: "Sure: Done.", repairs: extra, unmarked: true},
			{name: "bare after a sentence, tools declared", text: "Sure.\n{\"name\":\"f\",\"parameters\":{\"a\":1}}}\nDone.", tools: []string{"f"},
				calls: []want{c("f", `{"a":1}`)}, content: "Sure.\nDone.", repairs: extra, unmarked: true},
		}},
		{markers.Granite, []row{
			{name: "call list", text: `<|tool_call|>[{"name":"f","arguments":{"a":1}}]] and then text`,
				calls: []want{c("f", `{"a":1}`)}, content: "and then text", repairs: extra},
		}},
		{markers.Functools, []row{
			{name: "call list", text: `functools[{"name":"f","arguments":{"a":1}}]] and then text`,
				calls: []want{c("f", `{"a":1}`)}, content: "and then text", repairs: extra},
		}},
		{markers.GigaChat3, []row{
			{name: "call object", text: `<|function_call|>{"name":"f","arguments":{"a":1}}} and then text`,
				calls: []want{c("f", `{"a":1}`)}, content: "and then text", repairs: extra},
		}},
		{markers.FunctionaryV31, []row{
			{name: "arguments without the end tag", text: `<function=f>{"a":1}} and then text`,
				calls: []want{c("f", `{"a":1}`)}, content: "and then text", repairs: extra},
		}},
		{markers.FunctionaryV32, []row{
			{name: "arguments", text: ">>>f\n{\"a\":1}} and then text",
				calls: []want{c("f", `{"a":1}`)}, content: "and then text", repairs: extra},
		}},
		{markers.XLAM, []row{
			{name: "framed after prose", text: `Sure. [TOOL_CALLS][{"name":"f","arguments":{"a":1}}]] Done.`,
				calls: []want{c("f", `{"a":1}`)}, content: "Sure. Done.", repairs: extra, unmarked: true},
			{name: "wrapped after prose", text: `Sure. <tool_call>[{"name":"f","arguments":{"a":1}}]]</tool_call> Done.`,
				calls: []want{c("f", `{"a":1}`)}, content: "Sure. Done.", repairs: extra, unmarked: true},
		}},
		{markers.Gemini, []row{
			{name: "envelope after a colon", text: `Sure: {"function_call":{"name":"f","args":{"a":1}}}} Done.`,
				calls: []want{c("f", `{"a":1}`)}, content: "Sure: Done.", repairs: extra, marked: true},
		}},
	} {
		t.Run(tc.d.Name(), func(t *testing.T) { runTable(t, tc.d, tc.rows) })
	}
}
