// Package pythonic holds the dialects whose tool calls are Python call
// expressions, or lists of call objects, inside optional markers:
//
//	pythonic         [get_weather(city='San Francisco'), get_time()]
//	llama4_pythonic  <|python_start|>[get_weather(city='LA')]<|python_end|>
//	olmo3            <function_calls>get_weather(location="SF")\nget_time()</function_calls>
//	lfm2             <|tool_call_start|>[get_weather(city="Paris")]<|tool_call_end|>
//	sarashina        <|tool_calls|>[{'name': 'get_weather', 'arguments': {'city': 'Tokyo'}}]
//	llama3_builtin   <|python_tag|>brave_search.call(query="weather")
//
// Call arguments are Python literals (keyword and positional arguments,
// single, double and triple quotes, True/False/None, nested lists, dicts and
// tuples; the JSON spellings too), parsed by the loose-literal grammar of
// the lenient package one call at a time, so that one broken call costs its
// own error and not its siblings. docs/dialects/pythonic.md describes each
// dialect, what is accepted, and how content and reasoning are split.
package pythonic

import (
	"slices"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/lenient"
)

// Dialect describes one dialect of the family: its markers, blocks and
// marker-less rules, read by the family's engine (Engine). Its values are
// safe for concurrent use.
type Dialect struct {
	name    string
	markers []string
	blocks  []blockKind
	// fallback says which calls count when none of the dialect's blocks
	// is present.
	fallback fallback
	// thinkOpen: the chat template opens reasoning (OLMo 3 Think), so an
	// output with "</think>" that does not itself open with "<think>"
	// starts inside reasoning.
	thinkOpen bool
	// reasoningClosed: no template of the family opens a reasoning block
	// (dialects.Syntax.ReasoningClosed).
	reasoningClosed bool
	// start is the syntax an output's reasoning start is read from
	// (dialects.ImplicitReasoning), set by init.
	start dialects.Syntax
	// builtin applies Llama 3's built-in tool rules: "name.call(...)"
	// names the tool "name", and other code after the tag is a call to the
	// code interpreter.
	builtin bool
}

// Engine is a dialect of the family read by the family's incremental
// engine (dialects.Incremental): its Extract is the reading of its
// Reader. Its values are safe for concurrent use.
type Engine struct{ *Dialect }

// Extract reads text whole with the dialect's Reader.
func (d Engine) Extract(text string, opts *dialects.Options) *dialects.Extraction {
	return dialects.Read(d.NewReader(opts), text)
}

// blockKind is a marked region that holds calls.
type blockKind struct {
	open string
	// closes end the block; when none follows (before the next block),
	// the block ends where its calls end and the rest is content.
	closes []string
	// evidence marks the block's opener as the dialect's own marker.
	evidence bool
}

type fallback int

const (
	// noFallback: without the dialect's markers there are no calls.
	noFallback fallback = iota
	// proseCalls: the marker-less rules of the pythonic dialect.
	proseCalls
	// declaredCalls: the marker-less rules, for declared tool names only.
	declaredCalls
	// builtinCalls: an output that is nothing but name.call(...) calls.
	builtinCalls
)

var pythonBlocks = []blockKind{
	{open: "<|python_start|>", closes: []string{"<|python_end|>"}, evidence: true},
	// Llama 3.x sometimes writes pythonic calls after its JSON-call tag;
	// the tag belongs to llama3_json and llama3_builtin, so it is not this
	// dialect's evidence.
	{open: "<|python_tag|>", closes: []string{"<|eom_id|>", "<|eot_id|>"}},
}

