package stream

import (
	"math/bits"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/coded"
)

// state is where the engine is in the output.
type state uint8

const (
	stLead    state = iota // answer text, before any call
	stReason               // inside a reasoning block
	stRegion               // inside a call region
	stBetween              // after a call region, watching for the next
	stHeld                 // nothing more is certain before the end
)

// DefaultMaxBytes is the default cap on a streamed output (Options.MaxBytes).
const DefaultMaxBytes = 16 << 20

// Limits of the work done before the end of the output.
const (
	// firstCheck is the region length of the first look for a call's
	// name. A look costs a parse of the region so far: a call shorter than
	// this (most calls: a name and a few short arguments) is read once,
	// when its region closes, and announced then, a few tokens later than
	// a look could have.
	firstCheck = 128
)

// slot is one call the stream has reported, finished or failed.
type slot struct {
	reported bool // the call was emitted
	raw      dialects.RawCall
	call     toolcall.Call
	repairs  []toolcall.Repair
	err      *toolcall.Error
}

// Options configure a Parser.
type Options struct {
	// Parse are the options of the one-shot parse the stream reproduces:
	// tools, repair, validation, reasoning start, caps. ReasoningOpen
	// (the chat template opened a reasoning block) lets reasoning stream
	// from the start; ReasoningClosed lets answer text stream at once.
	// The common call is one literal: &stream.Options{Parse:
	// dialects.Options{Tools: set}}; registry.Stream takes registry.Options.
	Parse dialects.Options

	// MaxBytes caps the output a Parser buffers; zero means
	// DefaultMaxBytes, a negative value no cap. Text past it is not read:
	// the final result is the parse of what was kept, with a TLP-009 error
	// saying where the output was cut.
	MaxBytes int

	// Fallback are the dialects to read the output in, in order, when the
	// parser's own dialect finds no call and no error in it: the first
	// that finds a call gives the result, as registry.Options.Fallback
	// does for a one-shot parse. The stream is the parser's own dialect's
	// as soon as that dialect starts a call (or reports a failed one);
	// until then answer text streams as far as every reading agrees, and
	// a fallback's calls come with Close. Ignored by NewDetecting.
	// A *Profile stands for its dialect, streamed by the profile.
	Fallback []dialects.Dialect
}

// profiled is the Parser of a dialect streamed by its learnt profile.
type profiled struct {
	opts Options
	prof *Profile
	d    dialects.Dialect

	buf textBuf
	pos int // bytes the state machine has consumed
	// shown tells whether a marker may lie in inline code, an example
	// fence or a quotation (dialects.ShownScan), reading each line of buf
	// once.
	shown dialects.ShownScan
	// plainTo is a length of buf whose bytes hold no backtick and no
	// quote: nothing in it is shown.
	plainTo int
	state   state

	// Lead and reasoning text.
	held       [2]string // whitespace held back, for content and for reasoning
	dropSpace  bool      // leading whitespace of this run is dropped
	ambiguous  bool      // text may yet turn out to be reasoning (an implicit block)
	opened     bool      // the output's opening was checked against the dialect's Openings
	markNext   bool      // the text after a block must open with a marker (MarkedStart)
	pair       int       // the reasoning wrapper in use
	blocks     int       // reasoning blocks seen
	blockShown bool      // some of the current block's text was emitted
	afterBlock bool      // no content emitted since the last block
	preBlock   string    // the content held back when that block began
	contentOut textBuf   // the content emitted so far
	reasonOut  textBuf   // the reasoning emitted so far

	// Call regions.
	regionStart int
	regionBody  int // where the region's start marker ends
	regionBase  int // slots before the region
	// spans are the regions closed by their closing marker that read as
	// valid calls alone, which Close need not parse again (close.go);
	// mixed says some region was not such a one.
	spans      []span
	firstSpan  [1]span // the first span, without an allocation
	mixed      bool
	reused     bool // Close parsed stand-ins for the spans, not the regions
	fromSlots  bool // the final result's calls are the slots' (slotsResult)
	rdepth     int  // bracket depth in the region, outside quotes
	probeAt    int  // a value closed here: the region may hold finished calls
	closedAt   int  // a value closed here back at the region's top level
	probes     int  // probes of the region so far
	probedLen  int  // region length at the last probe
	nextCheck  int
	quote      byte     // the quote of the string the region is inside, or 0
	escaped    bool     // the previous byte in that string was a backslash
	names      []string // names seen at the last look, per call of the region
	argIndex   int      // the call whose argument text is being shown, or -1
	argShown   int      // how far they have been shown
	argDepth   int      // bracket depth at argShown
	argQuote   bool     // argShown is inside a string
	argEscaped bool     // after a backslash in that string
	slots      []slot
	started    []bool // CallStart emitted, per call index
	// firstStarted holds started for the first calls, without an
	// allocation.
	firstStarted [8]bool

	// A held output's probes (probeHeld).
	hpoints *Points // where a held output is probed
	hpoint  int     // the last point not yet probed, or 0
	hinList bool    // that point is an element of a list still open
	hwork   int     // bytes parsed by those probes so far
	shownAt bool    // the point being probed may lie in inline code or a fence
	inList  bool    // the point being probed is an element of a list still open
	scratch []byte  // the texts probes parse (reportSettled)

	// The first storage of a short output's buffer, events, content,
	// calls and Close's events, in the Parser's own allocation: a stream
	// of a few hundred bytes allocates its state once.
	firstBuf     [256]byte
	firstContent [64]byte
	firstEvents  [2]Event
	closeEvents  [1]Event
	firstSlots   [1]slot

	events   []Event
	steady   bool // the next delta may take the steady path (Write)
	steadyEv bool // events holds the steady path's one CallArguments event
	fastTo   int  // the length of buf.b Write's fast path may reach (setFast), or 0
	// byteEvents are the fast path's events of one ASCII byte each, by
	// byte, made once a stream has read a long argument one byte at a
	// time (byteEventsAfter): returning one stores no pointer, where
	// rewriting the text of events[0] does, and while the collector
	// marks each pointer stored costs a write barrier.
	byteEvents *[128]Event
	room       int // the buffer length the steady path may reach (MaxBytes)
	closed     bool
	cut        bool   // output past MaxBytes was dropped
	diverged   string // what streamed output disagreed with the result, if any
}

// NewParser returns a Parser for output in dialect d, and in the
// fallback chain's when it finds nothing (Options.Fallback). A dialect
// that reads its output in one pass (dialects.Incremental) is streamed
// with its own Reader. Any other dialect's profile is learnt first; a
// registry keeps profiles and hands out parsers without that cost
// (registry.Stream).
func NewParser(d dialects.Dialect, opts *Options) *Parser {
	if opts != nil && len(opts.Fallback) > 0 {
		return newChain(d, opts)
	}
	return newAlone(d, opts)
}

// newAlone returns a Parser for output in dialect d alone, whatever
// opts.Fallback says.
func newAlone(d dialects.Dialect, opts *Options) *Parser {
	if p, ok := d.(*Profile); ok {
		return p.parser(opts)
	}
	if inc, ok := d.(dialects.Incremental); ok {
		return newEngine(inc, opts)
	}
	return Learn(d).parser(opts)
}

// NewParser returns a Parser for output in the profile's dialect, and in
// the fallback chain's when it finds nothing (Options.Fallback).
func (p *Profile) NewParser(opts *Options) *Parser {
	if opts != nil && len(opts.Fallback) > 0 {
		return newChain(p, opts)
	}
	return p.parser(opts)
}

// parser returns a Parser for output in the profile's dialect alone.
func (p *Profile) parser(opts *Options) *Parser {
	if inc, ok := p.d.(dialects.Incremental); ok {
		return newEngine(inc, opts)
	}
	w := newParser(opts)
	ps := w.old
	ps.use(p)
	if ps.state != stHeld {
		ps.startLead()
	}
	return w
}

