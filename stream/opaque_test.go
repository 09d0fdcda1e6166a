package stream_test

import (
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/stream"
)

// TestOpaqueMarkersHoldDetectedText: under detection, answer text stops at
// the markers of dialects the engine has no streaming description for
// (Functionary v3.2's ">>>", glimmer's), which may read what follows as a
// call: text streamed past one would be taken back when the final parse
// makes it a call or its error.
func TestOpaqueMarkersHoldDetectedText(t *testing.T) {
	for _, text := range []string{
		"Before I act: f takes a path. >>>f\n{\"path\": \"build/\n\nI stopped there.",
		"Sure. >>>get_weather\n{\"city\": \"Paris\"}",
	} {
		opts := &registry.Options{ReasoningClosed: true}
		want := registry.Parse(text, opts)
		if len(want.Calls)+len(want.Errors) == 0 {
			t.Fatalf("%q: the one-shot parse reads no call", text)
		}
		for i, cut := range streamtest.Cuts(text, nil, false) {
			p := registry.Stream(opts)
			evs := streamtest.Feed(p, cut)
			if err := streamtest.Compare(want, p, evs); err != nil {
				t.Fatalf("%q cut %d: %v", text, i, err)
			}
		}
		// The text before the marker still streams at once.
		p := registry.Stream(opts)
		var got strings.Builder
		for _, ev := range p.Write(text) {
			if ev.Kind == stream.Content {
				got.WriteString(ev.Text)
			}
		}
		if !strings.HasPrefix(want.Content, got.String()) || got.Len() == 0 {
			t.Errorf("%q: %q streamed at once, the content is %q", text, got.String(), want.Content)
		}
	}
}
