package pythonic

import (
	"strings"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/cutoff"
	"github.com/dialectkit/toolcall/dialects/internal/inprose"
	"github.com/dialectkit/toolcall/dialects/internal/rawcall"
	"github.com/dialectkit/toolcall/internal/pystr"
	"github.com/dialectkit/toolcall/internal/shown"
	"github.com/dialectkit/toolcall/internal/sofar"
	"github.com/dialectkit/toolcall/internal/strictjson"
	"github.com/dialectkit/toolcall/internal/textlayer"
)

// The family's engine reads an output in one pass as it arrives
// (dialects.Reader). The text read so far is kept whole (a sofar.Output:
// reading it costs no copy, and a one-shot read copies nothing) and a
// cursor says how far it is decided; each Write reads on from where the
// last one stopped:
//
//   - reasoning: a <think> block, or the block the template opened. While
//     a later </think> could still make the text so far reasoning (no
//     option settles the start, the dialect's templates may open a
//     block, and the output did not open with a call), the text is held;
//   - a block opened by one of the dialect's markers is held until it
//     closes (its closing marker, the next opener, or, for a block
//     without a closing marker, the end of its call list and of that
//     line), then parsed once, with the code the one-shot reading had;
//   - content goes out as soon as no later byte can change it: a partial
//     marker at the end and trailing whitespace are held.
//
// A block opened inside reasoning is held until the reasoning closes (it
// is then reasoning: the model thinking about a call) or the output ends
// (a block in reasoning that never closes is a call).

// reader is the family's dialects.Reader.
type reader struct {
	d    *Dialect
	x    *extractor
	opts *dialects.Options
	buf  sofar.Output // the output so far
	out  []dialects.Piece

	phase phase
	pos   int // text before pos is decided
	// scan is where the search for markers resumes: a marker found before
	// it was handled.
	scan int
	// think: in reasoning, thinkHeld is where a block opened inside it
	// starts (-1 none): reasoning from there is held; thinkLead says the
	// reasoning's leading whitespace is still to be dropped.
	thinkHeld int
	thinkLead bool
	// block in progress (phase inBlock).
	blk blockState
	// content whitespace (the content's edges are textlayer.Edges's):
	// started says content was given; afterThink that a reasoning block
	// closed since the last content, so the whitespace after its close is
	// the block's, as dialects.SplitReasoning reads it; pend is where held
	// trailing whitespace starts (-1 none): it is dropped before a
	// region.
	started, afterThink bool
	pend                int
	regions             bool

	// bare scans the bare calls of phase whole; notWhole says the
	// output is not bare calls.
	bare     seqScan
	notWhole bool

	// found says a block opener was read: no marker-less call is read
	// after it. pscan is where the search for a marker-less candidate
	// resumes, startSeen that the answer text's first line was tried,
	// cand the candidate held (phase inCand).
	found     bool
	pscan     int
	startSeen bool
	cand      candidate

	ncalls int
	marked bool
	shown  shown.ShownScan
	// ahead finds the literals the reader searches for (next).
	ahead []ahead
}

type phase uint8

const (
	// undecided: a later </think> may still make the text so far
	// reasoning.
	undecided phase = iota
	content
	think
	inBlock
	// whole: the output so far may be nothing but bare calls, the
	// marker-less form every fallback reads (prose.wholeBare): it is held
	// until a line does not go on with a call, or the output ends.
	whole
	// inCand: a marker-less candidate is held until it is decided
	// (readprose.go).
	inCand
)

// blockState is a block being read: its opener's start and kind, and,
// for a block without a closing marker, the scan of its call list.
type blockState struct {
	at, body int
	kind     blockKind
	seq      seqScan
	// given is how many of its calls were given before it closed (the
	// leading run seq reads).
	given int
	// early says the calls before text that follows them were read
	// (blockEnd).
	early bool
}

