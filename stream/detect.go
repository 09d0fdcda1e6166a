package stream

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/coded"
	"github.com/dialectkit/toolcall/internal/prefixtree"
	"github.com/dialectkit/toolcall/internal/textlayer"
)

// Detector finds the dialect of a stream that was not given one. Package
// registry implements it over its dialects.
type Detector interface {
	// Candidates are the dialects the output may be in (NewCandidateSet).
	// A detecting stream reads the output with each candidate the output
	// so far admits.
	Candidates() *CandidateSet
	// Points are where the output may decide its dialect (NewPointSet of
	// the candidates' dialects).
	Points() *PointSet
	// Decide returns the candidate prefix, the output so far, decides,
	// and why; k < 0 when it decides none. read(k) is candidate k's
	// reading of prefix, as its Reader would close it there (nil for no
	// candidate). It is asked at each of the output's Points in turn,
	// and the one-shot parse must agree with it: when a prefix at a point
	// decides a dialect, the parse of any output that begins with that
	// prefix reads the output in that dialect.
	Decide(prefix string, read func(k int) *Reading) (k int, reason string)
	// Priors names the candidates the caller's evidence (a chat template,
	// a model name) makes candidates whatever the output holds.
	Priors() []string
	// Settle decides the dialect of an output that ended undecided, text
	// being the whole output, from the candidates' readings of it:
	// read(k) is candidate k's, its Reader fed the whole output and
	// closed (nil for no candidate). It returns the candidate chosen and why, or
	// k < 0 and the result of an output no candidate reads (the plain
	// text). The one-shot parse of the output, detection included, must
	// be the chosen candidate's reading or that result. Its content
	// never starts or ends with whitespace (textlayer.IsSpace), as no
	// dialect's does (textlayer.Edges), so that the answer can stream
	// before the dialect is known.
	Settle(text string, read func(k int) *Reading) (k int, reason string, res *toolcall.Result)
}

// Reading is one candidate's reading of an output, whole (Detector.Settle)
// or so far (Detector.Decide): the Extraction its Reader's pieces make
// (the calls, read or failed, and whether its markers were read; the text
// is the result's), and the result, as dialects.Finish makes it of that
// Extraction.
type Reading struct {
	Extraction *dialects.Extraction
	Result     *toolcall.Result
}

// Candidate is a dialect a detecting stream may read its output in.
type Candidate struct {
	// Dialect is the candidate, or what streams it: the stream reads the
	// output with a Parser of it (NewParser).
	Dialect dialects.Dialect
	// Triggers are the literals one of which an output must hold for the
	// dialect to find anything in it (dialects.Prefiltered): the stream
	// reads the output with the dialect from the first one on (the text
	// before it included), and until then holds text that may begin one.
	// None: any output.
	Triggers []string
	// Value says the dialect reads only an output that opens, after
	// whitespace, with a JSON object or array (dialects.Syntax.Body).
	Value bool
}

// CandidateSet is the candidates of a detection, with what a detecting
// stream needs of their syntax, made once for every stream
// (NewCandidateSet).
type CandidateSet struct {
	cands []Candidate
	// Per candidate: whether it holds its whole output to the end
	// (dialects.Syntax.Opaque); its marks, before the first of which its
	// reading is the text as every other one reads it (see chain.say);
	// the header it may read before its markers (Syntax.MarkedStart,
	// Header: markedStart when any opening may be one) and the openings
	// that begin inside its framing (Syntax.Openings).
	opaque      []bool
	nameBare    []bool // a call without a marker is written name(…)
	marks       [][]string
	header      []func(string) bool
	markedStart []bool
	openings    [][]string
	// lits are the distinct triggers, marks and markers (dialects.Marked)
	// of the candidates; tree finds those that start at a place, byFirst
	// lists them by their first byte, max is the longest one's length.
	// Per literal, the candidates it is a trigger, a mark and a marker of
	// (bit sets over the candidates).
	lits                 []string
	tree                 prefixtree.Tree
	byFirst              [256][]int32
	max                  int
	trig, mark, markerOf [][]uint64
	// always: the candidates with no trigger; unmarked: those with no
	// mark, and those that read only a response body (read from the
	// start). index finds a candidate by its dialect's name.
	always, unmarked []uint64
	// markerless: the candidates that declare no marker
	// (dialects.Marked), which detection ranks only while no candidate's
	// marker has come.
	markerless []uint64
	index      map[string]int
}

