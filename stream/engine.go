package stream

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
	"sync"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/caps"
	"github.com/dialectkit/toolcall/internal/coded"
	"github.com/dialectkit/toolcall/internal/sofar"
	"github.com/dialectkit/toolcall/internal/textlayer"
)

// engine streams the output of a dialect that reads it in one pass itself
// (dialects.Incremental). Each delta goes to the dialect's Reader, and the
// pieces the Reader returns become events at once: a Reader returns only
// what no later byte can change, so nothing is held here, nothing is
// probed, and no text is read twice. Close closes the Reader and builds the
// result from the pieces: it is the result dialects.Parse gives for the
// whole text, since the dialect's Extract is dialects.Read of the same
// Reader, with the ids the stream gave its calls.
type engine struct {
	d    dialects.Dialect
	r    dialects.Reader
	opts Options
	// max is the stream's limit (Options.MaxBytes), limit the call cap
	// (Options.MaxCalls), or -1 for none.
	max, limit int

	// n is the length of the output read so far. The text itself is the
	// Reader's when it keeps it (tr: dialects.TextReader), else it is
	// kept in text, unless noText (Parser.Text).
	n                  int
	tr                 dialects.TextReader
	text               sofar.Output
	content, reasoning strings.Builder
	edges              textlayer.Edges // the content's edges, as dialects.Read keeps them
	// calls are the calls under the cap, by index; past are those beyond
	// it, kept for the error that says how many there were.
	calls callList
	past  []dialects.RawCall
	errs  []*toolcall.Error // the errors of no one call (PieceError)

	events      []Event
	firstEvents [4]Event
	cut, closed bool
	result      *toolcall.Result
	// noText says the text is not kept: a detecting stream keeps it for
	// the Parsers of its candidates.
	noText bool
	// raw says the calls are kept as the Reader returned them (raws, by
	// index), for the Extraction a detecting stream decides from
	// (extraction); marked says the Reader read the dialect's own markers
	// (PieceMarked).
	raw, marked bool
	raws        []dialects.RawCall
	// quiet says the stream makes no events but Done (Parser.Read).
	quiet bool
	// owner is the memory of the engine and its Parser (release).
	owner *parserEngine
}

// release gives the engine's memory back for another engine, when nothing
// refers to it any more: a detecting stream's candidate it read no
// further, or a reading's fork (peek). The slices and strings it handed
// out (a reading's calls, errors and result) are its own allocations, and
// go with the readings; the memory is cleared, so they are not reused.
func (e *engine) release() {
	if w := e.owner; w != nil {
		*w = parserEngine{}
		engines.Put(w)
	}
}

// engineCall is one call of the output, as the stream reported it.
type engineCall struct {
	started, done bool
	call          toolcall.Call
	repairs       []toolcall.Repair
	err           *toolcall.Error
}

// parserEngine is a Parser and its engine, in one allocation.
type parserEngine struct {
	Parser
	e engine
}

// engines keeps the Parsers and engines of the candidates a detecting
// stream read and no longer reads (release), for the next ones: a
// detection reads the output with each of many candidates, and most of
// them only up to a decision.
var engines = sync.Pool{New: func() any { return new(parserEngine) }}

// newEngine returns a Parser that streams d's output with d's Reader.
func newEngine(d dialects.Incremental, opts *Options) *Parser {
	w := engines.Get().(*parserEngine)
	e := &w.e
	e.owner = w
	e.d = d
	w.eng = e
	if opts != nil {
		e.opts = *opts
	}
	e.max = maxBytes(e.opts.MaxBytes)
	e.limit = caps.Calls(e.opts.Parse.MaxCalls)
	e.events = e.firstEvents[:0]
	e.r = d.NewReader(&e.opts.Parse)
	e.tr, _ = e.r.(dialects.TextReader)
	return &w.Parser
}

// maxBytes resolves Options.MaxBytes: zero is DefaultMaxBytes, a negative
// value no limit.
func maxBytes(n int) int {
	switch {
	case n > 0:
		return n
	case n < 0:
		return math.MaxInt
	}
	return DefaultMaxBytes
}

// write reads the next delta.
func (e *engine) write(delta string) []Event {
	if e.closed || e.cut || delta == "" {
		return nil
	}
	if room := e.max - e.n; len(delta) > room {
		delta, e.cut = delta[:room], true
		if delta == "" {
			return nil
		}
	}
	e.n += len(delta)
	if !e.noText && e.tr == nil {
		// The text is read only if Text is asked for: past a chunk's
		// length it goes to chunks, joined then, so a long output is
		// kept at about its own length.
		e.text.Append(delta)
	}
	e.events = e.events[:0]
	e.pieces(e.r.Write(delta))
	return e.events
}

