package tagged

import (
	"slices"
	"strings"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/coded"
)

var _ dialects.Incremental = (*Dialect)(nil)

// NewReader returns a Reader of one output in the dialect.
//
// The Reader reads the output as stretches: a stretch ends right after a
// call or a section whose closing literal has arrived, with what may
// stand after it (a gap, filler, the section's end, a frame's end) read,
// and is read once, then; its content, reasoning and calls go out at
// once. A stretch does not end where a later byte could still change what
// it holds: inside a reasoning block, inside a section, inside a part the
// text may yet show rather than make (dialects.ShownScan), while a closing
// tag could make the text so far reasoning the template opened (neither
// Options.ReasoningOpen nor ReasoningClosed given, and the start not
// settled by the text), after an end of turn, or where the literal may lie
// inside a JSON string or an open value of the call. Text before the last
// two lines of a stretch that holds no byte a literal, a quotation or code
// may start with goes out as content as it arrives.
//
// Glimmer's messages and MiniCPM 5's tokenizer artefacts are decided by
// the whole output: their Readers hold it until Close.
func (t *Dialect) NewReader(opts *dialects.Options) dialects.Reader {
	if opts == nil {
		opts = &dialects.Options{}
	}
	r := &reader{t: t, opts: opts, implicit: -1, sig: -1, textLine: -1}
	r.hold = t.desc.frame != nil || t.desc.normalize != nil
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
	t    *Dialect
	opts *dialects.Options
	b    strings.Builder // the output so far
	out  []dialects.Piece

	seg   int     // where the stretch not yet read starts
	st    stretch // how it is read
	calls int     // calls returned
	first bool    // a stretch was read
	hold  bool    // the dialect reads the output whole
	eot   bool    // an end of turn arrived: the rest is read at Close

	// implicit is whether a closing reasoning tag before any opening one
	// ends a block the template opened: -1 while unsettled.
	implicit int8
	// settled says the template's block, if any, has closed, or no
	// closing tag can make text before it reasoning any more.
	settled bool
	tagAt   int  // searched for reasoning tags up to here
	newTag  bool // a reasoning tag arrived since settled was computed
	tmplEnd int  // where the block the template opened ends; 0: none
	checked int  // length of the output when settled was last computed

	scan  int   // searched for closing literals up to here
	cands []int // ends of closing literals found, not yet tried
	look  int   // the gap after cands[0] is read up to here
	fail  int   // stretch length at the last try that did not end it

	shown dialects.ShownScan

	// Content that goes out before its stretch ends: sig is the first
	// byte at or after seg that a literal, quotation or code may start
	// with (-1: none up to plain); line is where the line being read
	// starts and textLine where the last line with text before it does
	// (-1: none); lineText says the line being read has text.
	plain, sig     int
	line, textLine int
	lineText       bool
	lastHold       int
	closed         bool
	marked         bool // PieceMarked was returned
}

// Write reads the output's next bytes.
func (r *reader) Write(delta string) []dialects.Piece {
	r.out = r.out[:0]
	if delta == "" || r.closed {
		return r.out
	}
	r.b.WriteString(delta)
	if r.hold {
		return r.out
	}
	text := r.b.String()
	r.settle(text)
	r.findEnds(text)
	r.tryEnds(text)
	r.early(text)
	return r.out
}

// Close ends the output and reads what was held.
func (r *reader) Close() []dialects.Piece {
	r.out = r.out[:0]
	if r.closed {
		return r.out
	}
	r.closed = true
	text := r.b.String()
	if r.implicit < 0 || !r.first {
		r.implicit = 0
		if dialects.ImplicitReasoningIn(text, &r.t.start, r.opts) {
			r.implicit = 1
		}
	}
	r.st.final = true
	r.read(text, len(text))
	return r.out
}