func newParser(opts *Options) *Parser {
	// The Parser and its state in one allocation.
	w := &struct {
		Parser
		p profiled
	}{}
	w.old = &w.p
	p := &w.p
	if opts != nil {
		p.opts = *opts
	}
	p.buf.b = p.firstBuf[:0]
	p.contentOut.b = p.firstContent[:0]
	p.events = p.firstEvents[:0]
	p.slots = p.firstSlots[:0]
	return &w.Parser
}

// use switches the parser to a dialect.
func (p *profiled) use(prof *Profile) {
	p.d = prof.d
	p.prof = prof
	p.dropSpace = prof.trimLead
	if prof.opaque || !prof.plain {
		p.state = stHeld
	}
}

// startLead enters the answer text at the start of the output.
func (p *profiled) startLead() {
	p.state = stLead
	p.opened = len(p.prof.syn.Openings) == 0 && !p.prof.spaceUnsure && !p.prof.syn.MarkedStart && !p.prof.headerStart && p.prof.headerLike == nil
	if p.opts.Parse.ReasoningOpen {
		// The template opened a block of the dialect's own wrapper, the
		// first (dialects.SplitReasoning): a <think> beside it is
		// not the block the option speaks of.
		if len(p.prof.pairs) > 0 && p.prof.pairs[0].live {
			r := p.prof.pairs[0]
			p.pair = 0
			p.state = stReason
			// A block the template opened keeps its leading
			// whitespace where the dialect keeps it.
			p.dropSpace, p.blockShown = !r.keepLead, false
			return
		}
		p.state = stHeld
		return
	}
	for _, r := range p.prof.pairs {
		p.ambiguous = p.ambiguous || r.implicit
	}
	p.ambiguous = p.ambiguous && dialects.ImplicitReasoning(&p.opts.Parse)
}

// Write feeds the next delta and returns the events it settled. The slice
// is the Parser's own, to read and not to change, and is reused by the
// next Write: consume (or copy) it before writing again.
func (p *profiled) Write(delta string) []Event {
	if n := len(p.buf.b); n+len(delta) <= p.fastTo && delta != "" {
		// The steady path's commonest case, in a few instructions: a
		// delta inside a long argument string, with room for it in the
		// buffer's last array and the steady path's event set (fastTo).
		// The last Write's event is rewritten in place.
		if len(delta) == 1 {
			if c := delta[0]; c != '"' || p.escaped {
				p.escaped = c == '\\' && !p.escaped
				// (Slicing p.buf.b in place stores its length alone:
				// storing its pointer would cost a write barrier.)
				p.buf.b = p.buf.b[:n+1]
				p.buf.b[n] = c
				if t := p.byteEvents; t != nil && c < byte(len(t)) {
					// The byte's own event: nothing is stored.
					return t[c : c+1 : c+1]
				}
				// The byte's own string (byteString), not the caller's.
				p.events[0].Text = byteString(c)
				return p.events
			}
		} else if end, esc := stringEnd(delta, '"', p.escaped); end < 0 {
			p.escaped = esc
			p.buf.b = p.buf.b[:n+len(delta)]
			copy(p.buf.b[n:], delta)
			p.events[0].Text = delta
			return p.events
		}
	}
	if !p.steady {
		return p.write(delta)
	}
	return p.writeAny(delta)
}

// writeAny is Write on the steady path but for its fast path.
func (p *profiled) writeAny(delta string) []Event {
	if p.steady && delta != "" && p.buf.Len()+len(delta) <= p.room {
		// The steady path: a delta that lies wholly inside the argument
		// string of a call whose argument text is being shown (most of a
		// long argument) only extends that string. The region's scan and
		// the argument tracking stand at the same place in the same
		// string, so both move past the delta, and its text is shown as
		// it is: nothing else can happen inside a string. The scan's
		// position and the arguments shown stand at the end of the buffer
		// (leaveSteady sets them when a delta leaves this path); only the
		// escape is kept.
		if end, esc := stringEnd(delta, '"', p.escaped); end < 0 {
			p.escaped = esc
			p.buf.add(delta)
			if !p.steadyEv {
				p.events = append(p.events[:0], Event{Kind: CallArguments, Index: p.argIndex})
				p.steadyEv = true
			}
			p.events[0].Text = delta
			if len(delta) == 1 && p.byteEvents == nil && p.buf.n0 >= byteEventsAfter {
				p.byteEvents = new([128]Event)
			}
			p.setFast()
			return p.events
		}
	}
	return p.write(delta)
}

// byteEventsAfter is the length of text a stream reads in 1-byte deltas
// on the steady path before it makes its table of one-byte events
// (Parser.byteEvents).
const byteEventsAfter = 16 << 10

// setFast sets how far the buffer's last array may grow on Write's fast
// path: to its capacity, within the stream's limit, while the steady path
// stands with its event set; else 0, which turns the fast path off.
func (p *profiled) setFast() {
	p.fastTo = 0
	if p.steady && p.steadyEv {
		p.fastTo = min(cap(p.buf.b), p.room-p.buf.n0)
		if t := p.byteEvents; t != nil && (t[0].Kind != CallArguments || t[0].Index != p.argIndex) {
			for c := range t {
				t[c] = Event{Kind: CallArguments, Index: p.argIndex, Text: byteString(byte(c))}
			}
		}
	}
}

// write is Write off the steady path.
func (p *profiled) write(delta string) []Event {
	p.leaveSteady()
	if p.closed || delta == "" || p.cut {
		return nil
	}
	if room := p.maxBytes() - p.buf.Len(); len(delta) > room {
		delta, p.cut = delta[:room], true
	}
	p.events = p.events[:0]
	p.buf.write(delta)
	p.read()
	return p.events
}

// read runs the parser over the text written to its buffer.
func (p *profiled) read() {
	p.step()
	if p.state == stHeld {
		p.probeHeld()
	}
	if p.steady = p.steadyNow(); p.steady {
		p.room = p.maxBytes()
	}
}

// leaveSteady brings the state the steady path leaves behind up to date:
// the region's scan and the arguments shown stand at the end of the text,
// in the same string.
func (p *profiled) leaveSteady() {
	if p.steady {
		p.steady = false
		p.pos, p.argShown, p.argEscaped = p.buf.Len(), p.buf.Len(), p.escaped
	}
	p.steadyEv, p.fastTo = false, 0
}

// steadyNow tells whether the next delta may take the steady path (in
// Write): the parser stands inside the argument string of a shown
// call, with nothing of the output left unread.
func (p *profiled) steadyNow() bool {
	return p.state == stRegion && p.quote == '"' && p.argIndex >= 0 &&
		p.argQuote && p.argEscaped == p.escaped && p.probeAt == 0 && p.pos == p.buf.Len() && p.argShown == p.pos &&
		!p.pastCallCap(p.argIndex) && !p.closed && !p.cut
}

// Text returns the output received so far.
func (p *profiled) Text() string {
	text := p.buf.String()
	if p.fastTo > 0 {
		p.setFast() // the chunks were joined into a new array
	}
	return text
}

// textLen is the length of the output received so far.
func (p *profiled) textLen() int {
	return p.buf.Len()
}

// step runs the state machine over the new text until it needs more.
func (p *profiled) step() {
	text := p.buf.String()
	for {
		before, st := p.pos, p.state
		switch p.state {
		case stLead:
			p.lead(text)
		case stReason:
			p.reason(text)
		case stRegion:
			p.region(text)
		case stBetween:
			p.between(text)
		case stHeld:
			p.pos = len(text)
		}
		if p.state == st && (p.pos == before || p.pos == len(text)) {
			// Nothing moved, or all is read in the same state: a state
			// reads nothing more at the end of the text.
			return
		}
	}
}