// NewReader returns the engine reading one output of the dialect under
// opts (dialects.Incremental).
func (e Engine) NewReader(opts *dialects.Options) dialects.Reader {
	if opts == nil {
		opts = &dialects.Options{}
	}
	d := e.Dialect
	r := &reader{d: d, x: newExtractor(d, opts), opts: opts, thinkHeld: -1, pend: -1}
	switch {
	case opts.ReasoningOpen:
		r.phase, r.thinkLead = think, true
	case opts.ReasoningClosed || d.reasoningClosed:
		r.phase = content
	}
	return r
}

// Text returns the output given so far (dialects.TextReader).
func (r *reader) Text() string { return r.buf.Text() }

// Write reads the output's next bytes.
func (r *reader) Write(delta string) []dialects.Piece {
	r.out = r.out[:0]
	r.buf.Write(delta)
	r.step(false)
	return r.out
}

// Close ends the output.
func (r *reader) Close() []dialects.Piece {
	r.out = r.out[:0]
	r.step(true)
	return r.out
}

// step decides as much of the text as can be decided.
func (r *reader) step(final bool) {
	text := r.buf.Text()
	for {
		var more bool
		switch r.phase {
		case undecided:
			more = r.undecided(text, final)
		case content:
			more = r.content(text, final)
		case think:
			more = r.thinking(text, final)
		case inBlock:
			more = r.block(text, final)
		case whole:
			more = r.wholeBare(text, final)
		case inCand:
			more = r.candidate(text, final)
		}
		if !more {
			return
		}
	}
}

// undecided holds the text until it is settled whether a template-opened
// reasoning block ends in it: a </think> before any <think> ends one, the
// output opening with a call or a <think>, or ending without either, says
// there is none.
func (r *reader) undecided(text string, final bool) bool {
	lead := textlayer.TrimLeft(text)
	if lead == "" && !final {
		return false
	}
	if textlayer.OpensCall(lead, r.d.start.Bare, r.d.start.Starts) || strings.HasPrefix(lead, dialects.Think.Open) {
		r.phase, r.scan = content, r.pos
		return true
	}
	if !final && mayOpen(lead, r.d.start.Starts) {
		return false // the output may yet open with a call marker
	}
	from := max(0, r.scan-len(dialects.Think.Close))
	c := r.indexTag(text, dialects.Think.Close, from)
	o := -1
	if !r.d.thinkOpen {
		// Where the template opens the block (thinkOpen), a <think> in
		// it is its text: the first </think> closes it.
		o = r.indexTag(text, dialects.Think.Open, from)
	}
	switch {
	case c >= 0 && (o < 0 || c < o):
		r.reason(text[:c], true)
		r.pos = c + len(dialects.Think.Close)
		r.scan, r.phase = r.pos, content
		return true
	case o >= 0 || final:
		r.phase, r.scan = content, r.pos
		return true
	}
	r.scan = len(text)
	return false
}

// mayOpen reports whether s, the start of the output, is a proper prefix
// of one of markers.
func mayOpen(s string, markers []string) bool {
	for _, m := range markers {
		if len(s) < len(m) && strings.HasPrefix(m, s) {
			return true
		}
	}
	return false
}

// indexTag is strictjson.IndexTag on text from from, as an offset of text,
// with the literal's occurrences found through r.next.
func (r *reader) indexTag(text, tag string, from int) int {
	for from <= len(text) {
		i := r.next(text, tag, from)
		if i < 0 {
			return -1
		}
		end, ok := strictjson.InsideString(text, from, i)
		if !ok {
			return i
		}
		from = end
	}
	return -1
}

// ahead is what a reader knows of where a literal next occurs in the
// text: the first occurrence at or after from (at, -1 for none), and, when
// there is none, that none starts before clear.
type ahead struct {
	lit             string
	from, at, clear int
}