// settle decides the reasoning start as soon as the text has: whether
// the template opened a block (implicit), and whether a closing tag could
// still make the text so far reasoning.
func (r *reader) settle(text string) {
	if r.settled {
		return
	}
	if r.implicit == 0 {
		r.settled = true
		return
	}
	tags := r.t.desc.reasoningTags()
	from := max(0, r.tagAt-r.t.maxTag)
	for _, tg := range tags {
		if strings.Contains(text[from:], tg.Open) || strings.Contains(text[from:], tg.Close) {
			r.newTag = true
		}
	}
	r.tagAt = len(text)
	if r.implicit < 0 && !r.newTag {
		// Without a reasoning tag, only the start of the text can
		// settle the question: a call or the answer opening it.
		if dialects.OpensCall(text, &r.t.start) || dialects.OpensAnswer(text, &r.t.start) {
			r.implicit, r.settled = 0, true
		}
		return
	}
	if !r.newTag || len(text) < r.checked+r.checked/4 {
		return
	}
	r.newTag, r.checked = false, len(text)
	if r.implicit < 0 {
		r.implicit = 0
		if dialects.ImplicitReasoningIn(text, &r.t.start, r.opts) {
			r.implicit = 1
		}
	}
	if r.implicit == 0 {
		r.settled = true
		return
	}
	for i, tg := range tags {
		c := dialects.IndexTag(text, tg.Close)
		if i == 0 && r.opts.ReasoningOpen {
			if c < 0 {
				return
			}
			continue
		}
		if c < 0 && dialects.IndexTag(text, tg.Open) < 0 {
			return
		}
	}
	r.settled = true
	r.tmplEnd = dialects.TemplateBlockEnd(text, tags, r.opts.ReasoningOpen, true)
}

// findEnds searches the bytes that arrived for the literals that may end
// a stretch, and for an end of turn.
func (r *reader) findEnds(text string) {
	from := max(r.seg, r.scan-r.t.maxLit+1)
	win := text[from:]
	for _, e := range r.t.desc.EndOfTurn {
		if strings.Contains(win, e) {
			r.eot = true
		}
	}
	if r.eot {
		r.cands = r.cands[:0]
		r.scan = len(text)
		return
	}
	n := len(r.cands)
	for _, lit := range r.t.ends {
		for pos := from; ; {
			i := strings.Index(text[pos:], lit)
			if i < 0 {
				break
			}
			pos += i + 1
			if e := pos - 1 + len(lit); e > r.scan {
				r.cands = append(r.cands, e)
			}
		}
	}
	if len(r.t.ends) > 1 {
		slices.Sort(r.cands[n:])
		r.cands = slices.Compact(r.cands)
	}
	r.scan = len(text)
}

// tryEnds tries to end the stretch after each closing literal found,
// once what may stand after it has arrived.
func (r *reader) tryEnds(text string) {
	for len(r.cands) > 0 {
		e := r.cands[0]
		if e <= r.seg {
			r.cands, r.look = r.cands[1:], 0
			continue
		}
		f, ok := r.after(text, e)
		if !ok {
			return
		}
		r.cands, r.look = r.cands[1:], 0
		if !r.settled || r.eot {
			continue
		}
		if n := e - r.seg; n < 2*r.fail {
			continue // tried not long ago: the work stays linear
		}
		if !r.end(text, e, f) {
			r.fail = e - r.seg
		}
	}
}

// after reads what may stand after a closing literal that ends at e: a
// gap, and the literals a call or section absorbs (filler, the section's
// end, a frame's end). It returns where they end and whether the text
// has arrived that far: a byte that is none of them.
func (r *reader) after(text string, e int) (int, bool) {
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
// could change; it reports whether it did.
func (r *reader) end(text string, e, f int) bool {
	d := &r.t.desc
	if f < r.tmplEnd {
		return false // the first stretch holds the template's block
	}
	body := text[r.seg:f]
	if d.ScopeStart != "" {
		if s := strings.LastIndex(body, d.ScopeStart); s >= 0 && strings.LastIndex(body, d.ScopeEnd) < s {
			return false // inside a section
		}
	}
	if r.openValue(text[r.seg:e]) || r.inReasoning(body) {
		return false
	}
	st := r.st
	st.startsOpen, st.implicit = r.opts.ReasoningOpen && !r.first, r.implicit == 1 && !r.first
	st.trailing = false
	ext := r.t.readStretch(body, r.seg, r.opts, &st)
	if len(ext.Calls) == 0 {
		return false
	}
	last := &ext.Calls[len(ext.Calls)-1]
	if err := coded.As(last.Err); last.AtEnd || err != nil && err.Code == toolcall.CodeTruncated {
		return false // cut off where the stretch ends
	}
	for i := range ext.Calls {
		if r.shown.MayBeShown(text, ext.Calls[i].Offset) {
			return false
		}
	}
	if !st.join.afterSpan {
		return false // text after the last call or section
	}
	for i := range ext.Calls {
		rc := &ext.Calls[i]
		r.shown.Call(rc.Offset, f)
	}
	r.st = st
	r.emit(ext)
	r.next(f)
	return true
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
			if _, complete := dialects.ValueEnd(s, i+j); !complete {
				return true
			}
		}
	}
	return false
}

