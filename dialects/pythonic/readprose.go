package pythonic

import (
	"strings"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/textcall"
	"github.com/dialectkit/toolcall/internal/textlayer"
)

// The Reader's marker-less calls (prose.go says which count). While no
// block opener has been read, the answer text goes out up to the next
// place a candidate may start: a '[' (a call list), a backtick or a tilde
// (a fence's opening run, textlayer.IsFenceAt) and, with tools declared, a
// line's start (a declared tool called on its own line). The candidate is
// held until it is decided, looking no further than the end of its own
// region (the fence's close) or line, then given as calls or as content:
//
//   - a call list is decided by what precedes it and its first element:
//     when the table of what is a call makes a list that opens the output
//     or follows a colon a call, or the list's first line ends inside it,
//     and its first element is a call by the rules of a list in a
//     sentence (a declared tool, or, where undeclared tools are read, a
//     keyword-style call to a name that is not code), the list is a call
//     list: each element is given as a call as soon as the next element
//     or the list's end follows it, and text in it that is not a call is
//     an error. Any other list is held until its line ends (and, when it
//     opens the output, until text follows it or the output ends: a list
//     that is the whole output may call code names and take positional
//     arguments) and read by prose.bracketed;
//   - a fence is held until it closes, then read by prose.fence;
//   - a declared tool's call at a line's start is held until its line
//     ends, then read by prose.ownLine.
//
// A candidate that what precedes it shows (inline code, a quotation, a
// fence presented as an example: shown.ShownScan) is content.

// candKind is the kind of a candidate held.
type candKind uint8

const (
	candTick candKind = iota + 1 // a backtick or tilde run: a fence or text
	candFence
	candLine // a line's start, with tools declared
	candList // a '['
)

// listState is where a call list's reading stands.
type listState uint8

const (
	lsSep   listState = iota // a line's start: its call, read by the candidate's listScan
	lsList                   // in a call list, read by the candidate's listScan
	lsJunk                   // after text that is not a call, to the list's end
	lsStray                  // after the list's ']': closing brackets too many
	lsLine                   // the list closed: to the end of its line
	lsNext                   // a list that opens the output: to the next text
)

// candidate is a candidate being held.
type candidate struct {
	kind candKind
	at   int // where it starts
	i    int // the next byte to read
	fs   textlayer.FenceScan
	b    brackets // the junk's brackets, to the list's end
	// a call list:
	st       listState
	ls       listScan // its elements
	sep      bool     // a separator came since the last element
	pend     bool     // a complete element is held (el) until what follows it is read
	el       element
	elems    int  // elements read
	live     bool // the list is a call list: its elements are given as they end
	first    bool // the first element's name was read: in a list, ok is its rule's verdict; on a line, it names a declared tool
	ok       bool
	place    textlayer.Place
	broke    bool // the list's first line ended inside it
	junk     int  // where text that is not a call starts, -1 none
	next     int  // past the list's ']'
	strayEnd int
	lineEnd  int // a list that opens the output: the end of its line
}

// proseOn reports whether the reader looks for marker-less calls in the
// answer text: the dialect reads them (other than a whole output of
// built-in calls), no block opener was read, and, where only declared
// tools are read, tools are declared.
func (r *reader) proseOn() bool {
	switch r.d.fallback {
	case proseCalls:
		return !r.found
	case declaredCalls:
		return !r.found && r.tools()
	}
	return false
}

// tools reports whether tools are declared.
func (r *reader) tools() bool { return r.opts.Tools != nil && r.opts.Tools.Len() > 0 }

// nextStop returns where the next candidate may start in text[from:limit]
// (limit < 0: the end), or -1.
func (r *reader) nextStop(text string, limit int) int {
	if limit < 0 {
		limit = len(text)
	}
	if !r.startSeen {
		r.startSeen = true
		if r.tools() {
			return r.pos
		}
	}
	from := max(r.pos, r.pscan)
	if from >= limit {
		return -1
	}
	lines := r.tools()
	at := from
	for at < limit {
		if c := text[at]; c == '[' || c == '`' || c == '~' || c == '\n' && lines {
			break
		}
		at++
	}
	if at == limit {
		r.pscan = limit
		return -1
	}
	if text[at] == '\n' {
		at++ // the line's start
	}
	return at
}

