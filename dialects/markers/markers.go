// Package markers is the engine for dialects that write tool calls as JSON
// inside markers, or as a marker, a name and JSON arguments, and the
// dialects built on it.
//
// Most tool-call dialects differ only in their markers: Mistral's
// [TOOL_CALLS], Jamba's <tool_calls>…</tool_calls>, DeepSeek's
// <｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}, Kimi's
// <|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{…}. A
// Descriptor says which markers a dialect uses and how a call is laid out
// between them; New turns it into a dialects.Dialect. The dialects of this
// package (Mistral, DeepSeekV3, KimiK2, Cohere, …) are descriptors of a few
// lines, and users can describe their own model's syntax the same way.
//
// The engine scans the output once. It finds each marker, reads the JSON
// after it by matching brackets (strings respected, so a marker inside an
// argument does not end the call), and hands the call object or the
// argument text to the shared finishing step (dialects.Finish), which
// repairs, checks names and validates. A value cut off by the end of the
// output is closed and still yields its call; a call whose markup is found
// but cannot be read becomes a coded error while the other calls parse.
package markers

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/dialectkit/toolcall/dialects"
)

// Descriptor describes a dialect that writes JSON tool calls between
// markers. Every marker may be given in several spellings; in a marker, a
// space stands for optional whitespace.
type Descriptor struct {
	// Name is the dialect's name, e.g. "mistral".
	Name string
	// Forms are the ways a call (or a run of calls) is written, each opened
	// by its own marker. A dialect with several syntaxes has several forms.
	Forms []Form
	// Section, when set, is a wrapper around the calls, as DeepSeek's
	// <｜tool▁calls▁begin｜>…<｜tool▁calls▁end｜> around its per-call
	// markers. Calls are also accepted without it.
	Section *Section
	// Reasoning lists the reasoning wrappers the family uses. A closing tag
	// with no opening one means the template opened reasoning, unless
	// ReasoningClosed says the family's templates never do, or the output
	// opens with a call (dialects.ImplicitReasoning). The
	// <think>…</think> wrapper is read as reasoning in every dialect, after
	// the family's own: call markup a model writes inside a closed think
	// block is it thinking about a call, whatever the dialect.
	Reasoning []dialects.ReasoningTags
	// ReasoningClosed says no chat template of the family opens a
	// reasoning block in its generation prompt (dialects.Syntax).
	ReasoningClosed bool
	// Strip lists tokens that are framing, not content, such as
	// <|eot_id|> or Cohere's <|END_RESPONSE|>; they are dropped from the
	// content. They are literal: spaces in them are not optional.
	Strip []string
	// Answer lists framing tokens that open the model's answer, such as
	// Cohere's <|START_RESPONSE|>: dropped from the content as Strip
	// tokens are, and an output that opens with one did not begin inside
	// reasoning (dialects.Syntax.Answer).
	Answer []string

	// NameIsKey says a call object may name its tool by its only key, as
	// in {"get_weather": {"city": "Tokyo"}}.
	NameIsKey bool
	// Envelopes are keys of a wrapping object whose value is a call object
	// or an array of them: {"tool_call": {...}}, {"tool_calls": [...]}.
	Envelopes []string
	// ContentKey is the key of a wrapping object whose string value is the
	// answer text rather than a call: {"response": "Hello"}.
	ContentKey string

	// Bare says calls may also be written as bare JSON, without any
	// marker. Bare JSON is a call only when it is the whole output (outside
	// reasoning, possibly in a code fence), or, when tools are declared,
	// when every call in it names a declared tool; a JSON example inside
	// prose is not a call.
	Bare bool
	// BarePrefix lists tokens that may precede bare JSON without being
	// evidence of the dialect (xLAM sometimes writes Mistral's [TOOL_CALLS]).
	BarePrefix []string
	// BareWrappers are pairs of literals that may frame bare JSON without
	// being evidence of the dialect (xLAM writes <tool_call>[…]</tool_call>).
	BareWrappers []Wrapper
	// FramedAfterProse makes bare JSON after prose a call when a frame
	// says so: a code fence, a BarePrefix token or a BareWrapper around a
	// value that is nothing but calls. Without it, bare JSON in prose is a
	// call only when it names declared tools. (xLAM's reference parser
	// searches the output for each of these frames.)
	FramedAfterProse bool

	// Markers, when not nil, replaces the markers derived from the forms
	// (see Dialect.Markers); an empty slice declares a dialect without
	// markers.
	Markers []string
}

