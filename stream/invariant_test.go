package stream_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/corpustest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/stream"
)

// feed streams chunks through a parser and returns its events.
func feed(p *stream.Parser, chunks []string) []stream.Event {
	var evs []stream.Event
	for _, c := range chunks {
		evs = append(evs, p.Write(c)...)
	}
	return append(evs, p.Close()...)
}

// cutsOf returns ways of cutting text into deltas: the given chunks, one
// byte at a time, every single cut point of a short text, and random cuts.
func cutsOf(text string, chunks []string, seed uint64, every bool) [][]string {
	var out [][]string
	if len(chunks) > 0 {
		out = append(out, chunks)
	}
	bytewise := make([]string, len(text))
	for i := 0; i < len(text); i++ {
		bytewise[i] = text[i : i+1]
	}
	out = append(out, []string{text}, bytewise)
	if every {
		for i := 1; i < len(text); i++ {
			out = append(out, []string{text[:i], text[i:]})
		}
	}
	rng := rand.New(rand.NewPCG(seed, 7))
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

// checkStream checks one streamed run against the one-shot result.
func checkStream(want *toolcall.Result, p *stream.Parser, evs []stream.Event) error {
	if len(evs) == 0 || evs[len(evs)-1].Kind != stream.Done {
		return fmt.Errorf("stream did not end with Done")
	}
	got := evs[len(evs)-1].Result
	if err := sameResult(want, got); err != nil {
		return err
	}
	if d := stream.Diverged(p); d != "" {
		return fmt.Errorf("streamed events disagreed with the final result: %s", d)
	}
	var content, reasoning strings.Builder
	ended := map[int]bool{}
	started := map[int]bool{}
	for _, ev := range evs {
		switch ev.Kind {
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
			if ev.Kind == stream.Call {
				c, ok := got.Call(ev.Index)
				if !ok || c.ID != ev.Call.ID || c.Name != ev.Call.Name || !bytes.Equal(c.Arguments, ev.Call.Arguments) {
					return fmt.Errorf("call event %d differs from the final call", ev.Index)
				}
			}
		}
	}
	if content.String() != got.Content {
		return fmt.Errorf("content deltas %q, final content %q", content.String(), got.Content)
	}
	if reasoning.String() != got.Reasoning {
		return fmt.Errorf("reasoning deltas %q, final reasoning %q", reasoning.String(), got.Reasoning)
	}
	if len(ended) != len(got.Calls)+countCallErrors(got) {
		return fmt.Errorf("%d calls ended, final result has %d calls and %d call errors", len(ended), len(got.Calls), countCallErrors(got))
	}
	return nil
}

func countCallErrors(r *toolcall.Result) int {
	n := 0
	for _, e := range r.Errors {
		if e.CallIndex >= 0 {
			n++
		}
	}
	return n
}

// sameResult compares results, ignoring the ids the library generated.
func sameResult(want, got *toolcall.Result) error {
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
	return nil
}

// TestCorpusInvariant streams every corpus vector, cut every way, with its
// dialect named and with detection, and requires the one-shot answer.
func TestCorpusInvariant(t *testing.T) {
	vs, err := corpustest.Dialects()
	if err != nil {
		t.Fatal(err)
	}
	failures := map[string]int{}
	for _, v := range vs {
		tools, err := v.ToolSet()
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{v.Dialect, ""} {
			opts := &registry.Options{Dialect: name}
			opts.Tools = tools
			want := registry.Parse(v.Text, opts)
			every := name != "" && len(v.Text) <= 400
			for ci, cut := range cutsOf(v.Text, v.Chunks, uint64(len(v.Text)), every) {
				p := registry.Stream(opts)
				evs := feed(p, cut)
				if err := checkStream(want, p, evs); err != nil {
					mode := name
					if mode == "" {
						mode = "detect"
					}
					failures[v.Dialect+"/"+mode]++
					t.Errorf("%s (%s) cut %d of %d pieces: %v", v.ID, mode, ci, len(cut), err)
					break
				}
			}
		}
	}
	if len(failures) > 0 {
		t.Logf("failures by dialect: %v", failures)
	}
}
