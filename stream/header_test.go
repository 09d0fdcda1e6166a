package stream_test

import (
	"testing"

	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/stream"
)

// TestDetectedHeaderStart: under detection, output that opens with words a
// channel dialect reads as the rest of a header its template began
// ("analysis<|message|>…", harmony) is never streamed as answer text first,
// at any cut; prose that no header holds still streams before the end.
func TestDetectedHeaderStart(t *testing.T) {
	texts := []string{
		"analysis<|message|> 0",
		"final<|message|>hi",
		"analysis\n<|message|>thinking<|end|><|start|>assistant<|channel|>final<|message|>Done.",
		"commentary to=functions.f <|constrain|>json<|message|>{\"a\":1}<|call|>",
		" to=functions.f<|channel|>commentary json<|message|>{\"a\":1}<|call|>",
		"Sure, here it is.<|message|>hi",
		"analysis then more words here<|message|>x",
		"Hello",
		"foo to=get_weather<|channel|>commentary<|message|>{}<|call|>",
		"Let me\tsearch to=f<|channel|>commentary<|message|>{}<|call|>",
		"my answer<|channel|>final<|message|>x",
		"Let me search<|message|>x",
	}
	for _, text := range texts {
		for _, closed := range []bool{false, true} {
			opts := &registry.Options{}
			opts.ReasoningClosed = closed
			want := registry.Parse(text, opts)
			for i := 0; i <= len(text); i++ {
				p := registry.Stream(opts)
				if err := streamtest.Compare(want, p, streamtest.Feed(p, []string{text[:i], text[i:]})); err != nil {
					t.Errorf("%q cut at %d (ReasoningClosed %v): %v", text, i, closed, err)
				}
			}
		}
	}

	// Prose streams: its first words are shown before the output ends.
	p := registry.Stream(&registry.Options{ReasoningClosed: true})
	var shown string
	for _, ev := range p.Write("Sure, here it is: the answer.") {
		if ev.Kind == stream.Content {
			shown += ev.Text
		}
	}
	if shown == "" {
		t.Errorf("prose under detection was held: nothing shown before the end")
	}
}
