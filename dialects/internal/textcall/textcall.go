// Package textcall reads tool calls written as JSON objects in free model
// text: inside tags, in Markdown code fences, or bare. It is the shared
// shape of the hermes and markdown_json dialects: judging whether an object
// is a call or data, reading it with repair, code fences, and rejoining the
// content around calls that were taken out.
package textcall

import (
	"slices"
	"strings"
	"unsafe"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/callobject"
	"github.com/dialectkit/toolcall/dialects/internal/cutoff"
	"github.com/dialectkit/toolcall/dialects/internal/fields"
	"github.com/dialectkit/toolcall/internal/coded"
	"github.com/dialectkit/toolcall/internal/jsonscan"
	"github.com/dialectkit/toolcall/internal/shown"
	"github.com/dialectkit/toolcall/internal/strictjson"
	"github.com/dialectkit/toolcall/internal/textlayer"
	"github.com/dialectkit/toolcall/lenient"
)

// MaxRepairFailures bounds the failed repairs one output may cost. Past it,
// text that is not valid JSON is not sent to the lenient pipeline again, so
// output made of thousands of broken calls fails fast (each still reported).
const MaxRepairFailures = 32

// Reader reads JSON call objects out of one model output. It counts failed
// repairs, so it serves a single Extract call; it is not safe for
// concurrent use.
type Reader struct {
	// Text is the whole output; offsets index it.
	Text string
	// Opts are the parse options (repair switch, lenient limits, tools).
	Opts *dialects.Options

	failures int
	// checked is the text of the last value Parse returned, and chk what
	// is known of it: a call object inside it is not checked again.
	checked string
	chk     strictjson.Checked
	// examples answers PresentedAsExample over Text.
	examples shown.ExampleScan
}

// PresentedAsExample is shown.PresentedAsExample(r.Text, at), walking
// each run of blank and fence lines of the text once over all the offsets
// asked about (shown.ExampleScan).
func (r *Reader) PresentedAsExample(at int) bool {
	return r.examples.PresentedAsExample(r.Text, at)
}

// NewReader returns a Reader of text; nil opts means the defaults.
func NewReader(text string, opts *dialects.Options) *Reader {
	r := MakeReader(text, opts)
	return &r
}

// MakeReader is NewReader as a value, for a dialect's state to hold
// without an allocation of its own.
func MakeReader(text string, opts *dialects.Options) Reader {
	if opts == nil {
		opts = &dialects.Options{}
	}
	return Reader{Text: text, Opts: opts}
}

// Parse parses one JSON value, sending almost-JSON through the lenient
// pipeline unless repair is off. The repairs are returned for the call.
func (r *Reader) Parse(raw string) (gjson.Result, []toolcall.Repair, *toolcall.Error) {
	if r.failures >= MaxRepairFailures && !lenient.ValidString(raw) {
		return gjson.Result{}, nil, toolcall.NewError(toolcall.CodeRepairFailed, "repair not attempted: too many malformed calls in this output")
	}
	v, repairs, chk, err := callobject.Parse(raw, r.Opts)
	if e := coded.As(err); e != nil {
		if e.Code != toolcall.CodeInvalidJSON {
			r.failures++
		}
		return gjson.Result{}, nil, e
	}
	r.checked, r.chk = v, chk
	return gjson.Parse(v), repairs, nil
}

// ParseChecked is Parse for raw, trimmed, that strictjson.Check found
// strict (chk): it is not checked again, and needs no repair.
func (r *Reader) ParseChecked(raw string, chk strictjson.Checked) gjson.Result {
	r.checked, r.chk = raw, chk
	return gjson.Parse(raw)
}

// Call turns a parsed object found at offset into a raw call, or into a
// malformed call when it names no call. repairs are those made to read it.
// An object read out of the last value Parse returned is not checked
// again.
func (r *Reader) Call(v gjson.Result, offset int, repairs []toolcall.Repair) dialects.RawCall {
	var (
		rc dialects.RawCall
		ok bool
	)
	if within(v.Raw, r.checked) {
		rc, ok = callobject.ReadChecked(v.Raw, offset, r.chk, r.Opts)
	} else {
		rc, ok = callobject.Read(v.Raw, offset, r.Opts)
	}
	if !ok {
		return Malformed(offset, v.Raw, "", "the call object has no name field", nil)
	}
	rc.Repairs = append(repairs, rc.Repairs...)
	return rc
}

