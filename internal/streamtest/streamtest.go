// Package streamtest checks the stream invariant: whatever way a text is
// cut into deltas, streaming it gives the one-shot answer, and the events
// streamed on the way agree with it. Dialect packages call Check from their
// table tests, so every row is streamed too.
package streamtest

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/stream"
)

// maxEveryCut is the longest text cut at every single point.
const maxEveryCut = 400

// Cuts returns ways of cutting text into deltas: chunks (when given), the
// whole text, one byte at a time, every single cut point of a short text,
// and random cuts from a seed derived from the text. Few leaves out the
// single cut points.
func Cuts(text string, chunks []string, few bool) [][]string {
	var out [][]string
	if len(chunks) > 0 {
		out = append(out, chunks)
	}
	bytewise := make([]string, len(text))
	for i := 0; i < len(text); i++ {
		bytewise[i] = text[i : i+1]
	}
	out = append(out, []string{text}, bytewise)
	if !few && len(text) <= maxEveryCut {
		for i := 1; i < len(text); i++ {
			out = append(out, []string{text[:i], text[i:]})
		}
	}
	rng := rand.New(rand.NewPCG(uint64(len(text)), 7))
	for range 8 {
		var cut []string
		for rest := text; rest != ""; {
			n := 1 + rng.IntN(min(len(rest), 1+rng.IntN(64)))
			cut, rest = append(cut, rest[:n]), rest[n:]
		}
		out = append(out, cut)
	}
	return out
}

// Feed writes deltas to p, closes it, and returns every event.
func Feed(p *stream.Parser, deltas []string) []stream.Event {
	var evs []stream.Event
	for _, c := range deltas {
		evs = append(evs, p.Write(c)...)
	}
	return append(evs, p.Close()...)
}

// Check streams text in dialect d, cut every way Cuts gives, and returns the
// first disagreement with dialects.Parse(d, text, opts).
func Check(d dialects.Dialect, text string, chunks []string, opts *dialects.Options) error {
	if opts == nil {
		opts = &dialects.Options{}
	}
	newParser := func() *stream.Parser { return stream.NewParser(d, &stream.Options{Parse: *opts}) }
	return CheckCuts(dialects.Parse(d, text, opts), newParser, text, chunks, false)
}

// CheckCuts streams text, cut every way Cuts(text, chunks, few) gives,
// each cut through a new parser from newParser (registry.Stream, say),
// and returns the first disagreement with want, the one-shot result.
func CheckCuts(want *toolcall.Result, newParser func() *stream.Parser, text string, chunks []string, few bool) error {
	for i, cut := range Cuts(text, chunks, few) {
		p := newParser()
		if err := Compare(want, p, Feed(p, cut)); err != nil {
			return fmt.Errorf("cut %d (%d deltas): %w", i, len(cut), err)
		}
	}
	return nil
}

