package harmony

import (
	"strings"
	"unicode/utf8"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/cutoff"
	"github.com/dialectkit/toolcall/dialects/internal/inprose"
	"github.com/dialectkit/toolcall/internal/jsonscan"
	"github.com/dialectkit/toolcall/internal/shown"
	"github.com/dialectkit/toolcall/internal/sofar"
	"github.com/dialectkit/toolcall/internal/strictjson"
	"github.com/dialectkit/toolcall/internal/textlayer"
)

// mode is what the reader is reading.
type mode uint8

const (
	// between: text outside any message, up to the next message.
	between mode = iota
	// header: a message's header, up to its <|message|>.
	header
	// body: a message's body, up to the token that ends it.
	body
)

// reader reads a harmony output in one pass (dialects.Reader). It keeps
// the output read so far in buf, which only grows (or, while it came in
// one delta, views that delta in place: an output read whole is never
// copied), so that the shared
// text layer (shown.ShownScan, inprose.TokenNamed) reads it in place;
// each byte is scanned once, and a region (a header, a call's body) is
// parsed once, when it ends.
type reader struct {
	opts   *dialects.Options
	buf    sofar.Output // the output so far
	closed bool
	out    []dialects.Piece

	mode mode
	pos  int // where the current segment (text between markers, a header, a body) starts
	scan int // where the next marker is looked for
	msg  message
	seg  int // header: where the words not yet filed start

	// marked says a harmony token was read (PieceMarked sent).
	marked bool
	calls  int
	// content and reasoning join the pieces of text as the whole-text
	// reading did: each piece trimmed, non-empty ones one per line.
	content, reasoning joiner
	// text is the piece joiner of the current segment, nil when the
	// segment is held (between: it may be the rest of a header) or is a
	// call.
	text *joiner

	// think is a <think> block being read: held from think.at until its
	// </think> (closed) or the end of the output shows what it is.
	think thinkBlock
	// noThink: a <think> tag in the analysis body being read is text (a
	// block opened in it never closed).
	noThink bool
	// val reads a call's body as a JSON value.
	val valueRead
	// named remembers how far the text after a token was read to decide
	// whether prose names it (namedDecided): up to k, in its blanks when
	// blanks is set.
	named struct {
		at, k  int
		blanks bool
	}
	// asked is the last token the shown scan was asked about.
	asked int

	shown shown.ShownScan
	// marks decides whether a token outside a call's body stands inside
	// a string of a JSON value written before it ({"log": "<|start|>…"}):
	// it is then text of the value (strictjson.TagFinder.At).
	marks strictjson.TagFinder
	// markup is past the last token marks found to be markup.
	markup int
}

// thinkBlock is a <think> block whose end is not known yet.
type thinkBlock struct {
	open bool
	at   int // the opening tag
	from int // the block's text starts here
	find int // a </think> cut by the end of the text is looked for from here
	// close finds </think> in the block's text, as IndexTag finds it: a
	// tag a JSON string holds is text.
	close strictjson.TagFinder
	next  int // the first marker that would end the block if it never closes, -1: not found yet
	look  int // that marker is looked for from here
	ends  markerSet
	// analysis: the block stands in an analysis body, where it is text
	// of the body; a closed one hides the tokens it holds.
	analysis bool
}

// valueRead follows a call's body as a JSON value, as it arrives, so that
// a token inside one of its strings is argument text when the value reads
// on past it as strict JSON (strictjson.InsideString), and ends the body
// otherwise.
type valueRead struct {
	started bool
	json    bool // the body opens with '{' or '['
	done    bool // the value is read: closed, broken, or not JSON
	start   int
	i       int // the next byte to read
	depth   int
	inStr   bool
	str     jsonscan.StringScan // the string being read, while inStr
	cand    int                 // the first token inside a string, -1: none
	candM   marker
	ok      bool // the value closed as strict JSON
	end     int  // where it closed
}