// maxHeader bounds the opening text a detecting stream holds as a possible
// header (dialects.Syntax.Header): past it, it holds to the end.
const maxHeader = 256

// lead streams answer text until a trigger.
func (p *profiled) lead(text string) {
	if !p.opened {
		// Output that opens with the rest of a header the prompt began is
		// not answer text; neither is anything after it.
		rest := strings.TrimLeft(text, " \t\r\n")
		if rest == "" {
			return
		}
		if p.prof.headerLike != nil && p.prof.headerLike(text) {
			// It may be the rest of a header a candidate reads before
			// its marker ("analysis<|message|>"): wait until it cannot.
			// A header is a few words; text that still reads as one past
			// that has its marker, and waits for the end.
			if len(text) > maxHeader {
				p.hold(text)
			}
			return
		}
		if p.prof.headerStart && !wordy(rest) {
			// Wait for the first line to end and the next to begin; unless
			// it holds two words, which no header does.
			nl := strings.IndexByte(text, '\n')
			if nl < 0 {
				return
			}
			next := strings.TrimLeft(text[nl:], " \t\r\n")
			if next == "" {
				return
			}
			if next[0] == '{' || next[0] == '[' {
				p.hold(text)
				return
			}
		}
		if p.prof.spaceUnsure && len(rest) < len(text) {
			p.hold(text)
			return
		}
		if p.prof.syn.MarkedStart {
			if _, ok := p.prof.m.at(rest, 0, wantMarked); !ok {
				p.hold(text)
				return
			}
		}
		for _, o := range p.prof.syn.Openings {
			if len(rest) >= len(o) && strings.EqualFold(rest[:len(o)], o) {
				p.hold(text)
				return
			}
			if len(rest) < len(o) && strings.EqualFold(rest, o[:len(rest)]) {
				return
			}
		}
		p.opened = true
	}
	if p.markNext {
		// After a message of a dialect whose output may begin inside a
		// header, what follows is a header too unless a marker opens it.
		rest := strings.TrimLeft(text[p.pos:], " \t\r\n")
		if rest == "" {
			return
		}
		if _, ok := p.prof.m.at(rest, 0, wantMarked); !ok {
			p.hold(text)
			return
		}
		p.markNext = false
	}
	want := wantLead
	h := p.prof.m.next(text, p.pos, want)
	// Never split a character: its last bytes may make it a space the
	// dialect trims.
	limit := fullRunes(text, p.pos)
	if h.at >= 0 {
		limit = h.at
	}
	if p.prof.nameBare && (h.at < 0 || h.partial || h.t.role == roleBare) && !(limit < len(text) && notCallOpen(text[limit])) {
		// A call written without a marker begins with its name (f(…)):
		// the word before an opening parenthesis, or at the end of what
		// has arrived, may be one.
		limit = backOverName(text, p.pos, limit)
	}
	if !p.ambiguous {
		p.emitRun(text, limit, Content)
	}
	p.pos = limit
	if h.at < 0 || h.partial || limit < h.at {
		return
	}
	if p.ambiguous && p.settles(text, h) {
		// The output opens with a call: a model that reasons writes its
		// reasoning first, so the template opened no block, and a closing
		// tag later on is text, as the dialect reads it
		// (dialects.ImplicitReasoningIn).
		p.ambiguous = false
		p.opts.Parse.ReasoningClosed = true
		p.emitRun(text, limit, Content)
	}
	if p.ambiguous && h.t.role != roleOpen && h.t.role != roleClose {
		// A call, or any other markup, before it is known whether the
		// template opened a reasoning block: a closing tag later in the
		// output would make it reasoning, so nothing of it is certain
		// before the end.
		p.hold(text)
		return
	}
	switch h.t.role {
	case roleStrip:
		if p.mayBeShown(text, h.at) {
			// Shown in inline code or an example fence, the token is
			// content as written: settled at the end.
			p.hold(text)
			return
		}
		// A token the dialect deletes from the content: the content goes
		// on after it.
		p.pos = h.at + len(h.t.word)
		if p.prof.stripTrims && p.contentOut.Len() == 0 {
			p.dropSpace = true
		}
	case roleOpen:
		r := p.prof.pairs[h.t.tag]
		if !r.live {
			p.hold(text)
			return
		}
		if p.ambiguous && !r.openFirst {
			p.hold(text)
			return
		}
		if r.oddJoin && (p.contentOut.Len() > 0 || p.ambiguous) || r.joinerOdd && p.reasonOut.Len() > 0 {
			p.hold(text)
			return
		}
		if p.ambiguous {
			// An opening tag came first: what precedes it is content.
			p.ambiguous = false
			p.pos = 0 // an implicit block can only open the output
			p.emitRun(text, limit, Content)
		}
		p.pair = h.t.tag
		p.pos = h.at + len(h.t.word)
		p.state, p.dropSpace, p.blockShown = stReason, true, false
	case roleClose:
		// A closing tag first: the template opened reasoning, and all
		// before it was reasoning; unless there can be no such block, and
		// then what a dialect makes of a stray tag is settled at the end.
		r := p.prof.pairs[h.t.tag]
		if !r.live || !p.ambiguous || r.implicitOdd {
			p.hold(text)
			return
		}
		p.ambiguous, p.pair = false, h.t.tag
		p.pos, p.dropSpace, p.blockShown = 0, !r.keepLead, false
		p.emitRun(text, limit, Reasoning)
		if r.keepTrail {
			p.emit(Event{Kind: Reasoning, Text: p.held[1]})
		}
		p.endBlock(h.at + len(h.t.word))
	case roleStart:
		if p.mayBeShown(text, h.at) {
			// A call shown in inline code or an example fence is not a
			// call: settled at the end.
			p.hold(text)
			return
		}
		p.openRegion(h.at, h.at+len(h.t.word))
	case roleBare:
		if p.mayBeShown(text, h.at) {
			p.hold(text)
			return
		}
		if p.prof.bareRegion {
			// A call written without a marker: a region that runs to the
			// end, whose calls are reported as their values close.
			p.openRegion(h.at, h.at)
			return
		}
		p.hold(text)
	default:
		p.hold(text)
	}
}

// settles reports whether h, a complete trigger, opens the output (after
// whitespace) with a call that settles the reasoning start for the
// profile's dialect (Profile.startSettles, bareSettles).
func (p *profiled) settles(text string, h hit) bool {
	if strings.TrimLeft(text[:h.at], " \t\r\n") != "" || p.contentOut.Len() > 0 || p.reasonOut.Len() > 0 {
		return false
	}
	switch h.t.role {
	case roleStart:
		// Only a whole marker opens a call (dialects.OpensCall): the part
		// of one before its space may go on as anything.
		return p.prof.startSettles && !h.t.cut
	case roleBare:
		switch text[h.at] {
		case '{':
			return p.prof.bareSettles[0]
		case '[':
			return p.prof.bareSettles[1]
		}
	case roleStrip:
		// A token that opens the answer (dialects.OpensAnswer).
		return slices.Contains(p.prof.syn.Answer, h.t.word)
	}
	return false
}

// reason streams the text of a reasoning block until its closing tag.
func (p *profiled) reason(text string) {
	want := wantReason
	h := p.prof.m.next(text, p.pos, want)
	for h.at >= 0 && !h.partial && (h.t.role == roleClose || h.t.role == roleOpen) && h.t.tag != p.pair {
		h = p.prof.m.next(text, h.at+1, want)
	}
	// Never split a character: its last bytes may make it a space the
	// dialect trims.
	limit := fullRunes(text, p.pos)
	if h.at >= 0 {
		limit = h.at
	}
	p.emitRun(text, limit, Reasoning)
	p.pos = limit
	if h.at < 0 || h.partial {
		return
	}
	if h.t.role != roleClose {
		// Call markup or a nested block inside reasoning: what it means
		// depends on the rest of the output; settle it at the end.
		p.hold(text)
		return
	}
	p.endBlock(h.at + len(h.t.word))
}

