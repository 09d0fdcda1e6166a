// Package plainjson is the "json" dialect: tool calls written as bare JSON
// objects, {"name": "get_weather", "arguments": {"city": "Paris"}}, as an
// array of them, or as several objects one after another. It is what
// template-less models, OpenAI-style prompting and tool_choice=required
// produce, and the fallback when no marker says otherwise.
package plainjson

import (
	"strings"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/textcall"
	"github.com/dialectkit/toolcall/internal/textlayer"
	"github.com/dialectkit/toolcall/lenient"
)

// Dialect is the "json" dialect.
var Dialect dialects.Dialect = jsonDialect{}

type jsonDialect struct{}

func (jsonDialect) Name() string { return "json" }

// Markers is nil: bare JSON has no marker, so detection tries it by parsing.
func (jsonDialect) Markers() []string { return nil }

// Syntax describes the dialect to the stream engine: output from the first
// bracket or code fence on is settled when the output ends.
func (jsonDialect) Syntax() dialects.Syntax { return syntax() }

func syntax() dialects.Syntax {
	return dialects.Syntax{Reasoning: []dialects.ReasoningTags{dialects.Think}, Tokens: []string{"```"}, Bare: "{[", Quotes: `"`}
}

// start is the syntax an output's reasoning start is read from
// (dialects.ImplicitReasoningIn).
var start = syntax()

// Extract finds call objects in text.
//
// When the whole output (outside reasoning) is JSON — an object, an array,
// or objects separated by whitespace, commas or semicolons — every object
// with a name field is a call; an object that names nothing else than a call
// would (name, id, type) counts even without arguments. JSON inside prose is
// held to a higher bar, because explanations quote JSON: an embedded
// object must not follow prose that presents it as an example; with
// declared tools it must stand on a line of its own (prose on its line
// mentions it) and name one of them; without, it must have both a name and
// an arguments field. Without a marker, a value written inside a sentence
// on its line is shown, not made (the table of what is a call): "You can call
// {…} to see the weather." and "(see {…}) later" call nothing, while a
// value alone on its line, opening the output, after a colon, ending its
// sentence, continuing a run of calls ("{…}; {…}"), or followed by text
// that never ends as a sentence does stays a call. A call object cut off by
// the end of the output is truncated (TLP-014), not a call.
// A call shown in inline code or in a fence presented as an example is
// not read (dialects.ExtractShown).
func (jsonDialect) Extract(text string, opts *dialects.Options) *dialects.Extraction {
	implicit := dialects.ImplicitReasoningIn(text, &start, opts)
	return dialects.ExtractShown(text, func(text string) *dialects.Extraction { return jsonDialect{}.extract(text, opts, implicit) })
}

