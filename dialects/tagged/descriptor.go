package tagged

import (
	"errors"
	"fmt"
	"github.com/dialectkit/toolcall/internal/textlayer"
	"slices"

	"github.com/dialectkit/toolcall/dialects"
)

// The ways a name (a tool name or a parameter key) can be written in an
// opening tag, for Descriptor.ToolName and Descriptor.Key. Any other value
// names the attribute that holds it.
const (
	// NameText: the name is the text right after the opening literal, up to
	// a newline, a tag or a JSON object: <tool_call>get_weather\n…
	NameText = ""
	// NameShorthand: the name follows an equals sign inside the tag:
	// <function=get_weather>, <parameter=city>.
	NameShorthand = "="
)

// ParamStyle is how a dialect writes one parameter.
type ParamStyle int

const (
	// ElementParams: one element per parameter, the key in its opening tag:
	// <parameter=city>Tokyo</parameter>, <parameter name="city">Tokyo</parameter>.
	ElementParams ParamStyle = iota
	// PairParams: a key element followed by a value element:
	// <arg_key>city</arg_key><arg_value>Tokyo</arg_value>.
	PairParams
	// ChildParams: one child element named after the key:
	// <city>Tokyo</city>; with NestedValues, children of children build
	// objects, and <item> children build arrays.
	ChildParams
)

// Wrapper is a pair of literals around a call.
type Wrapper struct{ Start, End string }