// endBlock leaves a reasoning block whose closing tag ends at end. The
// block's trailing whitespace is trimmed, and so is the whitespace after it.
func (p *profiled) endBlock(end int) {
	p.held[1] = ""
	if !p.afterBlock {
		p.preBlock = p.held[0]
	}
	p.markNext = p.prof.syn.MarkedStart
	p.blocks++
	p.afterBlock = true
	p.pos = end
	p.state, p.dropSpace = stLead, true
}

// emitRun emits text[p.pos:limit] as content or reasoning. Trailing
// whitespace is held back (a dialect trims it before a call marker, at a
// block's end and at the end of the output) and emitted before the next
// text of the same kind; leading whitespace is dropped where the dialect
// drops it.
func (p *profiled) emitRun(text string, limit int, kind Kind) {
	seg := text[p.pos:limit]
	if seg == "" {
		return
	}
	h := &p.held[0]
	if kind == Reasoning {
		h = &p.held[1]
	}
	if p.dropSpace {
		seg = strings.TrimLeft(seg, " \t\r\n")
		if seg == "" {
			return
		}
		if r, _ := utf8.DecodeRuneInString(seg); unicode.IsSpace(r) {
			// Whether a dialect trims this space too differs: settle it
			// at the end.
			p.hold(text)
			return
		}
		p.dropSpace = false
	}
	body := strings.TrimRightFunc(seg, p.trailing)
	if body == "" {
		*h += seg
		return
	}
	if kind == Reasoning {
		if !p.blockShown && p.reasonOut.Len() > 0 {
			p.emit(Event{Kind: Reasoning, Text: p.prof.pairs[p.pair].joiner})
			*h = ""
		}
		p.blockShown = true
	}
	if kind == Content && p.afterBlock {
		p.afterBlock = false
		if p.prof.pairs[p.pair].spaceJoin {
			// The content before the block, less its trailing space, and
			// the held text after it (a separator) are joined by one space.
			pre := strings.TrimRightFunc(p.preBlock, unicode.IsSpace)
			post := strings.TrimPrefix(*h, p.preBlock)
			*h = post
			if p.contentOut.Len() > 0 || pre != "" {
				*h = pre + " " + post
			}
		}
	}
	rest := seg[len(body):]
	if *h != "" {
		body = *h + body
	}
	p.emit(Event{Kind: kind, Text: body})
	*h = rest
}

// emit records an event.
func (p *profiled) emit(ev Event) {
	if ev.Text == "" && (ev.Kind == Content || ev.Kind == Reasoning || ev.Kind == CallArguments) {
		return
	}
	switch ev.Kind {
	case Content:
		p.contentOut.write(ev.Text)
	case Reasoning:
		p.reasonOut.write(ev.Text)
	}
	p.events = append(p.events, ev)
}

// mayBeShown reports whether the marker at text[at] may lie in inline code,
// an example fence or a quotation (dialects.MayBeShown). Text with no
// backtick and no quote up to the marker shows none: the line scan waits
// for the first of them.
func (p *profiled) mayBeShown(text string, at int) bool {
	if p.plainTo <= at {
		k := strings.IndexFunc(text[p.plainTo:at+1], func(r rune) bool { return r == '`' || r == '"' || r == '\'' || r == '\u201C' || r == '\u2018' })
		if k < 0 {
			p.plainTo = at + 1
			return false
		}
		p.plainTo += k
		return p.shown.MayBeShown(text, at)
	}
	return false
}

// hold gives up on streaming: the rest is settled at the end.
func (p *profiled) hold(text string) {
	p.state = stHeld
	p.pos = len(text)
}

// openRegion enters a call region whose start marker spans [at, body).
func (p *profiled) openRegion(at, body int) {
	p.state = stRegion
	p.regionStart, p.regionBody, p.regionBase = at, body, len(p.slots)
	p.pos = body
	p.nextCheck = firstCheck
	p.quote, p.escaped = 0, false
	p.rdepth, p.probeAt, p.closedAt, p.probes, p.probedLen = 0, 0, 0, 0, 0
	p.names, p.argIndex = p.names[:0], -1
}

// region watches a call region for its end. Markers inside the quoted
// strings of a dialect that quotes its arguments are argument text, not
// markers ("tag": "</tool_call>").
func (p *profiled) region(text string) {
	want := wantRegion
	h := hit{at: -1}
	i := p.pos
	// shared says the argument text being shown stands where the scan
	// does, in the same string: when the scan finds that string goes on
	// past the new text (stayed), the arguments shown need no scan of
	// their own.
	shared := p.argIndex >= 0 && p.argQuote && p.quote == '"' && p.argShown == i && p.argEscaped == p.escaped
	stayed := false
	for ; i < len(text); i++ {
		if p.quote != 0 {
			// Jump to the string's closing quote.
			end, esc := stringEnd(text[i:], p.quote, p.escaped)
			if end < 0 {
				stayed = i == p.pos
				p.escaped, i = esc, len(text)
				break
			}
			i += end
			p.quote, p.escaped = 0, false
			continue
		}
		c := text[i]
		cls := p.prof.rclass[c]
		if cls == 0 {
			continue
		}
		if cls&clsQuote != 0 {
			p.quote = c
			continue
		}
		if cls&clsTrigger != 0 {
			if found, ok := p.prof.m.at(text, i, want); ok {
				if !found.partial && found.t.role == roleCallEnd {
					// One call of the section ends here: until the
					// region has reported a call, the calls before it
					// are read once a byte after it shows how the text
					// goes on (probe), as after a value. The first call
					// comes at its own closing tag; probing at every
					// one would parse a long section over and over,
					// and the rest come when the section closes.
					i += len(found.t.word) - 1
					if len(p.slots) == p.regionBase {
						p.probeAt = i + 1
					}
					continue
				}
				// A marker, or the start of one: its bytes are read
				// again once it is whole, so nothing here is counted.
				h = found
				break
			}
		}
		switch c {
		case '{', '[', '(':
			p.rdepth++
		case '}', ']', ')':
			if p.rdepth > 0 {
				p.rdepth--
				if p.rdepth <= 1 {
					p.probeAt = i + 1
				}
				if p.rdepth == 0 {
					p.closedAt = i + 1
				}
			}
		}
	}
	if shared && stayed && !p.pastCallCap(p.argIndex) {
		if i > p.argShown {
			p.emit(Event{Kind: CallArguments, Index: p.argIndex, Text: text[p.argShown:i]})
			p.argShown = i
		}
		p.argEscaped = p.escaped
	} else {
		p.trackArguments(text, i)
	}
	switch {
	case h.at < 0 || h.partial:
		p.pos = i
		after := ""
		if p.probeAt > 0 {
			after = strings.TrimLeft(text[p.probeAt:], " \t\r\n")
		}
		if after != "" {
			// A value closed, and a byte after it shows how the text goes
			// on: space, a separator, or markup leaves the value whole.
			// When what follows is the start of the region's own closing
			// marker, the region closes once the marker is whole and is
			// read then, once: probing it now with every continuation
			// would cost dozens of parses to report the call a few bytes
			// earlier. Should the marker not complete, the probe is made
			// when the byte that breaks it arrives.
			// The same holds where the dialect's start marker ends the
			// call before it (Profile.startSplits): the call is read once
			// the marker is whole.
			if !(h.partial && (p.prof.m.endPrefix(after) || p.prof.startSplits && p.prof.m.startPrefix(after))) {
				p.probe(text[p.regionStart:p.probeAt], text[p.probeAt:])
				p.probeAt = 0
			}
		}
		if p.argIndex < 0 && p.pos-p.regionStart >= p.nextCheck {
			// Looking is for names; while a call's arguments are being
			// shown, the next name can only come after them.
			p.look(text[p.regionStart:p.pos])
			p.nextCheck = nextLook(p.pos - p.regionStart)
		}
	case h.t.role == roleEnd:
		end := h.at + len(h.t.word)
		p.shown.Call(p.regionStart, end)
		whole, settled := p.closeRegion(text[p.regionStart:end])
		if !settled {
			p.hold(text)
			return
		}
		if whole && p.regionBody > p.regionStart {
			if p.spans == nil {
				p.spans = p.firstSpan[:0]
			}
			p.spans = append(p.spans, span{start: p.regionStart, body: p.regionBody, endAt: h.at, end: end, base: p.regionBase, n: len(p.slots) - p.regionBase})
		} else {
			p.mixed = true
		}
		p.state, p.pos = stBetween, end
	case len(p.prof.syn.Ends) == 0:
		// No closing marker in this dialect: the next call's marker ends
		// this one.
		p.splitRegion(text, h)
	case p.prof.startSplits && p.rdepth == 0 && p.quote == 0 && p.closedAt > p.regionBody && blank(text[p.closedAt:h.at]):
		// A call marker right after a value that closed at the region's
		// top level, in a dialect whose start marker ends the call before
		// it whatever follows: the calls so far are read now, once, and
		// the marker opens the next part of the section as a region of
		// its own. Close parses the whole output (the section is not one
		// region read whole).
		p.splitRegion(text, h)
	default:
		// A call marker inside a section: the section's end closes both.
		p.pos = h.at + len(h.t.word)
	}
}

