package tagged

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/coded"
	"github.com/dialectkit/toolcall/internal/jsonscan"
	"github.com/dialectkit/toolcall/internal/shown"
	"github.com/dialectkit/toolcall/internal/sofar"
	"github.com/dialectkit/toolcall/internal/strictjson"
	"github.com/dialectkit/toolcall/internal/textlayer"
)

var _ dialects.Incremental = (*Dialect)(nil)

// NewReader returns a Reader of one output in the dialect.
//
// The Reader reads the output as stretches: a stretch ends right after a
// call or a section whose closing literal has arrived, with what may
// stand after it (a gap, filler, the section's end, a frame's end) read,
// and is read once, then; its content, reasoning and calls go out at
// once. A stretch does not end where a later byte could still change what
// it holds: inside a reasoning block, inside a section, while a closing
// tag could make the text so far reasoning the template opened (neither
// Options.ReasoningOpen nor ReasoningClosed given, and the start not
// settled by the text), after an end of turn, or where the literal may lie
// inside a JSON string or an open value of the call. Text before the last
// two lines of a stretch that holds no byte a literal, a quotation or code
// may start with goes out as content as it arrives. Whether markup is
// shown rather than made is decided by what precedes it (shownState), so
// no later byte changes it.
//
// Glimmer's stretches end with a message (<|eom|>, <|eot|>). MiniCPM 5's
// tokenizer artefacts are undone in a stretch that shows them and in every
// stretch after it.
func (t *Dialect) NewReader(opts *dialects.Options) dialects.Reader {
	if opts == nil {
		opts = &dialects.Options{}
	}
	r := &reader{t: t, opts: opts, implicit: -1, ctx: -1, goesOn: -1, shownBytes: newShownBytes(), ann: announcing{at: -1}}
	r.shown.bytes = &r.shownBytes
	r.out, r.cands, r.st.spans = r.outBuf[:0], r.candBuf[:0], r.spanBuf[:0]
	switch {
	case opts.ReasoningOpen:
		r.implicit = 1
	case opts.ReasoningClosed, t.start.ReasoningClosed:
		r.implicit = 0
	}
	return r
}

// reader is the Reader of a Dialect.
type reader struct {
	t      *Dialect
	opts   *dialects.Options
	in     sofar.Output      // the output so far
	outBuf [3]dialects.Piece // out's first array: a one-shot read allocates none
	out    []dialects.Piece
	// ext is what the last stretch read gave, until its pieces are
	// returned.
	ext dialects.Extraction

	seg   int     // where the stretch not yet read starts
	st    stretch // how it is read
	calls int     // calls returned
	first bool    // a stretch was read
	eot   bool    // an end of turn arrived: the rest is read at Close

	// implicit is whether a closing reasoning tag before any opening one
	// ends a block the template opened: -1 while unsettled.
	implicit int8
	// settled says the template's block, if any, has closed, or no
	// closing tag can make text before it reasoning any more.
	settled bool
	tagAt   int  // searched for reasoning tags up to here
	newTag  bool // a reasoning tag arrived
	tmplEnd int  // where the block the template opened ends; 0: none
	// finds finds the opening and closing tag of each wrapper, as
	// IndexTag finds them, in the text that grows.
	finds [2][2]strictjson.TagFinder

	// tmpl is the reasoning of the block the template opened that went
	// out before the first stretch was read (earlyReasoning): the text
	// from its first byte that is not a space (once led) up to tmpl.to,
	// read for literals up to tmpl.scan; tmpl.stop says a literal stands
	// at scan.
	tmpl struct {
		from, to, scan int
		led, stop      bool
	}

	scan  int   // searched for closing literals up to here
	cands []int // ends of closing literals found; those from ci on are not yet tried
	ci    int
	// candBuf and spanBuf are the first arrays of cands and of the
	// stretches' spans: a one-shot read of a few calls allocates none.
	candBuf [2]int
	spanBuf [2]span
	look    int // the gap after cands[ci] is read up to here
	fail    int // stretch length at the last try that did not end it

	// shown decides what the output shows rather than makes, as far as
	// the stretches read; try is its copy a stretch is read with, kept
	// only when the stretch ends (keep). spare is a scan neither uses.
	shown, try shownState
	spare      *shown.ShownScan
	shownBytes shownBytes

	// Content that goes out before its stretch ends: sig is the first
	// byte at or after seg that a literal, quotation or code may start
	// with (-1: none up to plain); line is where the line being read
	// starts and textLine where the last line with text before it does
	// (-1: none); lineText says the line being read has text.
	plain, line int
	// ctx is where the context of the stretch starts, -1 for none.
	ctx int
	// lead says what the call that ended the last stretch absorbs after
	// it is still to be taken (absorbLead); leadEscaped that the call
	// took the escaped gap after it.
	lead, leadEscaped bool
	// tagTo: the text before it holds no reasoning tag, unless tagged
	// (tagFree).
	tagTo  int
	tagged bool
	// goesOn is the seg at which closeSection found that the section
	// goes on, for good (-1: none).
	goesOn int
	marked bool // PieceMarked was returned
	// quiet are the bounds of the last delta's bytes that hold no byte of
	// Dialect.stops (past).
	quiet [2]int
	ann   announcing
	// answered and reasoned say content and reasoning were returned.
	answered, reasoned bool
}

