package markers

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/jsonscan"
	"github.com/dialectkit/toolcall/internal/prefixtree"
	"github.com/dialectkit/toolcall/internal/shown"
	"github.com/dialectkit/toolcall/internal/sofar"
	"github.com/dialectkit/toolcall/internal/strictjson"
	"github.com/dialectkit/toolcall/internal/textlayer"
)

// NewReader returns a Reader for one output read with opts
// (dialects.Incremental). Extract is Read of a new Reader.
//
// The Reader sends the answer text that stands before the first marker,
// reasoning tag or (in a bare dialect) JSON bracket or backtick as it
// arrives, once no later byte can make it reasoning (Options.ReasoningOpen
// unset, and ReasoningClosed, the family's templates or the output's first
// bytes settle that the template opened no block): only its trailing
// whitespace is held. In an output that opens in a block the template
// opened (Options.ReasoningOpen), that text is reasoning, sent as it
// arrives the same way. A call is sent as soon as its region is closed and
// settled: the output goes on past its closing marker (at least a
// marker's length, or into the next call's name), and it stands in no
// reasoning block that a later tag could close. Whether a call is shown
// rather than made (inline code, a quotation or an example fence open
// before it) is decided by what precedes its marker
// (shown.ShownScan.ShownAt), which no later byte changes.
// A bare value of the run that opens the output (Dialect.leadRun) is sent
// once the next value has begun or its line has ended before text.
// The Reader reads the output in units (Dialect.readUnit): a unit begins
// at the output's start or right after a sent call whose region's end is
// decided, and what stands before it is decided and not read again. A
// unit is read when a region may have closed (a closing marker, a bracket
// that closes a value or a list element, the next call's marker), so each
// call is read about once however the output is cut, and the total cost
// of the readings is also bounded by a multiple of the output's length.
// Close reads the last unit.
func (d *Dialect) NewReader(opts *dialects.Options) dialects.Reader {
	if opts == nil {
		opts = &dialects.Options{}
	}
	r := &reader{d: d, opts: opts, stop: -1, firstOpener: -1, leading: true, boundary: -1, bqFor: -1}
	if d.implicitForm() || d.readsRun() {
		// The prompt may have written the first marker, or the output
		// may open with a run of bare values (Dialect.leadRun): the
		// brackets are followed from its start.
		r.firstOpener = 0
	}
	r.regionBefore = d.implicitForm()
	r.lits = d.lits
	return r
}

// literal is a string the Reader looks for as text arrives.
type literal struct {
	text string
	// json: the literal is an opening bracket of bare JSON, followed as
	// a bracket too (reader.bracket): the other literals' bytes are not,
	// but were the brackets that open a bare value not counted, every
	// closing one would seem to end a value, and a value holding a list
	// of calls would be read again at each of its elements.
	json bool
	// stop: answer text after it is not sent before Close (a call's or a
	// section's opener, a reasoning tag, a frame of bare JSON).
	stop bool
	// line: the answer text of its line is not sent either (bare JSON
	// may take its line's label with it).
	line bool
	// opener: it opens a call region; end: it closes one.
	opener, end bool
	// strip: a framing token taken out of the answer text.
	strip bool
	// reasoning: a reasoning tag.
	reasoning bool
}

// lits are the literals of a dialect, with the first bytes they start
// with and the longest marker's length.
type lits struct {
	list  []literal
	first [256]bool
	// trie holds the literals' texts, so that the literals that start at
	// a place are found by one walk over the text there, however many
	// share their first bytes (match). stops marks the bytes the scan
	// stops at: a literal's first byte, or a JSON byte when brackets are
	// followed.
	trie  prefixtree.Tree
	stops [256]bool
	// longest is the length of the longest marker of the dialect: a
	// region followed by that many bytes cannot be continued by a marker
	// written in them.
	longest int
	// brackets: the JSON brackets and strings after the first opener are
	// followed, as a closing bracket may end a region.
	brackets bool
	// tagsApart: no literal holds a reasoning tag but the tag itself,
	// so every tag in the text is found as a literal of its own (a
	// literal the scan skips or waits inside holds none).
	tagsApart bool
	// only is the one byte every literal starts with, when the brackets
	// are not followed: the search jumps from one to the next. -1 when
	// there are more.
	only int
}

