package markers

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/callname"
	"github.com/dialectkit/toolcall/dialects/internal/callobject"
	"github.com/dialectkit/toolcall/dialects/internal/cutoff"
	"github.com/dialectkit/toolcall/dialects/internal/fields"
	"github.com/dialectkit/toolcall/dialects/internal/rawcall"
	"github.com/dialectkit/toolcall/dialects/internal/textcall"
	"github.com/dialectkit/toolcall/internal/coded"
	"github.com/dialectkit/toolcall/internal/shown"
	"github.com/dialectkit/toolcall/internal/textlayer"
	"github.com/dialectkit/toolcall/internal/wordskept"
	"github.com/dialectkit/toolcall/lenient"
)

// jsonValue reads the calls of the JSON value s[start:ext.end], closing it
// first when it was cut off. offset is the value's offset in the output.
//
// In marked mode (bare false) every problem becomes an error call, so ok is
// always true: the marker said a call is there. In bare mode a value that
// is not entirely calls gives ok false, and the text stays content.
func (x *extractor) jsonValue(s string, start int, ext extent, offset int, bare bool) (calls []dialects.RawCall, content string, ok bool) {
	raw := s[start:ext.end]
	// A marked list of calls is limited element by element (value): each
	// call is read from its own value.
	if limit := x.depthLimit(); ext.depth > limit && (bare || raw[0] != '[') {
		if bare && !x.namesCall(raw) {
			return nil, "", false
		}
		e := toolcall.NewError(toolcall.CodeTooDeep, fmt.Sprintf("the call nests %d levels deep, the limit is %d", ext.depth, limit))
		e.Offset, e.Raw = offset, raw
		return []dialects.RawCall{{Offset: offset, Err: e}}, "", true
	}
	switch ext.status {
	case extentSwallowed:
		if bare {
			return nil, "", false
		}
		if ext.whole > start {
			// A list whose later element opens a string that runs over
			// the closing marker: the elements that closed before it are
			// read as they are, as they were when they closed (a call is
			// decided by its own value); the rest is the failed call.
			if calls, _, ok := x.value(s[start:ext.whole]+"]", offset, false); ok && len(calls) > 0 {
				rest := skipBlank(s, ext.whole)
				if rest < len(s) && s[rest] == ',' {
					rest = skipBlank(s, rest+1)
				}
				return append(calls, swallowedCall(offset+rest-start, s[rest:ext.end])), "", true
			}
		}
		return []dialects.RawCall{swallowedCall(offset, raw)}, "", true
	case extentCut:
		if x.opts.DisableRepair {
			break // strict JSON: the unclosed value fails where it is read
		}
		calls, content, ok = x.value(raw+ext.closers, offset, bare)
		if ok && !bare && len(calls) == 0 && content == "" {
			// A list left open holds no call yet: what the model was
			// writing is not known, and its text is not lost.
			if ext.atMarker {
				return []dialects.RawCall{errorCall(offset, raw, toolcall.CodeMalformedCall, "the list of calls is not closed before the next marker")}, "", true
			}
			return []dialects.RawCall{cutCall(offset, raw, "inside the list of calls")}, "", true
		}
		if !ok || len(calls) == 0 {
			return calls, content, ok
		}
		last := &calls[len(calls)-1]
		if last.Err != nil {
			if !ext.atMarker {
				// The output ends inside the last call's value:
				// whatever failed in it, it was cut off.
				last.Err = cutoff.Convert(coded.As(last.Err))
			}
			return calls, content, ok
		}
		if ext.inString && last.Arguments == "" && strings.HasSuffix(raw, last.Name) {
			// Cut inside the name itself: the name is not known.
			if bare {
				return nil, "", false
			}
			calls[len(calls)-1] = cutCall(last.Offset, raw, "inside a tool name")
			return calls, content, ok
		}
		last.Repairs = append(truncation(ext, len(raw)), last.Repairs...)
		last.AtEnd = !ext.atMarker && cutInside(raw, last.Offset-offset)

		return calls, content, ok
	}
	return x.value(raw, offset, bare)
}