// Descriptor describes a tagged-parameter dialect as data: the literals that
// open and close the section, each call and each parameter, and where names
// and keys are written. It plays the part of llama.cpp's
// xml_tool_call_format {scope_start, tool_start, tool_sep, key_start,
// key_val_sep, val_end, tool_end, scope_end}. New turns it into a Dialect.
//
// Parsing is lenient in the same ways for every descriptor: the section may
// be left open; a call cut short by the end of its section is accepted; a
// value without its closing literal ends at the next parameter or at the end
// of the call; one leading and one trailing newline of every value are
// dropped. A call interrupted by the start of another call, or still open
// when the output ends, is an error, as is text inside a call that is not a
// parameter.
//
// For example, Qwen3-Coder's syntax
//
//	<tool_call>
//	<function=get_weather>
//	<parameter=city>
//	Tokyo
//	</parameter>
//	</function>
//	</tool_call>
//
// is the descriptor
//
//	Descriptor{Name: "qwen3_coder",
//		ScopeStart: "<tool_call>", ScopeEnd: "</tool_call>", ScopeOptional: true,
//		ToolStart: "<function", ToolName: tagged.NameShorthand, ToolEnd: "</function>",
//		KeyStart: "<parameter", Key: tagged.NameShorthand, ValEnd: "</parameter>"}
type Descriptor struct {
	// Name is the dialect's catalogue name.
	Name string
	// Markers are literals that announce the dialect, strongest first
	// (Dialect.Markers). Empty means ScopeStart and ToolStart.
	Markers []string
	// Evidence are literals whose presence alone shows the output is in this
	// dialect, so that Extraction.Marked is set even when no call could be
	// read. Literals other dialects share (a bare <tool_call>) do not belong
	// here. A call read in the dialect's own syntax always sets Marked.
	Evidence []string

	// ScopeStart and ScopeEnd enclose a group of calls; empty when the
	// dialect has no section.
	ScopeStart, ScopeEnd string
	// ScopeOptional accepts calls written without the section (models drop
	// it). Without it, calls outside a section are content.
	ScopeOptional bool
	// Filler are literals that may stand between calls inside a section and
	// carry nothing, such as step3's per-call wrappers.
	Filler []string

	// ToolStart opens a call and ToolEnd closes it. A ToolStart that is
	// followed by attributes (any ToolName but NameText) must be followed by
	// "=", a space or TagEnd, so "<function" does not match "<functions>".
	ToolStart, ToolEnd string
	// ToolName says where the tool name is: NameText, NameShorthand or the
	// name of an attribute ("name").
	ToolName string
	// ToolSep are literals that may stand between a NameText name and the
	// parameters (hy_v3's <tool_sep>); whitespace always may.
	ToolSep []string
	// TagEnd ends an opening tag that carries attributes; ">" when empty.
	TagEnd string

	// Params is how parameters are written.
	Params ParamStyle
	// KeyStart opens a parameter (ElementParams) or its key (PairParams).
	KeyStart string
	// Key says where an ElementParams key is: NameShorthand or an attribute.
	Key string
	// KeyEnd closes a PairParams key; ValStart opens its value.
	KeyEnd, ValStart string
	// ValEnd closes a value.
	ValEnd string
	// StringAttr names an attribute that declares the value's kind, as
	// DeepSeek's DSML string="true" (a string, kept as text) or
	// string="false" (a JSON value).
	StringAttr string
	// TypeAttr names an attribute holding the value's JSON Schema type, as
	// Kimi-K3's type="integer": "string" keeps the text, any other type
	// reads it as JSON.
	TypeAttr string

	// ChildPrefix is written before every tag of a ChildParams call
	// (MiniMax-M3's namespace marker); empty for none.
	ChildPrefix string
	// NestedValues makes ChildParams children that hold elements into
	// objects, or arrays when every child is an <item>.
	NestedValues bool
	// NameChild is the child element that holds the tool name, for calls
	// whose opening literal carries no name (MiroThinker's <tool_name>).
	NameChild string
	// ArgumentsChild is the child element that holds the arguments as JSON
	// (MiroThinker's <arguments>).
	ArgumentsChild string
	// IgnoreChildren are child elements that are neither name nor arguments
	// and are left out of the call (MiroThinker's <server_name>).
	IgnoreChildren []string

	// Reasoning are the tags of the reasoning wrapper; zero for none.
	// <think>…</think> is read as reasoning in every dialect, after the
	// family's own wrapper: call markup a model writes inside a closed
	// think block is it thinking about a call, whatever the dialect.
	Reasoning dialects.ReasoningTags
	// ReasoningClosed says no chat template of the family opens a
	// reasoning block in its generation prompt (dialects.Syntax): a
	// closing tag with no opening one is then text unless the caller says
	// the template opened one.
	ReasoningClosed bool
	// EndOfTurn are literals that end the model's turn: text after the first
	// one is not part of the answer (GLM's <|observation|>).
	EndOfTurn []string
	// Strip are framing literals deleted from the content (Kimi-K3's
	// <|open|>response<|sep|> and the message's close): the text they
	// frame is the answer.
	Strip []string

	// JSONArguments accepts a JSON object in place of the parameters:
	// <tool_call>get_weather\n{"city": "Paris"}</tool_call>.
	JSONArguments bool
	// JSONEnvelope accepts a whole JSON call object inside the call literals
	// when no name precedes it: <tool_call>{"name": …, "arguments": …}</tool_call>.
	JSONEnvelope bool
	// LooseWrappers are other literals models put around a call (Laguna's
	// <user>). A loose wrapper counts only when its body holds parameters or
	// a JSON call; otherwise it is content.
	LooseWrappers []Wrapper
	// TrailingJSONCall accepts a JSON call object that ends the output,
	// outside any marker, when no marked call was found. With tools
	// declared it must name one of them.
	TrailingJSONCall bool
	// ResolveAliases maps a tool name that matches no declared tool to the
	// one declared tool it equals when case, '_', '-', '.' and spaces are
	// ignored (MiniCPM 5). Nothing is mapped when two tools would match.
	ResolveAliases bool

	// CDATA unwraps a parameter value written as <![CDATA[…]]>: the text
	// inside is the value, closing literals included.
	CDATA bool

	// frame splits the output into messages before calls are read
	// (glimmer's recipient headers); nil for the plain engine.
	frame frameFunc
	// normalize rewrites the text before calls are read (MiniCPM 5's
	// tokenizer artefacts); nil for none.
	normalize normalizeFunc
}

