package stream_test

import (
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/stream"
)

// TestChainOnReaders: a fallback chain of dialects that read their output
// themselves (Options.Fallback, given the dialects) gives, cut every way,
// the result of the one-shot rule (the named dialect's reading when it
// finds a call or an error, else the first fallback's that finds a call),
// and the named dialect's calls stream before Close, a fallback's never.
func TestChainOnReaders(t *testing.T) {
	lookup := func(name string) dialects.Dialect {
		d, ok := registry.Lookup(name)
		if !ok {
			t.Fatalf("no dialect %s", name)
		}
		if _, inc := d.(dialects.Incremental); !inc {
			t.Fatalf("%s does not read its output itself", name)
		}
		return d
	}
	hermesCall := "<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": 1}}\n</tool_call>"
	for _, tt := range []struct {
		name     string
		chain    []string
		text     string
		want     string // the result's dialect
		calls    int
		liveCall bool // a call comes before Close, byte by byte
	}{
		{"named reads a call", []string{"hermes", "json"}, "Checking.\n" + hermesCall + "\nDone.", "hermes", 1, true},
		{"a fallback reads it", []string{"mistral", "qwen3_coder", "hermes"}, "Hi there.\n" + hermesCall + "\nbye", "hermes", 1, false},
		{"the first fallback with a call", []string{"mistral", "json", "hermes"}, "Ok: {\"name\": \"f\", \"arguments\": {}}", "json", 1, false},
		{"nobody reads a call", []string{"hermes", "json"}, "Just an answer.\nSecond line.", "hermes", 0, false},
		{"a failed call of the named dialect stands", []string{"hermes", "sarashina"}, "<tool_call>\n{\"arguments\": {\"a\": 1}}\n</tool_call>\nor f() in python", "hermes", 0, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := lookup(tt.chain[0])
			var fbs []dialects.Dialect
			for _, n := range tt.chain[1:] {
				fbs = append(fbs, lookup(n))
			}
			o := &dialects.Options{ReasoningClosed: true}
			want := dialects.Parse(d, tt.text, o)
			if len(want.Calls) == 0 && len(want.Errors) == 0 {
				for _, fb := range fbs {
					if r := dialects.Parse(fb, tt.text, o); len(r.Calls) > 0 {
						want = r
						break
					}
				}
			}
			if want.Dialect != tt.want || len(want.Calls) != tt.calls {
				t.Fatalf("the one-shot rule reads %d calls in %s, the test expects %d in %s", len(want.Calls), want.Dialect, tt.calls, tt.want)
			}
			for i, cut := range streamtest.Cuts(tt.text, nil, false) {
				p := stream.NewParser(d, &stream.Options{Parse: *o, Fallback: fbs})
				var live []stream.Event
				for _, c := range cut {
					live = append(live, p.Write(c)...)
				}
				evs := append(append([]stream.Event(nil), live...), p.Close()...)
				if err := streamtest.Compare(want, p, evs); err != nil {
					t.Fatalf("cut %d %q: %v", i, cut, err)
				}
				if len(cut) == len(tt.text) {
					called := false
					for _, ev := range live {
						called = called || ev.Kind == stream.Call || ev.Kind == stream.CallError
					}
					if called != tt.liveCall {
						t.Errorf("byte by byte: a call before Close: %v, want %v", called, tt.liveCall)
					}
				}
			}
		})
	}
}