// jsonByte marks the bytes the Reader follows JSON brackets and strings by.
var jsonByte = func() (t [256]bool) {
	for _, c := range []byte(`{}[]"\`) {
		t[c] = true
	}
	return t
}()

func (d *Dialect) literals() *lits {
	l := &lits{}
	add := func(s string, lit literal) {
		if s == "" {
			return
		}
		lit.text = s
		l.list = append(l.list, lit)
		l.first[s[0]] = true
		l.longest = max(l.longest, len(s))
	}
	for _, m := range d.secStart {
		add(m.parts[0], literal{stop: true, opener: true})
		l.longest = max(l.longest, len(m.text)+8)
	}
	for _, m := range d.secEnd {
		add(m.parts[len(m.parts)-1], literal{end: true})
	}
	for _, f := range d.forms {
		for _, m := range f.start {
			add(m.parts[0], literal{stop: true, opener: true})
			l.longest = max(l.longest, len(m.text)+8)
		}
		for _, m := range f.end {
			add(m.parts[len(m.parts)-1], literal{end: true})
		}
	}
	for _, t := range d.reasoning {
		add(t.Open, literal{stop: true, reasoning: true})
		add(t.Close, literal{stop: true, reasoning: true})
	}
	for _, p := range d.barePrefix {
		add(p, literal{stop: true, line: true})
	}
	for _, w := range d.desc.BareWrappers {
		add(w.Start, literal{stop: true, line: true})
	}
	for _, m := range d.stripSet {
		if !slices.ContainsFunc(l.list, func(o literal) bool { return o.text == m.text }) {
			add(m.text, literal{strip: true})
		}
	}
	for _, f := range d.forms {
		// Header markers: brackets in them are no JSON.
		for _, ms := range [][]marker{f.nameEnd, f.namePrefix, f.idSep} {
			for _, m := range ms {
				for _, p := range m.parts {
					add(p, literal{})
				}
			}
		}
	}
	// A closing bracket may end a region that no marker closes, or a
	// value of a list of calls (reader.bracket).
	l.brackets = !d.closedForms()
	if d.bare {
		// A fence may frame bare JSON: its opening run, of backticks
		// or tildes, holds the answer text of its line.
		for _, s := range []string{"{", "[", "`", "~~~"} {
			add(s, literal{stop: true, line: true, json: s == "{" || s == "["})
		}
	}
	for k := range l.list {
		l.trie.Add(l.list[k].text, int32(k))
	}
	for c := range l.stops {
		l.stops[c] = l.first[c] || l.brackets && jsonByte[c]
	}
	l.tagsApart = true
	for _, t := range d.reasoning {
		for _, tag := range []string{t.Open, t.Close} {
			for _, lit := range l.list {
				if tag != "" && lit.text != tag && strings.Contains(lit.text, tag) {
					l.tagsApart = false
				}
			}
		}
	}
	l.only = -1
	for c := range l.first {
		switch {
		case !l.first[c]:
		case l.only == -1 && !l.brackets:
			l.only = c
		default:
			l.only = -2
		}
	}
	l.only = max(l.only, -1)
	return l
}

