package textlayer

import (
	"fmt"
	"strings"
)

// What is a call: one table, read by every engine. A candidate call has a
// shape (Shape) and stands somewhere in the output (Place, decided by the
// text's structure: line boundaries, what precedes the candidate on its
// line, and what follows it up to the end of its own line); a fenced one
// also has a label (Label). Whether tools are declared and, where families
// truly differ, the family (Family) are columns too. The cell says what
// the candidate is: a call, or content shown as written.
//
// No cell that hands an agent a call depends on a word or on punctuation
// of the prose around it: prose may turn a call into content, never make
// one. Structure inside a string, inline code, a quotation or a reasoning
// block is text.

// Shape is the form of a candidate call.
type Shape uint8

// The shapes of a candidate call.
const (
	// Framed is a call in the dialect's own framing: its markers, tags or
	// special tokens (<tool_call>…</tool_call>, [TOOL_CALLS]…).
	Framed Shape = iota
	// Envelope is a bare JSON call envelope ({"name": …, "arguments": …},
	// or a list of them) with no framing around it.
	Envelope
	// List is a bare call list in Python call syntax ([f(a=1), g()]).
	List
	// Fenced is a Markdown code fence holding an envelope or a call list;
	// its Label decides.
	Fenced
)

// String names the shape as docs/dialects.md writes it.
func (s Shape) String() string {
	switch s {
	case Framed:
		return "the dialect's own framing"
	case Envelope:
		return "a bare JSON envelope"
	case List:
		return "a bare call list `[f(a=1)]`"
	}
	return "a fenced block"
}

// Place is where a candidate stands in the output.
type Place uint8

// The places of a candidate.
const (
	// Opens: nothing but blanks before it in the output (reasoning split
	// off), nothing but blanks or separators after it on its line.
	Opens Place = iota
	// LeadsProse: nothing but blanks before it in the output, text after
	// it on its line.
	LeadsProse
	// OwnLine: nothing but blanks before it on its line, and nothing but
	// blanks or separators after it on its line.
	OwnLine
	// AfterColon: text before it on its line ends with ':' (whatever
	// follows it on its line).
	AfterColon
	// AfterText: other text before it on its line, nothing but blanks or
	// separators after it on its line.
	AfterText
	// InProse: text after it on its line, and text before it that no
	// colon ends, or none: it stands inside a line of prose.
	InProse
	// InReasoning: inside a reasoning block.
	InReasoning
	// InInlineCode: inside inline code (`…`), a code span as CommonMark
	// pairs them: a run of backticks (CodeSpanRun) to the next run of
	// exactly its length in its paragraph, whatever stands around either.
	InInlineCode
	// InQuotation: inside a quotation in a sentence ("…", “…”), opened by a
	// quote mark that begins a quoted text (QuoteBegins) after text on its
	// line that no colon ends (QuoteShows), and not closed before the
	// candidate: its partner outside the brackets and tags of the syntax
	// it holds (SyntaxOpens) closes it.
	InQuotation
	// InCodeFence: inside a fence labelled with a programming language.
	InCodeFence
)

// places lists the places in table order.
var places = []Place{Opens, LeadsProse, OwnLine, AfterColon, AfterText, InProse, InReasoning, InInlineCode, InQuotation, InCodeFence}

// String names the place as docs/dialects.md writes it.
func (p Place) String() string {
	return [...]string{"opens the output", "opens the output, text after it", "on its own line", "after a colon", "after text on its line",
		"inside a line of prose", "inside reasoning", "inside inline code", "inside a quotation", "inside a code fence"}[p]
}

// Family is a family of dialects, where families read a candidate
// differently.
type Family uint8

// The families the table tells apart.
const (
	// AnyFamily is every family: a row that holds for all.
	AnyFamily Family = iota
	// JSONFamily reads JSON envelopes: json, markdown_json, the markers
	// family's bare dialects (llama3_json, granite, …).
	JSONFamily
	// HermesFamily reads <tool_call> tags and, as llama.cpp does, fences
	// labelled xml around them.
	HermesFamily
	// PythonicFamily reads Python call syntax: pythonic, llama4_pythonic,
	// lfm2, olmo3.
	PythonicFamily
	// MarkersFamily is the markers family's bare JSON dialects
	// (llama3_json, granite, generic_json, gemini, …), whose calls come
	// in an envelope of their own.
	MarkersFamily
)