// close ends the output and returns the last events, Done with the
// result last.
func (e *engine) close() []Event {
	if e.closed {
		return nil
	}
	e.closed = true
	// Close's events go after the last Write's, which stay as they were:
	// in the room left in their array, then in one of their own.
	e.events = e.events[len(e.events):]
	e.pieces(e.r.Close())
	e.result = e.finish()
	e.events = append(e.events, Event{Kind: Done, Dialect: e.result.Dialect, Result: e.result})
	return e.events
}

// pieces turns a Reader's pieces into events.
func (e *engine) pieces(ps []dialects.Piece) {
	for i := range ps {
		p := &ps[i]
		switch p.Kind {
		case dialects.PieceContent:
			held, text := e.edges.Next(p.Text)
			e.out(Content, &e.content, held)
			e.out(Content, &e.content, text)
		case dialects.PieceReasoning:
			e.out(Reasoning, &e.reasoning, p.Text)
		case dialects.PieceCallStart:
			if c := e.slot(p.Index); c != nil && !c.started {
				c.started = true
				e.event(Event{Kind: CallStart, Index: p.Index, Name: p.Name})
			}
		case dialects.PieceArguments:
			if c := e.slot(p.Index); c != nil && c.started && p.Text != "" {
				e.event(Event{Kind: CallArguments, Index: p.Index, Text: p.Text})
			}
		case dialects.PieceCall:
			e.call(p.Index, p.Call)
		case dialects.PieceError:
			e.errs = append(e.errs, coded.As(p.Err))
		case dialects.PieceMarked:
			e.marked = true
		}
	}
}

// out adds s, text of kind (Content or Reasoning) kept in b, to the
// events: the pieces of one kind a Reader returns in a row are one event,
// a slice of b, as text written at once is.
func (e *engine) out(kind Kind, b *strings.Builder, s string) {
	if s == "" {
		return
	}
	n := b.Len()
	if b.Cap()-n < len(s) {
		// Doubling, from room for a line or two: append would grow a
		// short text in several small steps.
		b.Grow(max(len(s), minOut))
	}
	b.WriteString(s)
	if e.quiet {
		return
	}
	if k := len(e.events) - 1; k >= 0 && e.events[k].Kind == kind {
		e.events[k].Text = b.String()[n-len(e.events[k].Text):]
		return
	}
	e.events = append(e.events, Event{Kind: kind, Text: s})
}

// minOut is the least room the stream makes for the text of a kind it
// emits (engine.out).
const minOut = 128

// slot returns call index's entry, or nil past the call cap: those calls
// are not reported, as a one-shot parse drops them (dialects.Finish).
func (e *engine) slot(index int) *engineCall {
	if index < 0 || e.limit >= 0 && index >= e.limit {
		return nil
	}
	e.calls.grow(index + 1)
	return e.calls.at(index)
}

// callList is the calls of an output by index. Its entries never move:
// the first is in the list, the others in blocks of 4, 8, 16, … entries,
// each allocated when the call it begins with comes, so an event can
// point to its call's entry, and an output's calls are allocated once,
// at most twice their number, where a doubling array allocates up to
// four times their number (every array it outgrew is still pointed to).
type callList struct {
	first  engineCall
	blocks [][]engineCall
	n      int
}

// at returns entry i, which must be below len.
func (l *callList) at(i int) *engineCall {
	if i == 0 {
		return &l.first
	}
	k, j := block(i)
	return &l.blocks[k][j]
}

// block returns the block entry i > 0 is in, and its place there: block
// k holds the 4<<k entries from 4<<k - 3 on.
func block(i int) (k, j int) {
	k = bits.Len(uint((i-1)/4+1)) - 1
	return k, i - 1 - 4*(1<<k-1)
}

// len is the number of entries.
func (l *callList) len() int { return l.n }

// grow makes the list n entries long, when it is shorter.
func (l *callList) grow(n int) {
	for ; l.n < n; l.n++ {
		if l.n == 0 {
			continue
		}
		if k, j := block(l.n); j == 0 {
			l.blocks = append(l.blocks, make([]engineCall, 4<<k))
		}
	}
}

// clone returns a copy of the list that shares no entry with it.
func (l *callList) clone() callList {
	c := callList{first: l.first, n: l.n}
	if len(l.blocks) > 0 {
		c.blocks = make([][]engineCall, len(l.blocks))
		for k, b := range l.blocks {
			c.blocks[k] = slices.Clone(b)
		}
	}
	return c
}

