package hermes

import (
	"strings"
	"sync"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/callobject"
	"github.com/dialectkit/toolcall/dialects/internal/textcall"
	"github.com/dialectkit/toolcall/internal/jsonscan"
	"github.com/dialectkit/toolcall/internal/shown"
	"github.com/dialectkit/toolcall/internal/sofar"
	"github.com/dialectkit/toolcall/internal/strictjson"
	"github.com/dialectkit/toolcall/internal/textlayer"
)

// NewReader returns the engine that reads one hermes output in one pass
// (dialects.Reader).
//
// The reader splits the output into reasoning and content as it arrives,
// and reads the content in units: a unit ends at a blank line that no
// structure crosses (no fence, tag block or JSON value is open there), or
// where a reasoning block opens. Each unit is read once, when it ends, by
// the region readers of the package (tag blocks, wrappers, fences, bare
// call objects); a candidate that what precedes it shows rather than
// makes (inline code, a quotation, an example fence:
// shown.ShownScan.ShownAt) is text. Reasoning goes out line by line as
// it arrives, up to a line that may open a call: in a block that never
// closes, the first call ends the reasoning.
//
// The reader is lent from the pool Extract reads with, and given back at
// Close, with the arrays it grew.
func (hermes) NewReader(opts *dialects.Options) dialects.Reader {
	r := readers.Get().(*reader)
	r.init(opts)
	return &lent{r: r}
}

// readers keeps the readers Extract and NewReader read with: the next read
// uses one again, with the arrays it grew.
var readers = sync.Pool{New: func() any { return new(reader) }}

// lent is a reader lent from readers for one output (NewReader). Close
// gives it back; the pieces Close returns are copied out of it first,
// since the reader's array of pieces is another output's from then on,
// and so is the output (text), which the pieces and Text view.
type lent struct {
	r    *reader
	text string
}

// Text returns the output given so far (dialects.TextReader).
func (l *lent) Text() string {
	if l.r == nil {
		return l.text
	}
	return l.r.Text()
}

// Write reads the output's next bytes.
func (l *lent) Write(delta string) []dialects.Piece {
	if l.r == nil {
		return nil
	}
	return l.r.Write(delta)
}

// Peek returns the pieces Close would return now, leaving the reader as
// it was (dialects.Peeker): a detecting stream ranks hermes by them rather
// than by reading the output so far again.
func (l *lent) Peek() []dialects.Piece {
	if l.r == nil {
		return nil
	}
	return l.r.Peek()
}

// Close ends the output and gives the reader back.
func (l *lent) Close() []dialects.Piece {
	if l.r == nil {
		return nil
	}
	var out []dialects.Piece
	if ps := l.r.Close(); len(ps) > 0 {
		out = append(out, ps...)
	}
	l.text = l.r.Text()
	l.r.recycle()
	readers.Put(l.r)
	l.r = nil
	return out
}

// Extract finds the calls in text, and the content and reasoning around them:
// the text read whole by the dialect's Reader (NewReader).
func (hermes) Extract(text string, opts *dialects.Options) *dialects.Extraction {
	r := readers.Get().(*reader)
	r.init(opts)
	x := dialects.Read(r, text)
	r.recycle()
	readers.Put(r)
	return x
}

// recycle clears r, which read an output whole, for init: nothing it
// returned views what it keeps (dialects.Read copied the pieces out), and
// it keeps only its arrays, cleared.
func (r *reader) recycle() {
	x := &r.x
	clear(x.tags[:cap(x.tags)])
	clear(x.kept[:cap(x.kept)])
	clear(x.regions[:cap(x.regions)])
	clear(x.content.parts[:cap(x.content.parts)])
	clear(x.reasoning.parts[:cap(x.reasoning.parts)])
	x.tagShown.Reset()
	x.gapShown.Reset()
	keep := extractor{tags: x.tags[:0], kept: x.kept[:0], regions: x.regions[:0], content: recorder{x.content.parts[:0]}, reasoning: recorder{x.reasoning.parts[:0]}, tagShown: x.tagShown, gapShown: x.gapShown}
	clear(r.lines.seen[:cap(r.lines.seen)])
	r.lines.reset()
	var out []dialects.Piece
	if cap(r.out) > len(r.outs) {
		// An array grown past outs: the output that had it is closed,
		// and nothing it returned is read from it any more.
		out = r.out[:cap(r.out)]
		clear(out)
		out = out[:0]
	}
	*r = reader{x: keep, lines: r.lines, out: out}
}

