package stream_test

import (
	"testing"

	"github.com/dialectkit/toolcall/internal/corpustest"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
)

// TestCorpusInvariant streams every corpus vector, cut every way, with its
// dialect named and with detection, and requires the one-shot answer.
func TestCorpusInvariant(t *testing.T) {
	vs, err := corpustest.Dialects()
	if err != nil {
		t.Fatal(err)
	}
	failures := map[string]int{}
	for _, v := range vs {
		tools, err := v.ToolSet()
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{v.Dialect, ""} {
			opts := &registry.Options{Dialect: name}
			opts.Tools = tools
			want := registry.Parse(v.Text, opts)
			for ci, cut := range streamtest.Cuts(v.Text, v.Chunks, name == "") {
				p := registry.Stream(opts)
				if err := streamtest.Compare(want, p, streamtest.Feed(p, cut)); err != nil {
					mode := name
					if mode == "" {
						mode = "detect"
					}
					failures[v.Dialect+"/"+mode]++
					t.Errorf("%s (%s) cut %d of %d pieces: %v", v.ID, mode, ci, len(cut), err)
					break
				}
			}
		}
	}
	if len(failures) > 0 {
		t.Logf("failures by dialect: %v", failures)
	}
}