// next returns the offset of the first occurrence of lit in text at or
// after from, or -1. The reader's searches start further on as it reads,
// and its text only grows: an occurrence found is given again while the
// searches start before it, and text searched in vain is not searched
// again, so that each byte is read a bounded number of times however
// many blocks or deltas ask.
func (r *reader) next(text, lit string, from int) int {
	var a *ahead
	for i := range r.ahead {
		if r.ahead[i].lit == lit {
			a = &r.ahead[i]
			break
		}
	}
	if a == nil {
		r.ahead = append(r.ahead, ahead{lit: lit, from: from, at: -1, clear: from})
		a = &r.ahead[len(r.ahead)-1]
	}
	start := from
	if from >= a.from {
		if a.at >= from {
			return a.at
		}
		if a.at < 0 {
			start = max(from, a.clear)
		}
	}
	a.from = from
	if start >= len(text) {
		a.at, a.clear = -1, max(start, len(text)-len(lit)+1)
		return -1
	}
	if k := strings.Index(text[start:], lit); k >= 0 {
		a.at = start + k
		return a.at
	}
	a.at, a.clear = -1, max(start, len(text)-len(lit)+1)
	return -1
}

// reason gives s as reasoning: whole says s is all of a block's text.
func (r *reader) reason(s string, whole bool) {
	if whole {
		s = strings.TrimSpace(s)
	}
	if s != "" {
		r.out = append(r.out, dialects.Piece{Kind: dialects.PieceReasoning, Text: s})
	}
}

// thinking reads reasoning: its text goes out as it comes, but for the
// leading whitespace, trailing whitespace and a partial closing tag; a
// block opened in it is held until the reasoning closes or the output
// ends.
func (r *reader) thinking(text string, final bool) bool {
	from := max(r.pos, r.scan-maxOpener(r.d)-len(dialects.Think.Close))
	c := r.indexTag(text, dialects.Think.Close, from)
	if r.thinkHeld < 0 {
		limit := len(text)
		if c >= 0 {
			limit = c
		}
		if at, open := r.nextOpener(text, from, limit); at >= 0 {
			// The reasoning before the block goes out but its trailing
			// whitespace, which the block's end decides.
			r.emitReasoning(text[:at], false)
			r.thinkHeld = at
			r.mark(open)
			r.found = true
		}
	}
	switch {
	case c >= 0:
		// The block closes: everything in it is reasoning, a block opened
		// in it too.
		r.emitReasoning(text[:c], true)
		r.pos = c + len(dialects.Think.Close)
		r.scan, r.phase, r.thinkHeld, r.afterThink = r.pos, content, -1, true
		return true
	case final:
		if r.thinkHeld >= 0 {
			r.heldBlocks(text)
			return false
		}
		r.emitReasoning(text, true)
		r.pos = len(text)
		return false
	}
	r.scan = len(text)
	if r.thinkHeld < 0 {
		end := len(text) - r.partialMarker(text[r.pos:], dialects.Think.Close)
		r.emitReasoning(text[:end], false)
	}
	return false
}

// emitReasoning gives the reasoning text from pos to end: leading
// whitespace of a block dropped, trailing whitespace held unless closing
// says the block ends there.
func (r *reader) emitReasoning(text string, closing bool) {
	s := text[r.pos:]
	if r.thinkLead {
		t := textlayer.TrimLeft(s)
		r.pos += len(s) - len(t)
		s = t
		if s != "" {
			r.thinkLead = false
		}
	}
	if closing {
		r.reason(s, false)
		r.pos = len(text)
		r.reason("", false)
		if t := textlayer.TrimRight(s); len(t) < len(s) {
			r.trimLastReasoning(len(s) - len(t))
		}
		return
	}
	t := textlayer.TrimRight(s)
	r.reason(t, false)
	r.pos += len(t)
}