// init readies r, new or recycled, to read an output.
func (r *reader) init(opts *dialects.Options) {
	if opts == nil {
		opts = &dialects.Options{}
	}
	r.opts, r.mode = opts, modeStart
	if r.out == nil {
		r.out = r.outs[:0]
	}
	r.content.kind, r.reasoning.kind = dialects.PieceContent, dialects.PieceReasoning
	r.reasoning.rejoin.Cut(false) // reasoning is trimmed at its start, as every block is
	r.open.Reset()
	r.close.Reset()
	switch {
	case opts.ReasoningOpen:
		r.mode = modeTemplate
	case opts.ReasoningClosed:
		r.startContent()
	}
}

// mode is what the reader is reading.
type mode uint8

const (
	// modeStart: the first bytes, which tell whether the output opens
	// with a call (and so not inside a block the template opened).
	modeStart mode = iota
	// modeTemplate: the start of a block the template opened, where the
	// model may repeat the opening tag.
	modeTemplate
	// modeImplicit: text that a later </think> makes reasoning, or a
	// <think> content.
	modeImplicit
	// modeBlock: inside a reasoning block.
	modeBlock
	// modeContent: outside reasoning.
	modeContent
)

// reader is the state of one output read by NewReader's engine.
type reader struct {
	opts *dialects.Options
	// in is the output so far, n bytes long; the text not decided yet
	// starts at base.
	in      sofar.Output
	n, base int
	mode    mode

	open, close strictjson.TagFinder // <think> and </think> in buf
	// thinkPart is how many of <think>'s first bytes end the content,
	// in which no <think> was found; -1 when one was (steady). slashes
	// is the run of backslashes that ends the output, inside a string
	// of an announced call's arguments; -1 elsewhere.
	thinkPart, slashes int

	// In a reasoning block: emitted is the end of the block's text
	// already returned, and hold says an opening tag the dialect knows
	// (held, as decided read it) was seen there, after which the block's
	// text waits for its end.
	emitted int
	hold    bool
	held    [1]tag

	// In content: lines scans the unit for the blank line that ends it,
	// floorOK says nothing but blanks and list punctuation came before
	// the unit in the output outside reasoning (textlayer.PlaceOf's
	// floor), and calls counts the calls returned.
	lines   unitLines
	floorOK bool
	calls   int
	// pre is how much of the unit was returned as content before its
	// end, and stuck says a byte that may open a region stopped that.
	pre   int
	stuck bool
	// closer is the length of the tag that ended the unit before, on
	// the line the unit begins in, right before base; 0 when the unit
	// begins a line.
	closer int
	// args follows the call announced in the unit.
	args args

	content, reasoning joiner
	marked             bool
	// x reads the units, one at a time (readHeld).
	x      extractor
	closed bool
	out    []dialects.Piece
	outs   [4]dialects.Piece // out's first array
}

// Write reads the output's next bytes.
func (r *reader) Write(delta string) []dialects.Piece {
	r.out = r.out[:0]
	if r.closed || delta == "" {
		return r.out
	}
	if !r.steady(delta) {
		r.in.Write(delta)
		r.n += len(delta)
		r.step(false)
		r.slashes = -1
		if r.mode == modeContent && r.args.inStr {
			r.slashes = jsonscan.Backslashes(r.text())
		}
	}
	return r.out
}

// steady reads a delta inside a string of an announced call's arguments
// that neither ends the string nor ends the line nor holds a <think>, when
// the scans have read all the text before it and no <think> was found
// or begun in it: it is argument text, and what step would do with it is
// to pass it in both scans and return it (PieceArguments). It reports
// whether it did. The delta is kept without reading the text
// (sofar.Output.Append), so a long argument is copied once.
func (r *reader) steady(delta string) bool {
	u, a := &r.lines, &r.args
	if r.mode != modeContent || !r.stuck || r.thinkPart < 0 || r.slashes < 0 || a.state != 1 || a.complete || !a.inStr || !u.mid || !u.inStr {
		return false
	}
	n := r.n - r.base
	if u.at != n || a.at != n {
		return false
	}
	part := thinkPart(r.thinkPart, delta)
	if part < 0 {
		return false
	}
	for q := strings.IndexByte(delta, '"'); q >= 0; q = nextByte(delta, q+1, '"') {
		if !jsonscan.EscapedAfter(r.slashes, delta, q) {
			return false // the string ends
		}
	}
	if k := jsonscan.Backslashes(delta); k == len(delta) {
		r.slashes += k
	} else {
		r.slashes = k
	}
	r.thinkPart = part
	r.in.Append(delta)
	r.n += len(delta)
	u.text = true
	u.at, a.at = n+len(delta), n+len(delta)
	r.out = append(r.out, dialects.Piece{Kind: dialects.PieceArguments, Index: r.calls, Text: delta})
	return true
}

