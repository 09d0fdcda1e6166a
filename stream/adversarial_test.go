package stream_test

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/longtest"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/render"
	"github.com/dialectkit/toolcall/schema"
	"github.com/dialectkit/toolcall/stream"
)

// TestAdversarialStreams generates hostile outputs around a call rendered
// in every dialect and streams each, named (with and without a fallback
// chain) and under detection, cut every
// way: the stream must give the one-shot result and emit nothing it takes
// back (streamtest.Compare), and where the text holds no call, no Call
// event may come, live or at Close:
//   - every prefix of the call that ends inside its envelope or arguments
//     (a cut-off call is an error or content, never the arguments so far);
//   - the call inside a closed <think> block;
//   - the call in inline code, and in a fence that prose shows as an
//     example;
//   - prose that names the tool and the dialect's markers;
//   - a whole call followed by a cut-off one (exactly one call).
func TestAdversarialStreams(t *testing.T) {
	longtest.Skip(t)
	set, err := schema.NewSet(toolcall.Tool{Name: "delete_file", Parameters: json.RawMessage(
		`{"type":"object","properties":{"path":{"type":"string"},"force":{"type":"boolean"}},"required":["path"]}`)})
	if err != nil {
		t.Fatal(err)
	}
	call := toolcall.Call{ID: "call_1", Name: "delete_file", Arguments: json.RawMessage(`{"force":true,"path":"build/zq9"}`)}
	for _, name := range registry.Names() {
		if name == "ollama" {
			continue // a server's JSON body, not model text
		}
		r, ok := render.For(name)
		if !ok {
			continue
		}
		t.Run(name, func(t *testing.T) {
			full := r.Calls([]toolcall.Call{call})
			window := strings.LastIndex(full, "zq9")
			rng := rand.New(rand.NewPCG(uint64(len(full)), 3))
			optSets := []registry.Options{
				{Dialect: name, Tools: set, ReasoningClosed: true},
				{Dialect: name},
				{Dialect: name, Tools: set, Fallback: []string{"json", "pythonic", "hermes"}, ReasoningClosed: true},
				{Tools: set, ReasoningClosed: true},
				{},
			}
			check := func(text string, noCall bool, cuts [][]string) {
				t.Helper()
				for oi := range optSets {
					opts := optSets[oi]
					want := registry.Parse(text, &opts)
					if noCall && len(want.Calls) > 0 {
						t.Errorf("Parse (dialect %q, tools %v) reads call %s %s\ntext: %q", opts.Dialect, opts.Tools != nil, want.Calls[0].Name, want.Calls[0].Arguments, text)
						return
					}
					for _, cut := range cuts {
						p := registry.Stream(&opts)
						evs := streamtest.Feed(p, cut)
						if err := streamtest.Compare(want, p, evs); err != nil {
							t.Errorf("dialect %q, tools %v, %d deltas: %v\ntext: %q", opts.Dialect, opts.Tools != nil, len(cut), err, text)
							return
						}
						for _, ev := range evs {
							if noCall && ev.Kind == stream.Call {
								t.Errorf("dialect %q: a Call event for %q", opts.Dialect, text)
								return
							}
						}
					}
				}
			}
			randomCut := func(text string) []string {
				var cut []string
				for rest := text; rest != ""; {
					n := 1 + rng.IntN(min(len(rest), 12))
					cut, rest = append(cut, rest[:n]), rest[n:]
				}
				return cut
			}
			bytewise := func(text string) []string {
				cut := make([]string, len(text))
				for i := 0; i < len(text); i++ {
					cut[i] = text[i : i+1]
				}
				return cut
			}
			// Cut-off calls, at every byte inside the call.
			for p := 1; p < window; p++ {
				prefix := full[:p]
				if !strings.Contains(prefix, "(") && (strings.Contains(prefix, "<|python_tag|>") || strings.HasPrefix(prefix, "python")) {
					// Raw code has no envelope before its
					// parentheses: such a prefix is code as it stands.
					check(prefix, false, [][]string{randomCut(prefix)})
					continue
				}
				check(prefix, true, [][]string{bytewise(prefix), randomCut(prefix)})
			}
			type hostileText struct {
				text   string
				noCall bool
			}
			hostile := []hostileText{
				{"Before I act: delete_file takes a path. " + full[:window] + "\n\nI stopped there.", false},
				{"For example:\n```\n" + full + "\n```\nThat is the format.", true},
				{"I know delete_file(path) and the markers <tool_call>, [TOOL_CALLS], <|python_tag|>, <function=delete_file> and ```json fences; I use none now.", true},
				{full + "\nAnd also " + full[:window], false},
			}
			if !strings.HasPrefix(full, "```") {
				// Inline code, also when the call's own syntax holds a
				// fence line (DeepSeek V3's arguments): the paragraph goes
				// on through it (shown.ShownScan). A call that is a fence
				// (markdown_json) cannot open inline code.
				hostile = append(hostile, hostileText{"You could write `" + full + "` here, but I will not.", true})
			}
			think := hostileText{"<think>I could write " + full + " but the file is needed.</think>I will keep the file.", true}
			for _, h := range hostile {
				check(h.text, h.noCall, streamtest.Cuts(h.text, nil, true))
			}
			check(think.text, think.noCall, streamtest.Cuts(think.text, nil, true))
			// The whole call followed by a cut-off one: exactly one call.
			two := full + "\n" + full[:window]
			opts := registry.Options{Dialect: name, Tools: set, ReasoningClosed: true}
			if res := registry.Parse(two, &opts); len(res.Calls) > 1 {
				t.Errorf("a whole call and a cut-off one: %d calls\ntext: %q", len(res.Calls), two)
			}
		})
	}
}
