// Package markdownjson extracts tool calls a model wrote as JSON in a
// Markdown code fence, the fallback of any model without a tool syntax of
// its own (plugable-chat's markdown_json parser):
//
//	```json
//	{"name": "test_tool", "arguments": {"param": "value"}}
//	```
//
// One call per fenced object (fields name/arguments and their aliases, such
// as tool_name/tool_args), an array of calls in one fence, fences with no
// language tag, and {"tool_call": {…}} envelopes. A fenced object that does
// not read as a call stays content, and so does prose with no fence. See
// docs/dialects/markdownjson.md.
package markdownjson

import (
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/jsontext"
)

// Dialect is the markdown_json dialect. It is safe for concurrent use.
var Dialect dialects.Dialect = markdownJSON{}

// All returns every dialect of this package.
func All() []dialects.Dialect { return []dialects.Dialect{Dialect} }

type markdownJSON struct{}

// Name is the catalogue name.
func (markdownJSON) Name() string { return "markdown_json" }

// Markers returns nil: a code fence is too common in prose to be evidence.
func (markdownJSON) Markers() []string { return nil }

// Syntax describes the dialect to the stream engine: output from the first
// code fence on is settled when the output ends.
func (markdownJSON) Syntax() dialects.Syntax {
	return dialects.Syntax{Reasoning: []dialects.ReasoningTags{dialects.Think}, Tokens: []string{"```", "~~~"}}
}

// Extract finds the fenced calls in text: it is the Reader fed the whole
// text (dialects.Read). Reasoning (<think>…</think>) is read first; fences
// inside it are not calls. A fence whose label is one the table of what is
// a call reads calls under (none, json, tool_call, …), whose body begins
// with a call object and which the prose right before it does not present
// as an example (shown.PresentedAsExample) is read as it arrives: each
// value (each element of a list) goes out once the byte after it is read,
// and what follows it in the fence is content that does not unmake it.
// Any other fence is read once it closes, as text. What follows a fence
// never changes what it was.
func (d markdownJSON) Extract(text string, opts *dialects.Options) *dialects.Extraction {
	return dialects.Read(d.NewReader(opts), text)
}

// config is the dialect to the family's engine: fences only.
var config = jsontext.Config{}

// NewReader returns a Reader of one output (the family's engine,
// dialects/internal/jsontext).
func (markdownJSON) NewReader(opts *dialects.Options) dialects.Reader {
	return jsontext.NewReader(&config, opts)
}
