package pythonic

import (
	"strings"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/textcall"
	"github.com/dialectkit/toolcall/internal/textlayer"
)

// Marker-less calls. Without markers a call has to be told apart from
// prose that mentions one ("use print(x) to debug", "(see above)"), so only
// these count, each a name immediately followed by "(" and a scan that
// consumes the whole candidate:
//
//   - the whole output (outside reasoning) is a call list, bracketed or
//     bare: [f(a=1), g()] or f(a=1)\ng();
//   - a bracketed call list after prose, [f(a=1), g()], whose elements
//     are all calls with keyword arguments or none, as these models write
//     them ("[Smith(2020)]" and a markdown link [f()](url) are prose),
//     where the table of what is a call (textlayer.Decide) makes it one: a
//     list inside a line of prose ("try it like [f(a=1)] to see", a cell
//     of a markdown table) is shown, not made;
//   - a code fence (no language, text, plaintext, tool_code…) that holds
//     nothing but calls; a fence labelled with a programming language
//     (python, …) holds a program, never a call;
//   - a declared tool called on a line of its own.
//
// A candidate in `inline code` or a quotation is a mention
// (shown.ShownScan). The Reader finds
// the candidates as the output arrives (readprose.go) and reads each, once
// decided, with the functions here.
//
// A call to a Python built-in or a common module (print, len, os.path.join,
// np.array…) is code, not a tool call, unless a declared tool has the name
// or the whole output is a bracketed call list. Under declaredCalls every
// name must be declared; under builtinCalls only a whole output of
// name.call(...) calls counts.

// prose reads a marker-less candidate in s.
type prose struct {
	x *extractor
	s string
	// wholeStart and wholeEnd bound the trimmed output: a candidate that
	// spans exactly them is the whole output.
	wholeStart, wholeEnd int
}

// wholeBare accepts an output that is nothing but bare calls.
func (p *prose) wholeBare() (region, bool) {
	s := p.s[:p.wholeEnd]
	if _, ok := callAt(s, p.wholeStart); !ok {
		return region{}, false
	}
	l := scanList(s, p.wholeStart, false, false, false)
	if l.junk >= 0 || len(l.elems) == 0 || !p.namesOK(l.elems, false, false) {
		return region{}, false
	}
	return region{start: p.wholeStart, end: p.wholeEnd, calls: p.x.listCalls(s, l, 0)}, true
}

// namesOK applies the naming rules to a candidate's calls. A trusted
// candidate (a bracketed list that is the whole output) may call code names;
// a list in a sentence must call undeclared tools with keyword arguments,
// the way these models write calls, so that "[Smith(2020)]" stays prose.
func (p *prose) namesOK(elems []element, trusted, inSentence bool) bool {
	for _, el := range elems {
		name := p.s[el.start:el.nameEnd]
		declared := p.x.declared(name)
		if inSentence && !declared && !keywordStyle(p.s, el) {
			return false
		}
		switch p.x.d.fallback {
		case declaredCalls:
			if !declared {
				return false
			}
		case builtinCalls:
			if !strings.HasSuffix(name, ".call") {
				return false
			}
		default:
			if !declared && !trusted && isCodeName(name) {
				return false
			}
		}
	}
	return true
}