// NewReader returns a Reader of one harmony output.
func (harmonyDialect) NewReader(opts *dialects.Options) dialects.Reader {
	if opts == nil {
		opts = &dialects.Options{}
	}
	r := &reader{opts: opts}
	r.content.kind, r.reasoning.kind = dialects.PieceContent, dialects.PieceReasoning
	r.content.pend, r.reasoning.pend = -1, -1
	r.named.at = -1
	if opts.ReasoningOpen {
		// The template opened an analysis message: the output starts in
		// its body.
		r.msg = message{channel: "analysis"}
		r.startBody(0)
	}
	return r
}

// Text returns the output given so far (dialects.TextReader).
func (r *reader) Text() string { return r.buf.Text() }

func (r *reader) Write(delta string) []dialects.Piece {
	r.out = r.out[:0]
	r.buf.Write(delta)
	r.run()
	return r.out
}

func (r *reader) Close() []dialects.Piece {
	r.out = r.out[:0]
	r.closed = true
	r.run()
	text := r.Text()
	switch r.mode {
	case between:
		if r.text == nil {
			r.text = &r.content
		}
		r.pieceTo(text, len(text))
		r.endPiece(text, len(text))
	case header:
		r.msg.words(text[r.seg:])
		r.brokenHeader(text, len(text), noMarker)
	case body:
		r.endBody(text, len(text), noMarker)
	}
	return r.out
}

// run reads as far as the output read so far decides.
func (r *reader) run() {
	for r.step(r.Text()) {
	}
}

// step takes one step and reports whether another may follow.
func (r *reader) step(text string) bool {
	if r.think.open {
		return r.readThink(text)
	}
	switch r.mode {
	case between:
		return r.readBetween(text)
	case header:
		return r.readHeader(text)
	}
	return r.readBody(text)
}

// readBetween reads text outside any message, up to the next message.
func (r *reader) readBetween(text string) bool {
	i, m, ok := r.next(text, anyMarker|think, true)
	if r.text == nil {
		for r.pos < i && textlayer.IsSpace(text[r.pos]) {
			r.pos++ // white space before a header or content is neither
		}
		if !ok && !mayBeHeader(text[r.pos:i]) {
			r.text = &r.content // it cannot be the rest of a header: content
		}
	}
	if !ok {
		r.pieceTo(text, i)
		return false
	}
	headerToken := m == channelMarker || m == constrainMarker || m == messageMarker
	if r.text == nil && !(headerToken && isHeaderRest(text[r.pos:i])) {
		r.text = &r.content
	}
	switch m {
	case thinkMarker:
		r.endPiece(text, i)
		r.openThink(i, anyMarker, false)
	case startMarker:
		r.endPiece(text, i)
		r.startHeader(i, i+len(mStart), i+len(mStart))
	case channelMarker, constrainMarker, messageMarker:
		// A header without <|start|>: the template wrote it, or the model
		// left it out. Words before the marker are the rest of the header
		// ("assistant", " to=functions.x") unless they read as prose.
		if r.text == nil {
			r.startHeader(r.pos, r.pos, i)
			return true
		}
		r.endPiece(text, i)
		r.startHeader(i, i, i)
	default:
		// A stray end token closes nothing; the token itself is markup.
		r.endPiece(text, i)
		r.pos, r.scan = i+len(markerText[m]), i+len(markerText[m])
		r.text = nil
	}
	return true
}

// startHeader starts reading a header: the message starts at start, its
// text at from, and tokens are looked for from scan.
func (r *reader) startHeader(start, from, scan int) {
	r.mode, r.pos, r.seg, r.scan = header, from, from, scan
	r.msg = message{start: start, headerFrom: from, part: startMarker}
}

// readHeader reads a header up to <|message|>.
func (r *reader) readHeader(text string) bool {
	// A think block ends the header: what it holds is not read. Its
	// tokens are the header's, as the token that opened it was.
	i, m, ok := r.next(text, anyMarker|think, false)
	if !ok {
		return false
	}
	r.msg.words(text[r.seg:i])
	switch m {
	case channelMarker, constrainMarker:
		r.msg.part = m
		r.seg, r.scan = i+len(markerText[m]), i+len(markerText[m])
	case messageMarker:
		r.keepProse(text[r.msg.headerFrom:i])
		if r.msg.isCall() {
			r.announce()
		}
		r.startBody(i + len(mMessage))
	default:
		r.brokenHeader(text, i, m)
	}
	return true
}

