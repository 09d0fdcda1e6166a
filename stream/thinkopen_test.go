package stream_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/render"
	"github.com/dialectkit/toolcall/stream"
)

// TestCallDraftedInTemplateOpenedReasoning: when the template opened the
// reasoning block (ReasoningOpen, or a closing tag with no opening one),
// a call drafted before the first closing tag is reasoning, one-shot and
// streamed; only the call after the tag is a call, and the stream does
// not report a call before it knows whether a closing tag follows. In
// reasoning that never closes a marked call counts, at the end. An
// explicit <think> block reads as it always did.
func TestCallDraftedInTemplateOpenedReasoning(t *testing.T) {
	draft := toolcall.Call{ID: "call_1", Name: "delete_file", Arguments: json.RawMessage(`{"path":"build/out"}`)}
	real := toolcall.Call{ID: "call_2", Name: "delete_file", Arguments: json.RawMessage(`{"path":"tmp/x"}`)}
	open := registry.Options{ReasoningOpen: true}
	for _, name := range []string{"deepseek_v31", "deepseek_v3", "qwen3_coder", "minimax_m2", "kimi_k2", "glm45", "olmo3", "hermes", "seed_oss", "mistral", "lfm2", "step3"} {
		r, ok := render.For(name)
		if !ok {
			t.Fatalf("no renderer for %s", name)
		}
		drafted, made := r.Calls([]toolcall.Call{draft}), r.Calls([]toolcall.Call{real})
		d, _ := registry.Lookup(name)
		// A family whose templates never open a block (Kimi-K2, Seed-OSS)
		// reads a closing tag alone as text: both calls are calls there,
		// the first as soon as it closes.
		alone, aloneQuiet := []string{"tmp/x"}, 4
		if dialects.SyntaxOf(d).ReasoningClosed {
			alone, aloneQuiet = []string{"build/out", "tmp/x"}, 1
		}
		for _, tc := range []struct {
			name   string
			opts   registry.Options
			chunks []string
			// quiet is how many chunks no call event may follow.
			quiet int
			want  []string // the paths of the calls, in order
		}{
			{
				name:   "template opened: drafted, closed, then called",
				opts:   open,
				chunks: []string{"I could write ", drafted, " but not that one.", "</think>", "\n\n", made},
				quiet:  4, want: []string{"tmp/x"},
			},
			{
				name:   "closing tag alone: drafted, closed, then called",
				chunks: []string{"I could write ", drafted, " but not that one.", "</think>", "\n\n", made},
				quiet:  aloneQuiet, want: alone,
			},
			{
				name:   "template opened: drafted and closed, no call",
				opts:   open,
				chunks: []string{"I could write ", drafted, " but the file is needed.", "</think>", "I will keep it."},
				quiet:  5, want: nil,
			},
			{
				name:   "template opened, never closed: the call counts at the end",
				opts:   open,
				chunks: []string{"The user wants tmp/x removed.\n\n", made, " "},
				quiet:  3, want: []string{"tmp/x"},
			},
			{
				name:   "explicit block: drafted inside, called after",
				opts:   open,
				chunks: []string{"<think>I could write ", drafted, " but not that one.</think>", "\n\n", made},
				quiet:  3, want: []string{"tmp/x"},
			},
		} {
			t.Run(name+"/"+tc.name, func(t *testing.T) {
				text := strings.Join(tc.chunks, "")
				o := tc.opts
				o.Dialect = name
				res := registry.Parse(text, &o)
				if got := paths(t, res.Calls); !slices.Equal(got, tc.want) {
					t.Errorf("one-shot: calls %v, want %v (errors %v, reasoning %q)\ntext: %q", got, tc.want, res.Errors, res.Reasoning, text)
				}
				if tc.want == nil || tc.quiet > 3 {
					if !strings.Contains(res.Reasoning, "build/out") {
						t.Errorf("one-shot: the drafted call left the reasoning %q (content %q)", res.Reasoning, res.Content)
					}
				}
				for _, detect := range []bool{false, true} {
					so := o
					if detect {
						so.Dialect = "" // the same holds under detection
					}
					streamed(t, &so, tc.chunks, tc.quiet, tc.want)
				}
				do := dialects.Options{ReasoningOpen: o.ReasoningOpen}
				if err := streamtest.Check(d, text, tc.chunks, &do); err != nil {
					t.Errorf("stream invariant: %v", err)
				}
			})
		}
	}
}