// trimLastReasoning drops n bytes of trailing whitespace from the last
// reasoning piece of this step.
func (r *reader) trimLastReasoning(n int) {
	if k := len(r.out) - 1; k >= 0 && r.out[k].Kind == dialects.PieceReasoning {
		r.out[k].Text = r.out[k].Text[:len(r.out[k].Text)-n]
		if r.out[k].Text == "" {
			r.out = r.out[:k]
		}
	}
}

// heldBlocks ends an output whose reasoning never closed after a block
// opened in it: the blocks are calls, the text around them reasoning.
func (r *reader) heldBlocks(text string) {
	at := r.thinkHeld
	for at < len(text) {
		o, open := r.nextOpener(text, at, len(text))
		if o < 0 {
			break
		}
		if o > at {
			r.reason(strings.TrimSpace(text[at:o]), false)
		}
		reg, ok := r.readBlock(text, o, open, true)
		if !ok {
			r.reason(text[o:o+len(open)], false)
			at = o + len(open)
			continue
		}
		r.emitRegion(text, reg)
		at = reg.end
	}
	r.reason(strings.TrimSpace(text[at:]), false)
	r.pos = len(text)
}

// nextOpener finds the first of the dialect's block openers in
// text[from:limit], or -1.
func (r *reader) nextOpener(text string, from, limit int) (int, string) {
	at, which := -1, ""
	for _, b := range r.d.blocks {
		end := min(len(text), limit+len(b.open)-1)
		if from >= end {
			continue
		}
		if k := r.next(text, b.open, from); k >= 0 && k+len(b.open) <= end && (at < 0 || k < at) {
			at, which = k, b.open
		}
	}
	if at >= limit {
		return -1, ""
	}
	return at, which
}

// partialAt returns the length of the longest suffix of s that is a proper
// prefix of one of markers.
func partialAt(s string, markers ...string) int {
	n := 0
	for _, m := range markers {
		n = max(n, len(s)-textlayer.CutLiteral(s, 0, m))
	}
	return n
}

// partialMarker returns the length of the longest suffix of s that is a
// proper prefix of one of the dialect's block openers or of tag.
func (r *reader) partialMarker(s, tag string) int {
	n := partialAt(s, tag)
	for _, b := range r.d.blocks {
		n = max(n, partialAt(s, b.open))
	}
	return n
}

// content reads answer text: it goes out up to the next marker (a
// <think>, a block opener); a partial marker at the end and trailing
// whitespace are held.
func (r *reader) content(text string, final bool) bool {
	if !r.notWhole && r.d.fallback != noFallback {
		i := textlayer.SkipSpace(text, r.pos)
		if i == len(text) && !final {
			return false
		}
		if i < len(text) && isIdentStart(text[i]) && !r.started && !r.regions {
			r.phase, r.bare = whole, seqScan{}
			return true
		}
		r.notWhole = true
	}
	from := max(r.pos, r.scan)
	o, open := r.nextOpener(text, from, len(text))
	t := r.indexTag(text, dialects.Think.Open, max(r.pos, r.scan-len(dialects.Think.Open)+1))
	if r.proseOn() {
		limit := len(text)
		if o >= 0 {
			limit = o
		}
		if t >= 0 && t < limit {
			limit = t
		}
		if p := r.nextStop(text, limit); p >= 0 {
			r.startCand(text, p)
			return true
		}
	}
	switch {
	case t >= 0 && (o < 0 || t < o):
		r.emitContent(text, t, false)
		r.flushPend()
		r.pos = t + len(dialects.Think.Open)
		r.scan, r.phase, r.thinkLead = r.pos, think, true
		return true
	case o >= 0:
		if r.shown.ShownAt(text, o) {
			r.scan = o + len(open)
			return true
		}
		r.emitContent(text, o, false)
		r.mark(open)
		r.found = true
		r.blk = blockState{at: o, body: o + len(open), kind: r.d.kind(open)}
		r.pos, r.scan, r.phase = o, o+len(open), inBlock
		return true
	}
	end := len(text)
	if !final {
		end -= r.partialMarker(text[r.pos:], dialects.Think.Open)
	}
	r.scan = end
	r.emitContent(text, end, final)
	return false
}