// String names the family as docs/dialects.md writes it.
func (f Family) String() string {
	return [...]string{"every family", "json families", "hermes", "pythonic", "markers (bare)"}[f]
}

// Cell is what the table says a candidate is.
type Cell uint8

// The cells.
const (
	// Content: the candidate is text, shown as written, with no error.
	Content Cell = iota
	// Call: the candidate is read as calls (each may still fail its
	// checks with a coded error).
	Call
	// CallIfDeclared: a call when every call it holds names a declared
	// tool; content otherwise.
	CallIfDeclared
	// CallIfEnveloped: a call when the dialect's own envelope wraps it
	// ({"function_call": {…}}); content otherwise.
	CallIfEnveloped
)

// String names the cell as docs/dialects.md writes it.
func (c Cell) String() string {
	return [...]string{"content", "call", "call if it names declared tools", "call if in the dialect's envelope"}[c]
}

// Tools is the tools column: whether the request declares tools.
type Tools uint8

// The values of the tools column.
const (
	// EitherTools: with or without declared tools.
	EitherTools Tools = iota
	// NoTools: no tool declared.
	NoTools
	// Declared: tools declared.
	Declared
)

// String names the column's value as docs/dialects.md writes it.
func (t Tools) String() string {
	return [...]string{"either", "none declared", "declared"}[t]
}

// Row is one row of the table. Zero columns match anything: Labels nil is
// every label, Places nil every place.
type Row struct {
	Shape  Shape
	Labels []Label // Fenced only: the labels the row is for
	Places []Place
	Tools  Tools
	Family Family
	Cell   Cell
	Why    string
}

// shown are the places where a candidate is always shown, never made.
var shown = []Place{InReasoning, InInlineCode, InQuotation, InCodeFence}

// proseLine are the places on a line with text before the candidate.
var structural = []Place{Opens, LeadsProse, OwnLine, AfterColon, AfterText}

// Table is what is a call. The first row that matches a candidate decides.
var Table = []Row{
	{Places: shown, Shape: Framed, Cell: Content,
		Why: "structure inside reasoning, inline code, a quotation or a program is text"},
	{Places: shown, Shape: Envelope, Cell: Content, Why: "as above"},
	{Places: shown, Shape: List, Cell: Content, Why: "as above"},
	{Places: shown, Shape: Fenced, Cell: Content, Why: "as above"},
	{Shape: Fenced, Labels: []Label{Code}, Cell: Content,
		Why: "a fence labelled with a programming language holds a program: Code Mode may report it, it is never a tool call"},
	{Shape: Framed, Places: structural, Cell: Call,
		Why: "the dialect's framing announces the call"},
	{Shape: Framed, Places: []Place{InProse}, Cell: Call,
		Why: "the framing announces the call; a marker in a sentence whose call fails to read is content (inprose.Mentioned)"},
	{Shape: Envelope, Places: []Place{LeadsProse}, Tools: NoTools, Family: MarkersFamily, Cell: CallIfEnveloped,
		Why: "an object that opens the output with text after it is a call in the markers family only in its own envelope, as llama.cpp and smg read Llama 3's"},
	{Shape: Envelope, Places: []Place{Opens, LeadsProse, OwnLine, AfterColon, AfterText}, Tools: NoTools, Cell: Call,
		Why: "a whole envelope that opens the output, that a colon introduces, or that ends its line"},
	{Shape: Envelope, Places: []Place{LeadsProse}, Tools: Declared, Family: MarkersFamily, Cell: Content,
		Why: "with tools declared, the markers family reads a bare value only alone on its line"},
	{Shape: Envelope, Places: []Place{Opens, LeadsProse, OwnLine}, Tools: Declared, Cell: CallIfDeclared,
		Why: "with tools declared, a bare value that opens the output or stands alone on its line is a call when it names them"},
	{Shape: Envelope, Cell: Content,
		Why: "a value that shares its line with prose is written in a sentence: shown, not made"},
	{Shape: List, Places: []Place{Opens, LeadsProse, OwnLine, AfterColon, AfterText}, Cell: Call,
		Why: "a call list that opens the output, that a colon introduces, or that ends its line"},
	{Shape: List, Places: []Place{InProse}, Cell: Content,
		Why: "a list that shares its line with prose is written in a sentence: shown, not made"},
	{Shape: Fenced, Labels: []Label{Unlabelled, JSON, CallLabel}, Family: JSONFamily, Cell: Call,
		Why: "a fence labelled as data or as a call, holding envelopes"},
	{Shape: Fenced, Labels: []Label{Unlabelled, JSON, CallLabel, Markup}, Family: HermesFamily, Cell: Call,
		Why: "hermes reads xml fences around its tags, as llama.cpp does"},
	{Shape: Fenced, Labels: []Label{Unlabelled, CallLabel, Plain}, Family: PythonicFamily, Cell: Call,
		Why: "pythonic models fence their call lists unlabelled, as tool_code or as plain text"},
	{Shape: Fenced, Cell: Content, Why: "a label the family does not write its calls under"},
}

