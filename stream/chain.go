package stream

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/sofar"
	"github.com/dialectkit/toolcall/internal/textlayer"
)

// A stream with a fallback chain (Options.Fallback) reads the output in its
// dialect and in each fallback dialect at once, with one Parser each (the
// alternates), because the one-shot rule (registry.Parse) decides between
// them only from the whole output: the named dialect's reading stands when
// it finds a call or an error, else the first fallback that finds a call.
//
// The decision is taken at the byte the one-shot rule allows, never before:
//
//   - when the named dialect's parser starts a call (or reports a failed
//     one, or an error of no call), its final reading holds that call or
//     error, so the fallbacks cannot apply: from there on the stream is
//     that parser's, and it goes on streaming live;
//   - otherwise the decision is only known at Close, and the calls of a
//     fallback dialect come with Close.
//
// Until it is decided, the answer text and reasoning every alternate still
// in the running has emitted are emitted as far as they agree (their common
// prefix): whichever reading wins, its text begins with that. A fallback
// that has reported a valid call rules out the fallbacks after it.
type chain struct {
	opts Options
	name string // the named dialect's
	// alts are the readings while the stream is undecided; once decided,
	// inner is the one chosen. pending are a detecting stream's
	// candidates with no Reader yet.
	alts    []alternate
	pending []pending
	inner   *Parser
	// skip holds what was emitted (content, reasoning) before the stream
	// was decided and inner has not yet emitted again.
	skip                  [2]string
	contentOut, reasonOut strings.Builder
	text                  int // bytes read
	events                []Event
	cut, closed           bool
	diverged              string
	result                *toolcall.Result

	// A detecting stream's (NewDetecting): det decides the dialect at
	// the points pts finds (nil once decided or past them), set holds the
	// candidates (lits: which an alternate reads, see join), buf the
	// output's text; fed is how much of it every alternate has read
	// (feed).
	det  Detector
	pts  *Points
	set  *CandidateSet
	lits literals
	buf  sofar.Output
	fed  int
	// headerless says the output's opening cannot be a header (see
	// headerless); plainAgrees that the plain reading of the output
	// (emitAgreed) began with what was emitted, of content and reasoning.
	headerless  bool
	plainAgrees [2]bool
	// quiet says the stream makes no events but Done (Parser.Read), nor
	// do its alternates; whole that the text written is the whole output
	// (Read), so that a reading of all of it is the candidate's Reader
	// closed, not peeked.
	quiet, whole bool
}

// alternate is one reading of a stream with a fallback chain.
type alternate struct {
	p *Parser
	// kept are the events p emitted, kept until the stream is decided.
	// A Content or Reasoning entry is a run of consecutive such events:
	// its text is p's record of what it emitted, from to to.
	kept []kept
	at   [2]int // how much of p's content and reasoning kept covers
	// args holds the text of the kept CallArguments events, which a run
	// of them (of one call) is a slice of.
	args []byte
	// called says p reported a valid call: the fallbacks after it cannot
	// apply.
	called bool
	// Under detection, the candidate p reads.
	candState
	// agrees says p's content and reasoning begin with what the stream
	// emitted (checked once: an alternate made after the stream emitted
	// text may read it otherwise).
	agrees [2]bool
}

// candState is what a detecting stream knows of a candidate it reads the
// output as, Reader or none (chain.say).
type candState struct {
	// cand is the candidate's index; markAt where the first of its
	// marks begins in the output, or -1; opaque says its dialect holds
	// the whole output to the end.
	cand, markAt int
	opaque       bool
	// unframed says the output's opening cannot be a header or the
	// start of the framing of its dialect (chain.mayBeFraming).
	unframed bool
}

// pending is a candidate a detecting stream reads the output as whose
// Reader is not made yet: it is made when the candidate's reading is
// first needed (chain.materialize). Until then the candidate lets the
// stream emit what chain.least says.
type pending struct {
	candState
	// least is how much of what the stream emitted of content and
	// reasoning is known to begin chain.least's text; agrees is
	// alternate.agrees, for an opaque dialect, whose least is all it
	// lets the stream emit.
	least  [2]int
	agrees [2]bool
}

// allows reports whether least, the text of kind k the candidate lets the
// stream emit whatever its Reader emits (chain.least), holds done, what
// the stream emitted, and agreed, what the other candidates let it emit
// beyond.
func (pd *pending) allows(k int, least, done, agreed string) bool {
	n := len(done) + len(agreed)
	if len(least) < n {
		return false
	}
	if pd.least[k] < len(done) {
		if least[pd.least[k]:len(done)] != done[pd.least[k]:] {
			return false
		}
		pd.least[k] = len(done)
	}
	return least[len(done):n] == agreed
}

