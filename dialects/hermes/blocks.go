package hermes

import (
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/cutoff"
	"github.com/dialectkit/toolcall/dialects/internal/inprose"
	"github.com/dialectkit/toolcall/dialects/internal/textcall"
	"github.com/dialectkit/toolcall/internal/jsonscan"
	"github.com/dialectkit/toolcall/internal/strictjson"
	"github.com/dialectkit/toolcall/internal/textlayer"
)

// withoutTagsInStrings appends to out the tags, found in text from
// start, but the <tool_call> tags that stand inside a string of a JSON value
// (strictjson.InsideString): structure inside a string is text. A value
// that holds one is looked for back to the tag before it only, and the
// tags inside a value found are dropped without a look, so the pass stays
// linear.
func withoutTagsInStrings(out []tag, text string, tags []tag, start int) []tag {
	floor, skip := start, -1
	for _, t := range tags {
		if t.kind == kindToolCall {
			if t.start < skip {
				continue
			}
			if e, in := strictjson.InsideString(text, floor, t.start); in {
				skip = e
				continue
			}
		}
		out = append(out, t)
		floor = t.end
	}
	return out
}

// tagPass finds the tag blocks in text[start:end], leaving out the tags
// that what precedes them shows rather than makes a call with
// (shown.ShownScan.ShownAt). It also returns the closing <tool_call>
// tags that no block used: a call object right before one is a call whose
// opening tag is missing. The regions' array is the next pass's too.
func (x *extractor) tagPass(start, end int) (regions []region, orphans []tag) {
	regions = x.regions[:0]
	x.kept = withoutTagsInStrings(x.kept[:0], x.Text, x.tokens(start, end), start)
	tags := x.kept
	for k := 0; k < len(tags); {
		t := tags[k]
		if x.tagShown.ShownAt(x.Text, t.start) {
			// Shown in inline code, a quotation or an example fence, by
			// what precedes it: text, and no evidence of the dialect.
			k++
			continue
		}
		if t.kind == kindToolCall {
			x.marked = true
		}
		if t.closing {
			if t.kind == kindToolCall {
				orphans = append(orphans, t)
			}
			k++
			continue
		}
		r, ok := x.block(tags, k, end)
		if !ok {
			k++
			continue
		}
		regions = append(regions, r)
		x.tagShown.Call(r.start, r.end)
		for k < len(tags) && tags[k].start < r.end {
			if tags[k].kind == kindToolCall {
				x.marked = true
			}
			k++
		}
	}
	x.regions = regions[:0] // the next pass writes over them
	return x.fenceRuns(regions, start, end), orphans
}

// tokens returns the tags the dialect knows in text[start:end], in order.
// Each tag is parsed once (tokenize): the tags of a part of the text read
// before up to the same end are those read then.
func (x *extractor) tokens(start, end int) []tag {
	if end == x.tokEnd && start >= x.tokStart {
		k := sort.Search(len(x.tags), func(k int) bool { return x.tags[k].start >= start })
		if k == 0 || x.tags[k-1].end <= start {
			return x.tags[k:]
		}
	}
	x.tags = tokenize(x.tags[:0], x.Text, start, end, x.known)
	x.tokStart, x.tokEnd = start, end
	return x.tags
}

// tagAt returns the tag that starts at text[i] and ends before limit, as
// the tag pass read it (parseTag, once): i lies where it read.
func (x *extractor) tagAt(i, limit int) (tag, bool) {
	k := sort.Search(len(x.tags), func(k int) bool { return x.tags[k].start >= i })
	if k < len(x.tags) && x.tags[k].start == i && x.tags[k].end <= limit {
		return x.tags[k], true
	}
	return tag{}, false
}