// Decide returns the cell for a candidate of shape s, fenced under label
// l (Fenced only), standing at p, with tools declared or not, read by a
// dialect of family f.
func Decide(s Shape, l Label, p Place, tools bool, f Family) Cell {
	for _, r := range Table {
		if r.matches(s, l, p, tools, f) {
			return r.Cell
		}
	}
	return Content
}

// Is reports whether a candidate is a call by the table; declared says
// whether every call it holds names a declared tool (CallIfDeclared),
// enveloped whether the dialect's own envelope wraps it (CallIfEnveloped).
func Is(s Shape, l Label, p Place, tools bool, f Family, declared, enveloped bool) bool {
	switch Decide(s, l, p, tools, f) {
	case Call:
		return true
	case CallIfDeclared:
		return declared
	case CallIfEnveloped:
		return enveloped
	}
	return false
}

func (r Row) matches(s Shape, l Label, p Place, tools bool, f Family) bool {
	if r.Shape != s || r.Family != AnyFamily && r.Family != f {
		return false
	}
	if r.Tools == NoTools && tools || r.Tools == Declared && !tools {
		return false
	}
	return (r.Labels == nil || contains(r.Labels, l)) && (r.Places == nil || contains(r.Places, p))
}

func contains[T comparable](s []T, v T) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// Markdown renders the table as docs/dialects.md shows it: one row per
// shape (and label, for fences), one column per place.
func Markdown() string {
	var b strings.Builder
	b.WriteString("| candidate | tools | family |")
	for _, p := range places {
		b.WriteString(" " + p.String() + " |")
	}
	b.WriteString("\n|---|---|---|")
	for range places {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	type key struct {
		s Shape
		l Label
	}
	var keys []key
	for _, s := range []Shape{Framed, Envelope, List} {
		keys = append(keys, key{s, 0})
	}
	for _, l := range []Label{Unlabelled, JSON, CallLabel, Plain, Markup, Code} {
		keys = append(keys, key{Fenced, l})
	}
	for _, k := range keys {
		name := k.s.String()
		if k.s == Fenced {
			name = fmt.Sprintf("a fence labelled %s", k.l)
			if k.l == Unlabelled {
				name = "an unlabelled fence"
			}
		}
		fams := []Family{AnyFamily}
		if k.s == Fenced && k.l != Code {
			fams = []Family{JSONFamily, HermesFamily, PythonicFamily}
		}
		toolsCols := []Tools{EitherTools}
		if k.s == Envelope {
			toolsCols = []Tools{NoTools, Declared}
			fams = []Family{AnyFamily, MarkersFamily}
		}
		for _, f := range fams {
			for _, t := range toolsCols {
				fmt.Fprintf(&b, "| %s | %s | %s |", name, t, f)
				for _, p := range places {
					b.WriteString(" " + Decide(k.s, k.l, p, t == Declared, f).String() + " |")
				}
				b.WriteString("\n")
			}
		}
	}
	return b.String()
}