// bracketed tries the call list whose '[' is at s[at].
func (p *prose) bracketed(at int) (region, bool, int) {
	s := p.s
	if _, ok := callAt(s, textlayer.SkipSpace(s, at+1)); !ok {
		return region{}, false, at + 1
	}
	l := scanList(s, at+1, true, false, false)
	// Closing brackets too many right after a closed list on its line
	// ([f()]]) are its punctuation, not prose; a parenthesis after it is
	// the prose's ("(see [f()])").
	end := l.next
	if l.closed && l.junk < 0 {
		end = textcall.StrayOnLine(s, l.next, "]")
	}
	whole := at == p.wholeStart && (end == p.wholeEnd || !l.closed)
	if l.junk >= 0 {
		end, _, _ := matchClose(s, at)
		if at != p.wholeStart || end != p.wholeEnd || !p.namesOK(l.elems, true, false) {
			return region{}, false, end
		}
		// The whole output is a call list with something else in it: the
		// model meant calls, so what is not one is an error.
		calls := p.x.listCalls(s, l, 0)
		calls = append(calls, junkCall(listJunk(s, l.junk, end), l.junk))
		return region{start: at, end: end, calls: calls}, true, end
	}
	if l.closed && l.next < len(s) && s[l.next] == '(' {
		return region{}, false, l.next // a markdown link, [f()](url)
	}
	if l.closed && !whole && textlayer.Decide(textlayer.List, textlayer.Unlabelled, textlayer.PlaceOf(s, p.wholeStart, at, end), p.x.opts.Tools != nil && p.x.opts.Tools.Len() > 0, textlayer.PythonicFamily) == textlayer.Content {
		// Sharing its line with prose: written in a sentence ("try it
		// like [f(a=1)] to see"), shown, not made (the table of what is
		// a call).
		return region{}, false, end
	}
	if !p.namesOK(l.elems, whole, !whole) {
		return region{}, false, end
	}
	calls := p.x.listCalls(s, l, 0)
	if !l.closed {
		missingBracket(calls, len(s))
	}
	if end > l.next {
		textcall.NoteStrayClosers(calls)
	}
	return region{start: at, end: end, calls: calls}, true, end
}

// fence tries the code fence whose first backtick is at s[at].
func (p *prose) fence(at int) (region, bool, int) {
	s := p.s
	if !textlayer.IsFenceAt(s, at, len(s)) {
		return region{}, false, at + 1
	}
	f := textlayer.FenceAt(s, at, len(s))
	bodyStart, bodyEnd, end := f.BodyStart, f.BodyEnd, f.End
	if textlayer.Decide(textlayer.Fenced, textlayer.LabelOf(f.Info), textlayer.OwnLine, p.x.opts.Tools != nil && p.x.opts.Tools.Len() > 0, textlayer.PythonicFamily) == textlayer.Content {
		return region{}, false, end
	}
	body := s[:len(textlayer.TrimRight(s[:bodyEnd]))]
	i := textlayer.SkipSpace(body, bodyStart)
	if i >= len(body) {
		return region{}, false, end
	}
	bracketed := body[i] == '['
	start := i
	if bracketed {
		start++
	}
	l := scanList(body, start, bracketed, false, false)
	if l.junk >= 0 || len(l.elems) == 0 || (l.closed && l.next != len(body)) || !p.namesOK(l.elems, false, false) {
		return region{}, false, end
	}
	calls := p.x.listCalls(body, l, 0)
	if bracketed && !l.closed {
		missingBracket(calls, len(body))
	}
	return region{start: at, end: end, calls: calls}, true, end
}

// ownLine tries a declared tool called on the line that starts at s[at].
func (p *prose) ownLine(at int) (region, bool, int) {
	s := p.s
	i := at
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	ne, ok := callAt(s, i)
	if !ok || !p.x.declared(s[i:ne]) {
		return region{}, false, at
	}
	end, closed, depth := matchClose(s, ne)
	if closed && !restOfLineBlank(s, end) {
		return region{}, false, end
	}
	el := element{start: i, end: end, nameEnd: ne, complete: closed, depth: depth}
	return region{start: i, end: end, calls: []dialects.RawCall{p.x.rawCall(s, el, 0)}}, true, end
}

// keywordStyle reports whether a call's first argument is a keyword
// argument, or it has none.
func keywordStyle(s string, el element) bool {
	j := textlayer.SkipSpace(s, el.nameEnd+1)
	if j < len(s) && s[j] == ')' {
		return true
	}
	ne := readName(s, j)
	if ne == j {
		return false
	}
	k := textlayer.SkipSpace(s, ne)
	return k < len(s) && s[k] == '=' && (k+1 == len(s) || s[k+1] != '=')
}
