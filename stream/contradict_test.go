package stream_test

import (
	"testing"

	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
)

// TestNoContradictedEvents streams outputs where an event emitted on the
// way was later contradicted by the one-shot result, cut every way, named
// and under detection: the stream must end where the one-shot parse does
// and emit nothing it takes back.
func TestNoContradictedEvents(t *testing.T) {
	for _, tc := range []struct{ name, dialect, text string }{
		{
			// Text in a section left open is a call entry of its own
			// (TLP-019): the calls after it take the indexes after it.
			"text in a section left open between calls", "qwen3_coder",
			"<tool_call><function=first><parameter=a>1</parameter></function></tool call>\n" +
				"<tool_call><function=second><parameter=b>2</parameter></function></tool call>",
		},
		{
			// Read alone, the marker the prose mentions is a failed call;
			// in the whole output it is prose, and the call after it is
			// call 0.
			"a call marker named in prose before a call", "functionary_v3_1",
			"the <function= marker is not mine.\n\n<function=special_function>{\"arg1\": 1}</function>",
		},
		{
			"a lookalike closing tag between calls", "minimax_m2",
			"<minimax:tool_call>\n<invoke name=\"search\">\n<parameter name=\"query\">rust</parameter>\n</invoke>\n</m\u0456n\u0456max:tool_call>\n" +
				"<minimax:tool_call>\n<invoke name=\"translate\">\n<parameter name=\"text\">Hello</parameter>\n</invoke>\n</minimax:tool_call>",
		},
		{
			// A token the dialect strips is content as written inside an
			// example fence.
			"a stripped token in an example fence", "cohere",
			"Here is an example of the format:\n\n```\n<|START_RESPONSE|>Let me search.<|END_RESPONSE|>\n<|START_ACTION|>\n" +
				"{\"tool_name\": \"search_web\", \"parameters\": {\"query\": \"news\"}}\n<|END_ACTION|>\n```\nbut I won't call it.",
		},
		{
			"a stripped token in inline code", "cohere",
			"Write `<|START_RESPONSE|>Hi<|END_RESPONSE|>` to answer.",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, name := range []string{tc.dialect, ""} {
				opts := &registry.Options{Dialect: name}
				want := registry.Parse(tc.text, opts)
				for i, cut := range streamtest.Cuts(tc.text, nil, false) {
					p := registry.Stream(opts)
					if err := streamtest.Compare(want, p, streamtest.Feed(p, cut)); err != nil {
						t.Fatalf("dialect %q, cut %d (%d deltas): %v", name, i, len(cut), err)
					}
				}
			}
		})
	}
}