// within reports whether s is a part of outer's memory (gjson values read
// out of a text are slices of it).
func within(s, outer string) bool {
	if len(s) == 0 || len(outer) == 0 {
		return false
	}
	p, o := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(outer)))
	return p >= o && p+uintptr(len(s)) <= o+uintptr(len(outer))
}

// Framed reads the body of a code fence or of a wrapper tag,
// Text[start:end]: JSON objects, arrays of them, or a fence holding them,
// separated by whitespace, commas or semicolons. It is claimed (ok) only
// when every object is shaped like a call (Accepts with Framed evidence)
// and, when closed, nothing else is there but closing brackets too many
// (StrayClosers; used then ends before them). Objects wrapped as
// {"tool_call": {…}} or {"tool_calls": […]} are unwrapped. used is where the
// text read ends.
func (r *Reader) Framed(start, end int, closed bool) (calls []dialects.RawCall, used int, ok bool) {
	p := SkipSpace(r.Text, start, end)
	if textlayer.IsFenceAt(r.Text, p, end) {
		f := textlayer.FenceAt(r.Text, p, end)
		calls, _, ok := r.Framed(f.BodyStart, f.BodyEnd, true)
		return calls, f.End, ok && (!closed || SkipSpace(r.Text, f.End, end) == end)
	}
	q := p
	for q < end && (r.Text[q] == '{' || r.Text[q] == '[') {
		e, complete := jsonscan.ValueEnd(r.Text[:end], q)
		got, ok := r.FramedValue(q, e, complete)
		if !ok {
			return nil, q, false
		}
		calls = append(calls, got...)
		q = e
		if !complete {
			break
		}
		q = SkipSeparators(r.Text, e, end)
	}
	if len(calls) == 0 || closed && SkipSpace(r.Text, q, end) != end && !StrayClosers(r.Text[q:end]) {
		return nil, q, false
	}
	return calls, q, true
}

// FramedValue reads one value of a frame's body, Text[start:end], as
// Framed reads each of its values, for a reader that found where the value
// ends already (complete says it closed): a value the output ends inside
// that names a call is a truncated call (TLP-014), one that cannot be
// repaired but names a call a malformed one; ok is false when the value
// is not calls.
func (r *Reader) FramedValue(start, end int, complete bool) ([]dialects.RawCall, bool) {
	if !complete && r.AtEnd(end) {
		name := PeekName(r.Text[start:end])
		if name == "" {
			return nil, false
		}
		return []dialects.RawCall{Truncated(start, r.Text[start:end], name)}, true
	}
	return r.framedValue(start, end)
}

// NoteStrayClosers records on the last call that closing brackets too
// many after it were dropped (StrayClosers).
func NoteStrayClosers(calls []dialects.RawCall) {
	if len(calls) == 0 {
		return
	}
	last := &calls[len(calls)-1]
	last.Repairs = append(last.Repairs, toolcall.Repair{Kind: toolcall.RepairExtraClosing, Offset: -1, CallIndex: -1,
		Detail: "closing brackets too many after the call dropped"})
}

// StrayOnLine returns the end of the closing brackets (any of closers)
// that follow a call value ending at s[i] on its own line, blanks between
// allowed, or i when none do: {…}} followed by prose on the line. Such
// brackets are the value's punctuation whatever follows them, as the json
// dialect reads them.
func StrayOnLine(s string, i int, closers string) int {
	end := i
	for j := i; j < len(s); j++ {
		switch c := s[j]; {
		case c == ' ' || c == '\t':
		case strings.IndexByte(closers, c) >= 0:
			end = j + 1
		default:
			return end
		}
	}
	return end
}