// reader is the Reader of a marker dialect.
type reader struct {
	d    *Dialect
	opts *dialects.Options
	lits *lits
	b    sofar.Output // the output so far
	// out are the pieces a Write or Close returns, its array made at the
	// first piece (emit): a candidate of detection that sends nothing
	// needs none.
	out []dialects.Piece

	// scanned is where the search for literals goes on: a literal that
	// may start before it has been found.
	scanned int
	// litEnd is the end of the literals found; depth, inStr and list
	// follow the JSON brackets and strings of a region after them (a
	// list: its outer bracket is an array's).
	litEnd      int
	depth       int
	inStr, list bool
	// stop is where the first stop literal starts, -1 while none is
	// found; the answer text before it is sent as it arrives.
	stop int
	// firstOpener is where the first opener starts, -1 while none.
	firstOpener int
	// regionBefore says a region may stand before the text scanned: a
	// marker opened one, a bare value began, or the prompt may have
	// written the first call's marker. An opener with none before it
	// ends no region, and is no boundary.
	regionBefore bool
	// boundary is where the last region may have ended (past an end
	// literal, or at an opener after the first), not yet settled by a
	// reading; -1 when none is pending.
	boundary int
	// bq is where the blanks after the boundary bqFor end, as far as
	// read; bsep the same past a separator.
	bq, bsep, bqFor int
	// boundaryEnds says the boundary is the end of a closing marker,
	// boundaryCloses that it follows a closing bracket.
	boundaryEnds, boundaryCloses bool
	// read is the reading of the unit at readBase of the text's first
	// readN bytes, the last one done (valid when hasRead): Close reads
	// nothing again when no byte came since. mem is the memory every
	// reading uses, made at the first (memory): a Reader that reads no
	// unit before Close, such as most candidates of a detection, is a
	// small struct.
	read            unitReading
	hasRead         bool
	readN, readBase int
	mem             *readMem
	// peeks is the memory Peek reads with, made at the first Peek.
	peeks *peekMem

	// base is where the unit not decided yet begins: the output before
	// it was read, its calls (committed of them) sent, its content
	// (carried) and reasoning (carriedR) split; section says the unit
	// begins inside a calls section, run that it goes on with the run of
	// bare values that opened the output, form and inList that it goes
	// on with the values of a form (unitStart); marked that a marker was
	// read.
	base      int
	section   bool
	run       bool
	form      int
	inList    bool
	committed int
	carried   []byte
	carriedR  strings.Builder
	marked    bool
	// implicit is dialects.ImplicitReasoning of the text of the last
	// reading, for its first unit (false for any other).
	implicit bool
	// shown is mem's scan of what is shown (readMem.shown), nil before
	// the first reading; a Peek's copy reads it and leaves it as it was.
	shown *shown.ShownScan

	// sentTo is where the answer text sent so far (the reasoning, when
	// the output opens in a block the template opened) ends in the
	// output; sent is that text as sent, hold its trailing whitespace,
	// not sent yet; leading says nothing but whitespace came before.
	sentTo  int
	sent    strings.Builder
	hold    string
	leading bool

	// noBlock says the output settled that the template opened no
	// reasoning block; askedShort that it was asked with the output's
	// first bytes all there; tagSeen that a reasoning tag came.
	noBlock, askedShort, tagSeen bool
	// lead is where the output's leading blanks end, as far as read.
	lead int

	// opens are the places, in order, where the scan found an opener's
	// text start (found): the readings' finders look for openers there
	// and search no text the scan has read (finder).
	opens []int

	// matched is the memory of the literals found at one place (scan).
	matched [4]int32

	// calls is the number of calls sent.
	calls int
	// tried is the cost of the readings done so far.
	tried int
}

func (r *reader) Write(delta string) []dialects.Piece {
	r.out = r.out[:0]
	if delta == "" {
		return nil
	}
	s, _ := r.b.Write(delta)
	r.scan(s)
	r.sendContent(s)
	if r.boundary >= 0 && r.tried <= 4*len(s)+1<<16 && !r.heldWhole(s) && r.ready(s) {
		r.boundary, r.boundaryEnds, r.boundaryCloses = -1, false, false
		r.sendCalls(s)
	}
	return r.out
}

// Text returns the output given so far (dialects.TextReader).
func (r *reader) Text() string { return r.b.Text() }

func (r *reader) Close() []dialects.Piece {
	r.out = r.out[:0]
	s := r.b.Text()
	ur := &r.read
	switch {
	case r.hasRead && r.readN == len(s) && r.readBase == r.base && !r.read.cutSkipped:
	case r.base > 0 && r.base == len(s) && !r.section && !r.run && r.form == 0:
		// Nothing after the units decided: an empty unit reads as nothing.
		r.read = unitReading{x: &dialects.Extraction{}}
	default:
		r.read = r.readUnit(s, false)
	}
	x := ur.x
	content, reasoning := x.Content, x.Reasoning
	if !ur.split {
		carried := r.carried
		if ur.trimmedAll {
			carried = textlayer.TrimRight(carried)
		}
		content = textlayer.TrimSpace(string(carried) + content)
		if r.carriedR.Len() > 0 {
			reasoning = r.carriedR.String() + reasoning
		}
	}
	// The text sent before Close is the start of the content, or of the
	// reasoning when the output opened in a block the template opened.
	sent, sentIn := r.sent.String(), &content
	if r.opensInReasoning() {
		sentIn = &reasoning
	}
	if strings.HasPrefix(*sentIn, sent) {
		*sentIn = (*sentIn)[len(sent):]
	}
	if reasoning != "" {
		r.emit(dialects.Piece{Kind: dialects.PieceReasoning, Text: reasoning})
	}
	r.content(content)
	for i := r.calls - r.committed; i < len(x.Calls); i++ {
		r.sendCall(i, &x.Calls[i])
	}
	for _, e := range x.Errors {
		r.emit(dialects.Piece{Kind: dialects.PieceError, Err: e})
	}
	if r.marked || x.Marked {
		r.emit(dialects.Piece{Kind: dialects.PieceMarked})
	}
	return r.out
}

