package tagged_test

import (
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/tagged"
)

// Line breaks written as the two characters \n between tags: the texts
// below are raw strings, so every \n in them is a backslash and an n.

var qwenEscapedRows = []row{
	{
		name:   "escaped line breaks between the tags",
		text:   `<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call>`,
		chunks: []string{`<tool_call>\`, `n<function=f>\n<param`, `eter=a>\`, `n1\`, `n</parameter>\n</function>\`, `n</tool_call>`},
		calls:  []want{call("f", `{"a":1}`)},
	},
	{
		name:  "escapes inside a value are its text; only the framing line breaks go",
		text:  `<tool_call>\n<function=run>\n<parameter=code>\nprint("a\nb")\tx\n</parameter>\n</function>\n</tool_call>`,
		calls: []want{call("run", `{"code":"print(\"a\\nb\")\\tx"}`)},
	},
	{
		name:  "a value ending in an escaped backslash keeps it",
		text:  `<tool_call>\n<function=cd>\n<parameter=path>\nC:\\\n</parameter>\n</function>\n</tool_call>`,
		calls: []want{call("cd", `{"path":"C:\\\\"}`)},
	},
	{
		name:  "with real line breaks between the tags, a value's escapes are all its text",
		text:  "<tool_call>\n<function=f>\n<parameter=sep>\\n1\\n</parameter>\n</function>\n</tool_call>",
		calls: []want{call("f", `{"sep":"\\n1\\n"}`)},
	},
	{
		name:   "several parameters and calls, \\r\\n and \\t too, without the section",
		text:   `<function=f>\r\n\t<parameter=a>\r\nx\r\n</parameter>\n<parameter=b>\n2\n</parameter>\n</function>\n<function=g>\n</function>`,
		chunks: []string{`<function=f>\r\n\t<parameter=a>\r`, `\nx\r\n</parameter>\n<parameter=b>\n2\n</parameter>\n</function>\n<function=g>\n</function>`},
		calls:  []want{call("f", `{"a":"x","b":2}`), call("g", `{}`)},
	},
	{
		name:  "JSON arguments between escaped line breaks",
		text:  `<tool_call>\n<function=f>\n{"a": "x\ny"}\n</function>\n</tool_call>`,
		calls: []want{call("f", `{"a":"x\ny"}`)},
	},
	{
		name:    "text on the lines around the call is content",
		text:    "Sure.\n" + `<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call>` + "\nDone.",
		chunks:  []string{"Sure.\n<tool", `_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call>` + "\nDone."},
		calls:   []want{call("f", `{"a":1}`)},
		content: "Sure.\nDone.",
	},
	{
		name:      "after a reasoning block on the same line; the escape before the call is content as written",
		text:      `<think>plan</think>\n<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call>`,
		calls:     []want{call("f", `{"a":1}`)},
		reasoning: "plan", content: `\n`,
	},
	{
		name:   "inside a JSON string the escaped markup quotes a call: never a call",
		text:   `{"example": "<tool_call>\n<function=delete_file>\n<parameter=path>\n/\n</parameter>\n</function>\n</tool_call>"}`,
		chunks: []string{`{"example": "<tool_`, `call>\n<function=delete_file>\n<parameter=path>\n/\n</parameter>\n</function>\n</tool_call>"}`},
		// A marker inside a string of a JSON value is text (strictjson.TagFinder.At):
		// the value is content, whole, and no failed call is reported.
		content: `{"example": "<tool_call>\n<function=delete_file>\n<parameter=path>\n/\n</parameter>\n</function>\n</tool_call>"}`,
	},
	{
		// The quote after "x = " opens a quotation (text before it on its
		// line, no colon: textlayer.QuoteShows), and the escaped line
		// breaks keep the markup on its line: all of it is shown, not
		// made, and no broken call is reported for it.
		name:    "inside a string literal of code, text before it on the line: never a call",
		text:    `x = "Sure.\n<tool_call>\n<function=delete_file>\n<parameter=path>\n/\n</parameter>\n</function>\n</tool_call>"`,
		content: `x = "Sure.\n<tool_call>\n<function=delete_file>\n<parameter=path>\n/\n</parameter>\n</function>\n</tool_call>"`,
	},
	{
		name:  "another backslash between the tags is not a gap",
		text:  `<tool_call>\x<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call>`,
		calls: []want{call("f", `{"a":1}`)},
		errs:  []toolcall.Code{toolcall.CodeMalformedCall},
	},
	{
		name: "a call cut off after an escaped line break is cut off",
		text: `<tool_call>\n<function=f>\n<parameter=a>\n1\n`,
		errs: []toolcall.Code{toolcall.CodeTruncated},
	},
}

var glmEscapedRows = []row{
	{
		name:   "escaped line breaks after the name and between the tags",
		text:   `<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Beijing</arg_value>\n</tool_call>`,
		chunks: []string{`<tool_call>get_weather\`, `n<arg_key>city</arg_key>\n<arg_value>Bei`, `jing</arg_value>\n</tool_call>`},
		calls:  []want{call("get_weather", `{"city":"Beijing"}`)},
	},
	{
		name:  "a name followed by escaped line breaks only",
		text:  `<tool_call>get_time\n</tool_call>`,
		calls: []want{call("get_time", `{}`)},
	},
	{
		name:   "an escape inside a value is its text",
		text:   `<tool_call>note\n<arg_key>text</arg_key>\n<arg_value>one\ntwo</arg_value>\n</tool_call>`,
		chunks: []string{`<tool_call>note\n<arg_key>text</arg_key>\n<arg_value>one\`, `ntwo</arg_value>\n</tool_call>`},
		calls:  []want{call("note", `{"text":"one\\ntwo"}`)},
	},
}

var longcatEscapedRows = []row{
	{
		name:   "escaped line breaks between LongCat's tags",
		text:   `<longcat_tool_call>get_weather\n<longcat_arg_key>city</longcat_arg_key>\n<longcat_arg_value>Tokyo</longcat_arg_value>\n</longcat_tool_call>`,
		chunks: []string{`<longcat_tool_call>get_weather\`, `n<longcat_arg_key>city</longcat_arg_key>\n<longcat_arg_value>Tokyo</longcat_arg_value>\n</longcat_tool_call>`},
		calls:  []want{call("get_weather", `{"city":"Tokyo"}`)},
	},
}

var minimaxEscapedRows = []row{
	{
		name:   "escaped line breaks between MiniMax's tags",
		text:   `<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Tokyo</parameter>\n</invoke>\n</minimax:tool_call>`,
		chunks: []string{`<minimax:tool_call>\n<invoke name="get_weather">\`, `n<parameter name="city">Tokyo</parameter>\n</invoke>\n</minimax:tool_call>`},
		calls:  []want{call("get_weather", `{"city":"Tokyo"}`)},
	},
}

// TestEscapedLineBreaks checks that every dialect with markup between
// tags reads the escaped spelling of a line break there as the line break.
func TestEscapedLineBreaks(t *testing.T) {
	for _, tt := range []struct {
		d    dialects.Dialect
		rows []row
	}{
		{tagged.Qwen3Coder, qwenEscapedRows},
		{tagged.GLM45, glmEscapedRows},
		{tagged.LongCat, longcatEscapedRows},
		{tagged.MiniMaxM2, minimaxEscapedRows},
	} {
		t.Run(tt.d.Name(), func(t *testing.T) {
			runTable(t, tt.d, tt.rows)
		})
	}
	testChunks(t, append(append(append(qwenEscapedRows, glmEscapedRows...), longcatEscapedRows...), minimaxEscapedRows...))
}