// startCand holds the candidate that may start at at.
func (r *reader) startCand(text string, at int) {
	r.emitContent(text, at, false)
	r.cand = candidate{at: at, i: at, junk: -1}
	switch {
	case at < len(text) && text[at] == '[':
		r.cand.kind, r.cand.i, r.cand.st, r.cand.ls = candList, at+1, lsList, newListScan(at+1)
	case at < len(text) && (text[at] == '`' || text[at] == '~'):
		r.cand.kind = candTick
	default:
		r.cand.kind, r.cand.ls = candLine, newListScan(at)
	}
	r.phase = inCand
}

// candContent ends the candidate as content: the text up to end is read
// as answer text, with no candidate starting before end.
func (r *reader) candContent(end int) bool {
	r.pscan = max(r.pscan, end)
	r.phase = content
	return true
}

// candRegion ends the candidate as calls: reg, given whole.
func (r *reader) candRegion(text string, reg region) bool {
	at := reg.start
	if len(reg.calls) > 0 && reg.calls[0].Offset > at {
		at = reg.calls[0].Offset
	}
	if r.shown.ShownAt(text, at) {
		return r.candContent(reg.end)
	}
	r.pend = -1
	r.regions = true
	// Told from where it was asked about: the shown scan has read up to
	// there, and reads nothing again.
	r.shown.Call(at, reg.end)
	r.giveCalls(text[reg.start:reg.end], reg.calls)
	r.endRegion(reg.end)
	return true
}

// endRegion goes on with the answer text after a region that ends at end.
func (r *reader) endRegion(end int) {
	r.pos, r.pscan, r.phase = end, end, content
	r.scan = max(r.scan, end)
}

// floor is textlayer.PlaceOf's floor for a candidate at at: at itself
// while no answer text or call came before it, -1 otherwise.
func (r *reader) floor(at int) int {
	if r.started || r.regions || r.ncalls > 0 {
		return -1
	}
	return at
}

// prose returns the search of prose.go over s.
func (r *reader) prose(s string, wholeStart, wholeEnd int) *prose {
	return &prose{x: r.x, s: s, wholeStart: wholeStart, wholeEnd: wholeEnd}
}

// candidate reads the candidate held.
func (r *reader) candidate(text string, final bool) bool {
	switch r.cand.kind {
	case candTick:
		return r.tick(text, final)
	case candFence:
		return r.fenced(text, final)
	case candLine:
		return r.line(text, final)
	}
	return r.list(text, final)
}

// tick reads a run of backticks or tildes: the opening run of a fence
// (textlayer.IsFenceAt) is a candidate; any other run is text. Whether a
// run opens inline code, and so shows a candidate after it, is ShownScan's
// to say, asked of every candidate.
func (r *reader) tick(text string, final bool) bool {
	c := &r.cand
	end := textlayer.RunEnd(text, c.at, len(text))
	if end == len(text) && end-c.at < 3 && !final {
		return false // may yet open a fence
	}
	if textlayer.IsFenceAt(text, c.at, len(text)) {
		c.kind = candFence
		return true
	}
	return r.candContent(end)
}

// fenced reads a fence once it closes.
func (r *reader) fenced(text string, final bool) bool {
	c := &r.cand
	f, ok := c.fs.Next(text[c.at:], final)
	if !ok {
		return false
	}
	end := c.at + f.End
	reg, ok, next := r.prose(text[:end], -1, -1).fence(c.at)
	if !ok {
		return r.candContent(next)
	}
	return r.candRegion(text, reg)
}