// Dialect is a tagged-parameter dialect built from a Descriptor. It
// implements dialects.Dialect and dialects.Marked, and is safe for
// concurrent use.
type Dialect struct {
	desc    Descriptor
	markers []string
	lits    [litCount]string
	frames  []Wrapper // the framing tags that apply (see callFrames)
	// start is the syntax an output's reasoning start is read from
	// (dialects.ImplicitReasoning).
	start dialects.Syntax

	// What a Reader looks for (see reader): the literals that may end a
	// stretch (ends) and those a call absorbs after it (absorbs); the
	// longest literal, reasoning tag and call start; the last bytes of
	// the literals that end a stretch (endLast) and of the ends of turn
	// (eotLast); the bytes a literal, a quotation or code may start
	// with (sig); and the literals themselves by their first byte
	// (readLits), with those bytes (litFirst).
	ends, absorbs            []string
	readLits                 [256][]string
	tags                     []dialects.ReasoningTags // reasoningTags
	immediate                bool                     // a stretch ends right after its closing literal
	maxLit, maxTag, maxStart int
	endLast, eotLast, sig    [256]bool
	litFirst                 textlayer.ByteSet
	tagLast                  [256]bool // the last bytes of the reasoning tags
	// stops holds every byte of tagLast, endLast, eotLast and litFirst:
	// the new bytes before the first of them in a delta are passed over
	// by the scans for those (reader.past).
	stops textlayer.ByteSet
}

var (
	_ dialects.Dialect = (*Dialect)(nil)
	_ dialects.Marked  = (*Dialect)(nil)
)

// Indexes of the literals a parse searches for repeatedly.
const (
	litScopeStart = iota
	litScopeEnd
	litToolStart
	litToolEnd
	litKeyStart
	litValEnd
	litChildOpen
	litCount
)

// New checks a descriptor and builds its dialect.
func New(d Descriptor) (*Dialect, error) {
	if err := d.check(); err != nil {
		return nil, fmt.Errorf("tagged: descriptor %q: %w", d.Name, err)
	}
	if d.TagEnd == "" {
		d.TagEnd = ">"
	}
	t := &Dialect{desc: d}
	t.lits = [litCount]string{
		litScopeStart: d.ScopeStart, litScopeEnd: d.ScopeEnd,
		litToolStart: d.ToolStart, litToolEnd: d.ToolEnd,
		litKeyStart: d.KeyStart, litValEnd: d.ValEnd,
	}
	if d.Params == ChildParams {
		t.lits[litChildOpen] = d.ChildPrefix + "<"
	}
	t.frames = d.callFrames()
	t.markers = slices.Clone(d.Markers)
	if len(t.markers) == 0 {
		for _, m := range []string{d.ScopeStart, d.ToolStart} {
			if m != "" {
				t.markers = append(t.markers, m)
			}
		}
	}
	t.start = t.Syntax()
	t.readerLits()
	return t, nil
}

// MustNew is New for descriptors known to be valid; it panics otherwise.
func MustNew(d Descriptor) *Dialect {
	t, err := New(d)
	if err != nil {
		panic(err)
	}
	return t
}