// Wrapper is a pair of literals around a value.
type Wrapper struct{ Start, End string }

// Section is a wrapper around a dialect's calls.
type Section struct {
	// Start opens the section; End closes it (it may be missing at the end
	// of the output).
	Start, End []string
}

// Form is one way a dialect writes a call. After its Start marker come
// either JSON call values (Values), or a header holding the tool name
// ended by NameEnd and then the arguments, or raw text (RawName). A form
// may allow both Values and a header: what follows the marker decides.
type Form struct {
	// Start opens the call. Required.
	Start []string
	// End closes the call; optional in the output, since models stop early.
	End []string
	// Opener, when set, lists the bytes one of which must follow Start
	// (after whitespace) for the marker to open this form's call, as
	// Granite's "<tool_call>" followed by "[" (Hermes writes "{").
	Opener string
	// Shared says Start also appears in text that is not this form's call
	// (Inkling's message marker, the word "functools"): when what follows
	// is not a call, the marker is content, not a malformed call.
	Shared bool

	// Values says JSON call values follow Start: call objects such as
	// {"name": …, "arguments": {…}}, or arrays of them, one or several,
	// separated by whitespace, commas or semicolons, possibly fenced.
	Values bool

	// NameEnd, when set, says a header follows Start: the tool name, ended
	// by one of these markers, then the arguments as JSON.
	NameEnd []string
	// NameAtValue says the header may also end where the JSON arguments
	// start, for Mistral's "[TOOL_CALLS]add{…}" when [ARGS] was stripped as
	// a special token.
	NameAtValue bool
	// NamePrefix lists what must come before the name in the header, as
	// DeepSeek V3's "function<｜tool▁sep｜>".
	NamePrefix []string
	// IDSep separates the name from a call id in the header, as Mistral's
	// "NAME[CALL_ID]ID".
	IDSep []string
	// Header, when set, reads the name and call id from the header text,
	// for headers that are ids (Kimi's "functions.NAME:0").
	Header func(header string) (name, id string)
	// CallObject says the JSON after the header is a whole call object
	// ({"name": …, "args": …}) rather than the arguments; the header's name
	// is used when the object names no tool.
	CallObject bool
	// RawNames maps tool names whose arguments are raw text rather than
	// JSON to the argument key the text goes under (Functionary's python →
	// code). Raw text runs to End, the next call or the end of the output.
	RawNames map[string]string
	// ContentNames are header names that introduce content, not a call
	// (Functionary's "all").
	ContentNames []string
	// Implicit says the first Start may be missing because the generation
	// prompt wrote it: output that begins with a header is read as a call.
	Implicit bool

	// RawName, when set, makes the form a raw-text call to this tool: the
	// text after Start, to End or the end of the output, is its argument
	// RawKey (Llama's <|python_tag|> code → python {"code": …}).
	RawName string
	// RawKey is the argument key of a RawName form.
	RawKey string
}

// Dialect is a dialect built from a Descriptor. It implements
// dialects.Dialect and dialects.Marked and is safe for concurrent use.
type Dialect struct {
	desc      Descriptor
	name      string
	forms     []*form
	section   *Section
	secStart  []marker
	secEnd    []marker
	reasoning []dialects.ReasoningTags
	strip     *strings.Replacer
	stripSet  []marker

	nameIsKey  bool
	envelopes  []string
	contentKey string
	bare       bool
	barePrefix []string

	openers     *markerSet // section starts, then every form's starts
	openerOwner []int      // form index per opener, -1 for a section start
	bounds      *markerSet // markers that end a JSON value
	markers     []string
	triggers    []string
	// start is the syntax an output's reasoning start is read from
	// (dialects.ImplicitReasoning).
	start dialects.Syntax
	// lits are the literals a Reader looks for; closed says every form
	// reads a header call closed by its own marker (closedForms).
	lits   *lits
	closed bool
}

// form is a compiled Form.
type form struct {
	Form
	start, end, nameEnd, namePrefix, idSep []marker
	// nameEnds are the name ends with their first bytes: a header is
	// read byte by byte, and most bytes start none.
	nameEnds     *markerSet
	contentNames map[string]bool
	header       bool
}