// line reads a line's start: a declared tool's call there, read by the
// candidate's listScan, is held to the end of its line.
func (r *reader) line(text string, final bool) bool {
	c := &r.cand
	for c.st == lsSep {
		ev, at := c.ls.next(text, false, final)
		switch {
		case ev == leStart:
			continue
		case ev == leMore && !c.ls.inArgs():
			if !final {
				return false
			}
			return r.candContent(c.at)
		case ev != leMore && ev != leElem:
			return r.candContent(c.at) // the line does not start with a call
		}
		if !c.first {
			// In the call's arguments: its name is read.
			if !r.x.declared(text[c.ls.start:c.ls.nameEnd]) {
				return r.candContent(c.at)
			}
			c.first = true
		}
		switch {
		case ev == leElem:
			c.st, c.i = lsLine, at
		case final:
			c.st, c.i = lsLine, len(text)
		default:
			return false
		}
	}
	end := len(text)
	if k := strings.IndexByte(text[c.i:], '\n'); k >= 0 {
		end = c.i + k
	} else if !final {
		c.i = len(text)
		return false
	}
	reg, ok, next := r.prose(text[:end], -1, -1).ownLine(c.at)
	if !ok {
		return r.candContent(max(next, c.at))
	}
	return r.candRegion(text, reg)
}

// list reads a call list, from its '['.
func (r *reader) list(text string, final bool) bool {
	c := &r.cand
	for c.st == lsList {
		ev, at := c.ls.next(text, false, final)
		switch ev {
		case leMore:
			if !final {
				return false
			}
			if c.elems == 0 && !c.ls.inArgs() {
				return r.candContent(c.at + 1) // no call follows the '['
			}
			return r.listEnd(text, len(text), true)
		case leStart:
			r.listGive(text, false)
		case leNotCall:
			if c.elems == 0 {
				return r.candContent(c.at + 1) // no call follows the '['
			}
			r.listGive(text, false)
			c.junk, c.st, c.b, c.i = c.ls.start, lsJunk, brackets{depth: 1}, c.ls.start
		case leElem:
			r.listElem(text, at)
			c.ls.done()
		case leByte:
			switch ch := text[at]; {
			case ch == '\n' && c.elems == 0:
			case c.elems == 0:
				return r.candContent(c.at + 1) // no call follows the '['
			case ch == '\n':
				c.broke = true
				r.listGive(text, true)
			case ch == ',':
				c.sep = true
				r.listGive(text, true)
			case ch == ']':
				r.listDecide(text, false) // its last element waits for the strays after it
				c.next, c.strayEnd, c.st, c.i = at+1, at+1, lsStray, at+1
				continue
			default:
				r.listGive(text, false)
				c.junk, c.st, c.b, c.i = at, lsJunk, brackets{depth: 1}, at
				continue
			}
			c.ls.skip()
		}
	}
	for c.i < len(text) {
		i := c.i
		ch := text[i]
		switch c.st {
		case lsJunk:
			// Junk runs to the bracket that closes the list.
			if !c.b.feed(text, i, final) {
				return false
			}
			if !c.b.closed() {
				break
			}
			c.next, c.strayEnd = i+1, i+1
			if c.live {
				return r.listEnd(text, i+1, final)
			}
			c.st = lsLine
		case lsStray:
			switch ch {
			case ' ', '\t':
			case ']':
				c.strayEnd = i + 1
			default:
				if c.live {
					return r.listEnd(text, i, final)
				}
				c.st = lsLine
				continue
			}
		case lsLine:
			if ch == '\n' {
				if c.at != r.floor(c.at) || !restOfLineBlank(text[:i], c.strayEnd) {
					return r.listEnd(text, i, final)
				}
				c.lineEnd, c.st = i, lsNext
			}
		case lsNext:
			if ch != ' ' && ch != '\t' && ch != '\r' && ch != '\n' {
				return r.listEnd(text, c.lineEnd, final)
			}
		}
		c.i++
	}
	if !final {
		return false
	}
	end := len(text)
	if c.st == lsNext {
		end = c.lineEnd
	}
	return r.listEnd(text, end, true)
}

// listElem reads the element that ends at end: it is held until what
// follows it is read; the first decides whether the list is a call list.
func (r *reader) listElem(text string, end int) {
	c := &r.cand
	el := c.ls.elem(end)
	el.noComma = c.elems > 0 && !c.sep
	c.el, c.pend, c.sep = el, true, false
	c.elems++
	if !c.first {
		c.first = true
		name := text[el.start:el.nameEnd]
		declared := r.x.declared(name)
		switch r.d.fallback {
		case declaredCalls:
			c.ok = declared
		default:
			c.ok = declared || keywordStyle(text, el) && !isCodeName(name)
		}
		c.place = textlayer.PlaceOf(text[:end], r.floor(c.at), c.at, end)
	}
}

