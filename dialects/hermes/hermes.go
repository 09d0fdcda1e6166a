// Package hermes extracts tool calls written in the Hermes dialect:
//
//	<tool_call>
//	{"name": "get_weather", "arguments": {"city": "Tokyo"}}
//	</tool_call>
//
// one block per call, as Hermes 2 Pro/3/4, Qwen2.5, Qwen3, QwQ, Granite 4,
// ERNIE 4.5 and others emit it, with <think>…</think> reasoning.
//
// Real output strays from the template, so the parser carries the fallback
// chain peers apply (llama.cpp's HERMES_2_PRO, plugable-chat): tags in any
// case and small misspellings (<toolcall>, <TOOL_CALL>, <tool-call>),
// attributes on the tag, an unclosed final tag (truncated output), a closing
// tag without its opening one, the alternative wrappers <tools>, <tool>,
// <function_call>, <function=NAME>{…}</function> and
// <function name="NAME">{…}</function>, fenced blocks holding a call object,
// several objects or an array of calls in one block, and, as a last resort,
// a bare JSON object in the text that is shaped like a call. See
// docs/dialects/hermes.md for the exact rules.
package hermes

import (
	"strings"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/textcall"
)

// Dialect is the hermes dialect. It is safe for concurrent use.
var Dialect dialects.Dialect = hermes{}

// All returns every dialect of this package.
func All() []dialects.Dialect { return []dialects.Dialect{Dialect} }

type hermes struct{}

// Name is the catalogue name.
func (hermes) Name() string { return "hermes" }

// Markers are the literal tags whose presence is evidence for the dialect.
func (hermes) Markers() []string { return []string{"<tool_call>", "</tool_call>"} }

// Syntax describes the dialect to the stream engine: each <tool_call> block
// is a region; the other tags the fallback chain accepts (in any case), code
// fences and bare JSON hold the stream back until the end.
func (hermes) Syntax() dialects.Syntax { return syntax() }

// start is the syntax an output's reasoning start is read from
// (dialects.ImplicitReasoningIn).
var start = syntax()

func syntax() dialects.Syntax {
	return dialects.Syntax{
		Starts:    []string{"<tool_call>"},
		Ends:      []string{"</tool_call>"},
		Reasoning: []dialects.ReasoningTags{dialects.Think},
		Tokens:    []string{"<tool", "</tool", "<function", "</function", "<json", "<xml", "<response", "```"},
		Bare:      "{[",
		Quotes:    `"`,
	}
}

// Extract finds the calls in text, and the content and reasoning around them.
// A call shown in inline code or in a fence presented as an example is
// not read (dialects.ExtractShown).
func (hermes) Extract(text string, opts *dialects.Options) *dialects.Extraction {
	implicit := dialects.ImplicitReasoningIn(text, &start, opts)
	return dialects.ExtractShown(text, func(text string) *dialects.Extraction { return hermes{}.extract(text, opts, implicit) })
}

// extract is Extract on text whose shown parts are held out.
func (hermes) extract(text string, opts *dialects.Options, implicit bool) *dialects.Extraction {
	x := &extractor{Reader: textcall.MakeReader(text, opts)}
	// Reasoning is trimmed like every block's, the one the template opened
	// at the start of the output too (dialects.SplitReasoning).
	x.reasoning.Cut()
	for _, sg := range segments(x.segs[:0], text, x.Opts.ReasoningOpen, implicit) {
		if sg.reasoning {
			x.reasoningSegment(sg)
		} else {
			x.contentSegment(sg.start, sg.end)
		}
	}
	return &dialects.Extraction{
		Calls:     x.calls,
		Content:   x.content.String(),
		Reasoning: x.reasoning.String(),
		Marked:    x.marked,
	}
}

// extractor holds the state of one Extract call.
type extractor struct {
	textcall.Reader
	// segs holds the segments of an output with few reasoning blocks.
	segs               [3]segment
	calls              []dialects.RawCall
	content, reasoning textcall.Joiner
	marked             bool
	// keep collects prose found inside the block being read, outside its
	// calls, for the block's region (region.keep).
	keep []string
	// lastValue is the value valueEnd measured last.
	lastValue measured
	// gapEnd is the end of the gap gapPass reads: a bare value may run
	// past a stray closing tag up to it.
	gapEnd int
	// floor is where the content segment being read starts when nothing
	// came before it but reasoning, -1 otherwise (textlayer.PlaceOf).
	floor int
}

// region is a span of the text taken out as calls: a tag block, a fence, a
// bare call object. An entry of calls with Err set is markup that was found
// but could not be read; calls is empty only for markup holding an empty
// list ("<tool_call>[]</tool_call>").
type region struct {
	start, end int
	calls      []dialects.RawCall
	// keep is prose written inside the region outside its calls: it is
	// content, not part of a call.
	keep []string
}