// announce sends the start of the call the message is.
func (r *reader) announce() {
	name, _ := resolveName(r.msg.recipient, r.opts.Tools)
	r.out = append(r.out, dialects.Piece{Kind: dialects.PieceCallStart, Index: r.calls, Name: name})
}

// brokenHeader ends a header that ends before its <|message|>: at the end
// of the output (noMarker), at an end token, at a think block, or at the
// next <|start|>.
func (r *reader) brokenHeader(text string, i int, m marker) {
	if r.msg.isCall() {
		r.announce()
		var e *toolcall.Error
		if m == noMarker {
			e = cutoff.Error("inside a harmony call header, before " + mMessage)
		} else {
			e = toolcall.NewError(toolcall.CodeMalformedCall, "harmony call header is cut by "+markerText[m]+" before "+mMessage)
		}
		e.Offset = r.msg.start
		e.Raw = text[r.msg.start:i]
		name, repairs := resolveName(r.msg.recipient, r.opts.Tools)
		r.call(dialects.RawCall{Name: name, Offset: r.msg.start, Repairs: repairs, Err: e})
	} else {
		// "<|start|>" followed by prose, or prose around a stray
		// "<|constrain|>": the prose is content, not a header.
		r.keepProse(text[r.msg.headerFrom:i])
	}
	r.toBetween(i)
	if m != noMarker && m != startMarker && m != thinkMarker {
		r.pos += len(markerText[m])
		r.scan = r.pos
	}
}

// toBetween goes back to reading text between messages at i.
func (r *reader) toBetween(i int) {
	r.mode, r.pos, r.scan, r.text = between, i, i, nil
}

// call sends a whole call.
func (r *reader) call(rc dialects.RawCall) {
	r.out = append(r.out, dialects.Piece{Kind: dialects.PieceCall, Index: r.calls, Call: &rc})
	r.calls++
}

// startBody starts reading a body at i.
func (r *reader) startBody(i int) {
	r.mode, r.pos, r.scan, r.noThink = body, i, i, false
	r.msg.channel = r.msg.channelName()
	switch {
	case r.msg.isCall():
		r.text = nil
		r.val = valueRead{cand: -1}
	case r.msg.channel == "analysis":
		r.text = &r.reasoning
	default:
		r.text = &r.content
	}
}

// readBody reads a message body and routes it: a call, reasoning or
// content.
//
// A <think> block in the body of a message that is not a call is
// reasoning, and no marker inside a closed one ends the body: in content
// (a final answer, a preamble) the block is taken out as reasoning; in an
// analysis body, which is reasoning already, it stays as written. A call's
// body is its arguments, where a tag is argument text.
func (r *reader) readBody(text string) bool {
	if r.msg.isCall() {
		return r.readCall(text)
	}
	want := bodyEnds | think
	if r.noThink {
		want = bodyEnds
	}
	i, m, ok := r.next(text, want, true)
	if !ok {
		r.pieceTo(text, i)
		return false
	}
	if m == thinkMarker {
		if r.msg.channel == "analysis" {
			r.pieceTo(text, i)
			r.openThink(i, bodyEnds, true)
			return true
		}
		r.endPiece(text, i)
		r.openThink(i, bodyEnds, false)
		return true
	}
	r.endBody(text, i, m)
	return true
}

// readCall reads a call's body: its arguments.
func (r *reader) readCall(text string) bool {
	v := &r.val
	if !v.done {
		if !r.readValue(text) {
			return false
		}
		if v.cand >= 0 && !v.ok {
			// A token inside a string of a value that does not read on
			// past it as strict JSON: the token ends the body.
			r.endBody(text, v.cand, v.candM)
			return true
		}
		r.scan = max(r.scan, v.i)
	}
	// The body is the call's: a backtick in it opens no inline code, so
	// no token in it is shown.
	i, m, ok := r.next(text, bodyEnds, false)
	if !ok {
		return false
	}
	r.endBody(text, i, m)
	return true
}