// extract is Extract on text whose shown parts are held out.
func (jsonDialect) extract(text string, opts *dialects.Options, implicit bool) *dialects.Extraction {
	ext := &dialects.Extraction{}
	reasoning, rest := dialects.SplitReasoning(text, dialects.ReasoningSplit{Tags: []dialects.ReasoningTags{dialects.Think}, StartsOpen: opts != nil && opts.ReasoningOpen, Implicit: implicit})
	ext.Reasoning = reasoning
	offset := len(text) - len(rest) // rest is a suffix of text unless blocks were removed
	if offset < 0 || !strings.HasSuffix(text, rest) {
		offset = 0
	}
	if calls, ok := wholeOutput(rest, offset, opts); ok {
		// Output that is nothing but call objects is this dialect's own
		// syntax, even when a call then fails its checks.
		ext.Calls, ext.Marked = calls, true
		return ext
	}
	var content strings.Builder
	last, run := 0, -1
	var list dialects.Span // the list read into for its elements
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		if c != '{' && c != '[' {
			continue
		}
		// Only "[{" can open an array of calls; any other bracket is prose
		// ("[1]", "[see below]") and is passed over without measuring it,
		// which keeps the scan linear on text full of brackets.
		if c == '[' && !opensObject(rest, i+1) {
			continue
		}
		end, _ := dialects.ValueEnd(rest, i)
		// Closing brackets too many right after the value are its
		// punctuation, not prose on its line; they go with the calls.
		stray := strayAfter(rest, end)
		var calls []dialects.RawCall
		tools := opts.Tools != nil && opts.Tools.Len() > 0
		// A value that follows calls taken from the prose with nothing
		// but separators between ("{…}; {…}") continues that run of
		// calls; any other value written inside a sentence is shown, not
		// made, and nothing inside it is a call either.
		continues := run >= 0 && skipSeparators(rest, run) == i
		// An element of a list read into stands where the list stands: the
		// list is its region.
		at, to := i, max(end, stray)
		if i < list.End {
			at, to = list.Start, list.End
		}
		if !continues && !called(rest, last, at, to, tools) {
			i = end - 1
			continue
		}
		calls = valueCalls(rest[i:end], offset+i, opts)
		if !embeddedCalls(calls, opts) {
			run = -1
			if c == '[' {
				if i >= list.End {
					list = dialects.Span{Start: i, End: max(end, stray)}
				}
				continue // objects inside may still be calls; each is measured once
			}
			i = end - 1
			continue
		}
		if stray > end {
			textcall.NoteStrayClosers(calls)
			end = stray
		}
		// A code fence around nothing but the calls goes with them: an
		// emptied fence left in content would be markup, not answer.
		from, to := textlayer.Around(rest, last, i, end)
		if from < i {
			// The line break before the fence goes with it.
			content.WriteString(strings.TrimRight(rest[last:from], " \t\r\n"))
		} else {
			content.WriteString(rest[last:from])
		}
		dialects.KeepText(calls, rest[from:to])
		ext.Calls = append(ext.Calls, calls...)
		last, run = to, to
		i = end - 1
	}
	content.WriteString(rest[last:])
	ext.Content = strings.TrimSpace(content.String())
	return ext
}

// skipSeparators returns the index of the first byte at or after i that is
// not a blank, a line break, a comma or a semicolon.
func skipSeparators(s string, i int) int {
	for i < len(s) && strings.IndexByte(" \t\r\n,;", s[i]) >= 0 {
		i++
	}
	return i
}

// opensObject reports whether the next non-space byte at or after i is '{'.
func opensObject(s string, i int) bool {
	for ; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\r', '\n':
			continue
		case '{':
			return true
		}
		return false
	}
	return false
}

// wholeOutput parses text that is nothing but JSON call values.
func wholeOutput(text string, offset int, opts *dialects.Options) ([]dialects.RawCall, bool) {
	trimmed := strings.TrimSpace(text)
	if trimmed == "" || (trimmed[0] != '{' && trimmed[0] != '[') {
		return nil, false
	}
	base := offset + strings.Index(text, trimmed[:1])
	var calls []dialects.RawCall
	for i := 0; i < len(trimmed); {
		switch trimmed[i] {
		case ' ', '\t', '\r', '\n', ',', ';':
			i++
			continue
		case '{', '[':
		case ']', '}':
			// A closing bracket too many after the last value (the
			// model closed its array twice) ends the output: it is the
			// values' punctuation, as the separators are.
			if len(calls) > 0 && textcall.StrayClosers(trimmed[i:]) {
				textcall.NoteStrayClosers(calls)
				return calls, true
			}
			return nil, false
		default:
			return nil, false
		}
		end, _ := dialects.ValueEnd(trimmed, i)
		got := valueCalls(trimmed[i:end], base+i, opts)
		if got == nil {
			return nil, false
		}
		calls = append(calls, got...)
		i = end
	}
	return calls, len(calls) > 0
}

