package registry_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/render"
)

// ownReasoningOnly are the dialects whose templates open reasoning in a
// syntax of their own (harmony's analysis channel, Gemma 4's thought
// channel): ReasoningOpen opens that, not a <think> block. A <think> block
// they read as every dialect does.
var ownReasoningOnly = map[string]bool{"harmony": true, "gemma4": true}

// TestCallInClosedThinkIsNotACall renders a call in every dialect and puts
// it inside a closed <think> block: it is reasoning, named and detected,
// with and without tools. The same call after the block is a call.
func TestCallInClosedThinkIsNotACall(t *testing.T) {
	tools := cutTools(t)
	call := toolcall.Call{ID: "call_1", Name: "delete_file", Arguments: json.RawMessage(`{"force":true,"path":"build/out"}`)}
	for _, name := range registry.Names() {
		t.Run(name, func(t *testing.T) {
			r, ok := render.For(name)
			if !ok {
				t.Skip("no renderer")
			}
			full := r.Calls([]toolcall.Call{call})
			inside := "<think>I could write " + full + " but the file is needed.</think>I will keep the file."
			after := "<think>\nThe user wants the build removed.\n</think>\n\n" + full
			for _, o := range []*registry.Options{
				regOpts(dialectsOptions(tools), registry.Options{Dialect: name}),
				{Dialect: name},
				regOpts(dialectsOptions(tools), registry.Options{}),
				{},
			} {
				if res := registry.Parse(inside, o); len(res.Calls) > 0 {
					t.Errorf("inside (dialect %q, tools %v): call %s %s\ntext: %q", o.Dialect, o.Tools != nil, res.Calls[0].Name, res.Calls[0].Arguments, inside)
				}
				if o.Dialect == "" {
					continue
				}
				if res := registry.Parse(after, o); len(res.Calls) != 1 {
					t.Errorf("after (dialect %q, tools %v): %d calls, errors %v, content %q\ntext: %q", o.Dialect, o.Tools != nil, len(res.Calls), res.Errors, res.Content, after)
				}
			}
		})
	}
}

// TestOpenThinkDecidesNothing: detection decides from an output's first
// calls (at the point after them), but a call inside a <think> block the prefix has not yet
// closed may turn out to be reasoning; the call after the block decides.
func TestOpenThinkDecidesNothing(t *testing.T) {
	text := "<think>Maybe [TOOL_CALLS]get_weather[ARGS]{\"city\": \"Rome\"}? No, the tag.</think>\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>"
	res, det := registry.Default().ParseDetect(text, &registry.Options{})
	if det.Dialect != "hermes" || len(res.Calls) != 1 || string(res.Calls[0].Arguments) != `{"city":"Paris"}` {
		t.Errorf("detected %q (%s): calls %v, errors %v", det.Dialect, det.Reason, res.Calls, res.Errors)
	}
	if _, ok := registry.Default().DecidedBy(text[:strings.Index(text, "?")], &registry.Options{}); ok {
		t.Errorf("a prefix inside an open think block decided the dialect")
	}
}

// TestCallInAnotherFamilysReasoning: under detection, a dialect that shares
// a family's call syntax but not its reasoning wrapper (qwen3_coder beside
// Seed-OSS's <seed:think>) does not read a call drafted in a closed block
// of that wrapper: it is reasoning, one-shot and streamed; a call after
// the block is a call.
func TestCallInAnotherFamilysReasoning(t *testing.T) {
	call := "<seed:tool_call>\n<function=delete_file>\n<parameter=path>build/out</parameter>\n</function>\n</seed:tool_call>"
	for _, tc := range []struct {
		text  string
		calls int
	}{
		{"<seed:think>I could write " + call + " but the file is needed.</seed:think>I will keep the file.", 0},
		{"<seed:think>Draft:\n" + call + "\nNo.</seed:think>\nI will keep it.", 0},
		{"<seed:think>The user wants it gone.</seed:think>\n" + call, 1},
	} {
		res, det := registry.Default().ParseDetect(tc.text, &registry.Options{})
		if len(res.Calls) != tc.calls {
			t.Errorf("%d calls (as %q: %s), want %d\ntext: %q", len(res.Calls), det.Dialect, det.Reason, tc.calls, tc.text)
		}
		if tc.calls == 0 && !strings.Contains(res.Reasoning, "build/out") {
			t.Errorf("as %q: the drafted call left the reasoning %q (content %q)", det.Dialect, res.Reasoning, res.Content)
		}
		for _, cut := range streamtest.Cuts(tc.text, nil, true) {
			p := registry.Stream(&registry.Options{})
			if err := streamtest.Compare(res, p, streamtest.Feed(p, cut)); err != nil {
				t.Errorf("%d deltas: %v\ntext: %q", len(cut), err, tc.text)
				break
			}
		}
	}
}

// TestCallInAnotherFamilysTemplateOpenedBlock: under detection, when the
// template opened reasoning (ReasoningOpen), a call before the lone
// closing tag of some family's wrapper is drafted in that block: a dialect
// that shares the call syntax but not the wrapper does not run it, and no
// prefix before the closing tag decides the dialect. One-shot and
// streamed.
func TestCallInAnotherFamilysTemplateOpenedBlock(t *testing.T) {
	for _, text := range []string{
		"Maybe <seed:tool_call>\n<function=get_weather>\n<parameter=location>Rome</parameter>\n</function>\n</seed:tool_call> no.\n</seed:think>\n\nNo call needed.",
		"Maybe <function=get_weather>\n<parameter=location>Rome</parameter>\n</function> no.\n</seed:think>\n\nNo call needed.",
	} {
		opts := &registry.Options{ReasoningOpen: true}
		res := registry.Parse(text, opts)
		if len(res.Calls) > 0 {
			t.Errorf("%q: call %s %s (dialect %s)", text, res.Calls[0].Name, res.Calls[0].Arguments, res.Dialect)
		}
		for i, cut := range streamtest.Cuts(text, nil, false) {
			p := registry.Stream(opts)
			if err := streamtest.Compare(res, p, streamtest.Feed(p, cut)); err != nil {
				t.Fatalf("%q cut %d: %v", text, i, err)
			}
		}
	}
}