// block reads the block opened by tags[k]; ok is false when the tag does
// not open a call (it is then text).
func (x *extractor) block(tags []tag, k, limit int) (region, bool) {
	open := tags[k]
	x.keep = nil
	// A block never runs past the next opening tag of its family: two
	// opening tags in a row mean the first block was not closed.
	// An opening tag inside a string of the block's JSON value is
	// argument text ("wrap it in <tool_call> tags"), not the next block.
	lim, valueEnd := limit, -1
	for m := k + 1; m < len(tags); m++ {
		if tags[m].family == open.family && !tags[m].closing {
			if tags[m].start < valueEnd {
				continue
			}
			if end, ok := x.inValue(open.end, tags[m].start, limit); ok {
				// Every tag up to the value's end is in it: measured once.
				valueEnd = end
				continue
			}
			lim = tags[m].start
			break
		}
	}
	c := x.closingTag(tags, k, lim)
	bodyEnd, blockEnd := lim, lim
	if c >= 0 {
		bodyEnd, blockEnd = tags[c].start, tags[c].end
	}
	closed := c >= 0
	var (
		calls []dialects.RawCall
		used  int
		ok    bool
	)
	switch open.kind {
	case kindToolCall:
		calls, used, ok = x.toolCallBody(open.end, bodyEnd, closed)
	case kindFunction:
		calls, used, ok = x.namedBody(open.name, open.end, bodyEnd)
	default:
		calls, used, ok = x.Framed(open.end, bodyEnd, closed)
	}
	if !ok || open.kind == kindToolCall && inprose.Mentioned(x.Text, open.start, open.end, calls) {
		return region{}, false
	}
	keep := x.keep
	x.keep = nil
	if closed {
		if left := noteLeftover(calls, x.Text, used, bodyEnd); left != "" {
			keep = append(keep, left)
		}
	} else {
		blockEnd = used
		if lim < limit && len(calls) > 0 && calls[len(calls)-1].Err == nil && jsonscan.EndsInString(x.Text[open.end:bodyEnd]) {
			// The next block begins where this one's value is still inside
			// a string: the model broke off its arguments mid-string, and
			// what it meant to write is lost. Cut off, never a call.
			last := &calls[len(calls)-1]
			e := cutoff.Error("inside a string of the call's arguments, where the next <tool_call> begins")
			e.Offset, e.Raw, e.Tool = last.Offset, textlayer.TrimSpace(x.Text[open.end:bodyEnd]), last.Name
			*last = dialects.RawCall{Name: last.Name, Offset: last.Offset, Err: e}
		}
		// Closing brackets too many right after the calls of a block
		// left open are their syntax, as in a closed block: dropped, not
		// silently.
		if rest := x.Text[used:bodyEnd]; len(calls) > 0 && strings.ContainsAny(rest, "}])") && strings.Trim(rest, "}]) \t\r\n") == "" {
			noteLeftover(calls, x.Text, used, bodyEnd)
			blockEnd = used + len(textlayer.TrimRight(rest))
		} else if e := textcall.StrayOnLine(x.Text[:bodyEnd], used, "}])"); len(calls) > 0 && e > used {
			// And before prose on their line: the prose is content.
			noteLeftover(calls, x.Text, used, e)
			blockEnd = e
		}
	}
	if open.id != "" {
		for i := range calls {
			if calls[i].ID == "" {
				calls[i].ID = open.id
			}
		}
	}
	return region{start: open.start, end: blockEnd, calls: calls, keep: keep}, true
}

// closingTag returns the index of the tag that closes the block opened by
// tags[k], or -1. Usually it is the first closing tag of the family; but
// when the body is a JSON value that runs past that tag, the tag sits
// inside a string of the value, and the first closing tag after the value
// closes the block.
func (x *extractor) closingTag(tags []tag, k, lim int) int {
	open := tags[k]
	first := -1
	for m := k + 1; m < len(tags) && tags[m].start < lim; m++ {
		if tags[m].closing && tags[m].family == open.family {
			first = m
			break
		}
	}
	if first < 0 {
		return -1
	}
	p := textcall.SkipSpace(x.Text, open.end, lim)
	if p == lim || x.Text[p] != '{' && x.Text[p] != '[' {
		return first
	}
	// Most blocks hold one strict JSON value and space up to the first
	// closing tag: one check of that text both measures the value (a
	// valid value ends with its last byte, where jsonscan.ValueEnd would find its
	// end) and spares its parse the check (valueCalls).
	if q := p + len(textlayer.TrimRight(x.Text[p:tags[first].start])); q > p {
		if chk, ok := strictjson.Check(x.Text[p:q], x.Opts.Lenient.MaxDepth); ok {
			x.lastValue = measured{start: p, end: q, complete: true, chk: chk}
			return first
		}
	}
	valueEnd, complete := x.valueEnd(p, lim)
	if !complete || valueEnd <= tags[first].start {
		return first
	}
	for m := first + 1; m < len(tags) && tags[m].start < lim; m++ {
		if tags[m].closing && tags[m].family == open.family && tags[m].start >= valueEnd {
			if len(textlayer.TrimSpace(x.Text[valueEnd:tags[m].start])) <= maxJunk {
				return m
			}
			break
		}
	}
	return first
}