// thinkPart returns how many of <think>'s first bytes end the text
// after delta, when part of them ended it before, or -1 when <think>
// is written in or across delta.
func thinkPart(part int, delta string) int {
	if part > 0 {
		rest := thinkOpen[part:]
		switch {
		case strings.HasPrefix(delta, rest):
			return -1
		case strings.HasPrefix(rest, delta):
			return part + len(delta)
		}
	}
	if strings.Contains(delta, thinkOpen) {
		return -1
	}
	return len(delta) - textlayer.CutLiteral(delta, 0, thinkOpen)
}

// Close ends the output and decides everything held.
func (r *reader) Close() []dialects.Piece {
	r.out = r.out[:0]
	if r.closed {
		return r.out
	}
	r.closed = true
	r.in.Close()
	r.step(true)
	r.content.flush(r)
	r.reasoning.flush(r)
	return r.out
}

// Text returns the output given so far (dialects.TextReader).
func (r *reader) Text() string { return r.in.Text() }

// text is the undecided text, viewed in place.
func (r *reader) text() string { return r.in.Text()[r.base:] }

// drop removes the first n bytes of the undecided text.
func (r *reader) drop(n int) {
	r.base += n
	r.open.Shift(n)
	r.close.Shift(n)
}

// step reads as far as the text allows; final says the output has ended.
func (r *reader) step(final bool) {
	for {
		var progress bool
		switch r.mode {
		case modeStart:
			progress = r.start(final)
		case modeTemplate:
			progress = r.template(final)
		case modeImplicit:
			progress = r.implicit(final)
		case modeBlock:
			progress = r.block(final)
		case modeContent:
			progress = r.contentStep(final)
		}
		if !progress {
			return
		}
	}
}

// start decides whether the output opens with a call (textlayer.OpensCall):
// then it did not start inside a block the template opened.
func (r *reader) start(final bool) bool {
	t := r.text()
	i := textlayer.SkipSpace(t, 0)
	opens := false
	switch {
	case i < len(t) && (t[i] == '{' || t[i] == '['):
		opens = true
	case len(t)-i >= len(openToolCall):
		opens = strings.EqualFold(t[i:i+len(openToolCall)], openToolCall)
	case !final && (i == len(t) || strings.HasPrefix(openToolCall, strings.ToLower(t[i:]))):
		return false // not decided yet
	}
	if opens {
		r.startContent()
	} else {
		r.mode = modeImplicit
	}
	return true
}

// openToolCall is the tag that opens a call block.
const openToolCall = "<tool_call>"

// template skips the opening tag a model repeats at the start of a block
// the template opened.
func (r *reader) template(final bool) bool {
	t := r.text()
	i := textlayer.SkipSpace(t, 0)
	switch {
	case strings.HasPrefix(t[i:], thinkOpen):
		r.drop(i + len(thinkOpen))
	case !final && strings.HasPrefix(thinkOpen, t[i:]):
		return false
	}
	r.startBlock()
	return true
}

// implicit waits for the first reasoning tag: a closing one before any
// opening one ends a block the template opened, and everything before it
// is reasoning; otherwise the text is content.
func (r *reader) implicit(final bool) bool {
	t := r.text()
	o, os := r.open.Find(t, thinkOpen, final)
	c, cs := r.close.Find(t, thinkClose, final)
	switch {
	case cs == strictjson.TagFound && (os == strictjson.TagNone || o > c):
		r.content.cut()
		r.startBlock()
		return r.closeBlock(c)
	case os == strictjson.TagFound && (cs == strictjson.TagNone || c > o), final:
		r.startContent()
		return true
	}
	return false
}

// startBlock begins a reasoning block whose text starts at buf[0].
func (r *reader) startBlock() {
	r.mode = modeBlock
	r.content.cut()
	r.emitted, r.hold = 0, false
	r.close.Reset()
}

// block reads a reasoning block: its text goes out line by line up to a
// line that may open a call, and the block ends at its closing tag.
func (r *reader) block(final bool) bool {
	t := r.text()
	c, cs := r.close.Find(t, thinkClose, final)
	if cs == strictjson.TagFound {
		return r.closeBlock(c)
	}
	if final {
		r.openBlock()
		return false
	}
	limit := len(t)
	if cs == strictjson.TagPending {
		limit = c
	}
	if !r.hold {
		at, held, hold := decided(t, r.emitted, limit)
		r.reasoning.write(r, t[r.emitted:at])
		r.emitted, r.hold, r.held[0] = at, hold, held
	}
	return false
}

// maxTagSpan bounds the bytes after a '<' that decide whether it opens a
// tag the dialect knows (parseTag).
const maxTagSpan = 1 + maxTagName + maxTagAttrs + 160