// StrayClosers reports whether s holds one or more closing brackets and
// nothing else but blanks: what a model that closed its value once too
// often leaves after it ({…}}, [{…}]]). Such text is the value's
// punctuation, not prose.
func StrayClosers(s string) bool {
	seen := false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ']', '}':
			seen = true
		case ' ', '\t', '\r', '\n':
		default:
			return false
		}
	}
	return seen
}

// framedValue reads one JSON value of a fence or wrapper. A value that
// cannot be repaired but visibly names a call is a malformed call; any
// other unreadable value is not a call.
func (r *Reader) framedValue(start, end int) ([]dialects.RawCall, bool) {
	raw := r.Text[start:end]
	v, repairs, err := r.Parse(raw)
	if err != nil {
		if name := PeekName(raw); name != "" {
			return []dialects.RawCall{Malformed(start, raw, name, "the call is not JSON that can be repaired", err)}, true
		}
		return nil, false
	}
	items := unwrap(v)
	calls := make([]dialects.RawCall, 0, len(items))
	for _, it := range items {
		if !Accepts(it, Framed, r.Opts) {
			return nil, false
		}
		calls = append(calls, r.Call(it, start, repairs))
		repairs = nil // made once, to the whole value
	}
	return calls, len(calls) > 0
}

// unwrap lists the call objects of a value: the items of an array, the
// object under "tool_call" or the items under "tool_calls" of an envelope
// holding nothing else, or the value itself.
func unwrap(v gjson.Result) []gjson.Result {
	if v.IsArray() {
		return v.Array()
	}
	if v.IsObject() {
		var inner gjson.Result
		n := 0
		v.ForEach(func(k, val gjson.Result) bool {
			n++
			if key := k.String(); key == "tool_call" || key == "tool_calls" {
				inner = val
			}
			return n < 2
		})
		if n == 1 && inner.Exists() {
			if inner.IsArray() {
				return inner.Array()
			}
			return []gjson.Result{inner}
		}
	}
	return []gjson.Result{v}
}

// Evidence is how strongly the place a JSON object was found says "call".
type Evidence uint8

const (
	// Prose is a bare object in text. It must be shaped like a call with
	// arguments, and when tools are declared it must name one of them (a
	// JSON example in an explanation is not a call). A name-only object
	// counts only when it names a declared tool.
	Prose Evidence = iota
	// Framed is an object in a code fence or a wrapper tag. It must be
	// shaped like a call; a name-only object counts unless tools are
	// declared and none has that name.
	Framed
)

// Accepts reports whether obj is a call at the given level of evidence.
func Accepts(obj gjson.Result, level Evidence, opts *dialects.Options) bool {
	sh := Shape(obj)
	noTools := opts.Tools == nil || opts.Tools.Len() == 0
	known := !noTools && declared(sh.Name, opts)
	if level == Prose {
		// Like llama.cpp, read prose JSON as a call only when it starts
		// with its name: {"arguments": …, "name": …} in an explanation is
		// an example, not a call.
		return sh.NameFirst && (sh.Strong && (noTools || known) || sh.Weak && known)
	}
	return sh.Strong || sh.Weak && (noTools || known)
}

// CallShape tells how a JSON object reads as a call rather than as data.
type CallShape struct {
	// Name is the value of the first name field holding a string.
	Name string
	// Strong: a name and an arguments field, and nothing else but an id
	// and a type.
	Strong bool
	// Weak: the name alone (with an id or a type).
	Weak bool
	// NameFirst: the first key is a name field.
	NameFirst bool
}

// Shape judges obj. A tool definition (a description, or arguments that
// are a JSON Schema object) is neither strong nor weak. The OpenAI envelope
// {"type": "function", "function": {…}} is judged by its inner object.
// Field names are the aliases of fields.Name, fields.Arguments and
// fields.ID.
func Shape(obj gjson.Result) CallShape {
	var sh CallShape
	if !obj.IsObject() {
		return sh
	}
	if fn := obj.Get("function"); fn.IsObject() {
		return Shape(fn)
	}
	hasArgs, extra, first := false, false, true
	obj.ForEach(func(k, v gjson.Result) bool {
		switch key := k.String(); {
		case slices.Contains(fields.Name, key) && v.Type == gjson.String:
			// A second name field keeps the shape of a call: the call is
			// then ambiguous (TLP-019), not prose.
			if sh.Name == "" {
				sh.Name, sh.NameFirst = v.String(), first
			}
		case slices.Contains(fields.Arguments, key):
			hasArgs = true
			if v.IsObject() && v.Get("properties").IsObject() && v.Get("type").String() == "object" {
				extra = true // a schema: this is a tool definition
			}
		case slices.Contains(fields.ID, key) || key == "type":
		default:
			extra = true
		}
		first = false
		return !extra
	})
	if sh.Name == "" || extra {
		return CallShape{Name: sh.Name}
	}
	sh.Strong, sh.Weak = hasArgs, !hasArgs
	return sh
}