// closeToolCall is the tag that closes a call block.
const closeToolCall = "</tool_call>"

// maxJunk is the most non-space text tolerated between a call object and a
// closing tag found beyond an earlier one (a stray '>' or brace).
const maxJunk = 8

// toolCallBody reads the body of a <tool_call> block, text[start:end]. An
// empty block is not a call (its text stays where it is). An unclosed block
// is claimed only when a JSON object follows the tag: anything else is the
// tag mentioned in prose. A closed block that holds no readable call is a
// malformed call.
func (x *extractor) toolCallBody(start, end int, closed bool) ([]dialects.RawCall, int, bool) {
	p := textcall.SkipSpace(x.Text, start, end)
	if p == end {
		return nil, p, false
	}
	if !closed {
		switch x.Text[p] {
		case '{':
			calls, used := x.callBody(p, end)
			if end == len(x.Text) && cutoff.Marker(x.Text[used:end], closeToolCall) {
				used = end // the output ends inside the closing tag
			}
			return calls, used, true
		case '<':
			// A <function …>{…}</function> element claims the block too.
			if t, ok := x.tagAt(p, end); ok && t.kind == kindFunction && !t.closing {
				if calls, used := x.callBody(p, end); len(calls) > 0 && calls[0].Err == nil {
					return calls, used, true
				}
			}
		case '[':
			// <tool_call> [{…}] with no closing tag is Granite 3.1 syntax;
			// it is not read as a hermes call.
			e, _ := jsonscan.ValueEnd(x.Text[:end], p)
			return []dialects.RawCall{textcall.Malformed(p, x.Text[p:e], "", "a JSON array after an unclosed tool-call tag is granite syntax, not hermes", nil)}, e, true
		}
		return nil, p, false
	}
	calls, used := x.callBody(p, end)
	return calls, used, true
}

// callBody reads the calls in text[start:end], which is not empty: JSON
// objects (one or several, or an array of them), a fenced block holding
// them, a <function=NAME>{…} element, or a name followed by its argument
// object. What cannot be read becomes a malformed call. used is where the
// text that was read ends.
func (x *extractor) callBody(start, end int) (calls []dialects.RawCall, used int) {
	p := textcall.SkipSpace(x.Text, start, end)
	switch {
	case x.Text[p] == '{' || x.Text[p] == '[':
		calls, used = x.values(p, end)
	case textlayer.IsFenceAt(x.Text, p, end):
		f := textlayer.FenceAt(x.Text, p, end)
		if textcall.SkipSpace(x.Text, f.BodyStart, f.BodyEnd) == f.BodyEnd {
			return []dialects.RawCall{textcall.Malformed(p, x.Text[p:end], "", "the tool-call block holds an empty code fence", nil)}, end
		}
		calls, _ = x.callBody(f.BodyStart, f.BodyEnd)
		used = f.End
	case x.Text[p] == '<':
		// One or more <function …>{…}</function> elements, one call each.
		for q := p; q < end; q = textcall.SkipSpace(x.Text, used, end) {
			t, ok := x.tagAt(q, end)
			if !ok || t.kind != kindFunction || t.closing {
				break
			}
			inner, after := end, -1
			if c := strings.Index(x.Text[t.end:end], "</function>"); c >= 0 {
				inner, after = t.end+c, t.end+c+len("</function>")
			}
			named, e, ok := x.namedBody(t.name, t.end, inner)
			if !ok {
				break
			}
			calls, used = append(calls, named...), max(e, after)
			if after < 0 {
				break
			}
		}
		if len(calls) > 0 {
			break
		}
		// Tagged parameters (<parameter=…>, <arg_key>) belong to other
		// dialects: the block is not a hermes call.
		return []dialects.RawCall{textcall.Malformed(p, x.Text[p:end], "", "the tool-call block does not hold a JSON call", nil)}, end
	default:
		calls, used = x.prefixedBody(p, end)
	}
	return calls, used
}

