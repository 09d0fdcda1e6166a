package stream_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/internal/longtest"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/stream"
)

// TestSectionSplits: in a dialect whose start marker ends the call before
// it (Mistral's [TOOL_CALLS]name[ARGS]{…} repeated, with no closing
// marker), each call is reported once the next call's marker is whole,
// before the output ends.
func TestSectionSplits(t *testing.T) {
	opts := &registry.Options{Dialect: "mistral"}
	opts.ReasoningClosed = true
	p := registry.Stream(opts)
	var calls []int
	for i := range 20 {
		for _, ev := range p.Write(`[TOOL_CALLS]get_weather[ARGS]{"city": "Paris", "day": ` + string(rune('0'+i%10)) + `}`) {
			if ev.Kind == stream.Call {
				calls = append(calls, ev.Index)
			}
		}
		if len(calls) != i {
			t.Fatalf("after call %d was written: calls %v reported", i, calls)
		}
	}
	res := p.Close()
	if got := res[len(res)-1].Result; len(got.Calls) != 20 || len(got.Errors) > 0 || p.Disagreement() != "" {
		t.Fatalf("final: %d calls, %v, %s", len(got.Calls), got.Errors, p.Disagreement())
	}
}

// TestSectionSplitsAgree streams random sequences of markers and call
// pieces in every dialect (those whose start marker may end the call
// before it among them), cut at random points, and compares every event with the one-shot parse:
// a section read part by part reads as the whole does.
func TestSectionSplitsAgree(t *testing.T) {
	pieces := []string{"[TOOL_CALLS]", "[/TOOL_CALLS]", "[ARGS]", "get_weather", "f", `{"a": 1}`, `{"a": "[TOOL_CALLS]"}`,
		"{", "}", `"`, "[", "]", " ", "\n", "x", ",", `[{"name": "f", "arguments": {}}]`, `{"name": "g", "arguments": {"b": 2}}`,
		"<tool_call>", "</tool_call>", "<think>", "</think>", "(", ")", "f(a=1)", "<|im_end|>", `\`, "'",
		"<minimax:tool_call>", "</minimax:tool_call>", `<invoke name="f">`, "</invoke>", `<parameter name="a">`, "</parameter>",
		"<seed:tool_call>", "</seed:tool_call>", "<function=f>", "</function>", "<parameter=a>", "<function_calls>", "</function_calls>",
		"<|tool_call_start|>", "<|tool_call_end|>", "<longcat_tool_call>", "</longcat_tool_call>", "<function_call>", "<|python_tag|>",
		"<tool_calls>", "</tool_calls>", "TOOL_CALLS"}
	names := registry.Names()
	n := longtest.Scaled(40000)
	rng := rand.New(rand.NewPCG(1, 2))
	for range n {
		var b strings.Builder
		for range 3 + rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		text := b.String()
		opts := &registry.Options{Dialect: names[rng.IntN(len(names))]}
		opts.ReasoningClosed = rng.IntN(2) == 0
		want := registry.Parse(text, opts)
		var cut []string
		for rest := text; rest != ""; {
			k := 1 + rng.IntN(min(len(rest), 16))
			cut, rest = append(cut, rest[:k]), rest[k:]
		}
		p := registry.Stream(opts)
		if err := streamtest.Compare(want, p, streamtest.Feed(p, cut)); err != nil {
			t.Fatalf("%s (reasoning closed %v) %q: %v", opts.Dialect, opts.ReasoningClosed, text, err)
		}
	}
}
