package pythonic

import (
	"strings"

	"github.com/dialectkit/toolcall/codemode"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/cutoff"
	"github.com/dialectkit/toolcall/dialects/internal/textcall"
	"github.com/dialectkit/toolcall/internal/coded"
	"github.com/dialectkit/toolcall/internal/textlayer"
)

// region is a stretch of text that held calls (or a call that could not be
// extracted): it is not content.
type region struct {
	start, end int
	calls      []dialects.RawCall
}

func (d *Dialect) kind(open string) blockKind {
	for _, b := range d.blocks {
		if b.open == open {
			return b
		}
	}
	return blockKind{}
}

// block extracts the calls of the block whose opener starts at `at` and
// whose body is text[bodyStart:limit]. A closed block is all calls: text in
// it that is not a call is an error. An open block (no closing marker) ends
// where its calls end; what follows is content.
func (x *extractor) block(text string, at, bodyStart, limit int, closed, atEnd bool) (r region) {
	r = region{start: at, end: limit}
	body := text[bodyStart:limit]
	if atEnd {
		defer func() { cutName(r.calls, text) }()
	}
	if atEnd && textlayer.SkipSpace(body, 0) == len(body) {
		// The output ends right after the opener: cut off inside the
		// envelope, never nothing.
		e := cutoff.Error("right after the call marker, before any call")
		e.Offset, e.Raw = at, text[at:limit]
		r.calls = []dialects.RawCall{{Offset: at, Err: e}}
		return r
	}
	if x.d.builtin {
		var stop int
		r.calls, stop = x.builtinBody(body, bodyStart, atEnd)
		if stop >= 0 {
			if !closed {
				r.end = bodyStart + stop // an open block ends where its calls end
			} else {
				rest := strings.TrimSpace(body[stop:])
				r.calls = append(r.calls, junkCall(rest, bodyStart+stop+strings.Index(body[stop:], rest)))
			}
		}
		if r.calls == nil && strings.TrimSpace(body) != "" {
			r.end = at // the tag mentioned in a sentence: all of it is content
		}
		return r
	}
	i := textlayer.SkipSpace(body, 0)
	if i == len(body) {
		if !closed {
			r.end = bodyStart
		}
		return r
	}
	for i < len(body) {
		calls, next, ok := x.sequence(body, i, bodyStart, true)
		if !ok {
			if !closed && len(r.calls) > 0 {
				r.end = bodyStart + i
				return r
			}
			if closed && len(r.calls) > 0 && r.calls[len(r.calls)-1].Err == nil && strings.Trim(body[i:], ")]} \t\r\n") == "" {
				// Closing brackets too many after the calls ([f()]],
				// f())) are their punctuation: dropped, not silently.
				last := &r.calls[len(r.calls)-1]
				last.Repairs = append(last.Repairs, toolcall.Repair{Kind: toolcall.RepairExtraClosing, Offset: bodyStart + i, CallIndex: -1,
					Detail: "closing brackets too many after the calls dropped"})
				return r
			}
			r.calls = append(r.calls, junkCall(textlayer.TrimRight(body[i:]), bodyStart+i))
			return r
		}
		r.calls = append(r.calls, calls...)
		i = textlayer.SkipSpace(body, next)
		if !closed {
			r.end = bodyStart + next
			if e := textcall.StrayOnLine(body, next, "]"); e > next && body[next-1] == ']' {
				// Brackets too many after the list ([f()]]) on its line
				// are its punctuation; the prose after them is content.
				textcall.NoteStrayClosers(r.calls)
				r.end = bodyStart + e
			}
			return r
		}
	}
	return r
}

// sequence reads one call list, [a(), b()], or a run of bare calls,
// a()\nb(), starting at s[i] (s starts at byte base of the output). It
// reports false when s[i] starts neither. Text inside a bracketed list that
// is not a call becomes an error call; the list still yields its calls.
func (x *extractor) sequence(s string, i, base int, objects bool) (calls []dialects.RawCall, next int, ok bool) {
	bracketed := s[i] == '['
	start := i
	if bracketed {
		start++
	}
	l := scanList(s, start, bracketed, objects, objects && x.d.builtin)
	if len(l.elems) == 0 && !(bracketed && l.closed) {
		return nil, i, false
	}
	calls = x.listCalls(s, l, base)
	next = l.next
	if l.junk >= 0 && bracketed {
		end, _, _ := matchClose(s, i)
		calls = append(calls, junkCall(listJunk(s, l.junk, end), base+l.junk))
		next = end
	}
	if bracketed && !l.closed && l.junk < 0 {
		missingBracket(calls, base+len(s))
	}
	return calls, next, true
}

// listCalls converts the elements of a list.
func (x *extractor) listCalls(s string, l list, base int) []dialects.RawCall {
	calls := make([]dialects.RawCall, 0, len(l.elems))
	for _, el := range l.elems {
		calls = append(calls, x.rawCall(s, el, base))
	}
	return calls
}

// missingBracket records that a call list ran to the end of its block or of
// the output without its "]": when every call in it is complete, closing the
// list is all the repair needed.
func missingBracket(calls []dialects.RawCall, at int) {
	if len(calls) == 0 || calls[len(calls)-1].Err != nil {
		return
	}
	last := &calls[len(calls)-1]
	last.Repairs = append(last.Repairs, toolcall.Repair{Kind: toolcall.RepairMissingClosingBracket, Offset: at, Detail: "call list"})
}