// readUnit reads the unit not decided yet, from base to the end of s;
// more says the output may go on past s (unitStart.more).
func (r *reader) readUnit(s string, more bool) unitReading {
	at := unitStart{first: r.base == 0, section: r.section, run: r.run, form: r.form, inList: r.inList, calls: r.committed, noTag: r.noTag(), more: more}
	r.implicit = r.base == 0 && dialects.ImplicitReasoning(s, &r.d.start, r.opts)
	r.tried += len(s) - r.base
	m := r.memory()
	r.shown.ForkTo(&m.scratch)
	k, _ := slices.BinarySearch(r.opens, r.base)
	return r.d.readUnit(&m.x, s, r.base, &m.scratch, r.opts, at, r.implicit, r.opens[k:], r.scanned)
}

// readMem is the memory the readings of a unit use: the extractor, its
// memory reused, the scan of what is shown in the output up to base,
// told of the call regions before it, and the fork of it a reading goes
// on from (ShownScan.ForkTo: the reading leaves shown as it was). Each
// reading of a unit goes on from a copy of shown, so that a marker is
// shown or not by what precedes it in the whole output, however the
// output was cut into units.
type readMem struct {
	x              extractor
	shown, scratch shown.ShownScan
}

// memory returns the memory of r's readings, made at the first.
func (r *reader) memory() *readMem {
	if r.mem == nil {
		r.mem = &readMem{}
		r.shown = &r.mem.shown
	}
	return r.mem
}

// emit adds p to the pieces returned. The array is made at the first
// piece, with room for the few of a short output.
func (r *reader) emit(p dialects.Piece) {
	if r.out == nil {
		r.out = make([]dialects.Piece, 0, 4)
	}
	r.out = append(r.out, p)
}

// sendCall sends call i of the unit at base, rc, with its offsets in the
// output.
func (r *reader) sendCall(i int, rc *dialects.RawCall) {
	if r.base > 0 {
		if rc.Offset >= 0 {
			rc.Offset += r.base
		}
		if e, ok := rc.Err.(*toolcall.Error); ok && e.Offset >= 0 {
			e.Offset += r.base
		}
	}
	r.emit(dialects.Piece{Kind: dialects.PieceCall, Index: r.committed + i, Call: rc})
}

func (r *reader) content(s string) {
	if s != "" {
		r.emit(dialects.Piece{Kind: dialects.PieceContent, Text: s})
	}
}

// scan finds the literals in the text not searched yet. It stops before
// a literal that the text's end may still complete.
func (r *reader) scan(s string) {
	l := r.lits
	i := r.scanned
	for ; i < len(s); i++ {
		if l.only >= 0 && s[i] != byte(l.only) {
			k := strings.IndexByte(s[i:], byte(l.only))
			if k < 0 {
				i = len(s)
				break
			}
			i += k
		}
		for i < len(s) && !l.stops[s[i]] {
			i++
		}
		if i == len(s) {
			break
		}
		c := s[i]
		skip, end := 0, 0
		var partial bool
		if l.first[c] {
			var matched []int32
			matched, partial = l.trie.Match(s, i, r.matched[:0])
			for _, k := range matched {
				lit := &l.list[k]
				r.found(s, i, lit, i < r.litEnd)
				if !lit.json {
					end = max(end, i+len(lit.text))
				}
				if lit.strip {
					skip = len(lit.text) - 1 // the answer text is never cut inside it
					r.opensIn(s, i+1, i+len(lit.text))
				}
			}
		}
		if partial {
			break
		}
		r.litEnd = max(r.litEnd, end)
		if l.brackets && jsonByte[c] && i >= r.litEnd && r.firstOpener >= 0 {
			i = r.bracket(s, i)
		}
		i += skip
	}
	r.scanned = i
}

// opened notes that an opener's text starts at s[i].
func (r *reader) opened(i int) {
	if n := len(r.opens); n == 0 || r.opens[n-1] < i {
		r.opens = append(r.opens, i)
	}
}

// opensIn notes the openers whose text starts in s[from:to], inside a
// framing token the scan passes over whole.
func (r *reader) opensIn(s string, from, to int) {
	l := r.lits
	for j := from; j < to; j++ {
		matched, _ := l.trie.Match(s, j, r.matched[:0])
		for _, k := range matched {
			if l.list[k].opener {
				r.opened(j)
				break
			}
		}
	}
}

