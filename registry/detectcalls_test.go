package registry_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/render"
	"github.com/dialectkit/toolcall/stream"
)

// firstPiece records, for each event (kind and call index), the piece of
// the input whose Write first emitted it; Close's events count as the
// piece after the last.
func firstPiece(p *stream.Parser, pieces []string) (map[string]int, []stream.Event) {
	at := map[string]int{}
	var all []stream.Event
	note := func(evs []stream.Event, i int) {
		for _, ev := range evs {
			k := ev.Kind.String()
			if ev.Kind == stream.CallStart || ev.Kind == stream.CallArguments || ev.Kind == stream.Call || ev.Kind == stream.CallError {
				k += ":" + string(rune('0'+ev.Index))
			}
			if _, ok := at[k]; !ok {
				at[k] = i
			}
			all = append(all, ev)
		}
	}
	for i, s := range pieces {
		note(p.Write(s), i)
	}
	note(p.Close(), len(pieces))
	return at, all
}

// TestDetectedStreamIsLiveAfterDecision: once the output's first call has
// decided the dialect, the calls after it stream as they do with the
// dialect named: the second call's CallStart, CallArguments and Call come
// from the same Write as in the named stream, not later, in every dialect
// whose first call decides before the second one ends. The events agree
// with the one-shot result.
func TestDetectedStreamIsLiveAfterDecision(t *testing.T) {
	short := toolcall.Call{ID: "call_1", Name: "get_time", Arguments: json.RawMessage(`{"tz":"CET"}`)}
	long := toolcall.Call{ID: "call_2", Name: "write_file", Arguments: json.RawMessage(`{"path":"notes.txt","content":"` + strings.Repeat("lorem ipsum ", 150) + `"}`)}
	decided := 0
	for _, name := range registry.Names() {
		r, ok := render.For(name)
		if !ok {
			continue
		}
		text := r.Calls([]toolcall.Call{short, long})
		var pieces []string
		for i := 0; i < len(text); i += 16 {
			pieces = append(pieces, text[i:min(len(text), i+16)])
		}
		named := &registry.Options{Dialect: name}
		named.ReasoningClosed = true
		detected := &registry.Options{}
		detected.ReasoningClosed = true
		want := registry.Parse(text, detected)
		if want.Dialect != name || len(want.Calls) != 2 {
			continue // another dialect reads it, or the calls fail
		}
		np := registry.Stream(named)
		nat, _ := firstPiece(np, pieces)
		dp := registry.Stream(detected)
		dat, evs := firstPiece(dp, pieces)
		if err := streamtest.Compare(want, dp, evs); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		det, ok := dat["detected"]
		if !ok || det >= len(pieces) || det >= nat["call:1"] {
			continue // decided only at the end, or with the second call
		}
		decided++
		for _, k := range []string{"call_start:1", "call_arguments:1", "call:1"} {
			n, inNamed := nat[k]
			d, inDetected := dat[k]
			switch {
			case inNamed != inDetected:
				t.Errorf("%s: %s in the named stream %v, in the detecting stream %v", name, k, inNamed, inDetected)
			case inNamed && d > max(n, det):
				t.Errorf("%s: %s from piece %d when detecting (decided at piece %d), from piece %d when named", name, k, d, det, n)
			}
		}
	}
	t.Logf("%d dialects decided before the second call ended", decided)
	if decided < 10 {
		t.Errorf("only %d dialects decided before the second call ended", decided)
	}
}

// TestFirstCallWaitsForDecision: under detection, a call's name is not
// announced before its region has decided the dialect, even when the name
// is long known, because what follows may change which dialect reads the
// output, and so which call is call 0. Here the Hermes region fails to
// read (a placeholder stands for its last member's value) and a Mistral
// call after it decides the output: a CallStart for write_file would have
// been contradicted.
func TestFirstCallWaitsForDecision(t *testing.T) {
	text := "<tool_call>\n{\"name\": \"write_file\", \"arguments\": {\"content\": \"" + strings.Repeat("x", 600) +
		"\"}, \"x\": <x> </tool_call>\n[TOOL_CALLS] [{\"name\": \"other\", \"arguments\": {}}]"
	opts := &registry.Options{}
	opts.ReasoningClosed = true
	want := registry.Parse(text, opts)
	if want.Dialect == "hermes" || len(want.Calls) != 1 || want.Calls[0].Name != "other" {
		t.Fatalf("one-shot: dialect %q, calls %v, errors %v", want.Dialect, want.Calls, want.Errors)
	}
	for _, size := range []int{1, 16, 100} {
		var pieces []string
		for i := 0; i < len(text); i += size {
			pieces = append(pieces, text[i:min(len(text), i+size)])
		}
		p := registry.Stream(opts)
		evs := streamtest.Feed(p, pieces)
		if err := streamtest.Compare(want, p, evs); err != nil {
			t.Errorf("pieces of %d: %v", size, err)
		}
		for _, ev := range evs {
			if ev.Kind == stream.CallStart && ev.Name == "write_file" {
				t.Errorf("pieces of %d: write_file announced", size)
			}
		}
	}
}

// TestResponseBodyAfterProse: an Ollama response body is detected as one
// only when the output opens with it. After prose it is model text (an
// example of a response, say): read as a body, the prose would be a line
// it drops, contradicting the answer streamed before the dialect was
// known, and the example's call would be run.
func TestResponseBodyAfterProse(t *testing.T) {
	body := `{"model": "qwen3", "message": {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "get_weather", "arguments": {"city": "Paris"}}}]}, "done": true}`
	res, det := registry.Default().ParseDetect(body, &registry.Options{})
	if det.Dialect != "ollama" || len(res.Calls) != 1 {
		t.Fatalf("a body alone: dialect %q, calls %v, errors %v", det.Dialect, res.Calls, res.Errors)
	}
	res, det = registry.Default().ParseDetect("\n "+body, &registry.Options{})
	if det.Dialect != "ollama" || len(res.Calls) != 1 {
		t.Fatalf("a body after whitespace: dialect %q, calls %v, errors %v", det.Dialect, res.Calls, res.Errors)
	}
	text := "Sure, here it is!\n" + body
	opts := &registry.Options{}
	opts.ReasoningClosed = true
	want, det := registry.Default().ParseDetect(text, opts)
	if det.Dialect == "ollama" || len(want.Calls) != 0 || !strings.HasPrefix(want.Content, "Sure, here it is!") {
		t.Errorf("after prose: dialect %q, calls %v, content %q", det.Dialect, want.Calls, want.Content)
	}
	for _, size := range []int{1, 7, 18, 64} {
		var pieces []string
		for i := 0; i < len(text); i += size {
			pieces = append(pieces, text[i:min(len(text), i+size)])
		}
		p := registry.Stream(opts)
		if err := streamtest.Compare(want, p, streamtest.Feed(p, pieces)); err != nil {
			t.Errorf("pieces of %d: %v", size, err)
		}
	}
}