// Text returns the output given so far (dialects.TextReader).
func (r *reader) Text() string { return r.in.Text() }

// Write reads the output's next bytes.
func (r *reader) Write(delta string) []dialects.Piece {
	r.out = r.out[:0]
	text, ok := r.in.Write(delta)
	if !ok {
		return r.out
	}
	// The new bytes before the first one a scan stops at (Dialect.stops)
	// are looked at once, here: the scans pass over them (past).
	r.quiet[0] = len(text) - len(delta)
	if k := r.t.stops.Index(delta); k >= 0 {
		r.quiet[1] = r.quiet[0] + k
	} else {
		r.quiet[1] = len(text)
	}
	// Each step is taken only while it has something to do: most
	// deltas need few of them.
	if !r.settled {
		r.settle(text)
	}
	if !r.first && r.settled {
		r.endTemplate(text)
	}
	r.findEnds(text)
	if r.lead && !r.absorbLead(text, false) || r.st.cont && !r.closeSection(text, false) {
		return r.out
	}
	if r.ci < len(r.cands) {
		r.tryEnds(text)
	}
	if !r.first && r.opts.ReasoningOpen {
		r.earlyReasoning(text)
	}
	if r.settled {
		r.early(text)
		r.announce(text)
	}
	return r.out
}

// Close ends the output and reads what was held.
func (r *reader) Close() []dialects.Piece {
	r.out = r.out[:0]
	text, ok := r.in.Close()
	if !ok {
		return r.out
	}
	if r.implicit < 0 || !r.first {
		r.implicit = 0
		if dialects.ImplicitReasoning(text, &r.t.start, r.opts) {
			r.implicit = 1
		}
	}
	if r.lead {
		r.absorbLead(text, true)
	}
	if r.st.cont {
		r.closeSection(text, true)
	}
	r.st.final = true
	if r.seg < len(text) || !r.first {
		r.read(text, len(text))
	}
	return r.out
}