// words is the length of a bit set over n things.
func words(n int) int { return (n + 63) / 64 }

// NewCandidateSet collects what a detecting stream needs of cands.
func NewCandidateSet(cands []Candidate) *CandidateSet {
	s := &CandidateSet{cands: cands}
	n := len(cands)
	s.opaque, s.marks, s.header, s.openings = make([]bool, n), make([][]string, n), make([]func(string) bool, n), make([][]string, n)
	s.markedStart, s.nameBare = make([]bool, n), make([]bool, n)
	s.always, s.unmarked, s.markerless = make([]uint64, words(n)), make([]uint64, words(n)), make([]uint64, words(n))
	s.index = make(map[string]int, n)
	ids := map[string]int{}
	lit := func(l string, k int, set *[][]uint64) {
		if l == "" {
			return
		}
		id, ok := ids[l]
		if !ok {
			id = len(s.lits)
			ids[l] = id
			s.lits = append(s.lits, l)
			s.tree.Add(l, int32(id))
			s.byFirst[l[0]] = append(s.byFirst[l[0]], int32(id))
			s.max = max(s.max, len(l))
			for _, t := range []*[][]uint64{&s.trig, &s.mark, &s.markerOf} {
				*t = append(*t, make([]uint64, words(n)))
			}
		}
		(*set)[id][k/64] |= 1 << (k % 64)
	}
	for i := range cands {
		d := cands[i].Dialect
		syn := dialects.SyntaxOf(d)
		s.opaque[i] = syn.Opaque
		s.nameBare[i] = strings.IndexByte(syn.Bare, '(') >= 0
		// Its marks: the markers it declares, the strings that open its
		// calls, its tokens, the tags of its reasoning wrappers and
		// <think>'s, and the bytes a call without a marker begins with.
		var marks []string
		if m, ok := d.(dialects.Marked); ok {
			for _, mk := range m.Markers() {
				if mk != "" {
					lit(mk, i, &s.markerOf)
					marks = append(marks, mk)
				}
			}
		}
		if len(marks) == 0 {
			s.markerless[i/64] |= 1 << (i % 64)
		}
		marks = append(append(marks, syn.Starts...), syn.Tokens...)
		for _, w := range append(syn.Reasoning, dialects.Think) {
			marks = append(marks, w.Open, w.Close)
		}
		for j := 0; j < len(syn.Bare); j++ {
			marks = append(marks, syn.Bare[j:j+1])
		}
		for _, mk := range marks {
			if mk != "" && !slices.Contains(s.marks[i], mk) {
				s.marks[i] = append(s.marks[i], mk)
				lit(mk, i, &s.mark)
			}
		}
		if len(s.marks[i]) == 0 || cands[i].Value {
			s.unmarked[i/64] |= 1 << (i % 64)
		}
		if _, dup := s.index[d.Name()]; !dup {
			s.index[d.Name()] = i
		}
		if syn.MarkedStart {
			s.header[i] = syn.Header
			s.markedStart[i] = syn.Header == nil
		}
		s.openings[i] = syn.Openings
		always := true
		for _, l := range cands[i].Triggers {
			if l != "" {
				always = false
				lit(l, i, &s.trig)
			}
		}
		if always {
			s.always[i/64] |= 1 << (i % 64)
		}
	}
	return s
}

// NewDetecting returns a Parser that detects the dialect with det as soon
// as the output shows enough of it. Until then the output is read with
// each candidate's own Parser at once, and the answer text and reasoning
// they all emitted stream as far as they agree; the candidate decided
// carries on with what it read, and its calls stream from there.
func NewDetecting(det Detector, opts *Options) *Parser {
	w := &struct {
		Parser
		c chain
	}{}
	c := &w.c
	w.ch = c
	if opts != nil {
		c.opts = *opts
	}
	c.det = det
	c.set = det.Candidates()
	c.pts = det.Points().Points()
	c.lits.init(c.set)
	for _, name := range det.Priors() {
		if k, ok := c.set.index[name]; ok {
			c.lits.trig[k/64] |= 1 << (k % 64)
		}
	}
	return &w.Parser
}