// The dialects of the family.
var (
	// Pythonic is the generic pythonic dialect (Llama 3.2's pythonic
	// prompt, ToolACE, any model prompted to answer with Python calls).
	Pythonic = Engine{&Dialect{
		name:            "pythonic",
		markers:         []string{"<|python_start|>", "<|python_end|>"},
		blocks:          pythonBlocks,
		fallback:        proseCalls,
		reasoningClosed: true,
	}}
	// Llama4Pythonic is Llama 4's pythonic dialect; its markers are
	// optional.
	Llama4Pythonic = Engine{&Dialect{
		name:            "llama4_pythonic",
		markers:         []string{"<|python_start|>", "<|python_end|>"},
		blocks:          pythonBlocks,
		fallback:        proseCalls,
		reasoningClosed: true,
	}}
	// Olmo3 is AI2 OLMo 3's dialect: one call per line inside
	// <function_calls>.
	Olmo3 = Engine{&Dialect{
		name:      "olmo3",
		markers:   []string{"<function_calls>", "</function_calls>"},
		blocks:    []blockKind{{open: "<function_calls>", closes: []string{"</function_calls>"}, evidence: true}},
		fallback:  declaredCalls,
		thinkOpen: true,
	}}
	// LFM2 is Liquid LFM2 / LFM2.5's dialect: a pythonic list or a JSON
	// list of call objects inside <|tool_call_start|>…<|tool_call_end|>.
	LFM2 = Engine{&Dialect{
		name:     "lfm2",
		markers:  []string{"<|tool_call_start|>", "<|tool_call_end|>"},
		blocks:   []blockKind{{open: "<|tool_call_start|>", closes: []string{"<|tool_call_end|>"}, evidence: true}},
		fallback: declaredCalls,
	}}
	// Sarashina is SB Intuitions Sarashina's dialect: a list of call
	// objects, Python dicts or JSON, after <|tool_calls|>.
	Sarashina = Engine{&Dialect{
		name:    "sarashina",
		markers: []string{"<|tool_calls|>"},
		blocks:  []blockKind{{open: "<|tool_calls|>", evidence: true}},
	}}
	// Llama3Builtin is Llama 3.1/3.3's built-in tool dialect:
	// <|python_tag|>brave_search.call(query="…").
	Llama3Builtin = Engine{&Dialect{
		name:            "llama3_builtin",
		markers:         []string{"<|python_tag|>", "<|eom_id|>"},
		blocks:          []blockKind{{open: "<|python_tag|>", closes: []string{"<|eom_id|>", "<|eot_id|>"}, evidence: true}},
		fallback:        builtinCalls,
		builtin:         true,
		reasoningClosed: true,
	}}
)

func init() {
	for _, d := range All() {
		d := spec(d)
		d.start = d.Syntax()
	}
}

// spec returns the description of d, a dialect of the family.
func spec(d dialects.Dialect) *Dialect { return d.(Engine).Dialect }

// All returns every dialect of the family.
func All() []dialects.Dialect {
	return []dialects.Dialect{Pythonic, Llama4Pythonic, Olmo3, LFM2, Sarashina, Llama3Builtin}
}

// Name is the dialect's catalogue name.
func (d *Dialect) Name() string { return d.name }

// Markers are the dialect's literal markers, strongest first.
func (d *Dialect) Markers() []string { return append([]string(nil), d.markers...) }

// Triggers are the literals one of which a text must hold for the
// dialect to find anything in it (dialects.Prefiltered): its blocks'
// opening markers, and for a dialect that reads calls without a marker,
// '(' (no call is written without one).
func (d *Dialect) Triggers() []string {
	out := make([]string, 0, len(d.blocks)+1)
	for _, b := range d.blocks {
		if b.open != "" && !slices.Contains(out, b.open) {
			out = append(out, b.open)
		}
	}
	if d.fallback != noFallback {
		out = append(out, "(")
	}
	return out
}

// Syntax describes the dialect to the stream engine: each block is a region;
// a block without a closing marker, and calls written without any marker,
// are read when the output ends.
func (d *Dialect) Syntax() dialects.Syntax {
	syn := dialects.Syntax{
		ReasoningClosed: d.reasoningClosed,
		Reasoning:       []dialects.ReasoningTags{dialects.Think},
		Tokens:          append([]string{"```"}, d.markers...),
	}
	closed := true
	for _, b := range d.blocks {
		syn.Starts = append(syn.Starts, b.open)
		syn.Ends = append(syn.Ends, b.closes...)
		closed = closed && len(b.closes) > 0
	}
	if !closed {
		syn.Tokens = append(syn.Tokens, syn.Ends...)
		syn.Ends = nil
	}
	if d.fallback != noFallback {
		syn.Bare = "[("
	}
	return syn
}

// extractor holds one reading's settings.
type extractor struct {
	d        *Dialect
	opts     *dialects.Options
	maxSize  int
	maxDepth int
}

func newExtractor(d *Dialect, opts *dialects.Options) *extractor {
	x := &extractor{d: d, opts: opts, maxSize: opts.Lenient.MaxSize, maxDepth: opts.Lenient.MaxDepth}
	if x.maxSize <= 0 {
		x.maxSize = lenient.DefaultMaxSize
	}
	if x.maxDepth <= 0 {
		x.maxDepth = lenient.DefaultMaxDepth
	}
	return x
}