func (d *Descriptor) check() error {
	switch {
	case d.Name == "":
		return errors.New("no name")
	case d.ToolStart == "" || d.ToolEnd == "":
		return errors.New("ToolStart and ToolEnd are required")
	case (d.ScopeStart == "") != (d.ScopeEnd == ""):
		return errors.New("ScopeStart and ScopeEnd go together")
	case d.ScopeStart == "" && d.ScopeOptional:
		return errors.New("ScopeOptional without a scope")
	case (d.NameChild != "" || d.ArgumentsChild != "" || d.NestedValues) && d.Params != ChildParams:
		return errors.New("NameChild, ArgumentsChild and NestedValues need ChildParams")
	case d.NameChild != "" && d.ToolName != NameText:
		return errors.New("a NameChild call carries no name in its opening tag")
	}
	switch d.Params {
	case ElementParams:
		if d.KeyStart == "" || d.ValEnd == "" || d.Key == NameText {
			return errors.New("ElementParams need KeyStart, ValEnd and a Key attribute or NameShorthand")
		}
	case PairParams:
		if d.KeyStart == "" || d.KeyEnd == "" || d.ValStart == "" || d.ValEnd == "" {
			return errors.New("PairParams need KeyStart, KeyEnd, ValStart and ValEnd")
		}
	case ChildParams:
		if d.KeyStart != "" || d.ValEnd != "" {
			return errors.New("ChildParams take no KeyStart or ValEnd")
		}
	default:
		return fmt.Errorf("unknown ParamStyle %d", d.Params)
	}
	return nil
}

// Name returns the dialect's catalogue name.
func (t *Dialect) Name() string { return t.desc.Name }

// Markers returns the literals that announce the dialect, strongest first.
func (t *Dialect) Markers() []string { return slices.Clone(t.markers) }

// Triggers are the literals the dialect's calls start with (its scope and
// call openers, its loose wrappers) and its evidence: Extract finds no
// call, no marker and no error in a text that holds none of them
// (dialects.Prefiltered). A dialect that may read a call without them (a
// trailing JSON call) or reads a rewritten or framed text has none: it is
// always run.
func (t *Dialect) Triggers() []string {
	d := &t.desc
	if d.TrailingJSONCall || d.normalize != nil || d.frame != nil {
		return nil
	}
	out := []string{d.ToolStart}
	if d.ScopeStart != "" {
		out = append(out, d.ScopeStart)
	}
	for _, w := range d.LooseWrappers {
		out = append(out, w.Start)
	}
	out = append(out, d.Evidence...)
	if slices.Contains(out, "") {
		return nil // an empty literal is everywhere
	}
	return out
}

// Descriptor returns a copy of the dialect's descriptor, for example to
// derive a variant with other literals.
func (t *Dialect) Descriptor() Descriptor {
	d := t.desc
	d.Markers = slices.Clone(d.Markers)
	d.Evidence = slices.Clone(d.Evidence)
	d.Filler = slices.Clone(d.Filler)
	d.ToolSep = slices.Clone(d.ToolSep)
	d.IgnoreChildren = slices.Clone(d.IgnoreChildren)
	d.EndOfTurn = slices.Clone(d.EndOfTurn)
	d.Strip = slices.Clone(d.Strip)
	d.LooseWrappers = slices.Clone(d.LooseWrappers)
	return d
}

// frames are the tags models wrap around calls in a dialect that has no
// section of its own: the wrapper of Hermes-style templates and the sections
// of other dialects, which a model trained on several formats mixes in. A
// frame holding nothing but calls (and whitespace) goes with them, so that
// content keeps no emptied wrapper; around other text it stays content.
var frames = []Wrapper{
	{Start: "<tool_call>", End: "</tool_call>"},
	{Start: "<tool_calls>", End: "</tool_calls>"},
	{Start: "<tools>", End: "</tools>"},
	{Start: "<function_calls>", End: "</function_calls>"},
}

// callFrames returns the frames that apply to d: none when d has a section
// of its own, and never one that is a literal of d's own syntax.
func (d *Descriptor) callFrames() []Wrapper {
	if d.ScopeStart != "" || d.frame != nil {
		return nil
	}
	own := []string{d.ToolStart, d.ToolEnd, d.KeyStart, d.KeyEnd, d.ValStart, d.ValEnd}
	for _, w := range d.LooseWrappers {
		own = append(own, w.Start, w.End)
	}
	var out []Wrapper
	for _, f := range frames {
		if !slices.Contains(own, f.Start) && !slices.Contains(own, f.End) {
			out = append(out, f)
		}
	}
	return out
}