// settle decides the reasoning start as soon as the text has: whether
// the template opened a block (implicit), and whether a closing tag could
// still make the text so far reasoning. Write calls it until that is
// settled.
func (r *reader) settle(text string) {
	if r.implicit == 0 {
		r.settled = true
		return
	}
	tags := r.t.tags
	from := max(0, r.tagAt-r.t.maxTag)
	found := false
	// A tag that arrived ends among the bytes that did: the tags are
	// looked for only when one of those is a tag's last byte.
	for p := r.past(r.tagAt); p < len(text) && !found; p++ {
		found = r.t.tagLast[text[p]]
	}
	if found {
		found = false
		for _, tg := range tags {
			if strings.Contains(text[from:], tg.Open) || strings.Contains(text[from:], tg.Close) {
				r.newTag, found = true, true
			}
		}
	}
	if !found && !r.tagged && r.tagTo >= r.tagAt {
		// None begins at from or after, and none ends before tagAt
		// (tagFree searched so far): the text holds none.
		r.tagTo = len(text)
	}
	r.tagAt = len(text)
	if r.implicit < 0 && !r.newTag {
		// Without a reasoning tag, only the start of the text can
		// settle the question: a call or the answer opening it.
		if textlayer.OpensCall(text, r.t.start.Bare, r.t.start.Starts) || textlayer.OpensWith(text, r.t.start.Answer) {
			r.implicit, r.settled = 0, true
		}
		return
	}
	if !r.newTag {
		return
	}
	if r.implicit < 0 {
		opens := textlayer.OpensCall(text, r.t.start.Bare, r.t.start.Starts) || textlayer.OpensWith(text, r.t.start.Answer)
		if !opens && len(r.t.tags) > 1 && !r.firstTagKnown(text) {
			// The first tag decides (dialects.ImplicitReasoning), and
			// a value still being written may yet hold it in a string.
			return
		}
		r.implicit = 0
		if dialects.ImplicitReasoning(text, &r.t.start, r.opts) {
			r.implicit = 1
		}
	}
	if r.implicit == 0 {
		r.settled = true
		return
	}
	// The block the template opened ends at the first closing tag of the
	// first wrapper when it opened that one, and at the first closing tag
	// of any wrapper that comes before an opening one of its kind
	// (dialects.TemplateBlockEnd): settled once each tag that decides it
	// is found where no later byte can put it inside a string.
	for i, tg := range tags {
		c, cs := r.finds[i][1].Find(text, tg.Close, false)
		if i == 0 && r.opts.ReasoningOpen {
			if cs != strictjson.TagFound {
				return
			}
			continue
		}
		o, os := r.finds[i][0].Find(text, tg.Open, false)
		switch {
		case cs == strictjson.TagFound && (os == strictjson.TagNone || o > c):
		case os == strictjson.TagFound && (cs == strictjson.TagNone || c > o):
		default:
			return
		}
	}
	r.settled = true
	r.tmplEnd = dialects.TemplateBlockEnd(text, tags, r.opts.ReasoningOpen, true)
}

// firstTagKnown reports whether the first reasoning tag in text, of any
// wrapper, stands where no later byte can put it inside a string of a
// JSON value (strictjson.TagFinder), or text holds none outside strings:
// the tags dialects.ImplicitReasoning reads in text are then those it
// reads in the whole output.
func (r *reader) firstTagKnown(text string) bool {
	first, state := -1, strictjson.TagNone
	for i, tg := range r.t.tags {
		for k, tag := range [2]string{tg.Open, tg.Close} {
			at, s := r.finds[i][k].Find(text, tag, false)
			if s != strictjson.TagNone && (first < 0 || at < first) {
				first, state = at, s
			}
		}
	}
	return state != strictjson.TagPending
}

// endTemplate ends the first stretch where the block the template opened
// ends, once that is settled (tmplEnd): it is all reasoning, calls
// included, and what follows it is read as any later stretch, its
// content going out as it arrives. Write calls it once the start is
// settled, until the first stretch is read.
func (r *reader) endTemplate(text string) {
	if r.tmplEnd == 0 || r.eot || r.t.desc.frame != nil {
		return
	}
	st := r.stretchFlags()
	st.bounded = true
	ext := r.readTo(text, r.tmplEnd, &st)
	st.cont, st.bounded = false, false
	r.keepShown()
	r.st = st
	r.emit(ext)
	r.next(r.tmplEnd)
}