// inReasoning reports whether s ends inside a reasoning block it opened.
func (r *reader) inReasoning(s string) bool {
	for _, tg := range r.t.desc.reasoningTags() {
		for i := 0; ; {
			o := dialects.IndexTag(s[i:], tg.Open)
			if o < 0 {
				break
			}
			o += i + len(tg.Open)
			c := dialects.IndexTag(s[o:], tg.Close)
			if c < 0 {
				return true
			}
			i = o + c + len(tg.Close)
		}
	}
	return false
}

// early sends the text of the stretch that no later byte can change as
// content: all but its last two lines with text, when it holds no byte a
// literal, quotation or code may start with.
func (r *reader) early(text string) {
	if !r.settled || r.eot || !r.first && r.implicit != 0 {
		return
	}
	if r.plain < r.seg {
		r.plain, r.sig, r.line, r.textLine, r.lineText = r.seg, -1, r.seg, -1, false
	}
	for r.sig < 0 && r.plain < len(text) {
		c := text[r.plain]
		if r.t.sig[c] {
			r.sig = r.plain
			break
		}
		switch c {
		case '\n':
			if r.lineText {
				r.textLine = r.line
			}
			r.line, r.lineText = r.plain+1, false
		case ' ', '\t', '\r':
		default:
			r.lineText = true
		}
		r.plain++
	}
	hold := r.line
	if r.textLine >= 0 {
		hold = r.textLine
	}
	if hold == r.lastHold {
		return
	}
	r.lastHold = hold
	q := hold
	for q > r.seg && strings.IndexByte(" \t\r\n", text[q-1]) >= 0 {
		q--
	}
	if q <= r.seg {
		return
	}
	st := r.st
	st.startsOpen, st.implicit, st.trailing = false, false, false
	if !r.first {
		st.startsOpen, st.implicit = r.opts.ReasoningOpen, r.implicit == 1
	}
	ext := r.t.readStretch(text[r.seg:q], r.seg, r.opts, &st)
	if len(ext.Calls) > 0 || ext.Reasoning != "" {
		return // not plain text after all
	}
	r.st = st
	r.emit(ext)
	r.seg, r.first = q, true
}

// next starts the stretch after one that ended at f.
func (r *reader) next(f int) {
	r.seg, r.first, r.fail = f, true, 0
	r.st.prior = r.calls
}

// read reads the stretch from seg to end, the rest of the output.
func (r *reader) read(text string, end int) {
	st := r.st
	st.startsOpen, st.implicit = r.opts.ReasoningOpen && !r.first, r.implicit == 1 && !r.first
	st.trailing = r.calls == 0
	ext := r.t.readStretch(text[r.seg:end], r.seg, r.opts, &st)
	r.st = st
	r.emit(ext)
	r.next(end)
}

// emit returns the pieces of a stretch's extraction.
func (r *reader) emit(ext *dialects.Extraction) {
	if ext.Reasoning != "" {
		r.out = append(r.out, dialects.Piece{Kind: dialects.PieceReasoning, Text: ext.Reasoning})
	}
	if ext.Content != "" {
		r.out = append(r.out, dialects.Piece{Kind: dialects.PieceContent, Text: ext.Content})
	}
	for i := range ext.Calls {
		rc := ext.Calls[i]
		r.out = append(r.out, dialects.Piece{Kind: dialects.PieceCall, Index: r.calls, Call: &rc})
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