// cutInside reports whether the value cut off at the end of raw was cut
// inside the object or array that starts at raw[at] (the call's own
// object), rather than only in a list or envelope around a complete call.
// An unknown start counts as cut.
func cutInside(raw string, at int) bool {
	if at < 0 || at >= len(raw) || raw[at] != '{' && raw[at] != '[' {
		return true
	}
	return scanValue(raw, at, nil).status == extentCut
}

// namesCall reports whether a value too deep to be read still shows a
// call: an object (or an array whose first element is one, or one of the
// dialect's envelopes around either) with a string name field and an
// arguments field. Without markers, such a value is the call the model
// wrote, and its error must not turn into content. gjson finds top-level
// fields without descending into the nesting.
func (x *extractor) namesCall(raw string) bool {
	v := gjson.Parse(raw)
	for _, key := range x.d.envelopes {
		if inner := v.Get(key); inner.IsObject() || inner.IsArray() {
			v = inner
			break
		}
	}
	if v.IsArray() {
		v = v.Get("0")
	}
	if !v.IsObject() {
		return false
	}
	named := false
	for _, f := range fields.Name {
		named = named || v.Get(f).Type == gjson.String
	}
	if !named {
		return false
	}
	for _, f := range fields.Arguments {
		if v.Get(f).Exists() {
			return true
		}
	}
	return false
}

// verdict is what a JSON object turned out to be.
type verdict int

const (
	isCall  verdict = iota // a call, an envelope of calls, or a content wrapper
	notCall                // valid JSON that does not describe a call
	broken                 // not JSON even after repair
)

// depthLimit is the deepest nesting of a call value read: the lenient
// depth limit for the arguments, plus the levels of the call object and an
// envelope around them. Deeper values are refused before any parsing.
func (x *extractor) depthLimit() int {
	d := x.opts.Lenient.MaxDepth
	if d <= 0 {
		d = lenient.DefaultMaxDepth
	}
	return d + 4
}

// value reads a call object, an envelope, or an array of call objects.
func (x *extractor) value(v string, offset int, bare bool) (calls []dialects.RawCall, content string, ok bool) {
	if v[0] == '{' {
		calls, content, vd := x.object(v, offset)
		switch {
		case vd == isCall:
			return calls, content, true
		case bare:
			return nil, "", false
		case vd == notCall:
			return []dialects.RawCall{errorCall(offset, v, toolcall.CodeMalformedCall, "the JSON object does not name a tool")}, "", true
		}
		return calls, "", true
	}
	// An array: each element is found by its extent, so that one bad
	// element does not hide its siblings. In bare mode an element that is
	// valid JSON but not a call makes the array prose, and a broken element
	// is an error only beside a real call.
	good, prev := 0, 0
	for i := 1; i < len(v); {
		i = skipSeparators(v, i)
		if i >= len(v) || v[i] == ']' {
			break
		}
		if v[i] != '{' {
			if bare {
				return nil, "", false
			}
			calls = append(calls, errorCall(offset+i, v[i:], toolcall.CodeMalformedCall,
				"an element of the calls array is not a call object"))
			break
		}
		e := scanValue(v, i, nil)
		elem := v[i:e.end]
		if e.status == extentCut {
			elem += e.closers
		}
		if limit := x.depthLimit(); !bare && e.depth+1 > limit {
			err := toolcall.NewError(toolcall.CodeTooDeep, fmt.Sprintf("the call nests %d levels deep, the limit is %d", e.depth+1, limit))
			err.Offset, err.Raw = offset+i, elem
			calls = append(calls, dialects.RawCall{Offset: offset + i, Err: err, Text: v[prev:e.end]})
			prev, i = e.end, e.end
			continue
		}
		cs, c, vd := x.object(elem, offset+i)
		if !bare {
			// An element's calls keep its text, from the end of the one
			// before.
			rawcall.KeepText(cs, v[prev:e.end])
		}
		prev = e.end
		switch vd {
		case isCall:
			good++
		case notCall:
			if bare {
				return nil, "", false
			}
			cs = []dialects.RawCall{errorCall(offset+i, elem, toolcall.CodeMalformedCall, "the JSON object does not name a tool")}
		}
		calls, content = append(calls, cs...), content+c
		i = e.end
	}
	if bare && good == 0 {
		return nil, "", false
	}
	return calls, content, true
}

