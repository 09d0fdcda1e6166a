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
	"github.com/dialectkit/toolcall/dialects/internal/rawcall"
	"github.com/dialectkit/toolcall/dialects/internal/textcall"
	"github.com/dialectkit/toolcall/internal/shown"
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

func syntax() dialects.Syntax {
	return dialects.Syntax{
		Starts:    []string{"<tool_call>"},
		Ends:      []string{"</tool_call>"},
		Reasoning: []dialects.ReasoningTags{dialects.Think},
		Tokens:    []string{"<tool", "</tool", "<function", "</function", "<json", "<xml", "<response", "```"},
		Bare:      "{[",
	}
}

// extractor holds the state of the reading of one unit of the output
// (NewReader): its calls, and the writes and cuts it made to the content
// and the reasoning.
type extractor struct {
	textcall.Reader
	calls              []dialects.RawCall
	content, reasoning recorder
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
	// tagShown and gapShown tell, by what precedes it, whether a place
	// shows a call rather than makes one: for the tag pass, and for the
	// fallbacks in the gaps between its blocks (shown.ShownScan).
	tagShown, gapShown shown.ShownScan
	// tags holds the tags the dialect knows in text[tokStart:tokEnd]
	// (tokens), kept those of them the tag pass reads, and regions its
	// regions, their arrays used again by the next unit; known are tags
	// of the text parsed before it was read (unitLines.tagAt), in order.
	tags, kept, known []tag
	tokStart, tokEnd  int
	regions           []region
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
// the text between them. floor is where the output outside reasoning
// starts when nothing came before start but blanks and list punctuation,
// -1 otherwise (textlayer.PlaceOf).
func (x *extractor) contentSegment(start, end, floor int) {
	x.reasoning.Cut()
	x.floor = floor
	x.tagShown.Reset()
	x.gapShown.Reset()
	tagged, orphans := x.tagPass(start, end)
	pos := start
	for _, r := range tagged {
		x.contentGap(pos, r.start, &orphans)
		x.gapShown.Call(r.start, r.end)
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

// reasoningSegment reads text[start:end], the end of a reasoning block
// that is never closed: the first call ends it, since the model left
// reasoning without saying so, and what follows the call is content
// (Ollama's qwen3 parser does the same). In a block that closes, a call is
// the model thinking about a call, not making one (llama.cpp and vLLM
// agree), and the reader keeps the whole block as reasoning. before says
// content or calls came before the block.
func (x *extractor) reasoningSegment(start, end int, before bool) {
	if tagged, _ := x.tagPass(start, end); len(tagged) > 0 {
		x.reasoning.Write(x.Text[start:tagged[0].start])
		floor := tagged[0].start
		if before {
			floor = -1
		}
		x.contentSegment(tagged[0].start, end, floor)
		return
	}
	// The tags are still evidence of the dialect, for detection.
	x.marked = x.marked || strings.Contains(x.Text[start:end], openToolCall)
	x.reasoning.Write(x.Text[start:end])
}

// emit records a region's calls and cuts the text around it. The calls
// keep the region's whole text (rawcall.KeepText).
func (x *extractor) emit(j *recorder, r region) {
	j.Cut()
	rawcall.KeepText(r.calls, x.Text[r.start:r.end])
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

const (
	thinkOpen  = "<think>"
	thinkClose = "</think>"
)