// readValue reads the call's body as a JSON value as far as the text
// goes, and reports whether the value is done.
func (r *reader) readValue(text string) bool {
	v := &r.val
	if !v.started {
		k := r.pos
		for k < len(text) && textlayer.IsSpace(text[k]) {
			k++
		}
		if k == len(text) {
			if r.closed {
				v.done = true
			}
			return v.done
		}
		v.started, v.start, v.i = true, k, k
		v.json = text[k] == '{' || text[k] == '['
		if !v.json {
			v.done = true
			return true
		}
	}
	for v.i < len(text) {
		if v.inStr {
			j, closed := v.str.Next(text)
			if v.cand < 0 {
				v.noteToken(text, v.i, j)
			}
			if !closed {
				// A token cut by the end of the text is looked for
				// again.
				v.i = max(v.i, len(text)-len(mConstrain)+1)
				break
			}
			v.inStr, v.i = false, j+1
			continue
		}
		switch c := text[v.i]; {
		case c == '{' || c == '[':
			v.depth++
		case c == '}' || c == ']':
			v.depth--
			if v.depth == 0 {
				v.i++
				v.end, v.done = v.i, true
				if v.cand >= 0 {
					_, v.ok = strictjson.Check(text[v.start:v.end], r.opts.Lenient.MaxDepth)
				}
				return true
			}
		case c == '"':
			v.inStr, v.str = true, jsonscan.NewStringScan(v.i)
		case !strictjson.Outside(c):
			v.done = true // not strict JSON: read on as text
			return true
		}
		v.i++
	}
	if r.closed {
		v.done = true
	}
	return v.done
}

// noteToken records the first harmony token in text[from:to], inside a
// string of the value.
func (v *valueRead) noteToken(text string, from, to int) {
	for from < to {
		k := strings.Index(text[from:to], "<|")
		if k < 0 {
			break
		}
		if m := markerAt(text, from+k); m != noMarker {
			v.cand, v.candM = from+k, m
			return
		}
		from += k + 2
	}
}

// endBody ends the body at i, at the token m (noMarker: the end of the
// output), and goes back to reading between messages.
func (r *reader) endBody(text string, i int, m marker) {
	if r.msg.isCall() {
		r.callBody(text, text[r.pos:i], m)
	} else {
		r.pieceTo(text, i)
		r.endPiece(text, i)
	}
	r.toBetween(i)
	if m != noMarker && m != startMarker && m != channelMarker {
		r.pos += len(markerText[m])
		r.scan = r.pos
	}
}

// callBody sends the call whose body is body, ended by end (noMarker: the
// end of the output).
func (r *reader) callBody(text, body string, end marker) {
	msg := &r.msg
	if end == noMarker {
		// The output ends inside the token that ends the message: the
		// arguments before it are whole (cutoff).
		if k := strings.LastIndexByte(body, '<'); k >= 0 && cutoff.Marker(body[k:], mCall, mEnd, mReturn) {
			body = body[:k]
		}
	}
	name, repairs := resolveName(msg.recipient, r.opts.Tools)
	// A call's own end is <|call|>, <|end|> or <|return|>: arguments that
	// the next message's header broke off are cut as the end of the
	// output cuts them (RawCall.AtEnd), never a shorter call.
	ownEnd := end == callMarker || end == endMarker || end == returnMarker
	bodyEnd := r.pos + len(body)
	rc := dialects.RawCall{Name: name, Arguments: strings.TrimSpace(body), Offset: msg.start, Repairs: repairs, AtEnd: !ownEnd,
		Text: text[msg.start:bodyEnd]} // the header too: the error keeps it
	if msg.recipients > 0 {
		// Two recipients in one header: which tool the arguments are for
		// is a guess, and an agent runs what it is given.
		e := toolcall.NewError(toolcall.CodeMalformedCall, "harmony call header names more than one recipient")
		e.Offset, e.Raw = msg.start, rc.Text
		rc.Err = e
	} else if !ownEnd && rc.Arguments == "" {
		e := cutoff.Error("inside a harmony call message, before its arguments")
		e.Offset, e.Raw = msg.start, rc.Text
		rc.Err = e
	}
	r.call(rc)
	if strings.IndexByte(rc.Text, '`') >= 0 {
		// The backticks of a call are its own, not prose's inline code.
		// The call is told from the token it was last asked about: what
		// precedes it in the message is header words, with no backtick,
		// and the text up to that token is never read again.
		r.shown.Call(max(msg.start, r.asked), bodyEnd)
	}
}

