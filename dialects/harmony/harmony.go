// Package harmony is the dialect of OpenAI's gpt-oss models (20b, 120b):
// the harmony response format, where every message has a header and a body,
//
//	<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Tokyo"}<|call|>
//
// The header names the role, the channel (analysis, commentary, final), and
// for a tool call the recipient, to=functions.NAME, which may also stand
// next to the role. The body runs to <|end|>, <|call|>, <|return|>, the
// next message, or the end of the output. A message with a recipient is a
// call whose body is its arguments; analysis is reasoning; final and
// commentary without a recipient (a preamble) are content.
//
// The chat template writes <|start|>assistant itself, so output usually
// starts in the middle of a header: "<|channel|>analysis<|message|>…" or
// " to=functions.x<|channel|>commentary<|message|>{…}".
package harmony

import "github.com/dialectkit/toolcall/dialects"

// Name is the dialect's catalogue name.
const Name = "harmony"

// Dialect is the harmony dialect. It is safe for concurrent use.
var Dialect dialects.Dialect = harmonyDialect{}

var (
	_ dialects.Marked      = harmonyDialect{}
	_ dialects.Incremental = harmonyDialect{}
)

type harmonyDialect struct{}

// Name returns "harmony".
func (harmonyDialect) Name() string { return Name }

// Markers are the harmony special tokens, strongest first: <|channel|>,
// <|constrain|> and <|call|> only occur in harmony; <|start|>, <|message|>
// and <|end|> are shared with a few other formats.
func (harmonyDialect) Markers() []string {
	return []string{mChannel, mConstrain, mCall, mMessage, mStart, mReturn, mEnd}
}

// Triggers are the harmony special tokens: a text without any of them
// holds no call and no marker (dialects.Prefiltered).
func (h harmonyDialect) Triggers() []string { return h.Markers() }

// Extract reads the messages of a harmony output: it is Read of a new
// Reader (NewReader), the one reading a stream makes too. Calls keep the
// recipient as their name, without the "functions." namespace and mapped
// back to a declared tool when the model wrote a sanitised form of its
// name. A call shown in inline code, in a quotation or in a fence the
// prose before it presents as an example is not read
// (shown.ShownScan), and neither is harmony markup inside a closed
// <think> block, which is reasoning as in every dialect.
func (h harmonyDialect) Extract(text string, opts *dialects.Options) *dialects.Extraction {
	return dialects.Read(h.NewReader(opts), text)
}