// decided returns how far text[from:limit] is text that opens no call:
// up to the first opening tag the dialect knows (held; hold is then
// true), or to a '<' whose tag is not complete yet.
func decided(text string, from, limit int) (at int, held tag, hold bool) {
	for i := from; i < limit; i++ {
		k := strings.IndexByte(text[i:limit], '<')
		if k < 0 {
			return limit, tag{}, false
		}
		i += k
		if limit-i <= maxTagSpan && strings.IndexAny(text[i+1:limit], "<>") < 0 {
			return i, tag{}, false // the tag is not complete yet
		}
		if t, ok := parseTag(text, i, limit); ok && !t.closing {
			return i, t, true
		}
	}
	return limit, tag{}, false
}

// closeBlock ends the reasoning block at its closing tag at c: the whole
// block is reasoning, call markup included.
func (r *reader) closeBlock(c int) bool {
	t := r.text()
	rest := t[r.emitted:c]
	if strings.Contains(rest, openToolCall) {
		r.mark()
	}
	r.reasoning.write(r, rest)
	r.drop(c + len(thinkClose))
	r.startContent()
	return true
}

// openBlock ends the output inside a reasoning block: the first call in
// what is held ends the reasoning, and what follows it is content.
func (r *reader) openBlock() {
	t := r.text()[r.emitted:]
	var known []tag
	if r.hold {
		// The tag decided read is the tag pass's: it is parsed once.
		r.held[0].start -= r.emitted
		r.held[0].end -= r.emitted
		known = r.held[:]
	}
	r.readHeld(t, r.base+r.emitted, 0, known, func(x *extractor) { x.reasoningSegment(0, len(x.Text), r.content.any() || r.calls > 0) })
	r.drop(len(r.text()))
}

// startContent begins content at buf[0].
func (r *reader) startContent() {
	r.mode = modeContent
	r.reasoning.cut()
	r.floorOK = !r.content.any() && r.calls == 0
	r.lines.reset()
	r.pre, r.stuck, r.closer = 0, false, 0
	r.args = args{}
	r.open.Reset()
}

// contentStep reads content up to the end of a unit or the opening tag
// of a reasoning block.
func (r *reader) contentStep(final bool) bool {
	t := r.text()
	o, os := r.open.Find(t, thinkOpen, final)
	r.thinkPart = -1
	if os == strictjson.TagNone {
		r.thinkPart = len(t) - textlayer.CutLiteral(t, 0, thinkOpen)
	}
	limit := len(t)
	if os != strictjson.TagNone {
		limit = o
	}
	if b := r.lines.boundary(t, limit); b > 0 {
		if r.args.state == 1 {
			r.announce(t[:b])
		}
		closer := 0
		if r.lines.mid {
			closer = b - r.lines.closer
		}
		r.unit(b)
		r.closer = closer
		return true
	}
	if !r.stuck && os != strictjson.TagFound {
		// Text before the first byte that may open a region of calls
		// is content, whatever the unit holds after it.
		at := limit
		if k := strings.IndexAny(t[r.pre:limit], "<`~{["); k >= 0 {
			at, r.stuck = r.pre+k, true
		}
		r.content.write(r, t[r.pre:at])
		r.pre = at
	}
	if r.stuck && os != strictjson.TagFound {
		r.announce(t)
	}
	switch {
	case os == strictjson.TagFound:
		r.unit(o)
		r.drop(len(thinkOpen))
		r.startBlock()
		return true
	case final:
		if len(t) > 0 {
			r.unit(len(t))
		}
	}
	return false
}

// unit reads buf[:n], a unit of content, and drops it. A unit that
// begins on the line of the tag that ended the one before is read after
// that tag (r.closer), which stands before it on its line
// (textlayer.PlaceOf).
func (r *reader) unit(n int) {
	// The content returned before the unit's end may run past it (up to
	// the first byte that may open a region): it is the next unit's.
	pre, stuck := min(r.pre, n), r.stuck && r.pre < n
	shift := 0 // how far the unit's read moved the tags the unit scan read
	defer func() {
		if r.pre -= n; r.pre <= 0 {
			r.pre, r.stuck = 0, false
		}
		// A tag read past the unit's end (the one that ended it) is the
		// next unit's: it is not parsed again.
		seen := r.lines.seen[:0]
		for _, t := range r.lines.seen {
			if t.start -= shift + n; t.start >= 0 {
				t.end -= shift + n
				seen = append(seen, t)
			}
		}
		r.lines.reset()
		r.lines.seen = seen
	}()
	if t := r.text()[:n]; !stuck && r.closer == 0 && strings.IndexAny(t[pre:], "<`~{[") < 0 {
		// Nothing in it may open a region: it is content, as it is.
		r.content.write(r, t[pre:])
		r.floorOK = r.floorOK && textlayer.RunOnly(t)
		r.drop(n)
		return
	}
	at := r.closer
	text := r.in.Text()[r.base-at : r.base+n]
	floor := -1
	if r.floorOK {
		floor = at
	}
	// The tags the unit scan read are the tag pass's: each is parsed once.
	for i := range r.lines.seen {
		r.lines.seen[i].start += at
		r.lines.seen[i].end += at
	}
	shift = at
	r.readHeld(text, r.base-at, pre, r.lines.seen, func(x *extractor) { x.contentSegment(at, len(x.Text), floor) })
	r.floorOK = r.floorOK && textlayer.RunOnly(text[at:])
	r.drop(n)
	r.closer = 0
	r.args = args{}
}