// contentSegment extracts everything from text[start:end], which lies
// outside reasoning: tag blocks first, then fences and bare call objects in
// the text between them.
func (x *extractor) contentSegment(start, end int) {
	x.reasoning.Cut()
	x.floor = -1
	if x.content.Empty() && len(x.calls) == 0 {
		x.floor = start
	}
	tagged, orphans := x.tagPass(start, end)
	pos := start
	for _, r := range tagged {
		x.contentGap(pos, r.start, &orphans)
		x.emit(&x.content, r)
		pos = r.end
	}
	x.contentGap(pos, end, &orphans)
}

// contentGap writes text[start:end], which lies between tag blocks: the
// calls the fallbacks find in it, and the rest as content.
func (x *extractor) contentGap(start, end int, orphans *[]tag) {
	pos := start
	for _, r := range x.gapPass(start, end, orphans) {
		x.content.Write(x.Text[pos:r.start])
		x.emit(&x.content, r)
		pos = r.end
	}
	x.content.Write(x.Text[pos:end])
}

// reasoningSegment handles a reasoning segment. A closed block is all
// reasoning: a call written inside it is the model thinking about a call,
// not making one (llama.cpp and vLLM agree), and it stays in the
// reasoning. In reasoning that is never closed, the first call ends it:
// the model left reasoning without saying so, and what follows the call is
// content (Ollama's qwen3 parser does the same).
func (x *extractor) reasoningSegment(sg segment) {
	x.content.Cut()
	if sg.open {
		if tagged, _ := x.tagPass(sg.start, sg.end); len(tagged) > 0 {
			x.reasoning.Write(x.Text[sg.start:tagged[0].start])
			x.contentSegment(tagged[0].start, sg.end)
			return
		}
	}
	// The tags are still evidence of the dialect, for detection.
	x.marked = x.marked || strings.Contains(x.Text[sg.start:sg.end], "<tool_call>")
	x.reasoning.Write(x.Text[sg.start:sg.end])
}

// emit records a region's calls and cuts the text around it. The calls
// keep the region's whole text (dialects.KeepText).
func (x *extractor) emit(j *textcall.Joiner, r region) {
	j.Cut()
	dialects.KeepText(r.calls, x.Text[r.start:r.end])
	for _, k := range r.keep {
		j.Write(k)
		j.Cut()
	}
	if x.calls == nil && len(r.calls) > 0 {
		// Room for one call per <tool_call> tag up front; the region's
		// own slice when it holds them all.
		n := strings.Count(x.Text, "<tool_call>")
		if len(r.calls) >= n {
			x.calls = r.calls
			return
		}
		x.calls = make([]dialects.RawCall, 0, n)
	}
	x.calls = append(x.calls, r.calls...)
}

// segment is a span of text that is either reasoning or not. The reasoning
// tags themselves lie between segments.
type segment struct {
	start, end int
	reasoning  bool
	open       bool // reasoning that is never closed
}

const (
	thinkOpen  = "<think>"
	thinkClose = "</think>"
)

// segments splits text at <think>…</think>, with the same rules as
// dialects.SplitReasoning, but keeping byte offsets (calls inside reasoning
// need them): every block is reasoning, a block never closed runs to the
// end, and when the template opened reasoning (startsOpen) or a closing tag
// comes before any opening one, everything before the first closing tag is
// reasoning. Some Qwen3 checkpoints repeat the opening tag the template
// already wrote; it is skipped. A tag inside a string of a JSON value is
// text (dialects.IndexTag). The segments are appended to segs.
func segments(segs []segment, text string, startsOpen, implicit bool) []segment {
	pos := 0
	firstOpen := dialects.IndexTag(text, thinkOpen)
	firstClose := -1 // looked for only when a leading block may lack its opening tag
	if startsOpen || implicit {
		firstClose = dialects.IndexTag(text, thinkClose)
	}
	if startsOpen || (implicit && firstClose >= 0 && (firstOpen < 0 || firstClose < firstOpen)) {
		start := 0
		if startsOpen {
			if t := textcall.SkipSpace(text, 0, len(text)); strings.HasPrefix(text[t:], thinkOpen) && (firstClose < 0 || t < firstClose) {
				start = t + len(thinkOpen)
			}
		}
		if firstClose < 0 {
			return append(segs, segment{start: start, end: len(text), reasoning: true, open: true})
		}
		segs = append(segs, segment{start: start, end: firstClose, reasoning: true})
		pos = firstClose + len(thinkClose)
	}
	for {
		// The first opening tag at or after pos: the one found first while
		// it lies ahead (none anywhere when none was found).
		i := firstOpen
		if i >= 0 && i < pos {
			if i = dialects.IndexTag(text[pos:], thinkOpen); i >= 0 {
				i += pos
			}
		}
		if i < 0 {
			return append(segs, segment{start: pos, end: len(text)})
		}
		segs = append(segs, segment{start: pos, end: i})
		body := i + len(thinkOpen)
		j := dialects.IndexTag(text[body:], thinkClose)
		if j < 0 {
			return append(segs, segment{start: body, end: len(text), reasoning: true, open: true})
		}
		segs = append(segs, segment{start: body, end: body + j, reasoning: true})
		pos = body + j + len(thinkClose)
	}
}
