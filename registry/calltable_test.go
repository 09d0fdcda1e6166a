package registry_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/internal/textlayer"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/schema"
	"github.com/dialectkit/toolcall/stream"
)

// writer renders a candidate of one shape in one dialect, and the family
// the table reads that dialect as.
type writer struct {
	dialect string
	family  textlayer.Family
	shape   textlayer.Shape
	label   string // the fence's info string, for textlayer.Fenced
	write   func() string
}

const tableEnvelope = `{"name": "get_weather", "arguments": {"city": "Paris"}}`

// tableWriters are the families that can express each shape.
var tableWriters = []writer{
	{"hermes", textlayer.HermesFamily, textlayer.Framed, "", func() string { return "<tool_call>" + tableEnvelope + "</tool_call>" }},
	{"mistral", textlayer.AnyFamily, textlayer.Framed, "", func() string { return "[TOOL_CALLS][" + tableEnvelope + "]" }},
	{"qwen3_coder", textlayer.AnyFamily, textlayer.Framed, "", func() string {
		return "<tool_call><function=get_weather><parameter=city>Paris</parameter></function></tool_call>"
	}},
	{"json", textlayer.JSONFamily, textlayer.Envelope, "", func() string { return tableEnvelope }},
	{"hermes", textlayer.HermesFamily, textlayer.Envelope, "", func() string { return tableEnvelope }},
	{"llama3_json", textlayer.MarkersFamily, textlayer.Envelope, "", func() string { return tableEnvelope }},
	{"pythonic", textlayer.PythonicFamily, textlayer.List, "", func() string { return `[get_weather(city="Paris")]` }},
}

// fenceWriters render a fenced candidate under every label.
func fenceWriters() []writer {
	var out []writer
	for _, label := range []string{"", "json", "tool_call", "text", "xml", "python", "bash"} {
		for _, w := range []writer{
			{"markdown_json", textlayer.JSONFamily, textlayer.Fenced, label, nil},
			{"hermes", textlayer.HermesFamily, textlayer.Fenced, label, nil},
			{"pythonic", textlayer.PythonicFamily, textlayer.Fenced, label, nil},
		} {
			body := tableEnvelope
			if w.family == textlayer.PythonicFamily {
				body = `[get_weather(city="Paris")]`
			}
			w.write = func() string { return "```" + label + "\n" + body + "\n```" }
			out = append(out, w)
		}
	}
	return out
}

