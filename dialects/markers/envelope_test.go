package markers_test

import (
	"testing"

	"github.com/dialectkit/toolcall/dialects/markers"
)

// TestLeadingEnvelopeBeforeProse: an object that opens the output wrapped
// in one of the dialect's envelopes names itself a call, so prose after it
// is content around the call (as the json dialect reads a leading object);
// the same envelope after a word, shown as an example, or with prose on
// its line while tools are declared, is content; and an object without an
// envelope there stays content (Llama 3's reading in llama.cpp and smg).
// Each row is streamed too (runTable).
func TestLeadingEnvelopeBeforeProse(t *testing.T) {
	const call = `{"function_call": {"name": "f", "args": {"a": 1}}}`
	for _, tc := range []struct {
		d    *markers.Dialect
		rows []row
	}{
		{markers.Gemini, []row{
			{name: "prose on its line", text: call + " and then text",
				calls: []want{c("f", `{"a":1}`)}, content: "and then text",
				chunks: []string{call[:20], call[20:] + " and", " then text"}},
			{name: "prose on the next line", text: call + "\nDone.",
				calls: []want{c("f", `{"a":1}`)}, content: "Done."},
			{name: "after blanks", text: "\n  " + call + " Done.",
				calls: []want{c("f", `{"a":1}`)}, content: "Done."},
			{name: "camel-case envelope", text: `{"functionCall": {"name": "f", "arguments": {"a": 1}}} Done.`,
				calls: []want{c("f", `{"a":1}`)}, content: "Done."},
			{name: "after reasoning", text: "<think>x</think>" + call + " Done.",
				calls: []want{c("f", `{"a":1}`)}, content: "Done.", reasoning: "x"},
			{name: "tools declared, prose on the next line", text: call + "\nDone.", tools: []string{"f"},
				calls: []want{c("f", `{"a":1}`)}, content: "Done."},
			{name: "tools declared, prose on its line", text: call + " and then text", tools: []string{"f"},
				content: call + " and then text", marked: true},
			{name: "after a word", text: "Use " + call + " to call f.",
				content: "Use " + call + " to call f.", marked: true},
			{name: "shown as an example", text: "For example: " + call + " is the format.",
				content: "For example: " + call + " is the format.", marked: true},
			{name: "a second envelope after prose is inside a sentence", text: "Done with " + call + " twice.",
				content: "Done with " + call + " twice.", marked: true},
		}},
		{markers.GenericJSON, []row{
			{name: "prose on the next line", text: `{"tool_call": {"name": "f", "arguments": {"a": 1}}}` + "\nDone.",
				calls: []want{c("f", `{"a":1}`)}, content: "Done."},
			{name: "a list of calls", text: `{"tool_calls": [{"name": "f", "arguments": {"a": 1}}]} Done.`,
				calls: []want{c("f", `{"a":1}`)}, content: "Done."},
		}},
		{markers.Llama3JSON, []row{
			{name: "no envelope", text: `{"name": "f", "parameters": {"a": 1}} Some follow-up text`,
				content: `{"name": "f", "parameters": {"a": 1}} Some follow-up text`},
		}},
	} {
		t.Run(tc.d.Name(), func(t *testing.T) { runTable(t, tc.d, tc.rows) })
	}
}
