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
	"strings"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/textcall"
	"github.com/dialectkit/toolcall/internal/coded"
	"github.com/dialectkit/toolcall/internal/textlayer"
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
	return dialects.Syntax{Reasoning: []dialects.ReasoningTags{dialects.Think}, Tokens: []string{"```", "~~~"}, Starts: callFences}
}

// callFences are the fence openings that start a call: an output that
// opens with one opens with a call.
var callFences = []string{"```json", "```tool_call"}

// Extract finds the fenced calls in text. Reasoning (<think>…</think>) is
// split off first; fences inside it are not calls.
// A call shown in inline code or in a fence presented as an example is
// not read (dialects.ExtractShown).
func (markdownJSON) Extract(text string, opts *dialects.Options) *dialects.Extraction {
	return dialects.ExtractShown(text, func(text string) *dialects.Extraction { return markdownJSON{}.extract(text, opts) })
}

// extract is Extract on text whose shown parts are held out.
func (markdownJSON) extract(text string, opts *dialects.Options) *dialects.Extraction {
	if opts == nil {
		opts = &dialects.Options{}
	}
	// An output that opens with a call fence opened inside no reasoning
	// block: a closing tag later in it is text, as in every dialect
	// (dialects.ImplicitReasoningIn).
	syn := markdownJSON{}.Syntax()
	reasoning, rest := dialects.SplitReasoning(text, dialects.ReasoningSplit{Tags: []dialects.ReasoningTags{dialects.Think}, StartsOpen: opts.ReasoningOpen, Implicit: dialects.ImplicitReasoningIn(text, &syn, opts)})
	ext := &dialects.Extraction{Reasoning: reasoning}
	// rest is text with reasoning removed: read it, and map offsets back to
	// text by finding each call fence there (its bytes are text's own).
	r := textcall.NewReader(rest, opts)
	var content textcall.Joiner
	from := 0 // where to look for the next fence in text
	pos := 0
	for pos < len(rest) {
		i := strings.Index(rest[pos:], "```")
		if i < 0 {
			break
		}
		f := textlayer.FenceAt(rest, pos+i, len(rest))
		content.Write(rest[pos:f.Start])
		calls, ok := fenceCalls(r, f)
		if !ok {
			content.Write(rest[f.Start:f.End])
			pos = f.End
			continue
		}
		// A fence holding nothing but call objects is this dialect's own
		// syntax, even when a call then fails its checks: detection keeps
		// the failure, which a retry needs, instead of calling it content.
		ext.Marked = true
		content.Cut()
		shift := -1
		if at := strings.Index(text[from:], rest[f.Start:f.End]); at >= 0 {
			shift = from + at - f.Start
			from += at + f.End - f.Start
		}
		dialects.KeepText(calls, rest[f.Start:f.End])
		for _, c := range calls {
			c.Offset = moved(c.Offset, shift)
			if e := coded.As(c.Err); e != nil {
				e.Offset = moved(e.Offset, shift)
			}
			ext.Calls = append(ext.Calls, c)
		}
		pos = f.End
	}
	content.Write(rest[pos:])
	ext.Content = content.String()
	return ext
}

// fenceCalls reads a fence as calls: its language must announce JSON (or be
// absent), and it must hold nothing but call-shaped JSON.
func fenceCalls(r *textcall.Reader, f textlayer.Fence) ([]dialects.RawCall, bool) {
	if !textlayer.Is(textlayer.Fenced, textlayer.LabelOf(f.Info), textlayer.OwnLine, false, textlayer.JSONFamily, true, false) || r.PresentedAsExample(f.Start) {
		return nil, false // a fence that prose presents as an example is shown, not called
	}
	calls, used, ok := r.Framed(f.BodyStart, f.BodyEnd, true)
	if ok && textcall.SkipSpace(r.Text, used, f.BodyEnd) != f.BodyEnd {
		textcall.NoteStrayClosers(calls)
	}
	return calls, ok
}

// moved shifts an offset in the reasoning-stripped text back to the
// original text; -1 when either is unknown.
func moved(offset, shift int) int {
	if offset < 0 || shift < 0 {
		return -1
	}
	return offset + shift
}