// literals is what a detecting stream found of its candidates' literals
// (CandidateSet.lits) in the output, each looked for until its first
// occurrence, each byte about once: the literals found (seen), and the
// candidates one of whose triggers came (trig; with those that have none),
// one of whose marks came (mark; with those that have none), one of whose
// markers came (marker), and the candidates an alternate reads the output
// for (made).
type literals struct {
	from int // the text before from was searched
	// again is where the text searched ends with the beginning of a
	// literal (the earliest such place), or from: the next search
	// starts there.
	again                          int
	seen, trig, mark, marker, made []uint64
	first                          [5][2]uint64 // their first storage
	// opening says the output's opening is settled: no candidate yet to
	// read the output reads it as a header or the start of its framing.
	opening bool
	// notValue says the output opens with something else than a JSON
	// value: the candidates that read only one are out.
	notValue bool
	// anyMarker says some candidate's marker came: the candidates that
	// declare none are out, as detection then ranks only candidates that
	// saw a marker of their own.
	anyMarker bool
	// word is where the name-like run of bytes that ends the text began
	// (backOverName), as of the text's length wordTo.
	word, wordTo int
}

func has(set []uint64, i int) bool { return set[i/64]&(1<<(i%64)) != 0 }

// init sizes the sets for s.
func (l *literals) init(s *CandidateSet) {
	sets := [5]*[]uint64{&l.seen, &l.trig, &l.mark, &l.marker, &l.made}
	for k, set := range sets {
		n := words(len(s.cands))
		if k == 0 {
			n = words(len(s.lits))
		}
		if n <= len(l.first[k]) {
			*set = l.first[k][:n]
		} else {
			*set = make([]uint64, n)
		}
	}
	copy(l.trig, s.always)
	copy(l.mark, s.unmarked)
}

// scan looks for the literals not yet found in the text that came since
// the last scan, and from where the last scan's text ended with the
// beginning of one (again).
func (l *literals) scan(s *CandidateSet, text string) {
	partial := len(text)
	var buf [8]int32
	for i := min(l.again, l.from); i < len(text); i++ {
		if !s.tree.Starts(text[i]) {
			continue
		}
		ids, cut := s.tree.Match(text, i, buf[:0])
		if cut {
			partial = min(partial, i)
		}
		for _, id := range ids {
			if has(l.seen, int(id)) {
				continue
			}
			l.seen[id/64] |= 1 << (id % 64)
			for w := range l.trig {
				l.trig[w] |= s.trig[id][w]
				l.mark[w] |= s.mark[id][w]
				l.marker[w] |= s.markerOf[id][w]
				l.anyMarker = l.anyMarker || s.markerOf[id][w] != 0
			}
		}
	}
	l.from, l.again = len(text), partial
	for i := l.wordTo; i < len(text); {
		c, n := text[i], 1
		name := c < utf8.RuneSelf && nameByte(c)
		if c >= utf8.RuneSelf {
			var r rune
			r, n = utf8.DecodeRuneInString(text[i:])
			name = !unicode.IsSpace(r)
		}
		if i += n; !name {
			l.word = i
		}
	}
	l.wordTo = len(text)
}

// in reports whether candidate k may read the output as its own, from
// what came so far: one of its triggers or markers came (or it has none,
// or a prior), it is no body dialect ruled out by the opening, and it
// declares a marker once some candidate's marker came.
func (l *literals) in(s *CandidateSet, k int) bool {
	return (has(l.trig, k) || has(l.marker, k)) && !(l.notValue && s.cands[k].Value) && !(l.anyMarker && has(s.markerless, k))
}