// earlyReasoning sends the reasoning of the block the template opened
// (Options.ReasoningOpen) as it arrives, before the first stretch is
// read: its text from the first byte that is not a space up to the first
// literal of the dialect (a call or section may begin there, which counts
// if the block never closes, and the block's closing tag is one), less
// the blanks and the part of a rune at its end. That text begins the
// first stretch's reasoning however the block ends (dialects.SplitReasoning
// trims it); emit takes it out of it. Write calls it until the first
// stretch is read, when the template opened the block.
func (r *reader) earlyReasoning(text string) {
	m := &r.tmpl
	if m.stop {
		return
	}
	if !m.led {
		for {
			if m.from == len(text) || !utf8.FullRuneInString(text[m.from:]) {
				return // what comes next may be a blank yet
			}
			c, n := utf8.DecodeRuneInString(text[m.from:])
			if !unicode.IsSpace(c) {
				break
			}
			m.from += n
		}
		m.led, m.to, m.scan = true, m.from, m.from
	}
	p := r.past(max(m.scan, m.to))
	for p < len(text) {
		k := r.t.litFirst.Index(text[p:])
		if k < 0 {
			p = len(text)
			break
		}
		p += k
		if at, partial := r.litAt(text, p); at {
			m.stop = true
			break
		} else if partial {
			break
		}
		p++
	}
	m.scan = p
	q := p
	for q > m.to {
		if c := text[q-1]; c < utf8.RuneSelf && c != '\\' && !asciiSpace[c] && (q-2 < m.to || text[q-2] != '\\') {
			break // the last byte is a rune of its own, no blank, no escape
		}
		c, n := utf8.DecodeLastRuneInString(text[m.to:q])
		if c == utf8.RuneError && n <= 1 || unicode.IsSpace(c) {
			q -= n // a blank, or a rune not whole yet
			continue
		}
		if q-2 >= m.to && text[q-2] == '\\' && gapEscape(text, q-2, q) || text[q-1] == '\\' {
			q -= 1 // an escape that may be a gap
			continue
		}
		break
	}
	if q <= m.to {
		return
	}
	r.out = append(r.out, dialects.Piece{Kind: dialects.PieceReasoning, Text: text[m.to:q]})
	r.reasoned = true
	m.to = q
}

// past returns where a scan for bytes of Dialect.stops that has read the
// text up to p goes on: past the last delta's bytes before the first such
// byte, when it has read up to them.
func (r *reader) past(p int) int {
	if p >= r.quiet[0] && p < r.quiet[1] {
		return r.quiet[1]
	}
	return p
}

// asciiSpace marks the ASCII bytes unicode.IsSpace calls spaces.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// litAt reports whether one of the dialect's literals stands at p in text
// (at), or may begin there but the text ends first (partial). Under a
// rewriting of tokenizer artefacts, the lead byte of one counts as a
// literal.
func (r *reader) litAt(text string, p int) (at, partial bool) {
	if text[p] == 0xc4 && r.t.desc.normalize != nil {
		return true, false
	}
	rest := text[p:]
	for _, l := range r.t.readLits[text[p]] {
		if strings.HasPrefix(rest, l) {
			return true, false
		}
		if len(rest) < len(l) && strings.HasPrefix(l, rest) {
			partial = true
		}
	}
	return false, partial
}

// findEnds searches the bytes that arrived for the literals that may end
// a stretch, and for an end of turn.
func (r *reader) findEnds(text string) {
	// A literal that arrived ends after scan: its last byte is among
	// the new bytes, each looked at once, and the literal is compared
	// where it ends.
	if len(r.t.desc.EndOfTurn) > 0 {
		last := &r.t.eotLast
		for p := r.past(r.scan); p < len(text) && !r.eot; p++ {
			if last[text[p]] {
				r.eot = r.endsAt(text, p+1, r.t.desc.EndOfTurn)
			}
		}
	}
	if r.eot || r.ci == len(r.cands) {
		r.cands, r.ci = r.cands[:0], 0
	}
	if r.eot {
		r.scan = len(text)
		return
	}
	last := &r.t.endLast
	for p := r.past(r.scan); p < len(text); p++ {
		if last[text[p]] && r.endsAt(text, p+1, r.t.ends) {
			r.cands = append(r.cands, p+1)
		}
	}
	r.scan = len(text)
}

// endsAt reports whether one of lits ends at e in text, after seg.
func (r *reader) endsAt(text string, e int, lits []string) bool {
	for _, l := range lits {
		if l != "" && e-len(l) >= r.seg && text[e-len(l):e] == l {
			return true
		}
	}
	return false
}