// call finishes call index as dialects.Finish does and reports it, with
// its CallStart first when the Reader did not announce it.
func (e *engine) call(index int, rc *dialects.RawCall) {
	c := e.slot(index)
	if c == nil {
		if index >= 0 {
			for len(e.past) <= index-e.limit {
				e.past = append(e.past, dialects.RawCall{Offset: -1})
			}
			e.past[index-e.limit] = *rc
		}
		return
	}
	if c.done {
		return
	}
	if e.raw {
		for len(e.raws) <= index {
			e.raws = append(e.raws, dialects.RawCall{Offset: -1})
		}
		e.raws[index] = *rc
	}
	call, repairs, err := dialects.FinishCall(rc, index, &e.opts.Parse)
	c.done, c.call, c.repairs, c.err = true, call, repairs, coded.As(err)
	name := call.Name
	if c.err != nil {
		name = c.err.Tool
	}
	if !c.started {
		c.started = true
		e.event(Event{Kind: CallStart, Index: index, Name: name})
	}
	if c.err != nil {
		e.event(Event{Kind: CallError, Index: index, Err: err})
		return
	}
	// The event points to the entry's call, never written again; when
	// the entries grow, the old array keeps it.
	e.event(Event{Kind: Call, Index: index, Call: &c.call})
}

// event adds ev to the events, unless the stream makes none (quiet).
func (e *engine) event(ev Event) {
	if !e.quiet {
		e.events = append(e.events, ev)
	}
}

// finish builds the result from what the pieces reported: the calls in
// order of their index, each as dialects.Finish finishes it, the errors of
// failed calls, the cap's, the Reader's, and the stream's limit's.
func (e *engine) finish() *toolcall.Result {
	o := &e.opts.Parse
	res := &toolcall.Result{Dialect: e.d.Name(), Calls: []toolcall.Call{}, Content: e.content.String(), Reasoning: e.reasoning.String()}
	n := e.calls.len()
	for i := range n {
		if !e.calls.at(i).done {
			// An index no call was read for: a call of nothing, as
			// dialects.Read makes it.
			e.call(i, &dialects.RawCall{Offset: -1})
		}
	}
	if n > 0 {
		res.Calls = make([]toolcall.Call, 0, n)
	}
	for i := range n {
		c := e.calls.at(i)
		res.Repairs = append(res.Repairs, c.repairs...)
		if c.err != nil {
			res.Errors = append(res.Errors, c.err)
			continue
		}
		res.Calls = append(res.Calls, c.call)
	}
	if len(e.past) > 0 {
		// The cap's one error, as dialects.Finish writes it for the
		// whole output's calls.
		past := make([]caps.Past, len(e.past))
		for i := range e.past {
			rc := &e.past[i]
			past[i] = caps.Past{Offset: rc.Offset, Err: coded.As(rc.Err), Name: rc.Name, Arguments: rc.Arguments}
		}
		res.Errors = append(res.Errors, caps.TooMany(e.limit, past))
	}
	res.Errors = append(res.Errors, e.errs...)
	caps.Errors(res, o.MaxErrors, o.MaxErrorMessage)
	if e.cut {
		res.Errors = append(res.Errors, cutError(e.max, e.n))
	}
	return res
}

// extraction returns the Extraction the Reader's pieces made of the
// output read (dialects.Read), less its content and reasoning, which the
// result holds: the calls, read or failed, those past the call cap
// included, and whether the dialect's markers were read. It is asked of a
// closed engine that kept its calls (raw).
func (e *engine) extraction() *dialects.Extraction {
	x := &dialects.Extraction{Marked: e.marked, Errors: e.errs, Calls: e.raws}
	if len(e.past) > 0 {
		x.Calls = append(x.Calls[:len(x.Calls):len(x.Calls)], e.past...)
	}
	return x
}

// cutError is the TLP-009 error of an output cut at offset by the stream's
// limit of max bytes (Options.MaxBytes).
func cutError(max, offset int) *toolcall.Error {
	e := toolcall.NewError(toolcall.CodeTooLarge, fmt.Sprintf("the output is longer than the stream limit of %d bytes; the rest was not read", max))
	e.Offset = offset
	return e
}

// str returns the output read so far (Parser.Text).
func (e *engine) str() string {
	if e.tr != nil {
		return e.tr.Text()
	}
	return e.text.Text()
}

// outText is the text of kind (Content or Reasoning) the stream emitted.
func (e *engine) outText(kind Kind) string {
	if kind == Reasoning {
		return e.reasoning.String()
	}
	return e.content.String()
}