// emitContent gives text[pos:end] as content, holding its trailing
// whitespace.
func (r *reader) emitContent(text string, end int, final bool) {
	if end <= r.pos {
		return
	}
	s := text[r.pos:end]
	t := textlayer.TrimRight(s)
	if t == "" {
		if r.pend < 0 {
			r.pend = r.pos
		}
		r.pos = end
		return
	}
	start := r.pos
	if r.pend >= 0 {
		start = r.pend
	}
	if r.afterThink {
		start = r.pos + len(s) - len(textlayer.TrimLeft(s))
	}
	cut := r.pos + len(t)
	r.give(text[start:cut])
	r.pend = -1
	if cut < end {
		r.pend = cut
	}
	r.pos = end
}

// give sends content.
func (r *reader) give(s string) {
	if s == "" {
		return
	}
	r.out = append(r.out, dialects.Piece{Kind: dialects.PieceContent, Text: s})
	r.started, r.afterThink = true, false
}

// flushPend gives held trailing whitespace before a <think>: it is
// content, unless a reasoning block's close came before it.
func (r *reader) flushPend() {
	if r.pend < 0 {
		return
	}
	text := r.buf.Text()
	s := text[r.pend:r.pos]
	r.pend = -1
	if r.afterThink {
		return
	}
	r.out = append(r.out, dialects.Piece{Kind: dialects.PieceContent, Text: s})
}

// block reads a block until it closes, then gives its calls.
func (r *reader) block(text string, final bool) bool {
	b := &r.blk
	reg, ok, done := r.blockEnd(text, final)
	if !done {
		return false
	}
	if !ok {
		// The opener was mentioned, not used: it is content.
		r.phase = content
		r.scan = b.body
		return true
	}
	r.pend = -1 // whitespace before a region goes with it
	r.emitRegion(text, reg)
	r.pos, r.scan, r.phase = reg.end, reg.end, content
	return true
}

// emitRegion gives a region's calls.
func (r *reader) emitRegion(text string, reg region) {
	r.regions = true
	r.shown.Call(reg.start, reg.end)
	r.giveCalls(text[reg.start:reg.end], reg.calls[min(r.blk.given, len(reg.calls)):])
	r.blk.given = 0
}

// giveCalls gives calls, read from text.
func (r *reader) giveCalls(text string, calls []dialects.RawCall) {
	rawcall.KeepText(calls, text)
	for i := range calls {
		c := calls[i]
		r.out = append(r.out, dialects.Piece{Kind: dialects.PieceCall, Index: r.ncalls, Call: &c})
		r.ncalls++
	}
}

// brackets follows matchClose over text that arrives in pieces: the depth
// of brackets outside strings, and the string it is in (pystr.Lit).
type brackets struct {
	depth   int
	deepest int // the deepest depth read
	lit     pystr.Lit
	skip    int // bytes of a triple quote's opening still to pass
}

// inString reports whether the reading is inside a string literal.
func (b *brackets) inString() bool { return b.lit.IsOpen() }

// closed reports whether the brackets read have all closed, outside any
// string.
func (b *brackets) closed() bool { return b.depth == 0 && !b.lit.IsOpen() }

// feed reads text[i]; it returns false when the byte cannot be read before
// more text arrives (a quote whose next two bytes say whether it opens a
// triple-quoted string).
func (b *brackets) feed(text string, i int, final bool) bool {
	c := text[i]
	switch {
	case b.skip > 0:
		b.skip--
	case b.lit.IsOpen():
		b.lit.Feed(c)
	case c == '(' || c == '[' || c == '{':
		b.depth++
		b.deepest = max(b.deepest, b.depth)
	case c == ')' || c == ']' || c == '}':
		b.depth--
	case (c == '"' || c == '\'') && b.depth > 0:
		n := b.lit.Open(text, i, final)
		if n == 0 {
			return false
		}
		b.skip = n - 1
	}
	return true
}