// openThink starts a <think> block whose tag is at i; ends are the
// tokens that end it if it never closes.
func (r *reader) openThink(i int, ends markerSet, analysis bool) {
	from := i + len(dialects.Think.Open)
	r.think = thinkBlock{open: true, at: i, from: from, find: from, next: -1, look: from, ends: ends, analysis: analysis}
	if !analysis {
		r.text = &r.reasoning
	}
	r.pos, r.scan = from, from
}

// readThink reads a <think> block. Its text is reasoning, and harmony
// markup inside it, a call included, is the model thinking: a closed block
// ends after its closing tag. A block that never closes runs to the next
// token of its ends (a message the model went on to write), or to the end
// of the output. Until one of them is known, the block's text is sent up
// to the first such token, and held from there.
func (r *reader) readThink(text string) bool {
	t := &r.think
	c, cs := t.close.Find(text[t.from:], dialects.Think.Close, r.closed)
	c += t.from
	if cs == strictjson.TagFound {
		t.open = false
		end := c + len(dialects.Think.Close)
		if t.analysis {
			// Text of the analysis body, tokens and all.
			r.scan = end
			r.pieceTo(text, end)
			return true
		}
		r.pieceTo(text, c)
		r.endPiece(text, c)
		r.resume(end)
		return true
	}
	t.find = max(t.find, len(text)-len(dialects.Think.Close)+1)
	// The text is sent up to the first token that would end the block,
	// and short of a closing tag cut by the end of the text or that more
	// text may show inside a string.
	upTo := textlayer.CutLiteral(text, t.find, dialects.Think.Close)
	if cs == strictjson.TagPending {
		upTo = min(upTo, c)
	}
	if t.next < 0 {
		saved := r.scan
		r.scan = t.look
		i, _, ok := r.peek(text, t.ends, true)
		t.look, r.scan = r.scan, saved
		if ok {
			t.next = i
		}
		upTo = min(upTo, i)
	} else {
		upTo = min(upTo, t.next)
	}
	r.pieceTo(text, upTo)
	if !r.closed {
		return false
	}
	// The block never closes.
	t.open = false
	if t.analysis {
		// Its tag is text of the analysis body; tokens after it are read,
		// and a later tag opens no block.
		r.scan, r.noThink = t.from, true
		return true
	}
	end := len(text)
	if t.next >= 0 {
		end = t.next
	}
	r.pieceTo(text, end)
	r.endPiece(text, end)
	r.resume(end)
	return true
}

// resume goes on after a think block that was not an analysis body's,
// at i: between messages, or in the body the block stood in.
func (r *reader) resume(i int) {
	r.pos, r.scan = i, i
	if r.mode == between {
		r.text = nil
		return
	}
	if r.msg.channel == "analysis" {
		r.text = &r.reasoning
	} else {
		r.text = &r.content
	}
}

// next finds the first token of want at or after r.scan that is read as
// markup, skipping other tokens as text, and reports whether it found
// one; r.scan moves past what it decided. When it did not, i is where the
// text is held from: a token not decided yet, or the start of a token cut
// by the end of the text read so far (len(text) when none; at the end of
// the output, len(text) and false). A token shown rather than used (in
// inline code, a quotation or an example fence: shown.ShownScan) or
// named in prose (inprose.TokenNamed) is text. Every token read as markup
// marks the output (PieceMarked).
func (r *reader) next(text string, want markerSet, shown bool) (int, marker, bool) {
	i, m, ok := r.peek(text, want, shown)
	if ok && m != thinkMarker {
		r.mark()
	}
	return i, m, ok
}