// readHeld reads text, at offset base of the output, with read, and
// returns what it found as pieces. Its first pre bytes were returned as
// content already; known are tags of text parsed already, in order.
func (r *reader) readHeld(text string, base, pre int, known []tag, read func(x *extractor)) {
	x := &r.x
	x.tagShown.Reset()
	x.gapShown.Reset()
	*x = extractor{Reader: textcall.MakeReader(text, r.opts), content: recorder{x.content.parts[:0]}, reasoning: recorder{x.reasoning.parts[:0]}, tags: x.tags[:0], kept: x.kept[:0], known: known, regions: x.regions[:0], tagShown: x.tagShown, gapShown: x.gapShown}
	read(x)
	if x.marked {
		r.mark()
	}
	r.reasoning.replay(r, x.reasoning.parts, 0)
	r.content.replay(r, x.content.parts, pre)
	for i := range x.calls {
		rc := &x.calls[i]
		shiftCall(rc, base)
		r.out = append(r.out, dialects.Piece{Kind: dialects.PieceCall, Index: r.calls, Call: rc})
		r.calls++
	}
}

// args follows the arguments of a call announced before its block
// closes (announce).
type args struct {
	state    uint8 // 0: not looked at yet, 1: announced, 2: not announced
	at       int   // the end of the argument text returned
	depth    int   // brackets open in the arguments
	inStr    bool
	str      jsonscan.StringScan // the string open, when inStr
	complete bool                // the arguments' value has closed
	// The header read so far (header): hdr.At is 0 before the tag is
	// read.
	hdr callobject.Header
}

// announce announces the call of a <tool_call> block that opens the unit
// at the start of its line, not shown by what precedes it
// (shown.ShownScan.ShownAt), {"name": "…", "arguments": … written in that
// order: such a block ends as a call or a failed call whatever follows,
// so its name goes out (PieceCallStart) with its argument text as it
// arrives (PieceArguments), before the block closes.
func (r *reader) announce(t string) {
	a := &r.args
	switch a.state {
	case 0:
		at, ok, more := r.header(t)
		if more {
			return
		}
		if !ok {
			a.state = 2
			return
		}
		a.state, a.at = 1, at
	case 2:
		return
	}
	if a.complete {
		return
	}
	i := a.at
	for ; i < len(t) && !a.complete; i++ {
		if a.inStr {
			e, closed := a.str.Next(t)
			if i = e; !closed {
				break
			}
			a.inStr = false
			a.complete = a.depth == 0
			continue
		}
		c := t[i]
		switch {
		case c == '"':
			a.inStr, a.str = true, jsonscan.NewStringScan(i)
		case c == '{' || c == '[':
			a.depth++
		case c == '}' || c == ']':
			a.depth--
			a.complete = a.depth <= 0
		case a.depth == 0 && (c == ',' || textlayer.IsSpace(c)) && i > a.at:
			a.complete = true // a bare literal ended
			i--
		}
	}
	if i > a.at {
		r.out = append(r.out, dialects.Piece{Kind: dialects.PieceArguments, Index: r.calls, Text: t[a.at:i]})
		a.at = i
	}
}