// seqScan finds where the call list of a block ends, as block reads it,
// when no closing marker ends it first: a bracketed list at its closing
// bracket and the stray brackets after it on its line; a run of bare calls
// or objects at the first line that does not go on with one (blanks,
// commas and semicolons aside; the rest of a line an element starts is
// the run's, to its end outside brackets and strings). Anything else
// (seqRest) runs to the end of the output. The elements are read by
// listScan, in one pass that also follows the list's leading run (run).
type seqScan struct {
	ls    listScan
	state seqState
	b     brackets // text that is not an element, to the list's closing bracket or its line's end
	begun bool
	elems bool // an element of a bare run was read
	line  bool // a bare run is at the start of a line, separators aside
	run   leadRun
}

// leadRun follows the leading run of a block's call list, so that each of
// its calls is given as soon as what follows it says another element
// comes (a ',' or a line break, or the next element's start), before the
// block closes. Only a leading run of elements that read as calls is
// given so: the first text that is not a separator or an element, or an
// element that fails to read, stops it, and the rest of the block is read
// when it closes (its first calls, given, are not given again).
type leadRun struct {
	bracketed bool
	any       bool // an element or the list's '[' was read
	sep       bool // a comma came since the last element
	held      element
	has       bool
	n         int // elements read
	stop      bool
}

// see follows the event ev of the list's scan; give gives an element
// that ended and another follows, and reports whether it read as a call.
func (g *leadRun) see(ls *listScan, text string, ev listEvent, at int, give func(element) bool) {
	next := func() {
		if g.has {
			g.has = false
			g.stop = !give(g.held)
		}
	}
	switch ev {
	case leStart:
		next()
		g.any = true
	case leNotCall:
		g.stop = true
	case leElem:
		el := ls.elem(at)
		el.noComma = g.bracketed && !g.sep && g.n > 0
		g.held, g.has, g.sep = el, true, false
		g.n++
	case leByte:
		switch c := text[at]; {
		case c == '\n':
			next()
		case c == ',' && g.any:
			g.sep = true
			next()
		case c == '[' && !g.any:
			g.bracketed, g.any = true, true
		default:
			g.stop = true
		}
	}
}

type seqState uint8

const (
	seqLead  seqState = iota // before the first element, or a list's '['
	seqList                  // in a bracketed list
	seqJunk                  // in a bracketed list, after text that is not an element
	seqStray                 // after the list's ']'
	seqBare                  // in a run of bare elements
	seqTail                  // in a bare run, the rest of an element's line
	seqRest
)

// end reads text from where it stopped and reports whether the list has
// ended, and where its region is to be read up to. With give, the
// elements of the list's leading run are given as they end (leadRun).
func (s *seqScan) end(text string, body int, objects, final bool, give func(element) bool) (limit int, done bool) {
	if !s.begun {
		s.begun, s.ls = true, newListScan(body)
	}
	for s.state != seqRest {
		if s.state == seqJunk || s.state == seqStray || s.state == seqTail {
			if limit, ok := s.rest(text, final); ok {
				return limit, true
			}
			if s.state != seqBare {
				return len(text), final
			}
		}
		ev, at := s.ls.next(text, objects, final)
		if give != nil && !s.run.stop {
			s.run.see(&s.ls, text, ev, at, give)
		}
		switch ev {
		case leMore:
			return len(text), final
		case leStart:
			if s.state == seqLead {
				s.state = seqBare
			}
		case leElem:
			s.ls.done()
			s.elems, s.line = true, false
		case leNotCall:
			switch {
			case s.state == seqList:
				s.state, s.b, s.ls.i = seqJunk, brackets{depth: 1}, at
			case s.elems && s.line:
				return s.ls.start, true // a line that does not go on with a call
			case s.elems:
				s.state, s.b, s.ls.i = seqTail, brackets{}, at
				s.ls.done()
			default:
				s.state = seqRest
			}
		case leByte:
			switch c := text[at]; {
			case c == '\n':
				s.line = true
				s.ls.skip()
			case (c == ',' || c == ';') && s.state != seqLead:
				s.ls.skip()
			case c == '[' && s.state == seqLead:
				s.state = seqList
				s.ls.skip()
			case c == ']' && s.state == seqList:
				s.state = seqStray
				s.ls.skip()
			case s.state == seqList:
				s.state, s.b = seqJunk, brackets{depth: 1}
			case s.state == seqBare && s.line:
				return at, true
			case s.state == seqBare:
				s.state, s.b = seqTail, brackets{}
			default:
				s.state = seqRest
			}
		}
	}
	s.ls.i = len(text)
	return len(text), final
}