// reasoningTags are the reasoning wrappers the dialect reads: its own,
// then <think>…</think>.
func (d *Descriptor) reasoningTags() []dialects.ReasoningTags {
	if d.Reasoning.Open == "" || d.Reasoning == dialects.Think {
		return []dialects.ReasoningTags{dialects.Think}
	}
	return []dialects.ReasoningTags{d.Reasoning, dialects.Think}
}

// readerLits sets what a Reader looks for.
func (t *Dialect) readerLits() {
	d := &t.desc
	if d.frame != nil {
		// A stretch of messages ends with one.
		t.ends = []string{glimmerEOM, glimmerEOT}
	}
	for _, l := range []string{d.ToolEnd, d.ScopeEnd} {
		if d.frame != nil {
			break
		}
		if l != "" {
			t.ends = append(t.ends, l)
		}
	}
	t.absorbs = append(t.absorbs, d.Filler...)
	if d.ScopeEnd != "" {
		t.absorbs = append(t.absorbs, d.ScopeEnd)
	}
	for _, w := range d.LooseWrappers {
		t.ends = append(t.ends, w.End)
	}
	for _, f := range t.frames {
		t.absorbs = append(t.absorbs, f.End)
	}
	lits := []string{d.ScopeStart, d.ScopeEnd, d.ToolStart, d.ToolEnd, d.KeyStart, d.KeyEnd, d.ValStart, d.ValEnd, d.TagEnd,
		d.ChildPrefix, cdataOpen, cdataClose}
	lits = append(lits, d.Markers...)
	lits = append(lits, d.Evidence...)
	lits = append(lits, d.Filler...)
	lits = append(lits, d.ToolSep...)
	lits = append(lits, d.EndOfTurn...)
	lits = append(lits, d.Strip...)
	for _, w := range append(slices.Clone(d.LooseWrappers), t.frames...) {
		lits = append(lits, w.Start, w.End)
	}
	t.tags = d.reasoningTags()
	for _, tg := range t.tags {
		lits = append(lits, tg.Open, tg.Close)
		t.maxTag = max(t.maxTag, len(tg.Open), len(tg.Close))
		for _, l := range [2]string{tg.Open, tg.Close} {
			if l != "" {
				t.tagLast[l[len(l)-1]] = true
			}
		}
	}
	for _, l := range lits {
		if l != "" {
			t.sig[l[0]] = true
			t.litFirst.Add(l[0])
			t.maxLit = max(t.maxLit, len(l))
			t.readLits[l[0]] = append(t.readLits[l[0]], l)
		}
	}
	for _, l := range t.ends {
		if l != "" {
			t.endLast[l[len(l)-1]] = true
		}
	}
	for _, l := range d.EndOfTurn {
		if l != "" {
			t.eotLast[l[len(l)-1]] = true
		}
	}
	// Quotations, code and escapes, JSON that may be a call, and the
	// lead byte of curly quotes.
	for _, c := range []byte("`\"'\\{[\xe2") {
		t.sig[c] = true
	}
	if d.normalize != nil {
		// The lead byte of Ġ and Ċ: text that shows artefacts is read
		// with the stretch, whose rewriting it decides.
		t.sig[0xc4] = true
		t.litFirst.Add(0xc4)
	}
	for c := range 256 {
		if t.tagLast[c] || t.endLast[c] || t.eotLast[c] || t.litFirst.Has(byte(c)) {
			t.stops.Add(byte(c))
		}
	}
	for _, s := range append(slices.Clone(t.start.Starts), t.start.Answer...) {
		t.maxStart = max(t.maxStart, len(s))
	}
	t.maxStart = max(t.maxStart, 1)
	// A frame's opening tag before a call goes with it only if its
	// closing tag follows the call: such a stretch waits for what follows.
	t.immediate = len(t.frames) == 0 && d.frame == nil
}