// join brings the alternates in line with the candidates: a candidate that
// may read the output as its own and met one of its marks is read by an
// alternate, whose Reader is made, reading the whole text so far at once,
// when its reading is first needed (materialize). In a quiet stream, which
// streams nothing before the decision, an alternate is made only when its
// reading is asked for. A candidate that reads only a response body drops
// out once the output opens with anything else.
func (c *chain) join(text string) {
	if c.quiet {
		// Nothing streams before the decision: a candidate is read
		// from when its reading is first asked for (readAt), and the
		// detector asks only for those the output so far admits.
		return
	}
	s := c.set
	c.lits.scan(s, text)
	if lead := strings.TrimLeft(text, " \t\r\n"); lead != "" && lead[0] != '{' && lead[0] != '[' {
		c.lits.notValue = true
	}
	kept := c.alts[:0]
	for _, a := range c.alts {
		if a.cand >= 0 && !c.lits.in(s, a.cand) {
			c.lits.made[a.cand/64] &^= 1 << (a.cand % 64)
			a.p.releaseEngine()
			continue
		}
		kept = append(kept, a)
	}
	clear(c.alts[len(kept):])
	c.alts = kept
	waiting := c.pending[:0]
	for _, pd := range c.pending {
		if !c.lits.in(s, pd.cand) {
			c.lits.made[pd.cand/64] &^= 1 << (pd.cand % 64)
			continue
		}
		waiting = append(waiting, pd)
	}
	c.pending = waiting
	for k := range s.cands {
		if has(c.lits.made, k) || !has(c.lits.mark, k) || !c.lits.in(s, k) {
			continue
		}
		// Its Reader is made when its reading is first needed
		// (materialize): its reading is asked for, or the text it
		// lets the stream emit may be more than what comes before its
		// first mark (emitAgreed).
		c.lits.made[k/64] |= 1 << (k % 64)
		c.pending = append(c.pending, pending{candState: candState{cand: k, opaque: s.opaque[k], markAt: firstOf(text, 0, s.marks[k])}})
	}
}

// pendingPlain reports whether some candidate that may read the output as
// its own has no alternate yet, having met none of its marks: it reads
// the text so far as plain text.
func (c *chain) pendingPlain() bool {
	s := c.set
	for k := range s.cands {
		if !has(c.lits.made, k) && c.lits.in(s, k) {
			return true
		}
	}
	return false
}

// held returns how many bytes at the end of text the stream holds back
// from the answer text the candidates agree on: the opening while a
// candidate not yet read may read it as a header or the start of its
// framing (all of it); else the end of text that begins a literal that
// may turn the text before it into the start of a call (watched); else,
// while a candidate may write a call name(…), the last word.
func (c *chain) held(text string) int {
	s := c.set
	if !c.lits.opening {
		lead := textlayer.TrimLeft(text)
		for k := range s.cands {
			if !has(c.lits.made, k) && c.mayBeFraming(k, lead) {
				return len(text)
			}
		}
		c.lits.opening = lead != ""
	}
	hold := 0
	for k := range s.cands {
		if s.nameBare[k] {
			// The last word may name a call written name(…).
			hold = len(text) - c.lits.word
			break
		}
	}
	start := max(0, len(text)-s.max+1)
	if c.lits.from == len(text) {
		// No literal begins before where the last search found the
		// beginning of one.
		start = max(start, c.lits.again)
	}
	for i := start; i < len(text)-hold; i++ {
		for _, id := range s.byFirst[text[i]] {
			if l := s.lits[id]; len(l) > len(text)-i && strings.HasPrefix(l, text[i:]) && c.watched(int(id)) {
				return len(text) - i
			}
		}
	}
	return hold
}

// watched reports whether literal id, when it comes, may change how the
// text before it reads: a trigger of a candidate without an alternate, or
// a mark of one whose alternate met none of its marks yet.
func (c *chain) watched(id int) bool {
	s := c.set
	for w := range c.lits.trig {
		if s.trig[id][w]&^c.lits.made[w] != 0 || s.mark[id][w]&^c.lits.mark[w] != 0 {
			return true
		}
	}
	return false
}

// firstOf returns where the first of marks that ends after from begins
// in text, or -1.
func firstOf(text string, from int, marks []string) int {
	at := -1
	for _, m := range marks {
		if i := strings.Index(text[max(0, min(from, len(text)-len(m))):], m); i >= 0 {
			i += max(0, min(from, len(text)-len(m)))
			if at < 0 || i < at {
				at = i
			}
		}
	}
	return at
}