type kept struct {
	ev       Event
	from, to int
}

// newChain returns a Parser reading the output in d and, when that finds
// nothing, in the fallbacks' (opts.Fallback).
func newChain(d dialects.Dialect, opts *Options) *Parser {
	w := &struct {
		Parser
		c chain
	}{}
	c := &w.c
	w.ch = c
	c.opts = *opts
	c.name = d.Name()
	inner := Options{Parse: c.opts.Parse, MaxBytes: -1}
	c.alts = make([]alternate, 0, 1+len(opts.Fallback))
	c.alts = append(c.alts, alternate{p: newAlone(d, &inner)})
	for _, fb := range opts.Fallback {
		if fb == nil || fb.Name() == c.name {
			continue
		}
		c.alts = append(c.alts, alternate{p: newAlone(fb, &inner)})
	}
	return &w.Parser
}

// write feeds delta to every alternate still in the running, or to the
// one chosen.
func (c *chain) write(delta string) []Event {
	if c.closed || c.cut || delta == "" {
		return nil
	}
	if room := maxBytes(c.opts.MaxBytes) - c.text; len(delta) > room {
		delta, c.cut = delta[:room], true
		if delta == "" {
			return nil
		}
	}
	c.text += len(delta)
	c.events = c.events[:0]
	if c.det != nil && !c.innerKeepsText() {
		c.buf.Write(delta)
	}
	if c.inner != nil {
		c.relay(c.inner.Write(delta))
		return c.events
	}
	if c.det != nil {
		c.detect(delta)
		return c.events
	}
	for i := 0; i < len(c.alts); i++ {
		a := &c.alts[i]
		evs := a.p.Write(delta)
		a.keep(evs)
		if i == 0 && (a.commits(evs) || a.p.hasErrors()) {
			// The named dialect reads a call or an error here: its
			// final reading holds it, and no fallback can apply.
			c.decide(0, nil)
			return c.events
		}
		if i > 0 && a.called {
			c.alts = c.alts[:i+1]
		}
	}
	c.emitAgreed("")
	return c.events
}

// innerKeepsText reports whether the reading chosen keeps the whole
// output itself (dialects.TextReader): a detecting stream's candidate read
// every byte of it, so the stream need not keep a copy from then on.
func (c *chain) innerKeepsText() bool {
	return c.inner != nil && c.inner.eng != nil && c.inner.eng.tr != nil
}

// commits reports whether evs start or report a call.
func (a *alternate) commits(evs []Event) bool {
	for _, ev := range evs {
		switch ev.Kind {
		case CallStart, Call, CallError:
			return true
		}
	}
	return false
}

// keep records evs, the events of one Write of the alternate (none in a
// quiet stream).
func (a *alternate) keep(evs []Event) {
	for _, ev := range evs {
		k := -1
		switch ev.Kind {
		case Call:
			a.called = true
		case Content:
			k = 0
		case Reasoning:
			k = 1
		}
		if ev.Kind == CallArguments {
			from := len(a.args)
			a.args = append(a.args, ev.Text...)
			if n := len(a.kept); n > 0 && a.kept[n-1].ev.Kind == CallArguments && a.kept[n-1].ev.Index == ev.Index {
				a.kept[n-1].to = len(a.args)
				continue
			}
			a.kept = append(a.kept, kept{ev: Event{Kind: CallArguments, Index: ev.Index}, from: from, to: len(a.args)})
			continue
		}
		if k < 0 {
			a.kept = append(a.kept, kept{ev: ev})
			continue
		}
		from := a.at[k]
		a.at[k] += len(ev.Text)
		if n := len(a.kept); n > 0 && a.kept[n-1].ev.Kind == ev.Kind {
			a.kept[n-1].to = a.at[k]
			continue
		}
		a.kept = append(a.kept, kept{ev: Event{Kind: ev.Kind}, from: from, to: a.at[k]})
	}
}