// strayAfter returns the end of the closing brackets that follow s[:end]
// on its line, blanks between them allowed, or end when none do.
func strayAfter(s string, end int) int {
	after := end
	for j := end; j < len(s); j++ {
		switch s[j] {
		case ' ', '\t':
			continue
		case ']', '}':
			after = j + 1
			continue
		}
		break
	}
	return after
}

// valueCalls reads the calls a JSON value describes: a call object, or an
// array of call objects. It returns nil when the value is not that.
func valueCalls(value string, offset int, opts *dialects.Options) []dialects.RawCall {
	v := strings.TrimSpace(value)
	if v == "" {
		return nil
	}
	if v[0] == '{' {
		if rc, ok := callObject(v, offset, opts); ok {
			// An object that does not close ran into the end of the output.
			_, complete := dialects.ValueEnd(v, 0)
			rc.AtEnd = !complete
			return []dialects.RawCall{rc}
		}
		return nil
	}
	// An array of call objects; each element is found by extent so that
	// one malformed element does not hide the others.
	var calls []dialects.RawCall
	for i := 1; i < len(v); i++ {
		switch v[i] {
		case ' ', '\t', '\r', '\n', ',':
			continue
		case ']':
			return calls
		case '{':
			end, complete := dialects.ValueEnd(v, i)
			rc, ok := callObject(v[i:end], offset+i, opts)
			if !ok {
				return nil
			}
			rc.AtEnd = !complete
			calls = append(calls, rc)
			i = end - 1
		default:
			return nil
		}
	}
	return calls
}

// callObject reads one object as a call if it is shaped like one.
func callObject(obj string, offset int, opts *dialects.Options) (dialects.RawCall, bool) {
	rc, ok := dialects.ObjectCall(obj, offset, opts)
	if !ok {
		return rc, false
	}
	if rc.Arguments != "" || onlyCallKeys(obj) {
		return rc, true
	}
	return rc, false
}

var callKeys = map[string]bool{"name": true, "id": true, "type": true, "tool_name": true,
	"tool": true, "function": true, "function_name": true, "tool_call_id": true, "call_id": true}

// onlyCallKeys reports whether a valid JSON object has no key that a call
// object would not have, so {"name": "ping"} is a call and
// {"name": "Ada", "age": 36} is not.
func onlyCallKeys(obj string) bool {
	if !lenient.ValidString(obj) { // gjson.Valid recurses per nesting level
		return false
	}
	only := true
	gjson.Parse(obj).ForEach(func(k, _ gjson.Result) bool {
		only = callKeys[k.String()]
		return only
	})
	return only
}

// embeddedCalls decides whether calls found inside prose are calls.
func embeddedCalls(calls []dialects.RawCall, opts *dialects.Options) bool {
	if len(calls) == 0 {
		return false
	}
	for _, rc := range calls {
		if opts.Tools != nil && opts.Tools.Len() > 0 {
			if _, _, err := dialects.CheckName(rc.Name, opts.Tools); err != nil {
				return false
			}
			continue
		}
		if rc.Arguments == "" {
			return false
		}
	}
	return true
}

// called reports whether the value s[i:end], found after content that
// starts at last, is a call by the table of what is a call (textlayer.Decide):
// a bare envelope where it stands, or, inside a fence that holds nothing
// else, the fence by its label where the fence stands. Prose that
// presents it as an example shows it (textcall.PresentedAsExample).
func called(s string, last, i, end int, tools bool) bool {
	shape, label, at, to := textlayer.Envelope, textlayer.Unlabelled, i, end
	if from, e := textlayer.Around(s, last, i, end); from < i {
		shape, at, to = textlayer.Fenced, from, e
		k := from
		for k < len(s) && s[k] == '`' {
			k++
		}
		label = textlayer.LabelOf(textlayer.InfoWord(s[k:]))
	}
	if textlayer.Decide(shape, label, textlayer.PlaceOf(s, 0, at, to), tools, textlayer.JSONFamily) == textlayer.Content {
		return false
	}
	return !dialects.PresentedAsExample(s, at)
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
