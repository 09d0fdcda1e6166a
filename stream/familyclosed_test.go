package stream_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/internal/textlayer"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/render"
	"github.com/dialectkit/toolcall/stream"
)

// openNoBlock are the dialects whose families' chat templates provably
// never open a reasoning block (dialects.Syntax.ReasoningClosed), each on
// the evidence its descriptor and docs/streaming.md's table cite.
var openNoBlock = []string{
	"apertus", "functionary_v3_1", "functionary_v3_2", "functiongemma", "functools",
	"gigachat3", "granite", "granite_20b_fc", "harmony", "kimi_k2", "llama3_builtin", "llama3_json",
	"llama4_pythonic", "minimax_m1", "pythonic", "seed_oss", "xlam",
}

// TestFamiliesThatOpenNoBlock pins the dialects marked as families whose
// templates open no reasoning block, and checks what the mark does with
// the defaults (no reasoning option, no template): answer text, a call,
// then a closing tag with no opening one reads as ReasoningClosed reads it
// (the tag is text, the call a call), one-shot; and streamed, named and
// under detection, the call is reported by the Write that closes it, not
// held until Close for fear of the closing tag.
func TestFamiliesThatOpenNoBlock(t *testing.T) {
	var marked []string
	for _, name := range registry.Names() {
		d, _ := registry.Lookup(name)
		if dialects.SyntaxOf(d).ReasoningClosed {
			marked = append(marked, name)
		}
	}
	if !slices.Equal(marked, openNoBlock) {
		t.Errorf("dialects marked as opening no reasoning block: %v, want %v (mark one only on its templates' text, and cite it)", marked, openNoBlock)
	}
	call := toolcall.Call{ID: "call_1", Name: "delete_file", Arguments: json.RawMessage(`{"path":"tmp/x"}`)}
	checked := 0
	for _, name := range openNoBlock {
		r, ok := render.For(name)
		if !ok {
			continue
		}
		d, _ := registry.Lookup(name)
		for _, tags := range dialects.SyntaxOf(d).Reasoning {
			written := r.Calls([]toolcall.Call{call})
			if !textlayer.OpensCall(written, "", dialects.SyntaxOf(d).Starts) {
				// A call written without a marker waits after prose for
				// other reasons (a marked block later would make it text).
				continue
			}
			chunks := []string{"Sure, let me check that.\n\n", written, "\n\nThat is all I need", tags.Close, " for now."}
			text := strings.Join(chunks, "")
			closed := &registry.Options{Dialect: name}
			closed.ReasoningClosed = true
			want := registry.Parse(text, closed)
			if len(want.Calls) != 1 || want.Calls[0].Name != call.Name {
				// A call after prose is no call in this dialect (a bare
				// list, a frame the prompt opens): nothing to stream.
				continue
			}
			checked++
			if err := streamtest.SameResult(registry.Parse(text, &registry.Options{Dialect: name}), want); err != nil {
				t.Errorf("%s: %q with the defaults does not read as with ReasoningClosed: %v", name, text, err)
			}
			for _, detect := range []bool{false, true} {
				o := &registry.Options{Dialect: name}
				if detect {
					o.Dialect = ""
					if res := registry.Parse(text, o); res.Dialect != name {
						continue // its marker is another dialect's too (minimax_m1's <tool_calls>)
					}
				}
				p := registry.Stream(o)
				live := false
				for _, c := range chunks {
					for _, ev := range p.Write(c) {
						if ev.Kind == stream.Call {
							live = true
						}
					}
				}
				p.Close()
				if !live {
					t.Errorf("%s (dialect %q): the call after answer text was held until Close: its family opens no block, so a closing tag later cannot make it reasoning\ntext: %q", name, o.Dialect, text)
				}
				if dis := p.Disagreement(); dis != "" {
					t.Errorf("%s (dialect %q): disagreement: %s", name, o.Dialect, dis)
				}
			}
		}
	}
	if checked < 5 {
		t.Errorf("only %d dialects read a call after answer text: the test checks too little", checked)
	}
}

// TestOwnBlockFirstSettlesEveryWrapper: in a dialect that reads a wrapper
// of its family's beside <think>…</think> (Mistral's [THINK], Kimi-K3's
// think section, MiniMax-M3's <mm:think>), an output whose first
// reasoning tag opens a block was not started inside one by the template:
// the stream reports its reasoning and its call as they come, and a lone
// closing tag of the other wrapper later on does not make them reasoning
// after all, one-shot or streamed (it did: the call was reported, then the
// final result read everything before [/THINK] as reasoning).
func TestOwnBlockFirstSettlesEveryWrapper(t *testing.T) {
	call := toolcall.Call{ID: "call_1", Name: "delete_file", Arguments: json.RawMessage(`{"path":"tmp/x"}`)}
	checked := 0
	for _, name := range registry.Names() {
		d, _ := registry.Lookup(name)
		syn := dialects.SyntaxOf(d)
		r, ok := render.For(name)
		if !ok || syn.ReasoningClosed || syn.Opaque {
			continue
		}
		for _, own := range syn.Reasoning {
			for _, other := range syn.Reasoning {
				if own == other {
					continue
				}
				chunks := []string{own.Open + "I will delete it.", own.Close + "Sure.\n", r.Calls([]toolcall.Call{call}), "\nDone.", " " + other.Close + " ok"}
				text := strings.Join(chunks, "")
				o := &registry.Options{Dialect: name}
				res := registry.Parse(text, o)
				if len(res.Calls) != 1 || !strings.HasSuffix(res.Reasoning, "I will delete it.") {
					t.Errorf("%s: %q: %d calls, reasoning %q; want the call, and the first block as the reasoning", name, text, len(res.Calls), res.Reasoning)
					continue
				}
				checked++
				p := registry.Stream(o)
				var all []stream.Event
				for _, c := range chunks {
					all = append(all, p.Write(c)...)
				}
				all = append(all, p.Close()...)
				if err := streamtest.Compare(res, p, all); err != nil {
					t.Errorf("%s: %q: %v", name, text, err)
				}
			}
		}
	}
	if checked == 0 {
		t.Error("no dialect reads two wrappers: the test checks nothing")
	}
}