// tryEnds tries to end the stretch after each closing literal found:
// right after it, or, in a dialect whose calls a frame may wrap, once
// what may stand after it has arrived.
func (r *reader) tryEnds(text string) {
	for r.ci < len(r.cands) {
		e := r.cands[r.ci]
		if e <= r.seg {
			r.ci, r.look = r.ci+1, 0
			continue
		}
		f := e
		if !r.t.immediate {
			var ok bool
			if f, ok = r.after(text, e); !ok {
				return
			}
			if r.framedRun(text, e, f) {
				if len(text)-f < len(r.t.desc.ToolStart) && strings.HasPrefix(r.t.desc.ToolStart, text[f:]) {
					return // whether the next call begins there is not known yet
				}
				r.ci, r.look = r.ci+1, 0
				continue
			}
		}
		r.ci, r.look = r.ci+1, 0
		if !r.settled || r.eot {
			continue
		}
		if n := e - r.from(); n < 2*r.fail {
			continue // tried not long ago: the work stays linear
		}
		if !r.end(text, e, f) {
			r.fail = e - r.from()
		} else if r.lead && !r.absorbLead(text, false) || r.st.cont && !r.closeSection(text, false) {
			return
		}
	}
}

// framedRun reports whether the call that ends at e may be one of a run
// of calls a frame wraps that goes on at f: the frame goes with the run
// only if its closing tag follows the run's last call (absorbFrames).
func (r *reader) framedRun(text string, e, f int) bool {
	next := text[f:min(len(text), f+len(r.t.desc.ToolStart))]
	if !strings.HasPrefix(r.t.desc.ToolStart, next) {
		return false
	}
	for _, fr := range r.t.frames {
		if strings.Contains(text[r.seg:e], fr.Start) {
			return true
		}
	}
	return false
}

// from is where the stretch's reading starts: its context, or seg.
func (r *reader) from() int {
	if r.ctx >= 0 && r.ctx < r.seg {
		return r.ctx
	}
	return r.seg
}

// closeSection takes the end of the section a stretch ended inside, when
// nothing but a gap and filler stands before it: markup, read as the
// section's reading would read it, with no stretch to read. It reports
// whether what follows is known (at the end of the output, it is).
func (r *reader) closeSection(text string, final bool) bool {
	if r.goesOn == r.seg {
		return true
	}
	d := &r.t.desc
	i := r.seg
	for {
		i, _ = skipGap(text, i, len(text))
		moved := false
		for _, f := range d.Filler {
			if strings.HasPrefix(text[i:], f) {
				i += len(f)
				moved = true
				break
			}
		}
		if !moved {
			break
		}
	}
	rest := text[i:]
	switch {
	case strings.HasPrefix(rest, d.ScopeEnd):
		r.seg, r.st.cont = i+len(d.ScopeEnd), false
		return true
	case final:
		return true
	case len(rest) < len(d.ScopeEnd) && strings.HasPrefix(d.ScopeEnd, rest) || rest != "" && rest[0] == '\\' && len(rest) == 1:
		return false // the section's end may be arriving
	}
	if len(rest) >= r.t.maxLit {
		// No later byte can make a filler or the section's end of what
		// stands there: the answer holds until the stretch moves on.
		r.goesOn = r.seg
	}
	return true
}

// absorbLead takes what a call written outside a section absorbs after
// it (absorbAfter, absorbGapAfter) out of the next stretch: filler, the
// section's end, the escaped gap up to a line break. It reports whether
// that is decided (at the end of the output, it is).
func (r *reader) absorbLead(text string, final bool) bool {
	d := &r.t.desc
	e := r.seg
	i := e
	for {
		n, _ := skipGap(text, i, len(text))
		if n == len(text) || text[n] == '\\' && n+1 == len(text) {
			if !final {
				return false
			}
			i = n
			break
		}
		i = n
		moved := false
		for _, f := range d.Filler {
			if strings.HasPrefix(text[i:], f) {
				i += len(f)
				moved = true
				break
			}
			if !final && len(text)-i < len(f) && strings.HasPrefix(f, text[i:]) {
				return false
			}
		}
		if !moved {
			break
		}
	}
	end := e
	switch {
	case d.ScopeEnd != "" && strings.HasPrefix(text[i:], d.ScopeEnd):
		end = i + len(d.ScopeEnd)
	case d.ScopeEnd != "" && !final && len(text)-i < len(d.ScopeEnd) && strings.HasPrefix(d.ScopeEnd, text[i:]):
		return false
	case i > e && len(d.Filler) > 0 && strings.TrimSpace(text[e:i]) != "":
		end = i
	}
	if r.leadEscaped {
		n, _ := skipGap(text, end, len(text))
		if k := strings.IndexAny(text[end:n], "\n\r"); k >= 0 {
			n = end + k
		} else if n == len(text) && !final {
			return false
		}
		end = n
	}
	r.seg, r.lead = end, false
	return true
}