// say returns the text of kind (Content or Reasoning) alternate a has
// emitted, or what it will: what the stream may emit as far as a is
// concerned.
//
// A dialect reads no call before its first marker (one it declares, a
// string that opens its calls, a token, a reasoning tag, a byte that
// begins a call without a marker): with the output known to start outside reasoning, the text
// before that marker is answer text in its reading, as in every other one
// (less the whitespace around it). Its Reader may hold that text for what
// could follow (a quotation a marker could stand in, words that could
// name a call, a header); the stream need not wait for it. A dialect that
// holds its whole output to the end says no more than that text, and
// before its markers it says nothing while the opening may be a header it
// reads a call after.
func (c *chain) say(a *alternate, kind Kind, text string) string {
	own := ""
	if !a.opaque {
		own = a.p.outText(kind)
	}
	return c.sayOwn(&a.candState, kind, text, own)
}

// least is what say returns for candidate pd whatever its Reader would
// emit: a prefix of say's (the text before its first mark, or nothing),
// and all of say's for a dialect that holds its whole output. A
// candidate with no Reader yet lets the stream emit that much without
// one.
func (c *chain) least(pd *pending, kind Kind, text string) string {
	return c.sayOwn(&pd.candState, kind, text, "")
}

// sayOwn is say of candidate a, own being the text of kind its Reader
// emitted.
func (c *chain) sayOwn(a *candState, kind Kind, text, own string) string {
	if kind == Reasoning || a.cand < 0 || has(c.set.unmarked, a.cand) || dialects.ImplicitReasoning("", nil, &c.opts.Parse) {
		return own
	}
	if a.opaque && a.markAt < 0 {
		if !c.headerless {
			c.headerless = headerless(strings.TrimLeft(text, " \t\r\n"))
		}
		if !c.headerless {
			return ""
		}
	}
	before := text
	if a.markAt >= 0 {
		before = text[:a.markAt]
		if c.set.nameBare[a.cand] && text[a.markAt] == '(' {
			// A call written name(…) begins at its name.
			before = text[:backOverName(text, 0, a.markAt)]
		}
	}
	if c.set.markedStart[a.cand] {
		return own
	}
	if !a.unframed {
		if c.mayBeFraming(a.cand, strings.TrimLeft(before, " \t\r\n")) {
			return own
		}
		// Once the text before its first marker cannot be framing, it
		// stays so.
		a.unframed = a.markAt >= 0
	}
	if before = textlayer.TrimSpace(before); len(own) >= len(before) {
		return own
	}
	return before
}

// mayBeFraming reports whether lead, the opening of the output after
// whitespace, may be read by candidate k as the rest of a header before
// its markers (dialects.Syntax.MarkedStart, Header) or the start of its
// framing (Syntax.Openings).
func (c *chain) mayBeFraming(k int, lead string) bool {
	s := c.set
	if h := s.header[k]; h != nil && h(lead) {
		return true
	}
	for _, o := range s.openings[k] {
		if strings.HasPrefix(lead, o) || strings.HasPrefix(o, lead) {
			return true
		}
	}
	return false
}

// headerless reports whether the output's opening, text less its leading
// whitespace, cannot be a header an opaque dialect reads a call after
// (Functionary's "get_weather\n{…}"): its first line holds two words,
// which no header does, or the next line has begun with something else
// than a value.
func headerless(text string) bool {
	if wordy(text) {
		return true
	}
	nl := strings.IndexByte(text, '\n')
	if nl < 0 {
		return false
	}
	next := strings.TrimLeft(text[nl:], " \t\r\n")
	return next != "" && next[0] != '{' && next[0] != '['
}

// materialize makes the Reader of pending candidate i, which reads
// text, the output every alternate has read, and returns its alternate.
func (c *chain) materialize(i int, text string) *alternate {
	st := c.pending[i].candState
	c.pending = slices.Delete(c.pending, i, i+1)
	return c.add(st, text)
}

// add reads the output as candidate st.cand from now on, with a Reader
// made now that reads text, what came so far.
func (c *chain) add(st candState, text string) *alternate {
	inner := Options{Parse: c.opts.Parse, MaxBytes: -1}
	p := newAlone(c.set.cands[st.cand].Dialect, &inner)
	if p.eng != nil {
		// The detecting stream keeps the text, and decides from the
		// calls as read (closeDetecting); a quiet one keeps no events.
		p.eng.noText, p.eng.raw, p.eng.quiet = true, true, c.quiet
	}
	c.alts = append(c.alts, alternate{p: p, candState: st})
	a := &c.alts[len(c.alts)-1]
	if text != "" {
		a.keep(p.Write(text))
	}
	return a
}

