package pythonic_test

import (
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/pythonic"
)

// TestStrayClosersBeforeProse: a closing bracket too many right after a
// call list, on its line, is its punctuation (extra_closing) whatever
// follows it, as in the json dialect: the prose after it is content
// without it. Each row is streamed too (runRows).
func TestStrayClosersBeforeProse(t *testing.T) {
	extra := []toolcall.RepairKind{toolcall.RepairExtraClosing}
	for _, tc := range []struct {
		d    dialects.Dialect
		rows []row
	}{
		{pythonic.Pythonic, []row{
			{name: "the whole output", text: `[f(a=1)]]`, calls: calls("f", `{"a":1}`), repairs: extra},
			{name: "prose after it", text: `[f(a=1)]] and more text`, calls: calls("f", `{"a":1}`), content: "and more text", repairs: extra,
				chunks: []string{`[f(a=1)]`, `] and more`, ` text`}},
			{name: "prose around it, a colon before", text: `Sure: [f(a=1)] ] and more text`, calls: calls("f", `{"a":1}`), content: "Sure: and more text", repairs: extra},
			{name: "in a sentence it is an example", text: `Use [f(a=1)]] to call it.`, content: `Use [f(a=1)]] to call it.`},
		}},
		{pythonic.Llama4Pythonic, []row{
			{name: "a block left open", text: `<|python_start|>[f(a=1)]] and more`, calls: calls("f", `{"a":1}`), content: "and more", repairs: extra, marked: true},
		}},
		{pythonic.LFM2, []row{
			{name: "a block left open", text: `<|tool_call_start|>[f(a=1)]] and more`, calls: calls("f", `{"a":1}`), content: "and more", repairs: extra, marked: true,
				chunks: []string{`<|tool_call_start|>[f(a=1)]`, `] and more`}},
		}},
	} {
		t.Run(tc.d.Name(), func(t *testing.T) { runRows(t, tc.d, tc.rows) })
	}
}