// object reads one JSON object: an envelope around calls, a content
// wrapper, a call with the name as its key, or a call object. A broken
// object comes back as an error call.
func (x *extractor) object(obj string, offset int) ([]dialects.RawCall, string, verdict) {
	doc, repairs, err := x.parse(obj)
	if err == nil && !doc.IsObject() {
		err = toolcall.NewError(toolcall.CodeMalformedCall, "the call is not a JSON object")
	}
	if err != nil {
		if calls, ok := x.rawEnvelope(obj, offset); ok {
			return calls, "", isCall
		}
		err.Offset, err.Raw = offset, obj
		return []dialects.RawCall{{Offset: offset, Err: err}}, "", broken
	}
	for _, key := range x.d.envelopes {
		if v := field(doc, key); v.IsObject() || v.IsArray() {
			calls, content, ok := x.value(v.Raw, offset, true)
			if !ok {
				return nil, "", notCall
			}
			if len(calls) > 0 && calls[0].Err == nil {
				calls[0].Repairs = append(repairs, calls[0].Repairs...)
			}
			if x.d.contentKey != "" { // {"thought": "…", "tool_calls": […]}
				if v := field(doc, x.d.contentKey); v.Type == gjson.String {
					content = v.String() + content
				}
			}
			return calls, content, isCall
		}
	}
	if x.d.contentKey != "" {
		if v := field(doc, x.d.contentKey); v.Type == gjson.String {
			return nil, v.String(), isCall
		}
	}
	if x.d.nameIsKey {
		if rc, ok := nameKeyCall(doc, offset); ok {
			rc.Repairs = repairs
			return []dialects.RawCall{rc}, "", isCall
		}
	}
	rc, ok := callobject.Read(doc.Raw, offset, x.opts)
	switch {
	case !ok:
		return nil, "", notCall
	case len(repairs) > 0 && !nameWritten(obj, rc.Name):
		return nil, "", notCall // the "name" was a bare word the repair quoted
	case rc.Arguments == "" && !onlyCallKeys(doc):
		return nil, "", notCall // {"name": "Ada", "age": 36} names a person, not a tool
	}
	rc.Repairs = append(repairs, rc.Repairs...)
	return []dialects.RawCall{rc}, "", isCall
}

// rawEnvelope finds an envelope's value in an object that could not be
// repaired as a whole, so that one broken call inside {"tool_calls": […]}
// does not hide its siblings.
func (x *extractor) rawEnvelope(obj string, offset int) ([]dialects.RawCall, bool) {
	for _, key := range x.d.envelopes {
		for _, q := range []string{`"`, `'`} {
			k := strings.Index(obj, q+key+q)
			if k < 0 {
				continue
			}
			j := skipBlank(obj, k+len(key)+2)
			if j >= len(obj) || obj[j] != ':' {
				continue
			}
			j = skipBlank(obj, j+1)
			if j >= len(obj) || obj[j] != '{' && obj[j] != '[' {
				continue
			}
			e := scanValue(obj, j, nil)
			v := obj[j:e.end]
			if e.status == extentCut {
				v += e.closers
			}
			if calls, _, ok := x.value(v, offset+j, true); ok {
				return calls, true
			}
		}
	}
	return nil, false
}