// bracket follows the JSON byte s[i], outside the literals; it returns
// the offset of the last byte read. A closing bracket that closes a
// value, or an element of a list, is a boundary: the region may end
// there.
func (r *reader) bracket(s string, i int) int {
	c := s[i]
	if r.inStr {
		// A string ends at a quote no backslash escapes
		// (jsonscan.Escaped).
		if c == '"' && !jsonscan.Escaped(s, i) {
			r.inStr = false
		}
		return i
	}
	switch c {
	case '"':
		r.inStr = true
	case '{', '[':
		if r.depth == 0 {
			r.list, r.regionBefore = c == '[', true
		}
		r.depth++
	case '}', ']':
		r.depth = max(0, r.depth-1)
		if (r.depth == 0 || r.depth == 1 && r.list) && r.boundary < 0 {
			r.boundary, r.boundaryCloses = i+1, true
		}
	}
	return i
}

// found notes literal lit at s[i]; nested says it stands inside a
// literal found before, where no region begins or ends.
func (r *reader) found(s string, i int, lit *literal, nested bool) {
	if lit.opener {
		r.opened(i)
	}
	if lit.reasoning && !r.tagSeen {
		r.tagSeen, r.askedShort = true, false
	}
	if lit.stop && r.stop < 0 {
		r.stop = i
		if lit.line {
			r.stop = strings.LastIndexByte(s[:i], '\n') + 1
		}
	}
	if (lit.opener || lit.end) && !nested {
		// A region begins or ends: the brackets are counted from here.
		r.depth, r.inStr, r.list = 0, false, false
	}
	switch {
	case lit.opener && r.firstOpener < 0:
		r.firstOpener, r.regionBefore = i, true
	case nested:
	case lit.opener && !r.regionBefore:
		r.regionBefore = true // the first region: none before it ends here
	case lit.opener && r.d.closed:
		// Every region ends with its closing marker: the next one's
		// opener ends none.
	case lit.opener, lit.end:
		if r.boundary < 0 || lit.end && !r.boundaryEnds {
			r.boundary, r.boundaryEnds, r.boundaryCloses = i, lit.end, false
			if lit.end {
				r.boundary += len(lit.text)
			}
		}
	}
}

// noTag reports whether no reasoning tag stands in the output so far: its
// reasoning needs no search.
func (r *reader) noTag() bool { return r.lits.tagsApart && !r.tagSeen }

// heldWhole reports whether every call the text may hold is held: the
// output may stand in a block the template opened that no closing tag
// has ended yet, so a later tag may make all of it reasoning.
func (r *reader) heldWhole(s string) bool {
	return !r.tagSeen && !r.d.implicitForm() && r.mayReason(s)
}

// ready reports whether the text after the pending boundary may settle
// the region before it. Each byte after the boundary is read once: the
// blanks (and, after a closing bracket, the brackets) passed are not read
// again by the next Write.
func (r *reader) ready(s string) bool {
	if r.boundaryEnds {
		return true
	}
	if r.bqFor != r.boundary {
		r.bq, r.bsep, r.bqFor = r.boundary, r.boundary, r.boundary
	}
	for r.bq < len(s) && (textlayer.IsSpace(s[r.bq]) || r.boundaryCloses && (s[r.bq] == ']' || s[r.bq] == '}')) {
		r.bq++
	}
	if r.bq >= len(s) {
		return false
	}
	q := r.bq
	if !r.boundaryCloses {
		return r.settledAt(s, q)
	}
	if s[q] == ',' || s[q] == ';' {
		r.bsep = max(r.bsep, q+1)
		for r.bsep < len(s) && textlayer.IsSpace(s[r.bsep]) {
			r.bsep++
		}
		return r.bsep < len(s)
	}
	return r.settledAt(s, q)
}

// settledAfter reports whether the text goes on far enough past the
// region boundary at b for a reading to settle the region before it.
func (r *reader) settledAfter(s string, b int) bool {
	q := skipBlank(s, b)
	if q >= len(s) {
		return false
	}
	return r.settledAt(s, q)
}

// settledAt is settledAfter with the first byte past the boundary's
// blanks at s[q].
func (r *reader) settledAt(s string, q int) bool {
	if len(s) > q+r.lits.longest {
		return true
	}
	// A byte that begins no closing marker, no closing bracket and no
	// fence: the region before it cannot take it in.
	if s[q] != ']' && s[q] != '}' && !textlayer.IsFenceByte(s[q]) && !r.d.endsAt(s, q) {
		if _, ok := r.d.openers.matchAt(s, q); !ok && !(r.d.values() && cutIn(r.d.openers.list, s, q)) {
			return true
		}
	}
	// The next call's marker is written whole: it begins a region of its
	// own, unless JSON values after it may go on the values before it.
	if e, ok := r.d.openers.matchAt(s, q); ok {
		if !r.d.values() {
			return true
		}
		k := skipBlank(s, e)
		return k < len(s) && s[k] != '{' && s[k] != '[' && !textlayer.IsFenceByte(s[k])
	}
	return false
}