// peek is next without marking the output with the token it returns;
// shown says whether a token may be shown (not in a call's body).
func (r *reader) peek(text string, want markerSet, shown bool) (int, marker, bool) {
	for r.scan < len(text) {
		j := strings.IndexByte(text[r.scan:], '<')
		if j < 0 {
			r.scan = len(text)
			break
		}
		i := r.scan + j
		m, cut := tokenAt(text, i, want.has(thinkMarker))
		if cut {
			if r.closed {
				r.scan = i + 1
				continue
			}
			return i, noMarker, false
		}
		if m == noMarker {
			r.scan = i + 1
			continue
		}
		end := i + len(markerText[m])
		if shown {
			r.asked = i
		}
		if shown && r.shown.ShownAt(text, i) {
			r.scan = end
			continue
		}
		if m != thinkMarker {
			if !r.namedDecided(text, i, end) {
				return i, noMarker, false
			}
			if inprose.TokenNamed(text, i, end) {
				r.scan = end
				continue
			}
		}
		if shown && i >= r.markup {
			// Decided once: the finder reads a token it found markup
			// as inside that value when asked again.
			switch r.marks.At(text, i, r.closed) {
			case strictjson.TagNone:
				r.scan = end
				continue
			case strictjson.TagPending:
				return i, noMarker, false
			}
			r.markup = i + 1
		}
		if !want.has(m) {
			if !r.think.open {
				r.mark()
			}
			r.scan = end
			continue
		}
		r.scan = i
		return i, m, true
	}
	return len(text), noMarker, false
}

// mark sends PieceMarked, once.
func (r *reader) mark() {
	if !r.marked {
		r.marked = true
		r.out = append(r.out, dialects.Piece{Kind: dialects.PieceMarked})
	}
}

// tokenAt returns the harmony token (or, with think, the <think> tag) at
// text[i], which holds '<', and whether the text ends inside one.
func tokenAt(text string, i int, think bool) (marker, bool) {
	rest := text[i:]
	if len(rest) > 1 && rest[1] == '|' {
		if m := markerAt(text, i); m != noMarker {
			return m, false
		}
		return noMarker, tokenPrefix(rest)
	}
	if !think {
		return noMarker, rest == "<"
	}
	if strings.HasPrefix(rest, dialects.Think.Open) {
		return thinkMarker, false
	}
	return noMarker, len(rest) < len(dialects.Think.Open) && strings.HasPrefix(dialects.Think.Open, rest) || rest == "<"
}

// namedDecided reports whether the text after the token text[at:end] is
// long enough for inprose.TokenNamed to decide whether prose names it:
// prose can name a token only after a blank that follows a word or list
// punctuation; TokenNamed then reads the run of bytes with no blank after
// the token and the blanks after that run, up to the next byte. What it
// read is remembered, so that each byte is read once.
func (r *reader) namedDecided(text string, at, end int) bool {
	if r.closed || !inprose.MayBeNamed(text, at) {
		return true
	}
	k, blanks := end, false
	if r.named.at == at {
		k, blanks = r.named.k, r.named.blanks
	}
	if !blanks {
		for k < len(text) && !textlayer.IsSpace(text[k]) {
			k++
		}
		blanks = k < len(text)
	}
	if blanks {
		for k < len(text) && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r') {
			k++
		}
	}
	r.named.at, r.named.k, r.named.blanks = at, k, blanks
	return k < len(text)
}

// maxHeaderRest bounds the text before a header token that may be the
// rest of a header a template began: a longer text is not one.
const maxHeaderRest = 1 << 10

// isHeaderRest reports whether s, the whole text between messages before
// a header token, is the rest of a header a template began.
func isHeaderRest(s string) bool {
	return len(s) <= maxHeaderRest && headerLike(s) && headerOpening(s)
}

