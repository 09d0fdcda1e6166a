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

import (
	"strings"

	"github.com/dialectkit/toolcall/dialects"
)

// Name is the dialect's catalogue name.
const Name = "harmony"

// Dialect is the harmony dialect. It is safe for concurrent use.
var Dialect dialects.Dialect = harmonyDialect{}

var _ dialects.Marked = harmonyDialect{}

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

// Extract reads the messages of a harmony output. Calls keep the recipient
// as their name, without the "functions." namespace and mapped back to a
// declared tool when the model wrote a sanitised form of its name.
// A call shown in inline code or in a fence presented as an example is
// not read (dialects.ExtractShown), and neither is harmony markup inside a
// closed <think> block, which is reasoning as in every dialect.
func (harmonyDialect) Extract(text string, opts *dialects.Options) *dialects.Extraction {
	return dialects.ExtractShown(text, func(text string) *dialects.Extraction { return harmonyDialect{}.extract(text, opts) })
}

// extract is Extract on text whose shown parts are held out.
func (h harmonyDialect) extract(text string, opts *dialects.Options) *dialects.Extraction {
	if opts == nil {
		opts = &dialects.Options{}
	}
	s := &scanner{text: text, opts: opts, ext: &dialects.Extraction{},
		thinkOpen: finder{lit: dialects.Think.Open}, thinkClose: finder{lit: dialects.Think.Close}}
	s.run()
	s.ext.Content = strings.Join(s.content, "\n")
	s.ext.Reasoning = strings.Join(s.reasoning, "\n")
	return s.ext
}