// endsAt reports whether a closing marker of d (a form's or the
// section's) starts at s[q], or what is left of s may begin one.
func (d *Dialect) endsAt(s string, q int) bool {
	if _, ok := matchAny(d.secEnd, s, q); ok || cutIn(d.secEnd, s, q) {
		return true
	}
	for _, f := range d.forms {
		if _, ok := matchAny(f.end, s, q); ok || cutIn(f.end, s, q) {
			return true
		}
	}
	return false
}

// closedForms reports whether every form of d reads a header call closed
// by its own marker: no region of d ends without one.
func (d *Dialect) closedForms() bool {
	for _, f := range d.forms {
		if f.Values || len(f.end) == 0 || f.RawName != "" || len(f.RawNames) > 0 || len(f.ContentNames) > 0 || f.Implicit {
			return false
		}
	}
	return !d.bare
}

// values reports whether a form of d reads JSON call values.
func (d *Dialect) values() bool {
	for _, f := range d.forms {
		if f.Values {
			return true
		}
	}
	return false
}

// endsWithAny reports whether text ends with the last part of one of ms.
func endsWithAny(text string, ms []marker) bool {
	for _, m := range ms {
		if strings.HasSuffix(text, m.parts[len(m.parts)-1]) {
			return true
		}
	}
	return false
}

// closedBy reports whether a region's text ends with a marker that closes
// it: no byte after it can change what the region read.
func (d *Dialect) closedBy(text string) bool {
	for _, m := range d.secEnd {
		if strings.HasSuffix(text, m.parts[len(m.parts)-1]) {
			return true
		}
	}
	for _, f := range d.forms {
		for _, m := range f.end {
			if strings.HasSuffix(text, m.parts[len(m.parts)-1]) {
				return true
			}
		}
	}
	return false
}

// mayReason reports whether answer text at the start of s may still turn
// out to be reasoning: the template may have opened a block that a later
// closing tag ends. The answer settles once (dialects.ImplicitReasoning
// turns false for good): it is asked again only while the output's first
// bytes may still open a call or an answer, and when its first reasoning
// tag arrives.
func (r *reader) mayReason(s string) bool {
	if r.opts.ReasoningOpen {
		return true
	}
	if r.noBlock {
		return false
	}
	if r.askedShort {
		return true
	}
	for r.lead < len(s) && strings.IndexByte(" \t\r\n", s[r.lead]) >= 0 {
		r.lead++ // the output's leading blanks are read once
	}
	if r.lead == len(s) {
		return true // nothing but blanks yet: nothing to send
	}
	if !dialects.ImplicitReasoning(s[r.lead:], &r.d.start, r.opts) {
		r.noBlock = true
		return false
	}
	if len(s)-r.lead > r.lits.longest {
		r.askedShort = true
	}
	return true
}

// sendContent sends the answer text that stands before every stop
// literal, once nothing later can change it.
//
// In an output that opens in a block the template opened
// (Options.ReasoningOpen, with a first wrapper whose tags are both known),
// the text before every stop literal is reasoning whatever follows: the
// block's first closing tag ends it there or later, and a block never
// closed makes all of it reasoning, the calls in it taken out after that
// text (dialects.SplitReasoning). It is sent as reasoning as it arrives,
// the same way.
func (r *reader) sendContent(s string) {
	kind := dialects.PieceContent
	switch {
	case r.d.implicitForm():
		return
	case r.opensInReasoning():
		kind = dialects.PieceReasoning
	case r.mayReason(s):
		return
	}
	to := r.scanned
	if r.stop >= 0 {
		to = min(to, r.stop)
	}
	// A rune cut by the end of the text is held whole.
	if k := lastRuneStart(s, to); !utf8.FullRuneInString(s[k:to]) {
		to = k
	}
	if to <= r.sentTo {
		return
	}
	seg := s[r.sentTo:to]
	if r.d.strip != nil && r.d.hasStripToken(seg) {
		seg = r.d.strip.Replace(seg)
	}
	r.sentTo = to
	seg = r.hold + seg
	if r.leading {
		seg = textlayer.TrimLeft(seg)
	}
	body := textlayer.TrimRight(seg)
	r.hold = seg[len(body):]
	if body != "" {
		r.leading = false
		r.sent.WriteString(body)
		r.emit(dialects.Piece{Kind: kind, Text: body})
	}
}

// opensInReasoning reports whether the output opens in the reasoning
// block the template opened: Options.ReasoningOpen, and the dialect's
// first wrapper has both its tags (dialects.SplitReasoning's StartsOpen).
func (r *reader) opensInReasoning() bool {
	t := r.d.reasoning
	return r.opts.ReasoningOpen && len(t) > 0 && t[0].Open != "" && t[0].Close != ""
}