// detect reads delta, undecided: every candidate reads it, up to each
// point it holds and on, the points are asked about from the candidates'
// readings there, and what the candidates agree on is emitted.
func (c *chain) detect(delta string) {
	text := c.buf.Text()
	for c.pts != nil {
		at, ok := c.pts.Next(text)
		if !ok {
			break
		}
		if at > c.fed {
			// A point behind what was read is one the bytes after a
			// bracket told (Points): the readings there are not the
			// alternates' own.
			c.feed(text[:at])
			c.emitAgreed(text[:at])
		}
		k, reason := c.det.Decide(text[:at], c.readAt(text[:at]))
		if k < 0 {
			continue
		}
		c.pts = nil
		c.emit(Event{Kind: Detected, Dialect: c.set.cands[k].Dialect.Name(), Text: reason})
		c.decide(c.alternateOf(k, text[:c.fed]), nil)
		if c.fed < len(text) {
			c.relay(c.inner.Write(text[c.fed:]))
		}
		return
	}
	c.feed(text)
	c.emitAgreed(text)
}

// feed has every alternate read the output up to the end of text, the
// output so far or a prefix of it, and brings the alternates in line with
// the candidates there (join).
func (c *chain) feed(text string) {
	if len(text) > c.fed {
		for i := range c.alts {
			a := &c.alts[i]
			a.keep(a.p.Write(text[c.fed:]))
		}
		c.fed = len(text)
	}
	c.join(text)
}

// readAt returns the candidates' readings of prefix, the output so far
// (Detector.Decide): an alternate's as its Reader peeks it, when every
// alternate has read prefix and no more (in a quiet stream, the alternate
// is made now when there is none), else the reading of a Parser of the
// candidate fed prefix and closed.
func (c *chain) readAt(prefix string) func(k int) *Reading {
	return func(k int) *Reading {
		if k < 0 || k >= len(c.set.cands) {
			return nil
		}
		if len(prefix) == c.fed {
			i := -1
			for j := range c.alts {
				if c.alts[j].cand == k {
					i = j
					break
				}
			}
			if i < 0 && (c.quiet || c.isPending(k)) {
				i = c.alternateOf(k, prefix)
			}
			if i >= 0 && c.alts[i].p.eng != nil {
				if e := c.alts[i].p.eng; c.whole && len(prefix) == c.text {
					// The whole output: the reading is the Reader
					// closed, which nothing follows.
					c.alts[i].keep(c.alts[i].p.Close())
					return e.reading()
				}
				if rd := c.alts[i].p.eng.peek(); rd != nil {
					return rd
				}
			}
		}
		inner := Options{Parse: c.opts.Parse, MaxBytes: -1}
		p := newAlone(c.set.cands[k].Dialect, &inner)
		p.eng.noText, p.eng.raw, p.eng.quiet = true, true, true
		defer p.releaseEngine()
		p.Write(prefix)
		p.Close()
		return p.eng.reading()
	}
}

// alternateOf returns the index of the alternate that reads the output
// as candidate k, made now, reading text, when none does.
func (c *chain) alternateOf(k int, text string) int {
	for i := range c.alts {
		if c.alts[i].cand == k {
			return i
		}
	}
	if i := c.pendingIndex(k); i >= 0 {
		c.materialize(i, text)
	} else {
		c.add(candState{cand: k, opaque: c.set.opaque[k], markAt: -1}, text)
	}
	return len(c.alts) - 1
}

// pendingIndex returns the index of candidate k among the pending ones,
// or -1.
func (c *chain) pendingIndex(k int) int {
	for i := range c.pending {
		if c.pending[i].cand == k {
			return i
		}
	}
	return -1
}

// isPending reports whether candidate k waits for its Reader.
func (c *chain) isPending(k int) bool { return c.pendingIndex(k) >= 0 }