// streamed streams chunks with o and checks that no call is reported after
// the first quiet chunks and that the calls are want, by path.
func streamed(t *testing.T, o *registry.Options, chunks []string, quiet int, want []string) {
	t.Helper()
	p := registry.Stream(o)
	var calls []toolcall.Call
	for i, c := range chunks {
		for _, ev := range p.Write(c) {
			if ev.Kind == stream.CallStart || ev.Kind == stream.Call {
				if i < quiet {
					t.Errorf("dialect %q: streamed: %s event after chunk %d %q, before the stream could know the call stands", o.Dialect, ev.Kind, i, c)
				}
				if ev.Kind == stream.Call {
					calls = append(calls, *ev.Call)
				}
			}
		}
	}
	for _, ev := range p.Close() {
		if ev.Kind == stream.Call {
			calls = append(calls, *ev.Call)
		}
	}
	if got := paths(t, calls); !slices.Equal(got, want) {
		t.Errorf("dialect %q: streamed: calls %v, want %v", o.Dialect, got, want)
	}
	if d := p.Disagreement(); d != "" {
		t.Errorf("dialect %q: disagreement: %s", o.Dialect, d)
	}
}

// paths lists the "path" argument of each call.
func paths(t *testing.T, calls []toolcall.Call) []string {
	t.Helper()
	var out []string
	for _, c := range calls {
		var a struct{ Path string }
		if err := json.Unmarshal(c.Arguments, &a); err != nil {
			t.Errorf("call %s: arguments %s: %v", c.Name, c.Arguments, err)
		}
		out = append(out, a.Path)
	}
	return out
}

// TestTemplateOpenedReasoningStreams streams, named, an output that opens
// in a reasoning block the template opened (ReasoningOpen) and checks
// that the reasoning goes out as it arrives, before its closing tag is
// written, in every family that reads such a block; the call after the
// tag, and the reasoning's whole text, are those of a one-shot parse.
func TestTemplateOpenedReasoningStreams(t *testing.T) {
	call := toolcall.Call{ID: "call_1", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)}
	chunks := []string{"The user wants ", "the weather in Paris.\n", "I will call the tool", "."}
	for _, tc := range []struct{ name, close string }{
		{"mistral", "[/THINK]"}, {"deepseek_v3", "</think>"}, {"deepseek_v31", "</think>"}, {"kimi_k2", "</think>"},
		{"hermes", "</think>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, ok := render.For(tc.name)
			if !ok {
				t.Fatalf("no renderer for %s", tc.name)
			}
			all := append(slices.Clone(chunks), tc.close, "\n\n", r.Calls([]toolcall.Call{call}))
			text := strings.Join(all, "")
			o := &registry.Options{Dialect: tc.name, ReasoningOpen: true}
			want := registry.Parse(text, o)
			if len(want.Calls) != 1 || want.Calls[0].Name != "get_weather" {
				t.Fatalf("one-shot: calls %+v, errors %v", want.Calls, want.Errors)
			}
			p := registry.Stream(o)
			var reasoning strings.Builder
			for i, c := range all {
				for _, ev := range p.Write(c) {
					if ev.Kind == stream.Reasoning {
						reasoning.WriteString(ev.Text)
					}
				}
				if i == len(chunks)-2 {
					// The reasoning so far went out, but for the text
					// after the last blank, held.
					if got, sent := reasoning.String(), strings.Join(chunks[:len(chunks)-1], ""); got != sent {
						t.Errorf("before the closing tag, reasoning %q went out, want %q", got, sent)
					}
				}
			}
			for _, ev := range p.Close() {
				if ev.Kind == stream.Reasoning {
					reasoning.WriteString(ev.Text)
				}
			}
			if reasoning.String() != want.Reasoning {
				t.Errorf("streamed reasoning %q, one-shot %q", reasoning.String(), want.Reasoning)
			}
		})
	}
}