// header reads the start of the block at t[r.pre] for announce: where its
// arguments start, whether it is announced, or more to say the text so
// far does not tell. It goes on where it stopped.
func (r *reader) header(t string) (at int, ok, more bool) {
	a := &r.args
	if a.hdr.At == 0 {
		p := r.pre
		for k := p; k > 0 && t[k-1] != '\n'; k-- {
			if t[k-1] != ' ' && t[k-1] != '\t' {
				return 0, false, false // text before it on its line
			}
		}
		if r.lines.shown.ShownAt(t, p) {
			// Inline code or a quotation that a line before opened and
			// carried over shows it.
			return 0, false, false
		}
		if len(t)-p <= maxTagSpan && strings.IndexByte(t[p:], '>') < 0 {
			return 0, false, true
		}
		tg, ok := r.lines.tagAt(t, p, len(t))
		if !ok || tg.closing || tg.kind != kindToolCall {
			return 0, false, false
		}
		a.hdr.At = tg.end
	}
	i, ok, more := a.hdr.Next(t)
	if !ok {
		return 0, false, more
	}
	n0, n1 := a.hdr.Name()
	r.out = append(r.out, dialects.Piece{Kind: dialects.PieceCallStart, Index: r.calls, Name: t[n0:n1]})
	return i, true, false
}

// mark returns PieceMarked, once.
func (r *reader) mark() {
	if !r.marked {
		r.marked = true
		r.out = append(r.out, dialects.Piece{Kind: dialects.PieceMarked})
	}
}

// shiftCall moves the offsets of a call read from a unit to the output's.
// A repair's offset stays: it is an offset in the text repaired (the
// call's arguments or the object around them), not in the output.
func shiftCall(rc *dialects.RawCall, d int) {
	rc.Offset += d
	if e, ok := rc.Err.(*toolcall.Error); ok && e.Offset >= 0 {
		e.Offset += d
	}
}

// nextByte returns the offset of the first c in s at or after i, or -1.
func nextByte(s string, i int, c byte) int {
	if k := strings.IndexByte(s[i:], c); k >= 0 {
		return i + k
	}
	return -1
}

// unitLines finds where a unit of content ends, reading each byte of the
// unit once. A unit ends where what comes after it can change nothing
// read in it: at the end of a line, or right after the tag that closes a
// block, with no fence (textlayer.IsFenceAt, closed as textlayer.FenceAt
// closes it), tag block or JSON value open, and no inline code or
// quotation open there (shown.ShownScan.ShownAt; both end with their
// paragraph, so a blank line ends them); and not where the line before
// presents what follows as an example.
type unitLines struct {
	unitState
	// shown says whether what precedes a place shows it (inline code or
	// a quotation open there).
	shown shown.ShownScan
	// seen are the tags read in the unit, in order (tagAt).
	seen []tag
}

// unitState is what unitLines knows of the unit read so far.
type unitState struct {
	at    int  // the next byte to read
	mid   bool // at lies inside a line
	line  int  // the start of the line being read
	text  bool // the line being read holds text
	prose bool // a line with text was read since the last blank line
	// fence says a fence (textlayer.IsFenceAt) opened at fenceAt is
	// open: fs finds where it closes, as textlayer.FenceAt does.
	fence   bool
	fenceAt int
	fs      textlayer.FenceScan
	tags    int  // opening tags the dialect knows, less closing ones
	depth   int  // JSON brackets open
	inStr   bool // inside a double-quoted string of a JSON value
	str     jsonscan.StringScan
	// presents says the last line with text presents what follows as
	// an example: the unit goes on to hold it.
	presents bool
	// closer is where the tag that ended the unit mid-line starts: the
	// next unit is read after it, on its line.
	closer int
	// valueEnd is the end of the last JSON value closed outside tags on
	// the line, and after says the line ends there, nothing but blanks
	// after it.
	valueEnd int
	// held is the end of a line where the unit may end, with nothing
	// open: the first text after it decides (next); 0: none. heldValue
	// says the line ends with a JSON value.
	held      int
	heldValue bool
	// openAt is where the block open starts, openFam its family, and
	// valued says a JSON value closed in it.
	openAt  int
	openFam uint8
	valued  bool
}

// reset readies u for the next unit, keeping its arrays.
func (u *unitLines) reset() {
	u.unitState = unitState{}
	u.shown.Reset()
	u.seen = u.seen[:0]
}

// tagAt is parseTag(text, i, limit), the tag read once: a tag read is
// kept in seen, for the tag pass (tokenize) and the next look at it.
func (u *unitLines) tagAt(text string, i, limit int) (tag, bool) {
	for k := len(u.seen) - 1; k >= 0 && u.seen[k].start >= i; k-- {
		if u.seen[k].start == i && u.seen[k].end <= limit {
			return u.seen[k], true
		}
	}
	t, ok := parseTag(text, i, limit)
	if ok && (len(u.seen) == 0 || u.seen[len(u.seen)-1].start < i) {
		u.seen = append(u.seen, t)
	}
	return t, ok
}

// open reports whether structure that spans lines is open.
func (u *unitLines) open() bool {
	return u.fence || u.tags != 0 || u.depth != 0 || u.inStr
}