// parse reads an almost-JSON object, repairing it unless repair is off.
func (x *extractor) parse(obj string) (gjson.Result, []toolcall.Repair, *toolcall.Error) {
	t := strings.TrimSpace(obj)
	if lenient.ValidString(t) {
		return gjson.Parse(t), nil, nil
	}
	if x.opts.DisableRepair {
		return gjson.Result{}, nil, toolcall.NewError(toolcall.CodeInvalidJSON, "the call is not valid JSON and repair is disabled")
	}
	r := lenient.Repair([]byte(t), &x.opts.Lenient)
	if e := coded.As(r.Err); e != nil {
		return gjson.Result{}, nil, e
	}
	if e := wordskept.Check([]byte(t), r.Kept); e != nil {
		e.Raw = t
		return gjson.Result{}, nil, e // repair would drop a word of the call
	}
	return gjson.ParseBytes(r.Output), r.Repairs, nil
}

// field returns the member of obj with the given key, compared literally
// (not as a gjson path).
func field(obj gjson.Result, key string) gjson.Result {
	var out gjson.Result
	obj.ForEach(func(k, v gjson.Result) bool {
		if k.String() == key {
			out = v
			return false
		}
		return true
	})
	return out
}

// nameKeyCall reads a call written with the tool name as the only key,
// {"get_weather": {"city": "Tokyo"}} (apertus, and Ollama's generic
// parser): one key, not a call field, whose value is the arguments object.
func nameKeyCall(doc gjson.Result, offset int) (dialects.RawCall, bool) {
	if !doc.IsObject() {
		return dialects.RawCall{}, false
	}
	var rc dialects.RawCall
	var args gjson.Result
	n := 0
	doc.ForEach(func(k, v gjson.Result) bool {
		n++
		rc.Name, args = k.String(), v
		return n < 2
	})
	if n != 1 || !args.IsObject() || isCallField(rc.Name) {
		return dialects.RawCall{}, false
	}
	rc.Arguments, rc.Offset = args.Raw, offset
	return rc, true
}

func isCallField(k string) bool {
	for _, group := range [][]string{fields.Name, fields.Arguments, fields.ID} {
		for _, f := range group {
			if k == f {
				return true
			}
		}
	}
	return k == "type"
}

// onlyCallKeys reports whether obj has no key a call object would not
// have, so {"name": "ping"} is a call without arguments.
func onlyCallKeys(obj gjson.Result) bool {
	only := true
	obj.ForEach(func(k, _ gjson.Result) bool {
		only = isCallField(k.String())
		return only
	})
	return only
}

// nameWritten reports whether name appears in obj as a quoted string, as
// a tool name must be written.
func nameWritten(obj, name string) bool {
	return name != "" && (strings.Contains(obj, `"`+name+`"`) || strings.Contains(obj, `'`+name+`'`))
}

// rawArguments makes the arguments of a raw-text call: {key: text}, or the
// text itself when it already is a JSON object.
func rawArguments(key, text string) string {
	if text[0] == '{' && lenient.ValidString(text) {
		return text
	}
	var b bytes.Buffer
	b.WriteByte('{')
	lenient.WriteJSONString(&b, key)
	b.WriteByte(':')
	lenient.WriteJSONString(&b, text)
	b.WriteByte('}')
	return b.String()
}

