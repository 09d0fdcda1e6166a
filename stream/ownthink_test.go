package stream_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/render"
	"github.com/dialectkit/toolcall/schema"
	"github.com/dialectkit/toolcall/stream"
)

// TestThinkInChannelDialects: harmony, Gemma 4 and FunctionGemma reason
// in a syntax of their own, but a closed <think> block is reasoning in
// them as in every dialect. A call drafted inside one is no call, one-shot
// and streamed, named and under detection, and no event the stream emits
// (reasoning streamed before the dialect is known included) is taken back
// by the final reading; the same call after the block is a call.
func TestThinkInChannelDialects(t *testing.T) {
	set, err := schema.NewSet(toolcall.Tool{Name: "delete_file", Parameters: json.RawMessage(
		`{"type":"object","properties":{"path":{"type":"string"},"force":{"type":"boolean"}},"required":["path"]}`)})
	if err != nil {
		t.Fatal(err)
	}
	call := toolcall.Call{ID: "call_1", Name: "delete_file", Arguments: json.RawMessage(`{"force":true,"path":"build/out"}`)}
	for _, name := range []string{"harmony", "gemma4", "functiongemma"} {
		r, ok := render.For(name)
		if !ok {
			t.Fatalf("no renderer for %s", name)
		}
		full := r.Calls([]toolcall.Call{call})
		for _, tc := range []struct {
			label string
			text  string
			calls int
		}{
			{"inside", "<think>I could write " + full + " but the file is needed.</think>I will keep the file.", 0},
			{"inside, then prose", "<think>\nDraft: " + full + "\nNo.\n</think>\n\nThe file stays.", 0},
			{"after", "<think>\nThe user wants the build removed.\n</think>\n\n" + full, 1},
		} {
			for _, opts := range []registry.Options{
				{Dialect: name, Tools: set},
				{Dialect: name},
				{Tools: set},
				{},
			} {
				t.Run(name+"/"+tc.label, func(t *testing.T) {
					want := registry.Parse(tc.text, &opts)
					if opts.Dialect == "" && tc.calls > 0 {
						// Detection reads the call in some dialect; which
						// one is not this test's question.
						if len(want.Calls) != tc.calls {
							t.Errorf("detected: %d calls, want %d (errors %v)\ntext: %q", len(want.Calls), tc.calls, want.Errors, tc.text)
						}
					} else if len(want.Calls) != tc.calls {
						t.Errorf("dialect %q, tools %v: %d calls, want %d (errors %v, content %q)\ntext: %q", opts.Dialect, opts.Tools != nil, len(want.Calls), tc.calls, want.Errors, want.Content, tc.text)
					}
					if tc.calls == 0 && !strings.Contains(want.Reasoning, "build/out") {
						t.Errorf("dialect %q: the drafted call left the reasoning %q (content %q)", opts.Dialect, want.Reasoning, want.Content)
					}
					for _, cut := range streamtest.Cuts(tc.text, nil, true) {
						p := registry.Stream(&opts)
						evs := streamtest.Feed(p, cut)
						if err := streamtest.Compare(want, p, evs); err != nil {
							t.Fatalf("dialect %q, tools %v, %d deltas: %v\ntext: %q", opts.Dialect, opts.Tools != nil, len(cut), err, tc.text)
						}
						for _, ev := range evs {
							if tc.calls == 0 && (ev.Kind == stream.Call || ev.Kind == stream.CallStart) {
								t.Fatalf("dialect %q: a %v event for %q", opts.Dialect, ev.Kind, tc.text)
							}
						}
					}
				})
			}
		}
	}
}
