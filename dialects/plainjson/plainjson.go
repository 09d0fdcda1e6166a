// Package plainjson is the "json" dialect: tool calls written as bare JSON
// objects, {"name": "get_weather", "arguments": {"city": "Paris"}}, as an
// array of them, or as several objects one after another. It is what
// template-less models, OpenAI-style prompting and tool_choice=required
// produce, and the fallback when no marker says otherwise.
package plainjson

import (
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/jsontext"
)

// Dialect is the "json" dialect.
var Dialect dialects.Dialect = jsonDialect{}

type jsonDialect struct{}

func (jsonDialect) Name() string { return "json" }

// Markers is nil: bare JSON has no marker, so detection tries it by parsing.
func (jsonDialect) Markers() []string { return nil }

// Syntax describes the dialect to the stream engine: output from the first
// bracket or code fence on is settled when the output ends.
func (jsonDialect) Syntax() dialects.Syntax { return syntax() }

func syntax() dialects.Syntax {
	return dialects.Syntax{Reasoning: []dialects.ReasoningTags{dialects.Think}, Tokens: []string{"```"}, Bare: "{["}
}

// Extract finds call objects in text: it is the Reader fed the whole text
// (dialects.Read).
//
// Values that open the output (reasoning aside), each alone on its line or
// in a run ("{…}; {…}"), are the dialect's own syntax: every object with a
// name field is a call, and an object that names nothing else than a call
// would (name, id, type) counts even without arguments. A value after
// prose is held to a higher bar, because explanations quote JSON: the
// table of what is a call (textlayer.Decide) must read a call where it
// stands (alone on its line, after a colon, ending its line — never
// inside a line of prose), it must stand outside inline code and
// quotation, the prose right before it must not present it as an example
// (shown.PresentedAsExample), and with declared tools it must name one
// of them; without, it must have both a name and an arguments field. A
// fence labelled json, a call label or nothing whose body begins with a
// call is read as it arrives, each value going out once the byte after it
// is read; any other fence is read inside when it closes. A value is
// decided when its line says where it stands; what follows never changes
// it. A call object cut off by the
// end of the output is truncated (TLP-014), not a call.
func (d jsonDialect) Extract(text string, opts *dialects.Options) *dialects.Extraction {
	return dialects.Read(d.NewReader(opts), text)
}

// config is the dialect to the family's engine: bare values and fences.
var config = jsontext.Config{Bare: true}

// NewReader returns a Reader of one output (the family's engine,
// dialects/internal/jsontext).
func (jsonDialect) NewReader(opts *dialects.Options) dialects.Reader {
	return jsontext.NewReader(&config, opts)
}