// after reads what may stand after a closing literal that ends at e: a
// gap, and the literals a call or section absorbs (filler, the section's
// end, a frame's end). It returns where they end and whether the text
// has arrived that far: a byte that is none of them.
func (r *reader) after(text string, e int) (int, bool) {
	if r.t.desc.frame != nil && e > r.seg {
		// A message's end token is framing unless a sentence names it
		// (a word and a blank before it): then what follows decides.
		if c := text[e-len(glimmerEOM)-1]; c != ' ' && c != '\t' {
			return e, true
		}
	}
	pos := max(e, r.look)
	for pos < len(text) {
		switch c := text[pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			pos++
			continue
		case c == '\\':
			if pos+1 >= len(text) {
				r.look = pos
				return 0, false
			}
			if gapEscape(text, pos, len(text)) {
				pos += 2
				continue
			}
		}
		moved := false
		for _, lit := range r.t.absorbs {
			rest := text[pos:]
			if strings.HasPrefix(rest, lit) {
				pos += len(lit)
				moved = true
				break
			}
			if len(rest) < len(lit) && strings.HasPrefix(lit, rest) {
				r.look = pos
				return 0, false
			}
		}
		if !moved {
			break
		}
	}
	r.look = pos
	return pos, pos < len(text)
}

// end reads the stretch up to f when a call or section closed by the
// literal that ends at e ends it there, with nothing that a later byte
// could change; it reports whether it did. A stretch may end inside a
// section, after a call read: the next one goes on inside it.
func (r *reader) end(text string, e, f int) bool {
	if f < r.tmplEnd {
		return false // the first stretch holds the template's block
	}
	if r.t.desc.frame != nil {
		return r.endMessage(text, f)
	}
	if r.openValue(text[r.seg:e]) || !r.tagFree(text, f) && r.inReasoning(text[r.seg:f]) {
		return false
	}
	st := r.stretchFlags()
	ext := r.readTo(text, f, &st)
	if st.pending || len(ext.Calls) == 0 || !st.join.afterSpan {
		return false // not known yet, no call, or text after the last one
	}
	last := &ext.Calls[len(ext.Calls)-1]
	if err := coded.As(last.Err); last.AtEnd || err != nil && (err.Code == toolcall.CodeTruncated || st.scopeOpen) {
		// Cut off where the stretch ends, or a section whose calls
		// may all fail: a sentence may name its marker (Mentioned).
		return false
	}
	r.keepShown()
	r.st = st
	r.emit(ext)
	r.next(f)
	r.st.cont = st.scopeOpen
	r.lead = r.t.immediate && !st.scopeOpen
	r.leadEscaped = st.lastEscaped
	return true
}

// endMessage reads a stretch of glimmer messages that ends at f with
// the end of one, when nothing in it is left open.
func (r *reader) endMessage(text string, f int) bool {
	if !r.tagFree(text, f) && r.inReasoning(text[r.seg:f]) {
		return false
	}
	st := r.stretchFlags()
	ext := r.readTo(text, f, &st)
	if st.pending {
		return false // a value may yet hold a message's opening in a string
	}
	for i := range ext.Calls {
		if ext.Calls[i].AtEnd {
			return false
		}
	}
	r.keepShown()
	r.st = st
	r.emit(ext)
	r.next(f)
	return true
}

// stretchFlags returns how the stretch from seg is read: the reasoning
// flags hold for the first stretch only, whose end the block the
// template opened never passes.
func (r *reader) stretchFlags() stretch {
	st := r.st
	st.startsOpen, st.implicit = r.opts.ReasoningOpen && !r.first, r.implicit == 1 && !r.first
	st.trailing, st.pending = false, false
	return st
}