// splitRegion ends the call region at the call marker h and opens the
// next region there, unless the marker may be shown as an example, which
// holds the output. Close then parses the whole output (the section was
// not one region read whole).
func (p *profiled) splitRegion(text string, h hit) {
	p.mixed = true
	p.shown.Call(p.regionStart, h.at)
	if _, settled := p.closeRegion(text[p.regionStart:h.at]); !settled {
		p.state = stBetween
		p.hold(text)
		return
	}
	if p.mayBeShown(text, h.at) {
		p.state = stBetween
		p.hold(text)
		return
	}
	p.openRegion(h.at, h.at+len(h.t.word))
}

// between watches the text after a call region for the next one.
func (p *profiled) between(text string) {
	h := p.prof.m.next(text, p.pos, wantBetween)
	switch {
	case h.at < 0:
		p.pos = len(text)
	case h.partial:
		p.pos = h.at
	case h.t.role == roleEnd && p.extendRegion(text, h):
		// The closing marker of a section around the region just closed.
	case h.t.role == roleToken || h.t.role == roleEnd || h.t.role == roleStrip:
		// A token between calls (an end of turn, a stray wrapper) may
		// change what follows: settle the rest at the end.
		p.hold(text)
	case p.mayBeShown(text, h.at):
		p.hold(text)
	case p.textIsCall(text, h.at):
		// The text between the calls is read as a call of its own (text
		// in a section left open is a TLP-019 error there): the calls
		// after it would take other indexes than the stream gives them.
		p.hold(text)
	default:
		p.openRegion(h.at, h.at+len(h.t.word))
	}
}

// textIsCall reports whether the text from the end of the region just
// closed up to at, which is not blank, may be read as a call (an error
// entry) of its own: the region read whole with that text after it holds
// more calls than the region alone. Blank text, and text after a region
// that did not read whole, are settled as before.
func (p *profiled) textIsCall(text string, at int) bool {
	if len(p.spans) == 0 || p.mixed {
		return false
	}
	sp := &p.spans[len(p.spans)-1]
	if sp.base+sp.n != len(p.slots) || strings.TrimLeft(text[sp.end:at], " \t\r\n") == "" {
		return false
	}
	return len(p.d.Extract(text[sp.start:at], &p.opts.Parse).Calls) != sp.n
}

// extendRegion takes a closing marker that follows the region just closed,
// with only space between, as the end of that region: the closing tag of
// a section around a call (Qwen3-Coder's </tool_call> after </function>,
// MiniMax's </minimax:tool_call> after </invoke>). It does so only when
// the region read whole, and reads the same calls and nothing else up to
// the new marker; then the output goes on streaming rather than being
// held to the end. The region is parsed once more, which is what holding
// the output would cost at the least.
func (p *profiled) extendRegion(text string, h hit) bool {
	if p.mixed || len(p.spans) == 0 {
		return false
	}
	sp := &p.spans[len(p.spans)-1]
	if sp.base+sp.n != len(p.slots) || strings.TrimLeft(text[sp.end:h.at], " \t\r\n") != "" {
		return false
	}
	end := h.at + len(h.t.word)
	ext := p.d.Extract(text[sp.start:end], &p.opts.Parse)
	if len(ext.Calls) != sp.n || ext.Content != "" || ext.Reasoning != "" || len(ext.Errors) > 0 {
		return false
	}
	for j := range ext.Calls {
		rc := ext.Calls[j]
		if rc.Offset >= 0 {
			rc.Offset += sp.start
		}
		if rc.Err != nil || len(rc.Repairs) > 0 || rc.AtEnd || !sameRaw(&p.slots[sp.base+j].raw, &rc) {
			return false
		}
	}
	sp.endAt, sp.end = h.at, end
	p.pos = end
	return true
}

// look parses an unfinished region to announce its calls by name. Regions
// are looked at when their length passes each doubling of firstCheck
// (nextLook), so looking costs at most about twice the region's length. A name seen at two looks in a row is whole
// (the first look may have cut it). Once a call is announced in a dialect
// whose arguments are JSON, its argument text is shown as it arrives.
func (p *profiled) look(region string) {
	ext := p.d.Extract(region, &p.opts.Parse)
	for j, rc := range ext.Calls {
		if j >= len(p.names) {
			p.names = append(p.names, "")
		}
		index := p.regionBase + j
		if rc.Name == "" || rc.Err != nil && coded.Code(rc.Err) != toolcall.CodeTruncated {
			continue
		}
		if !p.isStarted(index) && (p.names[j] == rc.Name || nameEnded(region, rc.Name)) {
			p.start(index, rc.Name)
			p.showArguments(region, rc, index)
		}
		p.names[j] = rc.Name
	}
}

// nextLook returns the region length of the next look after one at
// length n: the first of firstCheck's doublings past n. The lengths looked
// at depend on the text alone, not on how it was cut into deltas, so a
// parser that takes a detected output's text at once looks where one fed
// it piece by piece does.
func nextLook(n int) int {
	next := firstCheck
	for next <= n {
		next *= 2
	}
	return next
}

// nameEnded reports whether a name a look read from region is whole: its
// last appearance in the region stands as a word of its own, followed by a
// byte that no name continues with (a quote, a bracket, a space; not a
// backslash, which may begin an escape that continues it). A name the end
// of the region cut runs to that end. A name written otherwise than as
// itself (escaped) is whole once seen at two looks in a row.
func nameEnded(region, name string) bool {
	i := strings.LastIndex(region, name)
	if i < 0 || name == "" {
		return false
	}
	end := i + len(name)
	return end < len(region) && !nameByte(region[end]) && region[end] != '\\' && (i == 0 || !nameByte(region[i-1]))
}

// nameByte reports whether c may stand in a tool's name: letters, digits,
// '_', '$', '.', '-', and any byte of a multi-byte character.
func nameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '$' || c == '.' || c == '-' || c >= 0x80
}