func lastRuneStart(s string, to int) int {
	k := to
	for k > 0 && to-k < utf8.UTFMax && !utf8.RuneStart(s[k-1]) {
		k--
	}
	if k > 0 && to-k < utf8.UTFMax {
		k--
	}
	return k
}

// implicitForm reports whether a form's first marker may have been
// written by the prompt: the output's first line may be a call.
func (d *Dialect) implicitForm() bool {
	for _, f := range d.forms {
		if f.Implicit {
			return true
		}
	}
	return false
}

// sendCalls reads the unit not decided yet and sends the calls, in order,
// that nothing after it can change; the unit then begins after the last
// of them whose region is decided (commit).
func (r *reader) sendCalls(s string) {
	r.read, r.hasRead, r.readN, r.readBase = r.readUnit(s, true), true, len(s), r.base
	ur := &r.read
	x := ur.x
	u := s[r.base:]
	holdBelow, holdFrom := r.reasoningHold(u)
	r.out = slices.Grow(r.out, len(x.Calls)-(r.calls-r.committed))
	for i := r.calls - r.committed; i < len(x.Calls); i++ {
		rc := &x.Calls[i]
		st, en, ok := region(u, rc)
		// A region the text ends with is closed by its end marker only
		// when it reads well: a failed value may be a string the end
		// marker stands in, which the text after it may yet close.
		value := r.d.isValue(rc.Text)
		closed := value && valueSettled(u, en) ||
			!value && (r.d.closedBy(rc.Text) && (en < len(u) || rc.Err == nil) || r.settledAfter(u, en))
		if !ok || rc.AtEnd || rc.Err != nil || st < holdBelow || st >= holdFrom {
			break
		}
		if !closed {
			// Whole but not settled: the text after it settles it.
			r.boundary, r.boundaryEnds, r.boundaryCloses = r.base+en, false, value
			break
		}
		r.sendCall(i, rc)
		r.calls++
	}
	r.commit(s, ur)
}

// commit begins the unit after the last checkpoint of reading ur (of the
// unit of output s at base) that the calls sent reach and that no later
// byte can move: its content and reasoning are split and carried, the
// scan of what is shown reads on to it, and the text before it is not
// read again.
func (r *reader) commit(s string, ur *unitReading) {
	u := s[r.base:]
	n := r.calls - r.committed
	k := -1
	for j, cp := range ur.cps {
		if cp.calls > n {
			break
		}
		if cp.calls > 0 && r.decided(u, cp) {
			k = j
		}
	}
	if k < 0 {
		return
	}
	cp := ur.cps[k]
	raw := ur.raw[:cp.content]
	tail := textlayer.TrimRight(raw)
	for _, t := range r.d.reasoning {
		if t.Close != "" && strings.HasSuffix(tail, t.Close) {
			// The text after a block is trimmed from its start on: the
			// unit after it is not read apart from it.
			return
		}
	}
	reasoning, content := "", raw
	if startsOpen := r.base == 0 && r.opts.ReasoningOpen; startsOpen || !r.noTag() {
		reasoning, content = dialects.SplitReasoning(raw, dialects.ReasoningSplit{Tags: r.d.reasoning,
			StartsOpen: startsOpen, Implicit: r.implicit})
	}
	if cp.trimmedAll {
		r.carried = textlayer.TrimRight(r.carried)
	}
	r.carried = append(r.carried, content...)
	r.carriedR.WriteString(reasoning)
	r.marked = r.marked || ur.x.Marked
	r.committed += cp.calls
	r.shown.Reserve(len(ur.regions))
	for _, g := range ur.regions {
		if g.start >= cp.next {
			break
		}
		r.shown.Call(r.base+g.start, r.base+g.end)
	}
	r.base += cp.next
	r.shown.ShownAt(s, r.base) // read on to the new unit's start, once
	r.section, r.run, r.form, r.inList = cp.section, cp.run, cp.form, cp.inList
	r.hasRead = false
	if r.boundary >= 0 && r.boundary < r.base {
		r.boundary = -1
	}
}

