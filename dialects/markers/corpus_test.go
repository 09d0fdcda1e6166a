package markers_test

import (
	"testing"

	"github.com/dialectkit/toolcall/dialects"

	"github.com/dialectkit/toolcall/dialects/markers"
	"github.com/dialectkit/toolcall/internal/corpustest"
)

// TestCorpus runs every dev vector of this package's dialects with the
// dialect named.
func TestCorpus(t *testing.T) { corpustest.RunDialects(t, markers.All()...) }

// TestCorpusReader holds every dialect's Reader to its contract on the
// corpus vectors of the dialect: every cutting reads as the whole text.
func TestCorpusReader(t *testing.T) {
	for _, file := range []string{"dialects.dev.jsonl", "dialects.ollama.jsonl", "dialects.own.jsonl"} {
		vs, err := corpustest.Load(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range markers.All() {
			for _, v := range corpustest.ForDialect(vs, d.Name()) {
				tools, err := v.ToolSet()
				if err != nil {
					t.Fatal(err)
				}
				checkReader(t, d, v.Text, &dialects.Options{Tools: tools})
			}
		}
	}
}