// rest reads on in the states that are not a list's elements: a
// bracketed list's text that is not one to its closing bracket, the
// stray brackets after the list (ok: the list ends at limit), the rest of
// a bare element's line (the run goes on at the next line).
func (s *seqScan) rest(text string, final bool) (limit int, ok bool) {
	for ; s.ls.i < len(text); s.ls.i++ {
		i := s.ls.i
		switch s.state {
		case seqStray:
			if c := text[i]; c != ' ' && c != '\t' && c != ']' {
				return i, true
			}
			continue
		case seqTail:
			if text[i] == '\n' && s.b.depth <= 0 && !s.b.inString() {
				s.state, s.line = seqBare, true
				s.ls.i++
				return 0, false
			}
		}
		if !s.b.feed(text, i, final) {
			return 0, false
		}
		if s.state == seqJunk && s.b.closed() {
			s.state = seqStray
		}
	}
	return 0, false
}

// blockEnd reads the block in progress until it closes: at its closing
// marker, at the next opener, where its call list ends (seqScan) when no
// closing marker follows that end, or at the end of the output. ok is
// false when the opener turns out to be mentioned, not used.
func (r *reader) blockEnd(text string, final bool) (reg region, ok, done bool) {
	b := &r.blk
	wait := func() (region, bool, bool) {
		r.scan = max(b.body, len(text)-maxOpener(r.d))
		return region{}, false, false
	}
	from := max(b.body, r.scan)
	opener, _ := r.nextOpener(text, from, len(text))
	closeAt, closeM := -1, ""
	for _, m := range b.kind.closes {
		s := max(b.body, from-len(m)+1)
		if k := r.next(text, m, s); k >= 0 && (closeAt < 0 || k < closeAt) {
			closeAt, closeM = k, m
		}
	}
	seqText := text // the call list ends at the next opener at the latest
	if opener >= 0 {
		seqText = text[:opener]
	}
	var give func(element) bool
	if !final && !r.d.builtin {
		// The calls of the list's leading run are given as they end.
		give = func(el element) bool {
			rc := r.x.rawCall(seqText, el, 0)
			if rc.Err != nil {
				return false
			}
			r.giveOne(seqText, rc, el)
			b.given++
			return true
		}
	}
	l, ended := b.seq.end(seqText, b.body, true, final || opener >= 0, give)
	if ended && !b.early && b.seq.state != seqRest && len(b.kind.closes) > 0 && b.given == 0 && (opener < 0 || l <= opener) {
		// The calls end and text follows them before any closing marker:
		// they are given now, and the rest of the block waits for its
		// marker (the text before it is then an error) or the end.
		j := textlayer.SkipSpace(text, l)
		if j < len(text) && (closeAt < 0 || closeAt > j) && partialAt(text[j:], b.kind.closes...) < len(text)-j {
			b.early = true // what it gives depends on text[:l] alone: read once
			if !r.d.builtin || r.builtinEarly(text, l) {
				early := r.x.block(text, b.at, b.body, l, false, false)
				// Only the calls that read are given so: what failed to
				// read is read again with the rest of the block when it
				// closes.
				n := 0
				for n < len(early.calls) && early.calls[n].Err == nil {
					n++
				}
				if n > 0 {
					r.giveCalls(text[early.start:early.end], early.calls[:n])
					b.given = n
				}
			}
		}
	}
	limit, closed := -1, false
	switch {
	case closeAt >= 0:
		limit, closed = closeAt, true
	case len(b.kind.closes) == 0 && ended && !final && b.seq.state != seqRest:
		limit = l
	}
	if opener >= 0 && (limit < 0 || opener < limit || closed && closeAt+len(closeM) > opener) {
		limit, closed = opener, false
	}
	atEnd := false
	if limit < 0 {
		if !final {
			return wait()
		}
		limit, atEnd = len(text), true
	}
	reg = r.x.block(text, b.at, b.body, limit, closed, atEnd)
	if reg.end == b.at && len(reg.calls) == 0 || inprose.Mentioned(text, b.at, b.body, reg.calls) {
		return region{}, false, true
	}
	if closed {
		reg.end = closeAt + len(closeM)
	} else if atEnd && len(reg.calls) > 0 && cutoff.Marker(text[reg.end:], b.kind.closes...) {
		reg.end = len(text)
	}
	return reg, true, true
}