// listGive gives the element held, when the list is a call list (or
// becomes one now: listDecide).
func (r *reader) listGive(text string, sep bool) {
	c := &r.cand
	if c.pend && r.listDecide(text, sep) {
		c.pend = false
		r.giveOne(text, r.x.rawCall(text, c.el, 0), c.el)
	}
}

// listDecide decides, with an element held, whether the list is a call
// list, and reports whether it is. sep says a separator follows the
// element: a list whose place is not yet known may still wait for the
// end of its first line; any other text leaves it to be read whole.
func (r *reader) listDecide(text string, sep bool) bool {
	c := &r.cand
	if c.live || !c.pend || !c.ok {
		return c.live
	}
	if !r.listPlaced() {
		if !sep {
			c.ok = false
		}
		return false
	}
	if r.shown.ShownAt(text, c.at) || textlayer.Decide(textlayer.List, textlayer.Unlabelled, c.place, r.tools(), textlayer.PythonicFamily) == textlayer.Content {
		c.ok = false
		return false
	}
	c.live = true
	r.pend = -1
	r.regions = true
	return true
}

// listPlaced reports whether the list's place is known from what
// precedes it and its first line: it opens the output, a colon
// introduces it, or its first line ended inside it.
func (r *reader) listPlaced() bool {
	c := &r.cand
	return c.place == textlayer.Opens || c.place == textlayer.AfterColon || c.broke
}

// giveOne gives one call of a call list, its element's text as written.
func (r *reader) giveOne(text string, rc dialects.RawCall, el element) {
	if rc.Text == "" {
		rc.Text = text[el.start:el.end]
	}
	r.out = append(r.out, dialects.Piece{Kind: dialects.PieceCall, Index: r.ncalls, Call: &rc})
	r.ncalls++
}

// listEnd ends the list: lineEnd is where the reading stopped (the end
// of the list's line, or the next text after a list that opens the
// output).
func (r *reader) listEnd(text string, lineEnd int, final bool) bool {
	c := &r.cand
	if c.live {
		if c.pend {
			c.pend = false
			rc := r.x.rawCall(text, c.el, 0)
			calls := []dialects.RawCall{rc}
			switch {
			case c.junk >= 0:
			case c.next == 0 && !c.el.complete:
			case c.next == 0:
				missingBracket(calls, len(text))
			case c.strayEnd > c.next:
				textcall.NoteStrayClosers(calls)
			}
			r.giveOne(text, calls[0], c.el)
		}
		end := c.strayEnd
		switch {
		case c.st == lsList && c.ls.start >= 0:
			// The output ended inside an element.
			at := c.ls.start
			if c.ls.inArgs() {
				el := c.ls.elem(len(text))
				r.giveOne(text, r.x.rawCall(text, el, 0), el)
			} else {
				raw := textlayer.TrimRight(text[at:])
				r.giveOne(text, junkCall(raw, at), element{start: at, end: at + len(raw)})
			}
			end = len(text)
		case c.junk >= 0:
			e := c.next
			if e == 0 {
				e = len(text)
			}
			raw := listJunk(text, c.junk, e)
			r.giveOne(text, junkCall(raw, c.junk), element{start: c.junk, end: c.junk + len(raw)})
			end = e
		case c.next == 0:
			end = len(text)
		}
		r.shown.Call(c.at, end)
		r.endRegion(end)
		return true
	}
	// Read whole, as prose.bracketed reads it.
	lim := min(lineEnd, len(text))
	wholeEnd := -1
	if final && strings.TrimSpace(text[lim:]) == "" {
		lim = len(textlayer.TrimRight(text))
		wholeEnd = lim
	}
	s := text[:max(lim, c.at+1)]
	reg, ok, next := r.prose(s, r.floor(c.at), wholeEnd).bracketed(c.at)
	if !ok {
		return r.candContent(max(next, c.at+1))
	}
	return r.candRegion(text, reg)
}
