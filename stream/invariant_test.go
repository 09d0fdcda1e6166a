package stream_test

import (
	"testing"

	"github.com/dialectkit/toolcall/internal/corpustest"
	"github.com/dialectkit/toolcall/internal/longtest"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
)

// TestCorpusInvariant streams every peer corpus vector (each file of
// corpustest.PeerFiles), cut every way, with its dialect named and with
// detection, and requires the one-shot answer. The default run cuts the
// dev corpus every way and the other files a few ways (their chunks,
// whole, byte by byte, random pieces); DIALECTKIT_LONG=1 cuts them all
// every way.
func TestCorpusInvariant(t *testing.T) {
	var vs []corpustest.Vector
	few := map[string]bool{}
	for _, file := range corpustest.PeerFiles {
		more, err := corpustest.Load(file)
		if err != nil {
			t.Fatal(err)
		}
		if file != "dialects.dev.jsonl" && !longtest.Enabled() {
			for _, v := range more {
				few[v.ID] = true
			}
		}
		vs = append(vs, more...)
	}
	failures := map[string]int{}
	for _, v := range vs {
		tools, err := v.ToolSet()
		if err != nil {
			t.Fatal(err)
		}
		for mode, name := range []string{v.Dialect, "", v.Dialect} {
			opts := &registry.Options{Dialect: name}
			opts.Tools = tools
			opts.ReasoningClosed = mode == 2
			want := registry.Parse(v.Text, opts)
			for ci, cut := range streamtest.Cuts(v.Text, v.Chunks, mode == 1 || few[v.ID]) {
				p := registry.Stream(opts)
				if err := streamtest.Compare(want, p, streamtest.Feed(p, cut)); err != nil {
					how := []string{"named", "detected", "named, reasoning closed"}[mode]
					failures[v.Dialect+"/"+how]++
					t.Errorf("%s (%s) cut %d of %d pieces: %v", v.ID, how, ci, len(cut), err)
					break
				}
			}
		}
	}
	if len(failures) > 0 {
		t.Logf("failures by dialect: %v", failures)
	}
}