// decided reports whether where the text of unit u goes on after a
// region, at cp.next, is decided. A section ends only with its closing
// marker. Another region is decided when it ended with its closing
// marker, or when what follows it (past blanks and closing brackets,
// which a region may take as its own) is written far enough to tell
// that no closing marker, fence or (for a list of values, which goes on
// past separators and a repeated opener) no further value begins there.
func (r *reader) decided(u string, cp checkpoint) bool {
	switch {
	case cp.run, cp.form > 0:
		return true // its value was decided by what follows it
	case cp.afterSection:
		return endsWithAny(u[:cp.next], r.d.secEnd)
	}
	if r.d.closedBy(u[:cp.next]) {
		return true
	}
	q := cp.next
	for q < len(u) && (textlayer.IsSpace(u[q]) || u[q] == ']' || u[q] == '}') {
		q++
	}
	switch {
	case q >= len(u):
		return false
	case cp.values:
		return q+r.lits.longest < len(u) && strings.IndexByte(",;{[", u[q]) < 0 && !textlayer.IsFenceByte(u[q]) && !r.d.opensAt(u, q)
	case textlayer.IsFenceByte(u[q]):
		return q+3 < len(u)
	}
	return !r.d.endsAt(u, q)
}

// opensAt reports whether an opener of d starts at s[q].
func (d *Dialect) opensAt(s string, q int) bool {
	_, ok := d.openers.matchAt(s, q)
	return ok
}

// isValue reports whether a call's text is the JSON value it was read
// from (a value of a values form, an element of a list of calls, with the
// separators or the fence before it), not a region opened by a marker.
func (d *Dialect) isValue(text string) bool {
	if text == "" || strings.IndexByte("{[,; \t\r\n", text[0]) < 0 && !textlayer.IsFenceByte(text[0]) {
		return false
	}
	_, marker := d.openers.matchAt(text, 0)
	return !marker
}

// valueSettled reports whether a call read from its own value, which ends
// at s[end], is settled: past blanks and the closing brackets that may
// follow it (the list's, or brackets too many, which the reading marks on
// its last call), a byte is written that cannot continue them, and after
// a separator the next value has begun.
func valueSettled(s string, end int) bool {
	q := end
	for q < len(s) && (textlayer.IsSpace(s[q]) || s[q] == ']' || s[q] == '}') {
		q++
	}
	if q >= len(s) {
		return false
	}
	if s[q] == ',' || s[q] == ';' {
		// The next value has begun: until then the value may be the
		// last of a list the text cuts, whose cut its call records.
		return skipBlank(s, q+1) < len(s)
	}
	return true
}

// region finds the text of the region call rc was read from.
func region(s string, rc *dialects.RawCall) (start, end int, ok bool) {
	if rc.Text == "" || rc.Offset < 0 || rc.Offset > len(s) {
		return 0, 0, false
	}
	lo := max(0, rc.Offset-len(rc.Text))
	hi := min(len(s), rc.Offset+len(rc.Text))
	k := strings.Index(s[lo:hi], rc.Text)
	if k < 0 || lo+k > rc.Offset {
		return 0, 0, false
	}
	return lo + k, lo + k + len(rc.Text), true
}

// reasoningHold returns where, in s, a call region stands where a later
// closing tag could make it reasoning: before holdBelow (in a block the
// template may have opened that no tag has closed yet, or that closes
// after it), or from holdFrom on (after an opening tag not closed since).
// It reads s a few times, once per reading, whatever the calls.
func (r *reader) reasoningHold(s string) (holdBelow, holdFrom int) {
	tags := r.d.reasoning
	holdFrom = len(s) + 1
	first := r.base == 0
	implicit := r.implicit
	noTag := r.noTag()
	for i, t := range tags {
		open := first && i == 0 && r.opts.ReasoningOpen
		if !open && !implicit || t.Open == "" || t.Close == "" {
			continue
		}
		if noTag {
			// No tag closes the block the template may have opened.
			holdBelow = len(s) + 1
			continue
		}
		// A block the template opened ends at the wrapper's first
		// closing tag; until one comes, a call may stand in it, unless
		// an opening tag came first (dialects.TemplateBlockEnd).
		if c := strictjson.IndexTag(s, t.Close); c >= 0 {
			if o := strictjson.IndexTag(s, t.Open); open || o < 0 || c < o {
				holdBelow = max(holdBelow, c+len(t.Close))
			}
		} else if open || strictjson.IndexTag(s, t.Open) < 0 {
			holdBelow = len(s) + 1
		}
	}
	for _, t := range tags {
		if noTag {
			break // no opening tag either
		}
		from := 0
		for _, b := range strictjson.ClosedBlocks(s, t.Open, t.Close) {
			from = b.End
		}
		if o := strictjson.IndexTag(s[from:], t.Open); o >= 0 {
			holdFrom = min(holdFrom, from+o)
		}
	}
	return holdBelow, holdFrom
}