// boundary reads text[:limit] on from where it stopped and returns where
// the unit may end, or 0.
func (u *unitLines) boundary(text string, limit int) int {
	for u.at < limit {
		if u.inStr {
			// The string's bytes up to its closing quote, read at once
			// (jsonscan.StringScan): line breaks in it end no line of
			// prose.
			e, closed := u.str.Next(text[:limit])
			u.text = u.text || e > u.at
			if u.at = e; closed {
				u.inStr = false
				u.at++
			}
			continue
		}
		if u.fence {
			// The fence's text up to its closing run, read at once.
			f, ok := u.fs.Next(text[u.fenceAt:limit], false)
			if !ok {
				u.at = limit
				return 0
			}
			u.fence, u.at, u.mid, u.text = false, u.fenceAt+f.End, true, true
			continue
		}
		if !u.mid {
			u.line, u.text = u.at, false
			if u.held > 0 {
				if end, wait := u.next(text, limit); end > 0 || wait {
					return end
				}
			}
			u.mid = true
		}
		i := u.at
		c := text[i]
		if c == '\n' {
			u.at, u.mid = i+1, false
			if u.lineEnd(text, i+1) {
				return i + 1
			}
			continue
		}
		if unitClass[c] != unitSpecial {
			// A run of bytes that change nothing but whether the line
			// holds text, read at once.
			j, t := i, uint8(0)
			for j < limit {
				k := unitClass[text[j]]
				if k == unitSpecial {
					break
				}
				t |= k
				j++
			}
			u.text = u.text || t != 0
			u.at = j
			continue
		}
		if !textlayer.IsSpace(c) {
			u.text = true
		}
		switch c {
		case '{', '[':
			u.depth++
		case '}', ']':
			u.depth = max(u.depth-1, 0)
			if u.depth == 0 && u.tags == 0 {
				u.valueEnd = i + 1
			}
			u.valued = u.valued || u.depth == 0 && u.tags == 1
		case '`', '~':
			// A fence opens here or the run is text: inline code is
			// ShownScan's, asked where the unit may end.
			e := textlayer.RunEnd(text, i, limit)
			if u.open() {
				u.at = e
				continue
			}
			if e == limit && e-i < 3 {
				return 0 // the run may go on
			}
			if !textlayer.IsFenceAt(text, i, limit) {
				u.at = e
				continue
			}
			u.fence, u.fenceAt, u.fs, u.prose = true, i, textlayer.FenceScan{}, true
			continue
		case '"':
			if u.depth > 0 {
				u.inStr, u.str = true, jsonscan.NewStringScan(i)
			}
		case '<':
			if limit-i <= maxTagSpan && strings.IndexAny(text[i+1:limit], "<>") < 0 {
				return 0 // the tag is not complete yet
			}
			t, ok := u.tagAt(text, i, limit)
			if !ok {
				break
			}
			if u.ends(text, t) {
				u.closer = t.start
				return t.start
			}
			u.at = t.end
			if !t.closing {
				if u.tags++; u.tags == 1 {
					u.openAt, u.openFam, u.valued = t.start, t.family, false
				}
				continue
			}
			closes := u.tags == 1
			u.tags = max(u.tags-1, 0)
			if closes {
				// The block's value ends with it, read or not; the unit
				// ends with it when the block is not shown: no inline
				// code or quotation was open where it opened, and what
				// it holds is the call's (backticks and quotes in it
				// open nothing).
				u.depth, u.inStr = 0, false
				if !u.open() && !u.shown.ShownAt(text, u.openAt) {
					u.closer = t.start
					return t.end
				}
			}
			continue
		}
		u.at++
	}
	return 0
}

// ends reports whether the opening tag t ends the unit before it: a
// block that never closed ends at the next opening tag of its family,
// which the block's JSON value, closed before it, does not hold in a
// string (extractor.block). The block's calls are then read as the
// whole output's reading reads them, when t starts a line after the
// value (so nothing before t on its line is the block's or places t)
// and the block is not shown.
func (u *unitLines) ends(text string, t tag) bool {
	return !t.closing && u.tags == 1 && t.family == u.openFam && u.valued && !u.fence && u.depth == 0 && !u.inStr &&
		u.line > u.openAt && textlayer.TrimSpace(text[u.line:t.start]) == "" && !u.shown.ShownAt(text, u.openAt)
}

// The classes of the bytes unitLines.boundary reads outside a string:
// blanks (textlayer.IsSpace), other text, and the bytes its switch reads one at a time.
const (
	unitBlank uint8 = iota
	unitText
	unitSpecial
)