// scanBare reads an output without markers as bare JSON, from x.s[from:]
// on: from is the end of the run of values that opens the output
// (leadRun), whose calls are read already, or 0. What follows the run is
// read as the rest of the output after a call of it: a value right after
// it goes on with the run.
func (x *extractor) scanBare(from int) {
	s := x.s[from:]
	x.bareFrom = from
	content, reasoning := x.splitReasoning(s)
	base := -1
	if strings.HasSuffix(s, content) {
		base = from + len(s) - len(content)
	} else {
		for x.samePrefix < len(content) && content[x.samePrefix] == s[x.samePrefix] {
			x.samePrefix++
		}
	}
	for _, m := range x.d.markers {
		if strings.Contains(x.s, m) {
			x.ext.Marked = true
			break
		}
	}
	x.ext.Reasoning = reasoning
	x.resetContent()
	// Each reading below decides by what precedes a value in the content
	// whether it is shown rather than made (shown.ShownScan.ShownAt),
	// with the scan reset: the readings are alternatives.
	sc := new(shown.ShownScan)
	if calls, answer, ok := x.whole(content, base, from > 0, sc); ok {
		x.ext.Calls = append(x.ext.Calls, calls...)
		x.addContent(answer)
		x.ext.Content = textlayer.TrimSpace(x.contentString())
		return
	}
	if sc.Reset(); x.d.desc.FramedAfterProse && x.framed(content, base, sc) {
		// Calls framed after prose were found; the rest is content.
	} else if x.tools() || !x.d.desc.FramedAfterProse {
		// xLAM frames its calls after prose: without tools, an unframed
		// value there is not its syntax.
		sc.Reset()
		x.embedded(content, base, from > 0, sc)
	} else {
		x.addContent(content)
	}
	x.ext.Content = textlayer.TrimSpace(x.contentString())
}

// whole reads s as nothing but JSON call values (after an optional bare
// prefix, in an optional code fence). ok is false when anything else is
// there, or when what precedes a value shows it rather than makes it a
// call (shown: a fence labelled with a programming language).
//
// afterRun says s goes on after a value of the run that opens the output:
// it may hold no further value.
func (x *extractor) whole(s string, base int, afterRun bool, shown *shown.ShownScan) (calls []dialects.RawCall, content string, ok bool) {
	i := len(s) - len(textlayer.TrimLeft(s))
	for _, p := range x.d.barePrefix {
		if strings.HasPrefix(s[i:], p) {
			i = skipBlank(s, i+len(p))
			break
		}
	}
	var fence byte // the byte of the fence around the values, 0 when none
	if e, isFence := textlayer.OpenRun(s, i); isFence {
		if !valueStart(s, skipBlank(s, e)) {
			return nil, "", false
		}
		i, fence = e, s[i]
	}
	n, last := 0, 0 // last: the calls of the last value
	for {
		i = skipSeparators(s, i)
		if e, ok := matchAny(x.d.stripSet, s, i); ok {
			i = e
			continue
		}
		if i >= len(s) {
			break
		}
		if e, ok := textlayer.CloseRunAt(s, i, fence); ok {
			i, fence = e, 0
			continue
		}
		if !valueStart(s, i) {
			if textlayer.TrimSpace(s[i:]) == "" {
				break
			}
			if j := strayEnd(s, i); n > 0 && j > i && (j == len(s) || closesFence(s, j, fence)) {
				// Closing brackets too many after the last value ({…}})
				// are its punctuation, dropped and recorded.
				textcall.NoteStrayClosers(calls[len(calls)-last:])
				i = j
				continue
			}
			return nil, "", false
		}
		if shown.ShownAt(s, i) {
			return nil, "", false
		}
		ext := scanValue(s, i, nil)
		cs, c, ok := x.jsonValue(s, i, ext, x.offsetIn(base, i), true)
		if !ok {
			return nil, "", false
		}
		shown.Call(i, ext.end)
		calls, content = append(calls, cs...), content+c
		n, last = n+1, len(cs)
		i = ext.end
	}
	return calls, content, n > 0 || afterRun
}