// openValue reports whether a parameter value or a CDATA section is open
// at the end of s, or a JSON value the call holds is not complete: a
// closing literal there may be text of it.
func (r *reader) openValue(s string) bool {
	d := &r.t.desc
	open := d.KeyStart
	if d.Params == PairParams {
		open = d.ValStart
	}
	if open != "" && d.ValEnd != "" {
		if k := strings.LastIndex(s, open); k >= 0 && !strings.Contains(s[k:], d.ValEnd) {
			return true
		}
	}
	if d.CDATA {
		if k := strings.LastIndex(s, cdataOpen); k >= 0 && !strings.Contains(s[k:], cdataClose) {
			return true
		}
	}
	if (d.JSONArguments || d.JSONEnvelope || d.ArgumentsChild != "") && strings.IndexByte(s, '{') >= 0 {
		i := strings.LastIndex(s, d.ToolStart)
		if i < 0 {
			i = 0
		}
		if j := strings.IndexByte(s[i:], '{'); j >= 0 {
			if _, complete := jsonscan.ValueEnd(s, i+j); !complete {
				return true
			}
		}
	}
	return false
}

// tagFree reports whether text[:to] holds no reasoning tag, opening or
// closing (anywhere, inside a string too): a stretch that ends there has
// no reasoning to split off, hide or end inside. The text is searched
// once, as far as the stretches read reach, and no more once a tag is
// found.
func (r *reader) tagFree(text string, to int) bool {
	if r.tagged {
		return false
	}
	if to > r.tagTo {
		win := text[max(0, r.tagTo-r.t.maxTag+1):to]
		for _, tg := range r.t.tags {
			if strings.Contains(win, tg.Open) || strings.Contains(win, tg.Close) {
				r.tagged = true
				return false
			}
		}
		r.tagTo = to
	}
	return true
}

// inReasoning reports whether s ends inside a reasoning block it opened
// (strictjson.UnclosedBlock).
func (r *reader) inReasoning(s string) bool {
	for _, tg := range r.t.tags {
		if strictjson.UnclosedBlock(s, tg.Open, tg.Close) >= 0 {
			return true
		}
	}
	return false
}

// early sends the text of the stretch that no later byte can change as
// content: up to the first byte a literal, quotation or code may start
// with, trailing whitespace held. The line it ends on is read again with
// the stretch, as context (a fence's presenting prose, the words before a
// marker), and taken out of the stretch's content. Write calls it once
// the reasoning start is settled.
func (r *reader) early(text string) {
	if r.eot || r.lead || !r.first && r.implicit != 0 || r.t.desc.frame != nil {
		return // glimmer's messages trim and join their text: none goes early
	}
	if r.plain < r.seg {
		r.plain, r.line = r.seg, r.seg
	}
	p, sig := r.plain, &r.t.sig
	for ; p < len(text) && !sig[text[p]]; p++ {
		if text[p] == '\n' {
			r.line = p + 1
		}
	}
	r.plain = p
	q := r.plain
	for q > r.seg && textlayer.IsSpace(text[q-1]) {
		q--
	}
	if q <= r.seg {
		return
	}
	if r.ctx < 0 {
		r.ctx = r.seg
	}
	if r.line < q {
		r.ctx = max(r.ctx, r.line)
	} else {
		// The line being read has no text yet: the last line with text
		// is the one q ends.
		r.ctx = max(r.ctx, strings.LastIndexByte(text[r.ctx:q], '\n')+1+r.ctx)
	}
	st := r.st
	content := joinPlain(&st.join, text[r.seg:q])
	r.st = st
	r.ext = dialects.Extraction{Content: content}
	r.emit(&r.ext)
	r.seg, r.first = q, true
}

// joinPlain returns the content that s, text with no literal, quotation,
// code or escape in it, adds to the stretches before (rest, for text with
// no span).
func joinPlain(j *joinState, s string) string {
	if !j.afterSpan && !j.wrote {
		j.wrote = j.wrote || s != ""
		return s
	}
	core := s
	if j.afterSpan {
		t := strings.TrimLeft(core, " \t\r\n")
		j.gap = widerSep(j.gap, separator(core[:len(core)-len(t)]))
		core, j.afterSpan = t, false
	}
	if core == "" {
		return ""
	}
	out := core
	if j.wrote && j.gap != "" {
		out = j.gap + core
	}
	j.wrote, j.gap = true, ""
	if j.trimLead {
		out = strings.TrimLeft(out, " \t\r\n")
		j.trimLead = out == ""
	}
	return out
}