// showArguments starts showing the argument text of a call just announced:
// the JSON value after its name, from the region text as written.
func (p *profiled) showArguments(region string, rc dialects.RawCall, index int) {
	p.argIndex = -1
	if !strings.Contains(p.prof.syn.Quotes, `"`) {
		return
	}
	from := max(rc.Offset, 0)
	i := strings.Index(region[from:], rc.Name)
	if i < 0 {
		return
	}
	k := strings.IndexAny(region[from+i+len(rc.Name):], "{[")
	if k < 0 {
		return
	}
	start := p.regionStart + from + i + len(rc.Name) + k
	p.argIndex, p.argShown, p.argDepth, p.argQuote = index, start, 0, false
	p.trackArguments(p.buf.String(), p.pos)
}

// stringEnd returns the index in s of the quote q that ends the string s
// continues (escaped: the byte before s was an escaping backslash), or -1
// when s stays inside it; then esc tells whether the byte after s is
// escaped. It jumps from quote to quote (a vectorised search) and counts
// the backslashes before each, so each byte is read a bounded number of
// times however the string is cut.
func stringEnd(s string, q byte, escaped bool) (end int, esc bool) {
	if len(s) <= 64 {
		// A delta's few bytes: look for the quote eight bytes at a time,
		// rather than pay for a call to a search.
		i := 0
		for ; i+8 <= len(s); i += 8 {
			m := bytesOf(word(s, i), q)
			for m != 0 {
				j := i + bits.TrailingZeros64(m)>>3
				if !escapedAt(s, j, escaped) {
					return j, false
				}
				m &= m - 1
			}
		}
		for ; i < len(s); i++ {
			if s[i] == q && !escapedAt(s, i, escaped) {
				return i, false
			}
		}
		return -1, escapedAt(s, len(s), escaped)
	}
	for from := 0; ; {
		k := strings.IndexByte(s[from:], q)
		if k < 0 {
			return -1, escapedAt(s, len(s), escaped)
		}
		j := from + k
		if !escapedAt(s, j, escaped) {
			return j, false
		}
		from = j + 1
	}
}