// listJunk is the text from junk to the end of its bracketed list, without
// the list's closing bracket.
func listJunk(s string, junk, end int) string {
	raw := textlayer.TrimRight(s[junk:end])
	if end <= len(s) && end > junk && s[end-1] == ']' {
		raw = textlayer.TrimRight(raw[:len(raw)-1])
	}
	return raw
}

// cutName makes the last of calls TLP-014 when it is text where a call was
// expected that runs to the end of the output and is only the start of a
// call's name (namePrefix, or nothing after the list's bracket):
// the output ends inside the call's name.
func cutName(calls []dialects.RawCall, text string) {
	if len(calls) == 0 {
		return
	}
	last := &calls[len(calls)-1]
	e := coded.As(last.Err)
	if e == nil || e.Code != toolcall.CodeMalformedCall || e.Offset+len(e.Raw) != len(textlayer.TrimRight(text)) {
		return
	}
	if !namePrefix(strings.TrimLeft(e.Raw, "[ \t\r\n")) {
		return
	}
	last.Err = cutoff.Convert(e)
}

// junkCall is the error for text where a call was expected.
func junkCall(raw string, off int) dialects.RawCall {
	e := toolcall.NewError(toolcall.CodeMalformedCall, "text where a call was expected is not a call")
	e.Offset, e.Raw = off, raw
	return dialects.RawCall{Offset: off, Err: e}
}

// builtinBody reads what follows Llama 3's <|python_tag|>: built-in calls
// (brave_search.call(query="…")) or pythonic calls when that is the whole
// body, JSON call objects ({"name": …, "parameters": …}; …), and otherwise
// code for the code interpreter. AtEnd says the body runs to the end of the
// output: code cut off there inside a bracket or string is TLP-014, not code
// to run (textcall.CodeCut).
//
// Built-in calls followed by text on a later line are those calls, and
// stop is where they end in body (the text after them is content); stop is
// -1 when the calls cover the whole body.
func (x *extractor) builtinBody(body string, base int, atEnd bool) (calls []dialects.RawCall, stop int) {
	i := textlayer.SkipSpace(body, 0)
	end := len(textlayer.TrimRight(body))
	if i >= end {
		return nil, -1
	}
	if body[i] == '{' || body[i] == '[' {
		lists := 0
		for j := i; j < end; {
			got, next, ok := x.sequence(body[:end], j, base, true)
			if !ok {
				if lists == 0 && body[i] == '{' {
					// An object after the tag is a JSON call gone wrong,
					// not code to run: report it, never run it as code.
					return []dialects.RawCall{junkCall(body[i:end], base+i)}, -1
				}
				if lists == 0 {
					break // not calls at all: code
				}
				return append(calls, junkCall(body[j:end], base+j)), -1
			}
			lists++
			calls = append(calls, got...)
			j = textlayer.SkipSpace(body, next)
		}
		if lists > 0 {
			return calls, -1
		}
	}
	l := scanList(body[:end], i, false, false, false)
	if l.junk < 0 && len(l.elems) > 0 && !x.anyCode(body, l.elems) {
		return x.listCalls(body, l, base), -1
	}
	if l.junk >= 0 && len(l.elems) > 0 && x.builtinCalls(body, l.elems) && strings.Contains(body[l.next:l.junk], "\n") {
		// Built-in calls, then text on a line of its own: the calls are
		// calls, and the text after them is the model's prose.
		return x.listCalls(body, l, base), l.next
	}
	if textcall.MentionedCode(body[i:end]) {
		return nil, -1 // the tag is mentioned in a sentence: no call
	}
	if atEnd && textcall.CodeCut(body[i:end]) {
		e := cutoff.Error("inside the code's brackets or strings")
		e.Offset, e.Raw = base+i, body[i:end]
		return []dialects.RawCall{{Offset: base + i, Err: e}}, -1
	}
	if !codemode.IsPython(body[i:end]) {
		// Text that is not a Python program is never handed to the code
		// interpreter: it is kept as the error's raw text.
		e := toolcall.NewError(toolcall.CodeMalformedCall, "the text after <|python_tag|> is neither a call nor a Python program")
		e.Offset, e.Raw = base+i, body[i:end]
		return []dialects.RawCall{{Offset: base + i, Err: e}}, -1
	}
	return []dialects.RawCall{x.codeCall(body[i:end], base+i)}, -1
}

// builtinCalls reports whether elems are all complete calls of Llama 3's
// built-in tools (name.call(…)) or of declared tools.
func (x *extractor) builtinCalls(s string, elems []element) bool {
	for _, el := range elems {
		name := s[el.start:el.nameEnd]
		if !el.complete || !strings.HasSuffix(name, ".call") && !x.declared(name) {
			return false
		}
	}
	return true
}

// anyCode reports whether a call in elems is program code (print(…),
// os.path.join(…)) rather than a tool: its name is a code name and no
// declared tool has it.
func (x *extractor) anyCode(s string, elems []element) bool {
	for _, el := range elems {
		name := x.callName(s[el.start:el.nameEnd])
		if isCodeName(name) && !x.declared(name) {
			return true
		}
	}
	return false
}