// OpensWithName reports whether raw, a JSON (or almost-JSON) object or an
// array of them, starts with a name field: {"name": …, or [{"tool_name": ….
// It is a cheap test that spares the parse of prose braces, which Prose
// evidence would refuse anyway.
func OpensWithName(raw string) bool {
	i := SkipSpace(raw, 0, len(raw))
	if i < len(raw) && raw[i] == '[' {
		i = SkipSpace(raw, i+1, len(raw))
	}
	if i >= len(raw) || raw[i] != '{' {
		return false
	}
	i = SkipSpace(raw, i+1, len(raw))
	if i < len(raw) && (raw[i] == '"' || raw[i] == '\'') {
		i++
	}
	for _, f := range fields.Name {
		if strings.HasPrefix(raw[i:], f) && len(raw) > i+len(f) && !isKeyByte(raw[i+len(f)]) {
			return true
		}
	}
	return false
}

func isKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// declared reports whether name is one of the declared tools, ignoring case.
func declared(name string, opts *dialects.Options) bool {
	if _, ok := opts.Tools.Lookup(name); ok {
		return true
	}
	_, ok := opts.Tools.LookupFold(name)
	return ok
}

// PeekName finds a call name in text that is not valid JSON, for the error
// that reports it; "" if none can be seen.
func PeekName(raw string) string {
	for _, f := range fields.Name {
		if v := gjson.Get(raw, f); v.Type == gjson.String {
			return v.String()
		}
	}
	return ""
}

// Malformed is a call whose markup was found at offset but could not be
// read. raw is the markup, tool the name if one could be seen, cause the
// underlying error if any.
func Malformed(offset int, raw, tool, msg string, cause *toolcall.Error) dialects.RawCall {
	var e *toolcall.Error
	if cause != nil {
		e = toolcall.Errorf(toolcall.CodeMalformedCall, cause, msg+": "+cause.Message)
	} else {
		e = toolcall.NewError(toolcall.CodeMalformedCall, msg)
	}
	e.Offset, e.Raw = offset, raw
	return dialects.RawCall{Name: tool, Offset: offset, Err: e}
}

// Truncated is a call the output ends inside of, found at offset: the model
// was cut off, and what it meant cannot be known. raw is the call text, tool
// the name if one could be seen.
func Truncated(offset int, raw, tool string) dialects.RawCall {
	e := cutoff.Error("inside the call")
	e.Offset, e.Raw = offset, raw
	return dialects.RawCall{Name: tool, Offset: offset, Err: e}
}

// AtEnd reports whether only whitespace follows offset i in the text: a
// value still open there was cut off, not merely malformed.
func (r *Reader) AtEnd(i int) bool { return SkipSpace(r.Text, i, len(r.Text)) == len(r.Text) }

// SkipSpace returns the first offset at or after i, before end, that is not
// ASCII whitespace.
func SkipSpace(s string, i, end int) int {
	for i < end && textlayer.IsSpace(s[i]) {
		i++
	}
	return i
}

// SkipSeparators skips whitespace, commas and semicolons between values.
func SkipSeparators(s string, i, end int) int {
	for i < end && (textlayer.IsSpace(s[i]) || s[i] == ',' || s[i] == ';') {
		i++
	}
	return i
}

// HasWord reports whether s holds an ASCII letter or digit: text that is
// more than stray syntax, which a dialect may not drop.
func HasWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			return true
		}
	}
	return false
}