// emitAgreed emits the answer text and reasoning every alternate has
// emitted, as far as they agree and not yet emitted. Each alternate's
// text begins with what was emitted, so only what follows is compared.
// Under detection text is the output every alternate has read.
func (c *chain) emitAgreed(text string) {
	if c.quiet {
		// Nothing is emitted before the decision.
		return
	}
	hold, plain := 0, false
	if c.det != nil {
		if hold = c.held(text); hold == len(text) {
			return
		}
		plain = c.pendingPlain()
	}
	if len(c.alts) == 0 && len(c.pending) == 0 && !plain {
		return
	}
	for k, kind := range [2]Kind{Content, Reasoning} {
		done := c.outText(kind)
		agreed := ""
		first := true
		if plain {
			// A candidate read by no alternate yet reads the text as
			// plain text: answer text, less the whitespace around it,
			// when the output starts outside reasoning.
			s := ""
			if kind == Content && !dialects.ImplicitReasoning("", nil, &c.opts.Parse) {
				s = textlayer.TrimSpace(text)
			}
			if len(s) < len(done) || !c.plainAgrees[k] && s[:len(done)] != done {
				continue
			}
			c.plainAgrees[k] = true
			agreed, first = s[len(done):], false
		} else {
			c.plainAgrees[k] = false
		}
		// fold narrows agreed to s, what one candidate lets the stream
		// emit; agrees says s was found to begin with done.
		fold := func(s string, agrees *bool) {
			if len(s) < len(done) || !*agrees && s[:len(done)] != done {
				agreed, first = "", false
				return
			}
			*agrees = true
			if s = s[len(done):]; first {
				agreed, first = s, false
			} else {
				agreed = commonPrefix(agreed, s)
			}
		}
		for i := 0; i < len(c.alts) && (first || agreed != ""); i++ {
			a := &c.alts[i]
			if c.det != nil {
				fold(c.say(a, kind, text), &a.agrees[k])
			} else {
				fold(a.p.outText(kind), &a.agrees[k])
			}
		}
		for i := 0; i < len(c.pending) && (first || agreed != ""); i++ {
			if pd := &c.pending[i]; pd.opaque {
				// An opaque dialect lets the stream emit the same
				// whatever its Reader emitted.
				fold(c.least(pd, kind, text), &pd.agrees[k])
			}
		}
		// The other candidates with no Reader yet: each lets the stream
		// emit at least what least says. Where that is less than the
		// others agree on, its Reader is made, the one that allows the
		// least first, and what it emitted counts.
		for first || agreed != "" {
			best, bestLen := -1, 0
			for i := range c.pending {
				pd := &c.pending[i]
				if pd.opaque {
					continue
				}
				s := c.least(pd, kind, text)
				if !first && pd.allows(k, s, done, agreed) {
					continue
				}
				if best < 0 || len(s) < bestLen {
					best, bestLen = i, len(s)
				}
			}
			if best < 0 {
				break
			}
			a := c.materialize(best, text)
			fold(c.say(a, kind, text), &a.agrees[k])
		}
		if hold > 0 && kind == Content {
			// Text that may begin a candidate's marker: held, when the
			// answer text ends with it.
			tail := text[len(text)-hold:]
			for j := min(hold, len(agreed)); j > 0; j-- {
				if strings.HasSuffix(agreed, tail[:j]) {
					// With the whitespace before it, which a call
					// there would trim.
					agreed = textlayer.TrimRight(agreed[:len(agreed)-j])
					break
				}
			}
		}
		// A character the readings split differently is not cut.
		for n := len(agreed); n > 0 && n > len(agreed)-utf8.UTFMax; n-- {
			if utf8.RuneStart(agreed[n-1]) {
				if !utf8.FullRuneInString(agreed[n-1:]) {
					agreed = agreed[:n-1]
				}
				break
			}
		}
		if agreed != "" {
			c.emit(Event{Kind: kind, Text: agreed})
		}
	}
}

// outText is the text of kind (Content or Reasoning) the stream emitted.
func (c *chain) outText(kind Kind) string {
	if kind == Reasoning {
		return c.reasonOut.String()
	}
	return c.contentOut.String()
}

func commonPrefix(a, b string) string {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	return a[:i]
}

// emit adds ev to the events, recording the text it emits. A quiet
// stream records the text only while undecided (the alternates agree
// from there), and adds Done alone.
func (c *chain) emit(ev Event) {
	if ev.Text == "" && (ev.Kind == Content || ev.Kind == Reasoning || ev.Kind == CallArguments) {
		return
	}
	if c.quiet && ev.Kind != Done {
		if c.inner == nil {
			switch ev.Kind {
			case Content:
				c.contentOut.WriteString(ev.Text)
			case Reasoning:
				c.reasonOut.WriteString(ev.Text)
			}
		}
		return
	}
	switch ev.Kind {
	case Content:
		c.contentOut.WriteString(ev.Text)
	case Reasoning:
		c.reasonOut.WriteString(ev.Text)
	}
	c.events = append(c.events, ev)
}