// noteLeftover records text left in a closed block after its calls as a
// repair on the last call. Stray syntax (a '>' or a brace) is dropped, but
// not silently; text holding words is prose the model wrote, and is
// returned to be kept as content: nothing disappears.
func noteLeftover(calls []dialects.RawCall, text string, used, end int) (keep string) {
	rest := textcall.SkipSpace(text, used, end)
	if len(calls) == 0 || rest == end {
		return ""
	}
	kind, detail := toolcall.RepairSurroundingText, "text after the call inside its block ignored"
	switch {
	case strings.Trim(text[rest:end], "}]) \t\r\n") == "":
		kind = toolcall.RepairExtraClosing
	case textcall.HasWord(text[rest:end]):
		keep, detail = text[rest:end], "text after the call inside its block kept as content"
	}
	last := &calls[len(calls)-1]
	last.Repairs = append(last.Repairs, toolcall.Repair{Kind: kind, Offset: -1, CallIndex: -1, Detail: detail})
	return keep
}

// prefixedBody reads a body that does not start with JSON: either a tool
// name followed by its argument object ("get_weather\n{…}", "get_weather:
// {…}"), or a few words before a call object. Text holding tags is never
// read this way: it is another dialect's tagged syntax.
func (x *extractor) prefixedBody(p, end int) ([]dialects.RawCall, int) {
	brace := strings.IndexByte(x.Text[p:end], '{')
	if brace < 0 || strings.IndexByte(x.Text[p:p+brace], '<') >= 0 {
		return []dialects.RawCall{textcall.Malformed(p, x.Text[p:end], "", "the tool-call block does not hold a JSON call", nil)}, end
	}
	brace += p
	prefix := strings.TrimRight(textlayer.TrimSpace(x.Text[p:brace]), ":")
	e, complete := jsonscan.ValueEnd(x.Text[:end], brace)
	if isToolName(prefix) {
		if !complete && x.AtEnd(e) {
			return []dialects.RawCall{textcall.Truncated(p, x.Text[p:e], prefix)}, e
		}
		// The object holds the arguments, unless it is a whole call object
		// and the word before it only prose.
		if v, _, err := x.Parse(x.Text[brace:e]); err != nil || !textcall.Shape(v).Strong {
			return []dialects.RawCall{{Name: prefix, Arguments: x.Text[brace:e], Offset: p}}, e
		}
	}
	calls, used := x.values(brace, end)
	if len(calls) > 0 {
		detail := "text before the call inside the tool-call block ignored"
		if textcall.HasWord(x.Text[p:brace]) {
			// Prose the model wrote before the call: kept as content.
			x.keep = append(x.keep, x.Text[p:brace])
			detail = "text before the call inside the tool-call block kept as content"
		}
		calls[0].Repairs = append(calls[0].Repairs, toolcall.Repair{Kind: toolcall.RepairSurroundingText, Offset: -1, CallIndex: -1,
			Detail: detail})
	}
	return calls, used
}

// isToolName reports whether s can be a tool name written before its
// arguments: one word of name characters.
func isToolName(s string) bool {
	if s == "" || len(s) > dialects.MaxNameLength {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isTagNameByte(c) || c == '.' || c == ':' || c == '/') {
			return false
		}
	}
	return true
}