// readTo reads the stretch from seg to end (with its context, see early)
// as st says.
func (r *reader) readTo(text string, end int, st *stretch) *dialects.Extraction {
	from := r.seg
	if r.ctx >= 0 && r.ctx < r.seg {
		from = r.ctx
	}
	r.tryShown()
	st.shown, st.src = &r.try, text
	st.tagFree = r.tagFree(text, end)
	ext := &r.ext
	r.t.readStretch(text[from:end], from, r.opts, st, ext)
	if from < r.seg {
		ext.Content = strings.TrimPrefix(ext.Content, text[from:r.seg])
	}
	return ext
}

// tryShown readies try, a copy of shown for a stretch to be read with;
// the scans are two at most, reused.
func (r *reader) tryShown() {
	if r.try.scan != nil && r.try.scan != r.shown.scan {
		r.spare = r.try.scan // the scan of a stretch not kept
	}
	r.try = r.shown
	if r.shown.scan == nil {
		r.try.spare = r.spare
		return
	}
	if r.spare == nil {
		r.spare = new(shown.ShownScan)
	}
	*r.spare = *r.shown.scan
	r.try.scan, r.spare = r.spare, nil
}

// keepShown keeps what the stretch just read told try.
func (r *reader) keepShown() {
	if r.shown.scan != nil && r.shown.scan != r.try.scan {
		r.spare = r.shown.scan
	} else if r.try.scan != nil && r.try.scan == r.spare {
		r.spare = nil
	}
	r.shown, r.shown.spare = r.try, nil
}

// next starts the stretch after one that ended at f.
func (r *reader) next(f int) {
	r.seg, r.first, r.fail, r.ctx = f, true, 0, -1
	r.st.prior = r.calls
	r.ann.scan, r.ann.at, r.ann.no = f, -1, false
}

// read reads the stretch from seg to end, the rest of the output.
func (r *reader) read(text string, end int) {
	st := r.stretchFlags()
	st.trailing = r.calls == 0
	ext := r.readTo(text, end, &st)
	r.keepShown()
	r.st = st
	r.emit(ext)
	r.next(end)
}

// emit returns the pieces of a stretch's extraction.
func (r *reader) emit(ext *dialects.Extraction) {
	sent := false // the reasoning goes on from what earlyReasoning sent
	if m := &r.tmpl; m.to > m.from {
		// The reasoning earlyReasoning sent begins the first stretch's.
		ext.Reasoning = strings.TrimPrefix(ext.Reasoning, r.in.Text()[m.from:m.to])
		m.from, sent = m.to, true
	}
	if ext.Reasoning != "" {
		if r.t.desc.frame != nil && r.reasoned && !sent {
			// Messages are joined by a line break.
			r.out = append(r.out, dialects.Piece{Kind: dialects.PieceReasoning, Text: "\n"})
		}
		r.out = append(r.out, dialects.Piece{Kind: dialects.PieceReasoning, Text: ext.Reasoning})
		r.reasoned = true
	}
	if ext.Content != "" {
		if r.t.desc.frame != nil && r.answered {
			r.out = append(r.out, dialects.Piece{Kind: dialects.PieceContent, Text: "\n"})
		}
		r.out = append(r.out, dialects.Piece{Kind: dialects.PieceContent, Text: ext.Content})
		r.answered = true
	}
	for i := range ext.Calls {
		r.out = append(r.out, dialects.Piece{Kind: dialects.PieceCall, Index: r.calls, Call: &ext.Calls[i]})
		if r.ann.started && r.ann.index == r.calls {
			r.ann.started = false
		}
		r.calls++
	}
	for _, e := range ext.Errors {
		r.out = append(r.out, dialects.Piece{Kind: dialects.PieceError, Err: e})
	}
	if ext.Marked && !r.marked {
		r.out = append(r.out, dialects.Piece{Kind: dialects.PieceMarked})
		r.marked = true
	}
}