// word returns the eight bytes of s from i on as a little-endian word.
func word(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// bytesOf returns a mask of the bytes of w that are c: the high bit of each
// such byte.
func bytesOf(w uint64, c byte) uint64 {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	v := w ^ (lo * uint64(c))
	// A byte of v is zero when adding 0x7f to its low seven bits carries
	// nothing into its high bit and that bit is clear: exact for every
	// byte, as no carry crosses a byte.
	return ^(((v &^ hi) + ^uint64(hi)) | v) & hi
}

// escapedAt reports whether s[j] (or, at j = len(s), the byte after s) is
// escaped: an odd run of backslashes precedes it, counting the escape
// pending before s when the run reaches back to s's start.
func escapedAt(s string, j int, escaped bool) bool {
	n := 0
	for n < j && s[j-n-1] == '\\' {
		n++
	}
	if n == j {
		return escaped != (n%2 == 1)
	}
	return n%2 == 1
}

// trackArguments follows the argument value up to end and shows the new
// part of it; the value's closing bracket ends the showing.
func (p *profiled) trackArguments(text string, end int) {
	if p.argIndex < 0 {
		return
	}
	stop := end
	for i := p.argShown; i < end; i++ {
		if p.argQuote {
			e, esc := stringEnd(text[i:end], '"', p.argEscaped)
			if e < 0 {
				p.argEscaped = esc
				break
			}
			i += e
			p.argQuote, p.argEscaped = false, false
			continue
		}
		c := text[i]
		switch {
		case c == '"':
			p.argQuote = true
		case c == '{' || c == '[':
			p.argDepth++
		case c == '}' || c == ']':
			p.argDepth--
		}
		if p.argDepth == 0 {
			stop = i + 1
			break
		}
	}
	if stop > p.argShown && !p.pastCallCap(p.argIndex) {
		p.emit(Event{Kind: CallArguments, Index: p.argIndex, Text: text[p.argShown:stop]})
		p.argShown = stop
	}
	if p.argDepth == 0 {
		// The value is whole; the next name can only come after it, so
		// looking for one starts again from here, at doublings of the
		// region's length as before.
		p.argIndex = -1
		p.nextCheck = nextLook(stop - p.regionStart)
	}
}

// closeRegion parses a finished region and reports its calls. It returns
// whether the region read as valid calls and nothing else: no text, no
// reasoning, no error, no repair to the calls' framing.
//
// A region that reads a failed call is not settled either: read alone,
// a marker the prose before it mentions fails as a call, while the whole
// output reads it as prose and gives its index to the next call.
// A region whose parse closed a value that lacked its closing tag
// (toolcall.RepairUnclosedTag) is not settled: the marker that ended it
// may stand inside that value, which the text after it can still close
// (a raw value holding "</function>"). Nothing is reported then, and
// settled is false: the caller holds the output for the final parse.
func (p *profiled) closeRegion(region string) (whole, settled bool) {
	ext := p.d.Extract(region, &p.opts.Parse)
	for j := range ext.Calls {
		if valueLeftOpen(&ext.Calls[j]) || ext.Calls[j].Err != nil {
			// A failed call read from the region alone may be no call
			// at all in the whole output (a marker the prose before it
			// mentions): it would take an index the final result gives
			// to the next call. Settled by the final parse.
			return false, false
		}
	}
	whole = len(ext.Calls) > 0 && ext.Content == "" && ext.Reasoning == "" && len(ext.Errors) == 0
	for j := range ext.Calls {
		if rc := &ext.Calls[j]; rc.Err != nil || len(rc.Repairs) > 0 || rc.AtEnd || rc.Name == "" {
			whole = false
		}
	}
	for j := range ext.Calls {
		rc := ext.Calls[j]
		if rc.Offset >= 0 {
			rc.Offset += p.regionStart
		}
		if re := coded.As(rc.Err); re != nil && re.Offset >= 0 {
			e := *re
			e.Offset += p.regionStart
			rc.Err = &e
		}
		index := p.regionBase + j
		if index < len(p.slots) {
			// Reported while the region was open.
			s := &p.slots[index]
			if !sameCall(&s.raw, &rc) {
				p.diverge("call %d was reported before its region closed, and reads differently now", index)
			} else if !sameRaw(&s.raw, &rc) {
				s.raw = rc
				var err error
				_, s.repairs, err = dialects.FinishCall(&rc, index, &p.opts.Parse)
				if s.err = coded.As(err); s.err != nil {
					p.diverge("call %d was reported before its region closed, and fails now", index)
				}
			}
			continue
		}
		var s slot
		s.raw = rc
		var err error
		s.call, s.repairs, err = dialects.FinishCall(&rc, index, &p.opts.Parse)
		s.err = coded.As(err)
		p.slots = append(p.slots, s)
		p.report(index)
	}
	return whole, true
}

// valueLeftOpen reports whether the parse closed a value or call of rc that
// lacked its closing tag or delimiter (toolcall.RepairUnclosedTag,
// RepairTruncatedString): the text after the point parsed may yet close it
// further on, so the call is not settled.
func valueLeftOpen(rc *dialects.RawCall) bool {
	for _, r := range rc.Repairs {
		if r.Kind == toolcall.RepairUnclosedTag || r.Kind == toolcall.RepairTruncatedString {
			return true
		}
	}
	return false
}

// Probing an open region.
const (
	maxProbeRegion = 4 << 10  // longest region probed
	eagerProbes    = 4        // probes made whatever the region's growth
	maxHeldProbe   = 16 << 10 // longest held output probed
	heldWork       = 32       // bytes a held output's probes parse, per byte of it
)

// probe reads the calls of an open region that a value closed in, once a
// byte after the value has arrived (next is the text from the value's end),
// to report those that are finished (see settled). Probes are made at the
// first few closing brackets and then when the region has doubled, and
// only in regions of a few kilobytes, so probing costs a constant factor.
func (p *profiled) probe(region, next string) {
	if len(p.prof.conts) == 0 || len(region) > maxProbeRegion || p.probes >= eagerProbes && len(region) < 2*p.probedLen {
		return
	}
	p.probes++
	p.probedLen = len(region)
	p.reportSettled(region, next, p.regionStart, p.regionBase, p.prof.heldConts)
}

// probeHeld reports the calls of a held output (one the engine stopped
// streaming: a stray token, an output that opens inside a header, a call
// written without a marker) that are finished, at the points where a
// value closed, a tag or fence ended or a marker of the dialect ended,
// once a byte after the point has arrived: the output so far is parsed as
// a whole, as the final parse will (see reportSettled), in outputs of up
// to maxHeldProbe bytes. A probe is made only while the probes so far have
// parsed at most heldWork times the output's length, so that probing
// costs a constant factor. An output held because a closing tag may yet
// make the text before it reasoning is probed too: the continuations
// include the dialect's reasoning tags, so a call is reported only where
// the dialect reads a call inside a block the template opened as a call
// (the marker dialects do; Hermes keeps it in the reasoning, and there
// the call waits).
func (p *profiled) probeHeld() {
	if p.prof.heldPoints == nil {
		return
	}
	text := p.buf.String()
	if p.hpoints == nil {
		p.hpoints = p.prof.heldPoints.heldPoints()
	}
	// The last point with a byte after it: a point followed by another
	// has (the byte that made the other a point).
	at, inList := 0, false
	for {
		next, ok := p.hpoints.Next(text)
		if !ok {
			break
		}
		if p.hpoint > 0 {
			at, inList = p.hpoint, p.hinList
		}
		p.hpoint, p.hinList = next, p.hpoints.depth > 0
	}
	if p.hpoint > 0 && strings.TrimLeft(text[p.hpoint:], " \t\r\n") != "" {
		at, inList, p.hpoint = p.hpoint, p.hinList, 0
	}
	if at == 0 {
		return
	}
	if at > maxHeldProbe || p.hwork > heldWork*at {
		return
	}
	// The calls before at may lie in inline code or a fence not yet
	// closed (a later point settles them); when at may, each call is
	// reported only if its own start may not, as a region's marker is
	// checked before the region is read (a fence inside a call, as
	// DeepSeek writes its arguments, does not hold the call back).
	// A backtick in a call before at counts for no inline code: the
	// calls that the output so far reads as tell (reportSettled).
	p.shownAt, p.inList = p.mayBeShown(text, at) || strings.IndexByte(text[:at], '`') >= 0, inList
	p.hwork += p.reportSettled(text[:at], text[at:], 0, 0, p.prof.heldConts)
	p.shownAt, p.inList = false, false
}

// reportSettled reports the calls of base, text that begins at byte start
// of the output and ends where a value or a region closed, with the calls
// before index first of the output before it, that are finished: the calls
// base reads as, valid, that read the same followed by
// next (what has arrived after base) and by next and each of conts (another
// call, a closing marker, text that would extend the call). Calls already
// reported are skipped.
func (p *profiled) reportSettled(base, next string, start, first int, conts []string) (work int) {
	if openString(next, p.prof.syn.Quotes) {
		// What has arrived opens a string it does not close: the
		// continuations are not tried after the string's end, where text
		// may yet change how the calls read. A later point settles them.
		return 0
	}
	o := &p.opts.Parse
	ext := p.d.Extract(base, o)
	work = len(base)
	n := 0
	for n < len(ext.Calls) && ext.Calls[n].Err == nil && ext.Calls[n].Name != "" && !valueLeftOpen(&ext.Calls[n]) {
		n++
	}
	done := len(p.slots) - first
	if done < 0 {
		return
	}
	// The texts parsed are built in one buffer, reused from probe to probe:
	// a parse's calls are compared and dropped before the next is built.
	buf := append(append(p.scratch[:0], base...), next...)
	defer func() { p.scratch = buf[:0] }()
	// Shown parts are read with the backticks inside the calls of base
	// left out, as the one-shot parse reads them (dialects.ExtractShown).
	shownAt := false
	var shown dialects.ShownScan
	if p.shownAt {
		var s dialects.ShownScan
		s.CallsIn(base, ext)
		if shownAt = s.MayBeShown(unsafe.String(unsafe.SliceData(buf), len(buf)), len(base)); shownAt {
			shown.CallsIn(base, ext)
		}
	}
	// Beside the fixed continuations, at an element of a list still open
	// (a held output's probe): what was left open after the point (a
	// string, brackets) closed as written, then the list closed, or going
	// on with an element that is no call. A dialect that reads a list
	// only when every element is a call reads none then, whatever the
	// element being written turns out to be.
	var closing [16]byte
	var cl []byte
	if p.inList {
		cl = closer(closing[:0], next, p.prof.syn.Quotes)
	}
	// And the brackets open at the end of everything so far closed, with
	// and without a stray byte before them: the points' own count of depth
	// takes any closing bracket for the innermost one's, so the list may
	// hold more open brackets than next shows ([{…}, {"": "")0{ needs }}]).
	all := openClosers(unsafe.String(unsafe.SliceData(buf), len(buf)), p.prof.syn.Quotes)
	for k := -1; k < len(conts)+len(listEnds)+2; k++ {
		if n <= done {
			return
		}
		buf = buf[:len(base)+len(next)]
		switch {
		case k >= len(conts)+len(listEnds):
			if all == "" {
				continue
			}
			if k > len(conts)+len(listEnds) {
				buf = append(buf, ')')
			}
			buf = append(buf, all...)
		case k >= len(conts):
			if cl == nil {
				continue
			}
			buf = append(append(buf, cl...), listEnds[k-len(conts)]...)
		case k >= 0:
			buf = append(buf, conts[k]...)
		}
		x := p.d.Extract(unsafe.String(unsafe.SliceData(buf), len(buf)), o)
		work += len(buf)
		for j := done; j < n; j++ {
			if j >= len(x.Calls) || !sameCall(&x.Calls[j], &ext.Calls[j]) {
				n = j
				break
			}
		}
	}
	for j := done; j < n; j++ {
		rc := ext.Calls[j]
		if shownAt && (rc.Offset < 0 || shown.MayBeShown(base, rc.Offset)) {
			return work
		}
		if rc.Offset >= 0 {
			rc.Offset += start
		}
		index := first + j
		var s slot
		s.raw = rc
		var err error
		s.call, s.repairs, err = dialects.FinishCall(&rc, index, o)
		if s.err = coded.As(err); s.err != nil {
			return work
		}
		if p.argIndex == index {
			p.argIndex = -1
		}
		p.slots = append(p.slots, s)
		p.report(index)
	}
	return work
}

// openString reports whether s ends inside a string opened in it: a quote
// of quotes not closed by the same quote (a backslash escapes the byte
// after it inside a string).
func openString(s, quotes string) bool {
	var q byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case q != 0 && c == '\\':
			i++
		case q != 0 && c == q:
			q = 0
		case q == 0 && strings.IndexByte(quotes, c) >= 0:
			q = c
		}
	}
	return q != 0
}

// openClosers returns the bytes that close the brackets left open at the end
// of s, innermost first ("}]" after `[{"a": 1`), outside strings in quotes
// (a backslash escapes the byte after it inside a string); "" when none is.
// A closing bracket that does not match the innermost open one closes
// nothing.
func openClosers(s, quotes string) string {
	var open []byte
	var q byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case q != 0 && c == '\\':
			i++
		case q != 0 && c == q:
			q = 0
		case q != 0:
		case strings.IndexByte(quotes, c) >= 0:
			q = c
		case c == '{':
			open = append(open, '}')
		case c == '[':
			open = append(open, ']')
		case c == '(':
			open = append(open, ')')
		case c == '}' || c == ']' || c == ')':
			if n := len(open); n > 0 && open[n-1] == c {
				open = open[:n-1]
			}
		}
	}
	for i, j := 0, len(open)-1; i < j; i, j = i+1, j-1 {
		open[i], open[j] = open[j], open[i]
	}
	return string(open)
}