// decide makes alternate i the stream's reading: what it emitted beyond
// what the stream has emitted is emitted, in its order, then more, what it
// emitted since in the same Write, and the stream is its from now on.
func (c *chain) decide(i int, more []Event) {
	a := &c.alts[i]
	c.inner = a.p
	for j := range c.alts {
		if j != i && c.det != nil {
			c.alts[j].p.releaseEngine()
		}
	}
	c.alts, c.pending = nil, nil
	if e := a.p.eng; e != nil {
		// Its calls as read decided; they are no longer asked for.
		e.raw, e.raws = false, nil
		if c.quiet {
			e.quiet = true
			if e.closed && c.closed {
				// Chosen at Close (closeDetecting).
				c.emit(Event{Kind: Done, Dialect: e.result.Dialect, Result: e.result})
			}
			return
		}
	}
	c.skip = [2]string{c.contentOut.String(), c.reasonOut.String()}
	evs := make([]Event, 0, len(a.kept)+len(more))
	for _, k := range a.kept {
		ev := k.ev
		switch ev.Kind {
		case Content, Reasoning:
			ev.Text = a.p.outText(ev.Kind)[k.from:k.to]
		case CallArguments:
			ev.Text = string(a.args[k.from:k.to])
		}
		evs = append(evs, ev)
	}
	c.relay(append(evs, more...))
}

// relay passes on the chosen reading's events, less the text emitted
// before the stream was decided.
func (c *chain) relay(evs []Event) {
	for _, ev := range evs {
		if ev.Kind == Content || ev.Kind == Reasoning {
			k := 0
			if ev.Kind == Reasoning {
				k = 1
			}
			if skip := c.skip[k]; skip != "" {
				n := min(len(skip), len(ev.Text))
				if ev.Text[:n] != skip[:n] {
					c.diverge("%s %q was streamed before the reading was decided; the reading chosen is %q", ev.Kind, skip, ev.Text)
				}
				c.skip[k] = skip[n:]
				ev.Text = ev.Text[n:]
			}
		}
		c.emit(ev)
	}
}

// close ends the output. A stream still undecided has every alternate
// read the whole output, and the one-shot rule picks one.
func (c *chain) close() []Event {
	if c.closed {
		return nil
	}
	c.closed = true
	c.events = nil // Close's events are not reused: the last Write's stay as they were
	switch {
	case c.inner != nil && c.inner.eng != nil && c.inner.eng.closed:
		// A quiet stream closed the candidate it chose with the whole
		// output (readAt): its result stands.
		c.emit(Event{Kind: Done, Dialect: c.inner.eng.result.Dialect, Result: c.inner.eng.result})
	case c.inner != nil:
		c.relay(c.inner.Close())
	case c.det != nil:
		c.closeDetecting()
	default:
		closes := make([][]Event, len(c.alts))
		results := make([]*toolcall.Result, len(c.alts))
		for i := range c.alts {
			closes[i] = c.alts[i].p.Close()
			results[i] = closes[i][len(closes[i])-1].Result
		}
		win := 0
		if r := results[0]; len(r.Calls) == 0 && len(r.Errors) == 0 {
			for i := 1; i < len(results); i++ {
				if len(results[i].Calls) > 0 {
					win = i
					break
				}
			}
		}
		if win > 0 {
			c.emit(Event{Kind: Detected, Dialect: results[win].Dialect, Text: "fallback after " + c.name + " found no call"})
		}
		c.alts[win].keep(closes[win])
		c.decide(win, nil)
	}
	done := &c.events[len(c.events)-1]
	if c.inner != nil {
		if d := c.inner.Disagreement(); d != "" {
			c.diverge("%s", d)
		}
	}
	if c.skip[0] != "" || c.skip[1] != "" {
		c.diverge("text %q %q streamed before the reading was decided is not in the result", c.skip[0], c.skip[1])
	}
	if c.cut {
		done.Result.Errors = append(done.Result.Errors, cutError(maxBytes(c.opts.MaxBytes), c.text))
	}
	c.result = done.Result
	return c.events
}

func (c *chain) diverge(format string, args ...any) {
	if c.diverged == "" {
		c.diverged = fmt.Sprintf(format, args...)
	}
}