// New builds a dialect from a descriptor. It reports a descriptor that
// cannot work: no name, no forms and not bare, a form without a start
// marker or without a way to read what follows it.
func New(d Descriptor) (*Dialect, error) {
	if strings.TrimSpace(d.Name) == "" {
		return nil, errors.New("markers: descriptor has no name")
	}
	if len(d.Forms) == 0 && !d.Bare {
		return nil, fmt.Errorf("markers: descriptor %q has no forms and is not bare", d.Name)
	}
	dl := &Dialect{
		desc: d.clone(),
		name: d.Name, reasoning: withThink(d.Reasoning), nameIsKey: d.NameIsKey,
		envelopes: d.Envelopes, contentKey: d.ContentKey, bare: d.Bare, barePrefix: d.BarePrefix,
	}
	var err error
	compile := func(what string, ms []string) []marker {
		out := make([]marker, 0, len(ms))
		for _, s := range ms {
			m := compileMarker(s)
			if len(m.parts) == 0 && err == nil {
				err = fmt.Errorf("markers: descriptor %q: empty %s marker", d.Name, what)
			}
			out = append(out, m)
		}
		return out
	}
	if d.Section != nil {
		dl.section = d.Section
		dl.secStart = compile("section start", d.Section.Start)
		dl.secEnd = compile("section end", d.Section.End)
		if len(dl.secStart) == 0 {
			return nil, fmt.Errorf("markers: descriptor %q: section without a start marker", d.Name)
		}
	}
	var starts, ends, owners = [][]marker{dl.secStart}, [][]marker{dl.secEnd}, []int{}
	for range dl.secStart {
		owners = append(owners, -1)
	}
	for i, f := range d.Forms {
		cf := &form{Form: f}
		cf.start = compile("start", f.Start)
		cf.end = compile("end", f.End)
		cf.nameEnd = compile("name end", f.NameEnd)
		cf.nameEnds = newMarkerSet(cf.nameEnd)
		cf.namePrefix = compile("name prefix", f.NamePrefix)
		cf.idSep = compile("id separator", f.IDSep)
		cf.header = len(cf.nameEnd) > 0
		cf.contentNames = map[string]bool{}
		for _, n := range f.ContentNames {
			cf.contentNames[n] = true
		}
		switch {
		case len(cf.start) == 0:
			return nil, fmt.Errorf("markers: descriptor %q: form %d has no start marker", d.Name, i)
		case !f.Values && !cf.header && f.RawName == "":
			return nil, fmt.Errorf("markers: descriptor %q: form %d has neither values, a header nor a raw name", d.Name, i)
		case f.RawName != "" && f.RawKey == "":
			return nil, fmt.Errorf("markers: descriptor %q: form %d has a raw name but no raw key", d.Name, i)
		case f.Implicit && !cf.header:
			return nil, fmt.Errorf("markers: descriptor %q: form %d is implicit but has no header", d.Name, i)
		}
		dl.forms = append(dl.forms, cf)
		starts = append(starts, cf.start)
		ends = append(ends, cf.end)
		for range cf.start {
			owners = append(owners, i)
		}
	}
	if strip := append(slices.Clone(d.Answer), d.Strip...); len(strip) > 0 {
		pairs := make([]string, 0, 2*len(strip))
		for _, s := range strip {
			if s == "" {
				return nil, fmt.Errorf("markers: descriptor %q: empty strip token", d.Name)
			}
			pairs = append(pairs, s, "")
			dl.stripSet = append(dl.stripSet, marker{text: s, parts: []string{s}})
		}
		dl.strip = strings.NewReplacer(pairs...)
	}
	if err != nil {
		return nil, err
	}
	dl.openers = newMarkerSet(starts...)
	dl.openerOwner = owners
	dl.bounds = newMarkerSet(append(append(starts, ends...), dl.stripSet)...)
	dl.markers = markerList(dl)
	dl.triggers = triggerList(dl)
	if d.Markers != nil {
		dl.markers = slices.Clone(d.Markers)
		if len(dl.markers) == 0 {
			dl.markers = nil
		}
	}
	dl.start = dl.Syntax()
	dl.lits = dl.literals()
	dl.closed = dl.closedForms()
	return dl, nil
}