// closeDetecting ends an output whose dialect was not decided: every
// candidate's Reader is closed, the detector decides from their readings,
// and the reading chosen is the stream's. A candidate the detector asks
// about that no Reader reads yet (it met none of its marks: one that
// reads a header as a call, one the caller's evidence names) is read now,
// the whole output at once.
func (c *chain) closeDetecting() {
	text := c.buf.Text()
	byCand := make([]int, len(c.set.cands))
	for k := range byCand {
		byCand[k] = -1
	}
	for i := range c.alts {
		if k := c.alts[i].cand; k >= 0 {
			byCand[k] = i
		}
	}
	readings := make([]*Reading, len(c.set.cands))
	read := func(k int) *Reading {
		if k < 0 || k >= len(readings) {
			return nil
		}
		if readings[k] != nil {
			return readings[k]
		}
		i := byCand[k]
		if i < 0 {
			i = c.alternateOf(k, text)
			byCand[k] = i
		}
		a := &c.alts[i]
		a.keep(a.p.Close())
		readings[k] = a.p.eng.reading()
		return readings[k]
	}
	k, reason, res := c.det.Settle(text, read)
	if k >= 0 && read(k) != nil {
		c.emit(Event{Kind: Detected, Dialect: c.set.cands[k].Dialect.Name(), Text: reason})
		c.decide(byCand[k], nil)
		return
	}
	for i := range c.alts {
		c.alts[i].p.releaseEngine()
	}
	c.alts, c.pending = nil, nil
	c.settle(res)
	c.inner = nil
	c.events = append(c.events, Event{Kind: Done, Dialect: res.Dialect, Result: res})
}

// settle emits what res holds beyond what was streamed: the result of no
// candidate's reading (output no dialect recognised).
func (c *chain) settle(res *toolcall.Result) {
	if rest, ok := strings.CutPrefix(res.Reasoning, c.reasonOut.String()); ok {
		c.emit(Event{Kind: Reasoning, Text: rest})
	} else {
		c.diverge("reasoning %q is not a prefix of %q", c.reasonOut.String(), res.Reasoning)
	}
	if rest, ok := strings.CutPrefix(res.Content, c.contentOut.String()); ok {
		c.emit(Event{Kind: Content, Text: rest})
	} else {
		c.diverge("content %q is not a prefix of %q", c.contentOut.String(), res.Content)
	}
	// The calls and failed calls, in order of their index.
	calls, errs := res.Calls, res.Errors
	for len(calls) > 0 || len(errs) > 0 {
		if len(errs) > 0 && errs[0].CallIndex < 0 {
			errs = errs[1:] // an error of no one call: in Done only
			continue
		}
		if len(calls) > 0 && (len(errs) == 0 || calls[0].Index <= errs[0].CallIndex) {
			call := &calls[0]
			calls = calls[1:]
			c.emit(Event{Kind: CallStart, Index: call.Index, Name: call.Name})
			c.emit(Event{Kind: Call, Index: call.Index, Call: call})
			continue
		}
		e := errs[0]
		errs = errs[1:]
		c.emit(Event{Kind: CallStart, Index: e.CallIndex, Name: e.Tool})
		c.emit(Event{Kind: CallError, Index: e.CallIndex, Err: coded.Err(e)})
	}
}

// nameByte reports whether c may stand in a tool's name: letters, digits,
// '_', '$', '.', '-', and any byte of a multi-byte character.
func nameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '$' || c == '.' || c == '-' || c >= 0x80
}

// backOverName returns the start of the name-like run (letters, digits,
// '_', '$', '.', '-', and any character but a space beyond ASCII) that
// ends text[from:limit] at limit, or limit.
func backOverName(text string, from, limit int) int {
	i := limit
	for i > from {
		if c := text[i-1]; c < utf8.RuneSelf {
			if !nameByte(c) {
				break
			}
			i--
			continue
		}
		r, n := utf8.DecodeLastRuneInString(text[from:i])
		if unicode.IsSpace(r) {
			// A space such as U+00A0 ends the word, as ' ' does.
			break
		}
		i -= n
	}
	return i
}

// wordy reports whether the first line of text holds two words: a space
// or tab between two other bytes.
func wordy(text string) bool {
	line := text
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	line = strings.TrimSpace(line)
	return strings.ContainsAny(line, " \t")
}