// Compare checks one streamed run against the one-shot result: the final
// result equals it (but for generated call ids), nothing streamed
// disagrees with it, the content and reasoning deltas add up to it, and
// every call started ends once, as the final result has it.
func Compare(want *toolcall.Result, p *stream.Parser, evs []stream.Event) error {
	if len(evs) == 0 || evs[len(evs)-1].Kind != stream.Done {
		return fmt.Errorf("stream did not end with Done")
	}
	got := evs[len(evs)-1].Result
	if err := SameResult(want, got); err != nil {
		return err
	}
	if d := p.Disagreement(); d != "" {
		return fmt.Errorf("streamed events disagreed with the final result: %s", d)
	}
	var content, reasoning strings.Builder
	started, ended, failed := map[int]bool{}, map[int]bool{}, map[int]bool{}
	detected := ""
	for i, ev := range evs {
		switch ev.Kind {
		case stream.Done:
			if i != len(evs)-1 {
				return fmt.Errorf("event %d: Done before the last event", i)
			}
		case stream.Detected:
			if detected != "" {
				return fmt.Errorf("detected twice: %s, then %s", detected, ev.Dialect)
			}
			detected = ev.Dialect
			if ev.Dialect != got.Dialect {
				return fmt.Errorf("detected %q while streaming, the result is in %q", ev.Dialect, got.Dialect)
			}
		case stream.CallArguments:
			if !started[ev.Index] || ended[ev.Index] {
				return fmt.Errorf("arguments of call %d outside its start and end", ev.Index)
			}
		case stream.Content:
			content.WriteString(ev.Text)
		case stream.Reasoning:
			reasoning.WriteString(ev.Text)
		case stream.CallStart:
			if started[ev.Index] {
				return fmt.Errorf("call %d started twice", ev.Index)
			}
			started[ev.Index] = true
		case stream.Call, stream.CallError:
			if !started[ev.Index] || ended[ev.Index] {
				return fmt.Errorf("call %d ended without a start, or twice", ev.Index)
			}
			ended[ev.Index] = true
			failed[ev.Index] = ev.Kind == stream.CallError
			if ev.Kind == stream.Call {
				c, ok := got.Call(ev.Index)
				if !ok || c.ID != ev.Call.ID || c.Name != ev.Call.Name || !bytes.Equal(c.Arguments, ev.Call.Arguments) {
					return fmt.Errorf("call event %d differs from the final call", ev.Index)
				}
			}
		}
	}
	for i := range started {
		if !ended[i] {
			return fmt.Errorf("call %d started and never ended", i)
		}
	}
	if content.String() != got.Content {
		return fmt.Errorf("content deltas %q, final content %q", content.String(), got.Content)
	}
	if reasoning.String() != got.Reasoning {
		return fmt.Errorf("reasoning deltas %q, final reasoning %q", reasoning.String(), got.Reasoning)
	}
	// Every call and call error of the result ended in the stream, and
	// every call that ended is one of them; but for a failed call whose
	// error the error cap left out of the result (dialects.Finish),
	// when the result says errors were left out.
	final := map[int]bool{}
	for _, c := range got.Calls {
		final[c.Index] = true
	}
	summed := false
	for _, e := range got.Errors {
		if e.CallIndex >= 0 {
			final[e.CallIndex] = true
		} else if errors.Is(e, dialects.ErrUnlisted) {
			summed = true
		}
	}
	for i := range final {
		if !ended[i] {
			return fmt.Errorf("call %d of the final result never ended in the stream", i)
		}
	}
	for i := range ended {
		if !final[i] && !(summed && failed[i]) {
			return fmt.Errorf("call %d ended in the stream, but the final result has no call or error %d", i, i)
		}
	}
	return nil
}

// SameResult compares two results, ignoring the call ids the library
// generated (which are random).
func SameResult(want, got *toolcall.Result) error {
	if want.Dialect != got.Dialect {
		return fmt.Errorf("dialect %q, one-shot %q", got.Dialect, want.Dialect)
	}
	if want.Content != got.Content {
		return fmt.Errorf("content %q, one-shot %q", got.Content, want.Content)
	}
	if want.Reasoning != got.Reasoning {
		return fmt.Errorf("reasoning %q, one-shot %q", got.Reasoning, want.Reasoning)
	}
	if len(want.Calls) != len(got.Calls) {
		return fmt.Errorf("%d calls, one-shot %d", len(got.Calls), len(want.Calls))
	}
	for i := range want.Calls {
		w, g := want.Calls[i], got.Calls[i]
		if w.Name != g.Name || w.Index != g.Index || !bytes.Equal(w.Arguments, g.Arguments) {
			return fmt.Errorf("call %d: %s %s, one-shot %s %s", i, g.Name, g.Arguments, w.Name, w.Arguments)
		}
		if !strings.HasPrefix(w.ID, "call_") && w.ID != g.ID {
			return fmt.Errorf("call %d: id %q, one-shot %q", i, g.ID, w.ID)
		}
	}
	if len(want.Errors) != len(got.Errors) {
		return fmt.Errorf("%d errors, one-shot %d", len(got.Errors), len(want.Errors))
	}
	for i := range want.Errors {
		if want.Errors[i].Code != got.Errors[i].Code || want.Errors[i].CallIndex != got.Errors[i].CallIndex {
			return fmt.Errorf("error %d: %s, one-shot %s", i, got.Errors[i].Code, want.Errors[i].Code)
		}
	}
	if len(want.Repairs) != len(got.Repairs) {
		return fmt.Errorf("%d repairs, one-shot %d", len(got.Repairs), len(want.Repairs))
	}
	for i := range want.Repairs {
		if want.Repairs[i].Kind != got.Repairs[i].Kind || want.Repairs[i].CallIndex != got.Repairs[i].CallIndex {
			return fmt.Errorf("repair %d: %s, one-shot %s", i, got.Repairs[i].Kind, want.Repairs[i].Kind)
		}
	}
	return nil
}