// framed finds, in prose, JSON call lists that a frame marks as calls: a
// code fence, a BarePrefix token or a BareWrapper right around an array
// that is nothing but well-formed calls. It reports whether it found any; then every frame and
// its calls are taken out of s and the rest is content. Each frame start is
// looked at once, and a value is measured once, so the scan is linear. A
// value that what precedes it shows (shown) is not framed.
func (x *extractor) framed(s string, base int, shown *shown.ShownScan) bool {
	type frame struct{ start, end string }
	var starts []frame
	starts = append(starts, frame{"```", "```"}, frame{"~~~", "~~~"})
	for _, p := range x.d.barePrefix {
		starts = append(starts, frame{p, ""})
	}
	for _, w := range x.d.desc.BareWrappers {
		starts = append(starts, frame{w.Start, w.End})
	}
	var (
		calls  []dialects.RawCall
		pieces []span // frames taken out of s
	)
	next := make([]int, len(starts)) // next occurrence of each start, -1 when none
	for k := range starts {
		next[k] = indexFrom(s, starts[k].start, 0)
	}
	for pos := 0; ; {
		k, at := -1, -1
		for j := range starts {
			if next[j] >= 0 && next[j] < pos {
				next[j] = indexFrom(s, starts[j].start, pos)
			}
			if next[j] >= 0 && (at < 0 || next[j] < at) {
				k, at = j, next[j]
			}
		}
		if k < 0 {
			break
		}
		f := starts[k]
		i := at + len(f.start)
		if textlayer.IsFenceByte(f.start[0]) {
			e, ok := textlayer.OpenRun(s, at)
			if !ok {
				pos = at + len(f.start) // a run of tildes inside a line is prose
				continue
			}
			i = e
		}
		i = skipBlank(s, i)
		end, ok, measured := -1, false, -1
		if i < len(s) && s[i] == '[' && valueStart(s, i) && !shown.ShownAt(s, i) {
			// The frame holds a call list, xLAM's own shape: a single
			// object after prose is more often an example than a call.
			ext := scanValue(s, i, nil)
			measured = ext.end
			// Closing brackets too many on the value's line ([{…}]]) are
			// its punctuation.
			stray := strayOnLine(s, ext.end)
			end = skipBlank(s, stray)
			closed := f.end == "" || strings.HasPrefix(s[end:], f.end) || strings.TrimSpace(s[end:]) == ""
			if closed && ext.status != extentSwallowed {
				var cs []dialects.RawCall
				if cs, _, ok = x.jsonValue(s, i, ext, x.offsetIn(base, i), true); ok && len(cs) > 0 && wellFormed(cs) {
					if stray > ext.end {
						textcall.NoteStrayClosers(cs)
					}
					if f.end != "" && strings.HasPrefix(s[end:], f.end) {
						end += len(f.end)
					} else {
						end = stray
					}
					calls = append(calls, cs...)
					pieces = append(pieces, span{at, end})
					shown.Call(at, end)
				} else {
					ok = false
				}
			}
		}
		switch {
		case ok:
			pos = end
		case measured > at:
			pos = measured // a value that is not calls is passed over whole
		default:
			pos = at + len(f.start)
		}
	}
	if len(calls) == 0 {
		return false
	}
	last := 0
	for _, pc := range pieces {
		x.addContent(s[last:pc.start])
		x.trimContentRight()
		last = pc.end
	}
	x.addContent(s[last:])
	x.ext.Calls = append(x.ext.Calls, calls...)
	return true
}

// wellFormed reports whether every call was read without error.
func wellFormed(calls []dialects.RawCall) bool {
	for _, rc := range calls {
		if rc.Err != nil || rc.Name == "" {
			return false
		}
	}
	return true
}

// indexFrom is the index of lit in s at or after from, or -1.
func indexFrom(s, lit string, from int) int {
	if i := strings.Index(s[from:], lit); i >= 0 {
		return from + i
	}
	return -1
}