// namedBody reads the body of <function=NAME>…</function>: a JSON object
// holding the arguments. ok is false for any other body (Qwen3-Coder's
// <parameter=…> elements, MiniCPM's <param>): that is not this dialect.
func (x *extractor) namedBody(name string, start, end int) ([]dialects.RawCall, int, bool) {
	p := textcall.SkipSpace(x.Text, start, end)
	if p == end || x.Text[p] != '{' {
		return nil, p, false
	}
	e, complete := jsonscan.ValueEnd(x.Text[:end], p)
	if !complete && x.AtEnd(e) {
		return []dialects.RawCall{textcall.Truncated(p, x.Text[p:e], name)}, e, true
	}
	return []dialects.RawCall{{Name: name, Arguments: x.Text[p:e], Offset: p}}, e, true
}

// values reads consecutive JSON values in text[p:end] as calls: each object
// is a call, each array a list of calls; separators (whitespace, commas,
// semicolons) may come between them. used is where the last value ends.
func (x *extractor) values(p, end int) (calls []dialects.RawCall, used int) {
	for p < end && (x.Text[p] == '{' || x.Text[p] == '[') {
		e, complete := x.valueEnd(p, end)
		if !complete && x.AtEnd(e) {
			raw := x.Text[p:e]
			return append(calls, textcall.Truncated(p, raw, textcall.PeekName(raw))), e
		}
		if got := x.valueCalls(p, e); calls == nil {
			calls = got // most blocks hold one value: no copy of it
		} else {
			calls = append(calls, got...)
		}
		used = e
		if !complete {
			break
		}
		p = textcall.SkipSeparators(x.Text, e, end)
	}
	return calls, used
}

// valueCalls reads one JSON value written inside call markup: an object is
// one call, an array holds calls. Anything unreadable is a malformed call.
func (x *extractor) valueCalls(start, end int) []dialects.RawCall {
	raw := x.Text[start:end]
	var (
		v       gjson.Result
		repairs []toolcall.Repair
		err     *toolcall.Error
	)
	if m := x.lastValue; m.chk != strictjson.Unchecked && m.start == start && m.end == end {
		v = x.ParseChecked(raw, m.chk) // checked when its block was measured
	} else {
		v, repairs, err = x.Parse(raw)
	}
	if err != nil {
		return []dialects.RawCall{textcall.Malformed(start, raw, textcall.PeekName(raw), "the call is not JSON that can be repaired", err)}
	}
	if !v.IsArray() {
		return []dialects.RawCall{x.Call(v, start, repairs)}
	}
	var calls []dialects.RawCall
	for _, item := range v.Array() {
		calls = append(calls, x.Call(item, start, repairs))
		repairs = nil // they were made once, to the whole array
	}
	return calls
}

// valueEnd is jsonscan.ValueEnd(x.Text[:limit], p). A block's value is
// measured to find its closing tag and again to read it, with limits that
// differ only past the value: a value that closed before both limits is
// measured once.
func (x *extractor) valueEnd(p, limit int) (int, bool) {
	if v := x.lastValue; v.complete && v.start == p && v.end <= limit {
		return v.end, true
	}
	e, complete := jsonscan.ValueEnd(x.Text[:limit], p)
	x.lastValue = measured{start: p, end: e, complete: complete}
	return e, complete
}

// measured is the extent of a value valueEnd measured.
type measured struct {
	start, end int
	complete   bool
	// chk is what is known of the value's text when closingTag checked
	// it; Unchecked when only measured.
	chk strictjson.Checked
}

// inValue reports whether offset at lies inside a string of the JSON value
// that opens the body at from, and where that value ends: the text up to
// at ends inside a string, and the value, read on past at, is strict JSON
// (strictjson.RunsPast). A value cut off inside a string, with a call
// after it, is no such value: the tag then opens the next block.
func (x *extractor) inValue(from, at, limit int) (end int, ok bool) {
	return strictjson.RunsPast(x.Text, textcall.SkipSpace(x.Text, from, at), at, limit, x.Opts.Lenient.MaxDepth)
}