// unitClass is the class of each byte (unitBlank, unitText, unitSpecial).
var unitClass = func() (t [256]uint8) {
	for i := range t {
		t[i] = unitText
		if textlayer.IsSpace(byte(i)) {
			t[i] = unitBlank
		}
	}
	for _, c := range []byte("\n{[}]`~\"<") {
		t[c] = unitSpecial
	}
	return t
}()

// lineEnd reads the end of a line, before offset end, and reports
// whether the unit may end there.
func (u *unitLines) lineEnd(text string, end int) bool {
	if u.held > 0 {
		return false // whitespace after a value: the next text decides
	}
	if !u.text {
		if u.prose {
			// The prose above a fence may present it as an example
			// across blank lines (shown.PresentedAsExample).
			u.prose, u.presents = false, shown.PresentedAsExample(text, u.line)
		}
		return !u.open() && !u.presents && u.line > 0
	}
	u.prose, u.presents = true, false
	if !u.open() && !u.shown.ShownAt(text, end-1) {
		// The next text decides (next).
		u.held = end
		u.heldValue = u.valueEnd > u.line && textlayer.TrimSpace(text[u.valueEnd:end]) == ""
	}
	return false
}

// next decides, at the start of a line after a line that may end the
// unit (held), whether it does: it does, unless the first text of the
// line is a stray closing <tool_call> tag right after a value (the value
// is then a call that lost its opening tag), or a fence or a value that
// the prose above presents as an example (shown.PresentedAsExample).
// It returns the unit's end when it ends, or wait when the text that
// decides has not arrived; otherwise the line is read on (a blank line
// decides nothing, and held stays).
func (u *unitLines) next(text string, limit int) (end int, wait bool) {
	k := u.at
	for k < limit && (text[k] == ' ' || text[k] == '\t') {
		k++
	}
	if k == limit {
		return 0, true
	}
	switch c := text[k]; {
	case c == '\n' || c == '\r':
		return 0, false
	case c == '<' && u.heldValue:
		if limit-k <= maxTagSpan && strings.IndexAny(text[k+1:limit], "<>") < 0 {
			return 0, true // the tag is not complete yet
		}
		if t, ok := u.tagAt(text, k, limit); !ok || !t.closing || t.kind != kindToolCall {
			return u.held, false
		}
	case c == '`' || c == '~' || c == '{' || c == '[':
		if !shown.PresentedAsExample(text, k) {
			return u.held, false
		}
	default:
		return u.held, false
	}
	u.held = 0
	return 0, false
}

// recorder records the writes and cuts made to content or reasoning while
// a unit is read, in order: the texts written, views of the unit, and ""
// for each cut.
type recorder struct{ parts []string }

// Write records text written.
func (r *recorder) Write(s string) {
	if s != "" {
		r.parts = append(r.parts, s)
	}
}

// Cut records that markup was taken out here.
func (r *recorder) Cut() { r.parts = append(r.parts, "") }

// joiner returns text as pieces of one kind, cut and rejoined by the
// rule of textcall.Rejoin. Trailing whitespace is held until the next
// text or the end, since a cut drops it.
type joiner struct {
	kind    dialects.PieceKind
	emitted bool   // text other than whitespace was returned
	held    string // trailing whitespace not returned yet
	rejoin  textcall.Rejoin
}

// any reports whether the text so far holds anything, blanks included.
func (j *joiner) any() bool { return j.emitted || j.held != "" }

func (j *joiner) emit(r *reader, s string) {
	if s != "" {
		r.out = append(r.out, dialects.Piece{Kind: j.kind, Text: s})
	}
}

// cut marks that markup was taken out here.
func (j *joiner) cut() {
	j.rejoin.Cut(strings.IndexByte(j.held, '\n') >= 0)
	j.held = ""
}

// write appends s.
func (j *joiner) write(r *reader, s string) {
	if s == "" {
		return
	}
	sep, s, ok := j.rejoin.Front(s, j.emitted)
	if !ok {
		return
	}
	j.emit(r, sep)
	k, _ := textcall.TrimTrailing(s)
	if k == 0 {
		j.held += s
		return
	}
	j.emit(r, j.held)
	j.emit(r, s[:k])
	j.emitted, j.held = true, s[k:]
}

// replay applies the parts of a recorder's record, less its first skip
// bytes of text, returned already.
func (j *joiner) replay(r *reader, parts []string, skip int) {
	for _, p := range parts {
		switch {
		case p == "":
			j.cut()
		case skip >= len(p):
			skip -= len(p)
		default:
			j.write(r, p[skip:])
			skip = 0
		}
	}
}

// flush returns the whitespace held at the end of the output.
func (j *joiner) flush(r *reader) {
	if !j.rejoin.Pending() {
		j.emit(r, j.held)
		j.held = ""
	}
}