// hasStripToken reports whether s holds a Strip token, so that content
// without one is not copied.
func (d *Dialect) hasStripToken(s string) bool {
	for _, m := range d.stripSet {
		if strings.Contains(s, m.text) {
			return true
		}
	}
	return false
}

// MustNew is New for descriptors known to be valid; it panics otherwise.
// It is meant for package-level dialect variables.
func MustNew(d Descriptor) *Dialect {
	dl, err := New(d)
	if err != nil {
		panic(err)
	}
	return dl
}

// Name is the dialect's name.
func (d *Dialect) Name() string { return d.name }

// Descriptor returns a copy of the descriptor the dialect was built from,
// for example to derive a variant or to write calls in its syntax.
func (d *Dialect) Descriptor() Descriptor { return d.desc.clone() }

// clone copies a descriptor deeply enough that changing the copy's slices
// and maps leaves the original alone.
func (d Descriptor) clone() Descriptor {
	c := d
	if d.Section != nil {
		s := Section{Start: slices.Clone(d.Section.Start), End: slices.Clone(d.Section.End)}
		c.Section = &s
	}
	c.Forms = make([]Form, len(d.Forms))
	for i, f := range d.Forms {
		f.Start, f.End = slices.Clone(f.Start), slices.Clone(f.End)
		f.NameEnd, f.NamePrefix, f.IDSep = slices.Clone(f.NameEnd), slices.Clone(f.NamePrefix), slices.Clone(f.IDSep)
		f.ContentNames = slices.Clone(f.ContentNames)
		f.RawNames = maps.Clone(f.RawNames)
		c.Forms[i] = f
	}
	c.Reasoning = slices.Clone(d.Reasoning)
	c.Strip = slices.Clone(d.Strip)
	c.Answer = slices.Clone(d.Answer)
	c.Envelopes = slices.Clone(d.Envelopes)
	c.BarePrefix = slices.Clone(d.BarePrefix)
	c.BareWrappers = slices.Clone(d.BareWrappers)
	c.Markers = slices.Clone(d.Markers)
	return c
}

// Markers are the literal substrings that announce the dialect's calls,
// section markers first: the first literal part of every start marker, and
// for envelope dialects the quoted envelope keys, unless the descriptor
// lists its own. A dialect without markers returns nil.
func (d *Dialect) Markers() []string { return d.markers }

// Triggers are the literals that begin the dialect's openers (section and
// call start markers): Extract reads calls only from an opener, so a text
// that holds none of them gives no call, no marker and no error
// (dialects.Prefiltered). A bare dialect, which reads JSON without
// markers, adds '{' and '[', which begin every value it reads; one whose
// first call may come without its marker (an implicit form) has none: it
// is always run.
func (d *Dialect) Triggers() []string { return d.triggers }

func triggerList(d *Dialect) []string {
	for _, f := range d.forms {
		if f.Implicit {
			return nil
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, m := range d.openers.list {
		if t := m.parts[0]; t != "" && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	if d.bare {
		// Bare calls are JSON values: every one the dialect reads without
		// a marker (whole, fenced, framed or in prose) starts with a '{'
		// or a '[' (valueStart).
		for _, t := range []string{"{", "["} {
			if !seen[t] {
				out = append(out, t)
			}
		}
	}
	return out
}

func markerList(d *Dialect) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, m := range d.secStart {
		add(m.parts[0])
	}
	for _, f := range d.forms {
		for _, m := range f.start {
			lit := m.parts[0]
			if f.Opener != "" && len(m.parts) == 1 {
				// A shared start is evidence only with its opener.
				for _, o := range f.Opener {
					add(lit + string(o))
					add(lit + " " + string(o))
				}
				continue
			}
			add(lit)
		}
	}
	for _, k := range d.envelopes {
		add(`"` + k + `"`)
	}
	return out
}

// withThink returns a family's reasoning wrappers with <think>…</think>
// after them, unless they hold it already.
func withThink(tags []dialects.ReasoningTags) []dialects.ReasoningTags {
	if slices.Contains(tags, dialects.Think) {
		return tags
	}
	return append(slices.Clone(tags), dialects.Think)
}
