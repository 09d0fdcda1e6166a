package stream

import (
	"strings"
	"unicode/utf8"

	"github.com/dialectkit/toolcall"
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
//     one), its final reading holds that call or error, so the fallbacks
//     cannot apply: from there on the stream is that parser's, and it goes
//     on streaming live;
//   - otherwise the decision is only known at Close, and the calls of a
//     fallback dialect come with Close.
//
// Until it is decided, the answer text and reasoning every alternate still
// in the running has emitted are emitted as far as they agree (their common
// prefix): whichever reading wins, its text begins with that. A fallback
// that has reported a valid call rules out the fallbacks after it.

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
	args strings.Builder
	// called says p reported a valid call: the fallbacks after it cannot
	// apply.
	called bool
}

type kept struct {
	ev       Event
	from, to int
}

// newChoosing returns a Parser reading the output in prof's dialect and,
// when that finds nothing, in the fallbacks' (opts.Fallback).
func newChoosing(prof *Profile, opts *Options) *Parser {
	w := newParser(opts)
	p := w.old
	p.prof, p.d = prof, prof.d
	inner := Options{Parse: p.opts.Parse, MaxBytes: p.opts.MaxBytes}
	p.alts = make([]alternate, 0, 1+len(opts.Fallback))
	p.alts = append(p.alts, alternate{p: prof.NewParser(&inner)})
	for _, fb := range opts.Fallback {
		if fb == nil || fb.d.Name() == prof.d.Name() {
			continue
		}
		p.alts = append(p.alts, alternate{p: fb.NewParser(&inner)})
	}
	return w
}

// writeAlts feeds delta to every alternate still in the running.
func (p *profiled) writeAlts(delta string) {
	for i := 0; i < len(p.alts); i++ {
		a := &p.alts[i]
		evs := a.p.Write(delta)
		a.keep(evs)
		if i == 0 && a.commits(evs) {
			// The named dialect reads a call here: its final reading
			// holds it or its error, and no fallback can apply.
			p.decideAlt(0)
			return
		}
		if i > 0 && a.called {
			p.alts = p.alts[:i+1]
		}
	}
	p.emitAgreed()
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

// keep records evs, the events of one Write of the alternate.
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
			from := a.args.Len()
			a.args.WriteString(ev.Text)
			if n := len(a.kept); n > 0 && a.kept[n-1].ev.Kind == CallArguments && a.kept[n-1].ev.Index == ev.Index {
				a.kept[n-1].to = a.args.Len()
				continue
			}
			a.kept = append(a.kept, kept{ev: Event{Kind: CallArguments, Index: ev.Index}, from: from, to: a.args.Len()})
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
// emitted, as far as they agree and not yet emitted.
func (p *profiled) emitAgreed() {
	for _, kind := range [2]Kind{Content, Reasoning} {
		agreed := p.alts[0].p.outText(kind)
		for i := 1; i < len(p.alts) && agreed != ""; i++ {
			agreed = commonPrefix(agreed, p.alts[i].p.outText(kind))
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
		if done := p.outText(kind); len(agreed) > len(done) {
			p.emit(Event{Kind: kind, Text: agreed[len(done):]})
		}
	}
}

// outText is the text of kind (Content or Reasoning) the parser emitted.
func (p *profiled) outText(kind Kind) string {
	if kind == Reasoning {
		return p.reasonOut.String()
	}
	return p.contentOut.String()
}

func commonPrefix(a, b string) string {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	return a[:i]
}

// decideAlt makes alternate i the stream's reading: what it emitted beyond
// what the stream has emitted is emitted, in its order, and the stream is
// its from now on.
func (p *profiled) decideAlt(i int) {
	a := &p.alts[i]
	p.inner = a.p
	p.skip = [2]string{p.contentOut.String(), p.reasonOut.String()}
	p.alts = nil
	evs := make([]Event, 0, len(a.kept))
	for _, k := range a.kept {
		ev := k.ev
		switch ev.Kind {
		case Content, Reasoning:
			ev.Text = a.p.outText(ev.Kind)[k.from:k.to]
		case CallArguments:
			ev.Text = a.args.String()[k.from:k.to]
		}
		evs = append(evs, ev)
	}
	p.relay(evs)
}

// closeAlts ends a stream whose reading is not yet decided: every
// alternate reads the whole output, and the one-shot rule picks one.
func (p *profiled) closeAlts() []Event {
	closes := make([][]Event, len(p.alts))
	results := make([]*toolcall.Result, len(p.alts))
	for i := range p.alts {
		closes[i] = p.alts[i].p.Close()
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
	named := p.d.Name()
	if win > 0 {
		p.emit(Event{Kind: Detected, Dialect: results[win].Dialect, Text: "fallback after " + named + " found no call"})
	}
	a := &p.alts[win]
	a.keep(closes[win][:len(closes[win])-1])
	p.decideAlt(win)
	if d := p.inner.Disagreement(); d != "" {
		p.diverge("%s", d)
	}
	if p.skip[0] != "" || p.skip[1] != "" {
		p.diverge("text %q %q streamed before the fallback was decided is not in the result", p.skip[0], p.skip[1])
	}
	res := results[win]
	p.addCut(res, p.textLen())
	p.emit(Event{Kind: Done, Dialect: res.Dialect, Result: res})
	return p.events
}