// embedded finds, in prose, JSON values whose calls all name declared
// tools; everything else stays content, and so does a value that what
// precedes it shows (shown).
//
// afterRun says s goes on after a call of the run that opens the output.
func (x *extractor) embedded(s string, base int, afterRun bool, sc *shown.ShownScan) {
	last, run := 0, -1
	if afterRun || x.at.run {
		run = 0 // the text goes on after a call of the run that opened the output
	}
	for i := 0; i < len(s); {
		j := strings.IndexAny(s[i:], "{[")
		if j < 0 {
			break
		}
		i += j
		if !valueStart(s, i) {
			i++
			continue
		}
		ext := scanValue(s, i, nil)
		// A value that follows a call taken from the prose with nothing
		// but separators between ("{…}; {…}") continues that run of calls,
		// as the dialect's separated calls do at the start of an output.
		continues := run >= 0 && skipSeparators(s, run) == i
		// Closing brackets too many right after the value ({…}}) are its
		// punctuation, not prose on its line.
		stray := strayOnLine(s, ext.end)
		if sc.ShownAt(s, i) || !continues && (shown.PresentedAsExample(s, i) ||
			!textlayer.Is(textlayer.Envelope, textlayer.Unlabelled, textlayer.PlaceOf(s, 0, i, stray), x.tools(), textlayer.MarkersFamily, true, x.enveloped(s, i, ext.end))) {
			// One that prose presents as an example is shown; where the
			// table of what is a call makes it none, it is none either.
			i = ext.end
			continue
		}
		if cs, _, ok := x.jsonValue(s, i, ext, x.offsetIn(base, i), true); ok && x.declared(cs) {
			if stray > ext.end {
				textcall.NoteStrayClosers(cs)
			}
			from, to := textlayer.Around(s, 0, i, stray)
			if !continues { // separators between calls are syntax
				x.addContent(s[last:from])
				x.trimContentRight()
			}
			x.ext.Calls = append(x.ext.Calls, cs...)
			sc.Call(i, stray)
			last, run = to, to
		} else {
			run = -1
		}
		i = ext.end
	}
	x.addContent(s[last:])
}

// enveloped reports whether the value s[i:end] opens s (nothing but
// blanks before it) and is an object wrapped in one of the dialect's
// envelopes ({"function_call": {…}}, {"tool_call": {…}}): the envelope
// names it a call, so prose after it is the answer around a call, as the
// json dialect reads a leading object followed by text. An object without
// an envelope there ({"name": …, "parameters": {…}} Some follow-up text)
// stays content, as llama.cpp and smg read Llama 3's.
func (x *extractor) enveloped(s string, i, end int) bool {
	if len(x.d.envelopes) == 0 || s[i] != '{' || strings.TrimSpace(s[:i]) != "" {
		return false
	}
	v := gjson.Parse(s[i:end])
	for _, key := range x.d.envelopes {
		if inner := field(v, key); inner.IsObject() || inner.IsArray() {
			return true
		}
	}
	return false
}

// declared reports whether calls found in prose are calls: every one is
// well formed and names a declared tool or, without declared tools, is a
// whole envelope (a name and an arguments field) whose name is an
// identifier, as the json dialect reads JSON after prose.
func (x *extractor) declared(calls []dialects.RawCall) bool {
	for _, rc := range calls {
		if rc.Err != nil {
			return false
		}
		if !x.tools() && rc.Arguments == "" {
			return false
		}
		if _, _, e := callname.Check(rc.Name, x.opts.Tools); e != nil {
			return false
		}
	}
	return len(calls) > 0
}

// tools reports whether tools are declared.
func (x *extractor) tools() bool { return x.opts.Tools != nil && x.opts.Tools.Len() > 0 }

// offsetIn is the offset in the output of s[i], s the content read as
// bare JSON, which stands at base in the output; base < 0: the content is
// not one piece of it (a reasoning block was taken out), and only the
// part before the first block, the text's own from bareFrom on
// (samePrefix), has offsets.
func (x *extractor) offsetIn(base, i int) int {
	switch {
	case base >= 0:
		return base + i
	case i < x.samePrefix:
		return x.bareFrom + i
	}
	return -1
}

// strayEnd returns the end of the closing brackets and blanks at s[i:], i
// when there are none.
func strayEnd(s string, i int) int {
	j := i
	for j < len(s) && (s[j] == ']' || s[j] == '}' || s[j] == ' ' || s[j] == '\t' || s[j] == '\r' || s[j] == '\n') {
		j++
	}
	if !textcall.StrayClosers(s[i:j]) {
		return i
	}
	return j
}