// builtinEarly reports whether the llama3_builtin block in progress,
// whose calls end at l with text after them, is read as those calls
// whatever follows (extractor.builtinBody): they are all complete
// built-in or declared calls, and the text after them starts on a later
// line. Otherwise what follows may make the block code, and its calls
// wait for the block to be read whole.
func (r *reader) builtinEarly(text string, l int) bool {
	b := &r.blk
	ls := scanList(text[:l], textlayer.SkipSpace(text, b.body), false, false, false)
	return ls.junk < 0 && len(ls.elems) > 0 && r.x.builtinCalls(text, ls.elems) && strings.Contains(text[ls.next:l], "\n")
}

// maxOpener is the length of the dialect's longest marker.
func maxOpener(d *Dialect) int {
	n := 0
	for _, b := range d.blocks {
		n = max(n, len(b.open))
		for _, c := range b.closes {
			n = max(n, len(c))
		}
	}
	return n
}

// readBlock reads the block whose opener open is at at, in an output that
// has ended.
func (r *reader) readBlock(text string, at int, open string, final bool) (region, bool) {
	r.blk = blockState{at: at, body: at + len(open), kind: r.d.kind(open)}
	r.scan = r.blk.body
	reg, ok, _ := r.blockEnd(text, final)
	return reg, ok
}

// mark notes that the opener open was read: an evidence marker makes the
// output marked (PieceMarked, once).
func (r *reader) mark(open string) {
	if !r.marked && r.d.kind(open).evidence {
		r.marked = true
		r.out = append(r.out, dialects.Piece{Kind: dialects.PieceMarked})
	}
}

// wholeBare holds an output that may be nothing but bare calls until a
// line does not go on with one (it is then read as any output) or the
// output ends (the calls are read, when they are all the output).
func (r *reader) wholeBare(text string, final bool) bool {
	if _, done := r.bare.end(text, r.pos, false, final, nil); done && !final || r.bare.state == seqRest {
		r.phase, r.notWhole = content, true
		return true
	}
	if !final {
		return false
	}
	r.phase, r.notWhole = content, true
	if r.d.fallback == declaredCalls && (r.opts.Tools == nil || r.opts.Tools.Len() == 0) {
		return true
	}
	trimmed := textlayer.TrimRight(text)
	p := &prose{x: r.x, s: text, wholeStart: textlayer.SkipSpace(text, r.pos), wholeEnd: len(trimmed)}
	reg, ok := p.wholeBare()
	if !ok {
		return true
	}
	r.emitRegion(text, reg)
	r.pos, r.scan = len(text), len(text)
	return false
}