// listEnds follow closer's bytes in a probe: the end of a list, of a list
// going on with an element that is no call, or of a list that prose
// follows on its line (a bare list inside a line of prose is no call: the
// table of what is a call, textlayer.Decide).
var listEnds = [...]string{"]", ", 0]", ", {}]", "] x"}

// closer appends to dst the bytes that close what next leaves open (a
// string in one of quotes, then brackets), or returns nil when next opens
// more than 16 brackets or closes more than it opens.
func closer(dst []byte, next, quotes string) []byte {
	var quote byte
	escaped := false
	var stack [16]byte
	depth := 0
	for i := 0; i < len(next); i++ {
		c := next[i]
		switch {
		case quote != 0:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == quote:
				quote = 0
			}
		case strings.IndexByte(quotes, c) >= 0:
			quote = c
		case c == '{' || c == '[' || c == '(':
			if depth == len(stack) {
				return nil
			}
			stack[depth] = c
			depth++
		case c == '}' || c == ']' || c == ')':
			if depth == 0 {
				return nil
			}
			depth--
		}
	}
	if quote != 0 {
		dst = append(dst, quote)
	}
	for i := depth - 1; i >= 0; i-- {
		switch stack[i] {
		case '{':
			dst = append(dst, '}')
		case '[':
			dst = append(dst, ']')
		default:
			dst = append(dst, ')')
		}
	}
	return dst
}

// report emits a finished call. A failed call is not reported before the
// end: a region read on its own may fail where the whole output does not,
// so its error waits for the final parse.
func (p *profiled) report(index int) {
	s := &p.slots[index]
	if s.err != nil || p.pastCallCap(index) {
		return
	}
	s.reported = true
	p.start(index, s.call.Name)
	// The event points to the slot's call, which is never written again
	// (a slot's later readings change its raw call and repairs only), and
	// stays valid when the slots grow: the old array keeps it.
	p.emit(Event{Kind: Call, Index: index, Call: &s.call})
}

// start emits CallStart for a call, once.
func (p *profiled) start(index int, name string) {
	if p.started == nil {
		p.started = p.firstStarted[:0]
	}
	for len(p.started) <= index {
		p.started = append(p.started, false)
	}
	if !p.started[index] && !p.pastCallCap(index) {
		p.started[index] = true
		p.emit(Event{Kind: CallStart, Index: index, Name: name})
	}
}

// pastCallCap reports whether the call with this index is past the
// per-output call cap (dialects.Options.MaxCalls): the final parse drops
// it, so the stream never shows it.
func (p *profiled) pastCallCap(index int) bool {
	limit := p.opts.Parse.MaxCalls
	if limit == 0 {
		limit = dialects.DefaultMaxCalls
	}
	return limit >= 0 && index >= limit
}

func (p *profiled) isStarted(index int) bool { return index < len(p.started) && p.started[index] }

func (p *profiled) maxBytes() int { return maxBytes(p.opts.MaxBytes) }

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

// textBuf is the output received so far: bytes appended and never
// changed, so that String's strings (which share its memory, as a
// strings.Builder's do) stay valid.
//
// The text is one array, grown by doubling, except on the steady path
// (Parser.Write): there a long argument string arrives in many deltas and
// nothing reads the text until the string ends, so the text past the
// array's capacity goes to chunks of a fixed size (add), copied into one
// array when the text is next read (String), and the chunks are then used
// again, by this stream or another. A long output is so copied once more
// and allocated about once, where doubling alone copies it once more and
// allocates up to four times its length.
type textBuf struct {
	b []byte // the text, or its last chunk while done is not empty
	// done are the full arrays before b, in order: the first is the
	// array before the chunks, the others chunks.
	done [][]byte
	n0   int // the length of the text in done
}

// chunkSize is the size of a chunk (textBuf.add).
const chunkSize = 16 << 10

// chunkPool keeps the chunks that joined texts no longer use.
var chunkPool = sync.Pool{New: func() any { return new([chunkSize]byte) }}

// write appends s to the text, in one array when it must grow.
func (t *textBuf) write(s string) {
	// While the text is in chunks, b is the last: appending to it
	// extends the text as well.
	if len(t.b)+len(s) > cap(t.b) {
		t.grow(len(s))
	}
	t.b = append(t.b, s...)
}

// grow makes room in one array for n more bytes: it joins the chunks, or
// doubles the array (append grows a large slice by a quarter at a time,
// copying a long output several times over).
func (t *textBuf) grow(n int) {
	if t.done != nil {
		t.join(n)
	}
	if len(t.b)+n > cap(t.b) {
		nb := make([]byte, len(t.b), max(2*cap(t.b), len(t.b)+n, 256))
		copy(nb, t.b)
		t.b = nb
	}
}

// add appends s to the text, filling the last array and then chunks.
func (t *textBuf) add(s string) {
	for {
		k := min(len(s), cap(t.b)-len(t.b))
		t.b = append(t.b, s[:k]...)
		if s = s[k:]; s == "" {
			return
		}
		t.done = append(t.done, t.b)
		t.n0 += len(t.b)
		t.b = chunkPool.Get().(*[chunkSize]byte)[:0]
	}
}

// join copies the chunks into one array, with room for more bytes: at
// least the first array's capacity again, so that joins, like doubling,
// copy a long output about once more in all. The chunks go back to the
// pool: no string shares their memory (String joins first).
func (t *textBuf) join(more int) {
	n := t.Len()
	nb := make([]byte, 0, max(n+max(more, 512), 2*cap(t.done[0])))
	nb = append(nb, t.done[0]...)
	for _, c := range t.done[1:] {
		nb = append(nb, c...)
		chunkPool.Put((*[chunkSize]byte)(c[:chunkSize]))
	}
	nb = append(nb, t.b...)
	chunkPool.Put((*[chunkSize]byte)(t.b[:chunkSize]))
	t.b, t.done, t.n0 = nb, nil, 0
}

// Len returns the length of the text.
func (t *textBuf) Len() int { return t.n0 + len(t.b) }

// String returns the text.
func (t *textBuf) String() string {
	if t.done != nil {
		t.join(0)
	}
	return unsafe.String(unsafe.SliceData(t.b), len(t.b))
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

// notCallOpen reports whether c, right after a word, shows the word is not
// the name of a call written as name(…): the first byte of most markers,
// which no name holds.
func notCallOpen(c byte) bool { return c == '<' || c == '[' || c == '|' }

// fullRunes returns the end of the last complete character of text after
// from: len(text), unless text ends inside a multi-byte character.
func fullRunes(text string, from int) int {
	for i := len(text) - 1; i >= from && i >= len(text)-utf8.UTFMax; i-- {
		if utf8.RuneStart(text[i]) {
			if utf8.FullRuneInString(text[i:]) {
				return len(text)
			}
			return i
		}
	}
	return len(text)
}

// trailing reports whether r, ending a run of text, is held back until more
// text follows: whitespace, which dialects trim before a call; and, where a
// call may be written without a marker, the separators that may stand
// between bare calls.
func (p *profiled) trailing(r rune) bool {
	return unicode.IsSpace(r) || p.prof.syn.Bare != "" && (r == ',' || r == ';')
}

// outText is the text of kind (Content or Reasoning) the parser emitted.
func (p *profiled) outText(kind Kind) string {
	if kind == Reasoning {
		return p.reasonOut.String()
	}
	return p.contentOut.String()
}