// tablePlaces put a candidate c at each place of the table.
var tablePlaces = []struct {
	place  textlayer.Place
	fenced bool // a fence can stand here
	put    func(c string) string
}{
	{textlayer.Opens, true, func(c string) string { return c }},
	{textlayer.LeadsProse, false, func(c string) string { return c + " and then more text" }},
	{textlayer.OwnLine, true, func(c string) string { return "Let me look that up\n" + c }},
	// A fence labelled with a programming language is code however the
	// prose before it reads; one labelled json or a call follows the table.
	{textlayer.OwnLine, true, func(c string) string { return "Here is a script you can run later:\n" + c }},
	{textlayer.AfterColon, false, func(c string) string { return "Let me look that up: " + c }},
	{textlayer.AfterText, false, func(c string) string { return "Let me look that up " + c }},
	{textlayer.InProse, false, func(c string) string { return "You can write " + c + " to see the weather" }},
	// A trailing period does not decide, and no word makes a call: text
	// after the candidate on its line makes it content, whatever it says.
	{textlayer.InProse, false, func(c string) string { return "Use " + c + " to call get_weather" }},
	{textlayer.InProse, false, func(c string) string { return "Use " + c + " to call get_weather." }},
	{textlayer.InProse, false, func(c string) string { return "I am calling " + c + " right now" }},
	{textlayer.AfterText, false, func(c string) string { return "I will not run this one " + c }},
	{textlayer.InReasoning, true, func(c string) string { return "<think>Maybe\n" + c + "\n</think>\nIt is sunny." }},
	{textlayer.InInlineCode, false, func(c string) string { return "You can write `" + c + "` to see the weather" }},
	// Backtick runs pair as CommonMark code spans, whatever stands around
	// them (textlayer.CodeSpanRun): a run glued to a word opens code, a
	// run of another length does not close it.
	{textlayer.InInlineCode, false, func(c string) string { return "You can write a`" + c + "`s to see the weather" }},
	{textlayer.InInlineCode, false, func(c string) string { return "You can write ``x` " + c + "`` to see the weather" }},
	// Code closed before the candidate, whatever follows its closing run.
	{textlayer.OwnLine, true, func(c string) string { return "Let me run `ls`x first\n" + c }},
	{textlayer.InQuotation, false, func(c string) string { return `He typed "` + c + `" into the box.` }},
	// A quote mark after text on its line opens a quotation whatever the
	// punctuation before it, and whether or not it is glued to it
	// (textlayer.QuoteBegins, QuoteShows).
	{textlayer.InQuotation, false, func(c string) string { return `He said, "` + c + `" and left.` }},
	{textlayer.InQuotation, false, func(c string) string { return `(see "` + c + `") and stop.` }},
	{textlayer.InQuotation, false, func(c string) string { return `He said,"` + c + `" and left.` }},
	{textlayer.InQuotation, false, func(c string) string { return `You can call see("` + c + `") now.` }},
	{textlayer.InQuotation, false, func(c string) string { return `He typed '` + c + `' into the box.` }},
	// A quotation goes on over a line break while the syntax it holds
	// is open there (a bracket, a tag, an element a tag opened).
	{textlayer.InQuotation, true, func(c string) string { return "He typed \"(see\n" + c + ")\" into the box." }},
	// A fence's run is syntax a quotation holds, glued to the quote or
	// not.
	{textlayer.InQuotation, true, func(c string) string { return "He said,\"" + c + "\" and left." }},
	{textlayer.InQuotation, true, func(c string) string { return "He said \"" + c + "\" and left." }},
	{textlayer.InQuotation, false, func(c string) string { return "He typed \"<reply>\n" + c + "\n</reply>\" into the box." }},
	{textlayer.InQuotation, false, func(c string) string { return "He typed \u201C" + c + "\u201D, then left." }},
	{textlayer.InCodeFence, false, func(c string) string { return "```bash\n" + c + "\n```" }},
}

// TestCallTableAcrossFamilies renders every row of the table of what is a
// call in every family that can express it, with and without declared
// tools, and checks the cell: named and detected, one-shot and streamed at
// several cut points (streamtest.CheckCuts).
func TestCallTableAcrossFamilies(t *testing.T) {
	set, err := schema.NewSet(toolcall.Tool{Name: "get_weather", Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`)})
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for _, w := range append(append([]writer(nil), tableWriters...), fenceWriters()...) {
		for _, pl := range tablePlaces {
			if w.shape == textlayer.Fenced && !pl.fenced {
				continue
			}
			for _, tools := range []*schema.Set{nil, set} {
				cell := textlayer.Decide(w.shape, textlayer.LabelOf(w.label), pl.place, tools != nil, w.family)
				call := cell == textlayer.Call || cell == textlayer.CallIfDeclared && tools != nil
				text := pl.put(w.write())
				name := fmt.Sprintf("%s %s %q at %v, tools %v", w.dialect, w.shape, w.label, pl.place, tools != nil)
				rows++
				for _, dialect := range []string{w.dialect, ""} {
					if dialect == "" && !call {
						continue // under detection another dialect may read a shown candidate's framing: the named rows decide
					}
					opts := &registry.Options{Dialect: dialect, Tools: tools, ReasoningClosed: true}
					res := registry.Parse(text, opts)
					if got := len(res.Calls) > 0; got != call {
						t.Errorf("%s (dialect %q): call %v, the table says %v (%v)\ntext: %q\ncontent %q, errors %v", name, dialect, got, call, cell, text, res.Content, res.Errors)
						continue
					}
					if call && res.Calls[0].Name != "get_weather" {
						t.Errorf("%s (dialect %q): call %q, want get_weather", name, dialect, res.Calls[0].Name)
					}
					if !call && len(res.Errors) > 0 {
						t.Errorf("%s (dialect %q): content with errors %v", name, dialect, res.Errors)
					}
					if err := streamtest.CheckCuts(res, func() *stream.Parser { return registry.Stream(opts) }, text, nil, true); err != nil {
						t.Errorf("%s (dialect %q) streamed: %v\ntext: %q", name, dialect, err, text)
					}
				}
			}
		}
	}
	t.Logf("%d rows rendered", rows)
	if rows < 100 {
		t.Errorf("only %d rows rendered", rows)
	}
}