// mayBeHeader reports whether s, text between messages that more text
// may follow, may still turn out to be the rest of a header a template
// began (headerLike and headerOpening of it and what follows).
func mayBeHeader(s string) bool {
	t := strings.TrimLeft(s, " \t\r\n")
	if t == "" {
		return true
	}
	if len(s) > maxHeaderRest || len(strings.TrimRight(t, " \t\r\n")) > 200 {
		return false
	}
	n := 0
	for t != "" {
		w := t
		end := strings.IndexAny(t, " \t\r\n")
		complete := end >= 0
		if complete {
			w = t[:end]
		}
		if n++; n > 4 || !headerWord(w) {
			return false
		}
		if n == 1 && (complete && !vocabularyWord(w) || !complete && !vocabularyPrefix(w)) {
			return false
		}
		if !complete {
			break
		}
		rest := t[end:]
		t = strings.TrimLeft(rest, " \t\r\n")
		if t != "" && strings.ContainsAny(rest[:len(rest)-len(t)], "\r\n") {
			return false // a line break inside: prose
		}
	}
	return true
}

// pieceTo sends the current segment's text up to i.
func (r *reader) pieceTo(text string, i int) {
	if r.text != nil && r.pos < i {
		r.out = r.text.add(r.out, text, r.pos, i, false)
		r.pos = i
	}
}

// endPiece ends the current segment's piece at i.
func (r *reader) endPiece(text string, i int) {
	if r.text != nil {
		if r.pos < i {
			r.out = r.text.add(r.out, text, r.pos, i, true)
		}
		r.text.end()
	}
	r.pos = i
}

// keepProse makes the header text h content when it is not only header
// words (roles, channels, recipients, constraints): a stray marker in
// prose ("Hello <|constrain|> world") must not make the prose around it
// vanish. The markers themselves are dropped.
func (r *reader) keepProse(h string) {
	var prose []string
	for w := range strings.FieldsSeq(stripMarkers(h)) {
		if !vocabularyWord(w) && w != r.msg.recipient {
			prose = append(prose, w)
		}
	}
	switch {
	case len(prose) == 0:
	case r.msg.isCall():
		// A call's header keeps its recipient; words that are no part of
		// a header are the model's text.
		r.out = r.content.whole(r.out, strings.Join(prose, " "))
	default:
		r.out = r.content.whole(r.out, stripMarkers(h))
	}
}

// joiner joins pieces of text as the whole-text reading did: each piece
// without the white space around it, the pieces that hold text one per
// line. A piece arrives in parts of the text, in order and contiguous;
// white space at the end of what arrived is held until text follows it
// in the same piece.
type joiner struct {
	kind dialects.PieceKind
	any  bool // a piece with text was sent
	open bool // the current piece has sent text
	pend int  // the start of what is held, -1: nothing
}

// add takes text[from:to] of the current piece; last says the piece ends
// at to.
func (j *joiner) add(out []dialects.Piece, text string, from, to int, last bool) []dialects.Piece {
	if j.pend < 0 {
		j.pend = from
	}
	s := text[j.pend:to]
	e := len(s)
	if !last {
		// A character cut by the end of what arrived may be a space.
		k := e
		for k > 0 && e-k < utf8.UTFMax && !utf8.RuneStart(s[k-1]) {
			k--
		}
		if k > 0 && !utf8.FullRuneInString(s[k-1:]) {
			e = k - 1
		}
	}
	if !j.open {
		lead := e - len(textlayer.TrimLeft(s[:e]))
		j.pend += lead
		s, e = s[lead:], e-lead
	}
	t := textlayer.TrimRight(s[:e])
	if t == "" {
		return out
	}
	out = j.begin(out)
	j.pend += len(t)
	return append(out, dialects.Piece{Kind: j.kind, Text: t})
}

// begin starts sending a piece with text: after another, on a new line.
func (j *joiner) begin(out []dialects.Piece) []dialects.Piece {
	if !j.open {
		if j.any {
			out = append(out, dialects.Piece{Kind: j.kind, Text: "\n"})
		}
		j.open, j.any = true, true
	}
	return out
}

// end ends the current piece: what it holds is white space at its end.
func (j *joiner) end() { j.open, j.pend = false, -1 }

// whole sends s as a piece of its own.
func (j *joiner) whole(out []dialects.Piece, s string) []dialects.Piece {
	if t := textlayer.TrimSpace(s); t != "" {
		j.open = false
		out = append(j.begin(out), dialects.Piece{Kind: j.kind, Text: t})
		j.open = false
	}
	return out
}
