package tagged_test

import (
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/tagged"
	"github.com/dialectkit/toolcall/internal/corpustest"
)

// TestCorpus runs every dev vector of this package's dialects with the
// dialect named.
func TestCorpus(t *testing.T) { corpustest.RunDialects(t, tagged.All()...) }

// TestCorpusReader holds every dialect's Reader to its rules on the
// corpus vectors of the dialect: every cutting reads as the whole text.
func TestCorpusReader(t *testing.T) {
	for _, file := range []string{"dialects.dev.jsonl", "dialects.ollama.jsonl", "dialects.own.jsonl"} {
		vs, err := corpustest.Load(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range tagged.All() {
			for _, v := range corpustest.ForDialect(vs, d.Name()) {
				tools, err := v.ToolSet()
				if err != nil {
					t.Fatalf("%s: %v", v.ID, err)
				}
				t.Run(v.ID, func(t *testing.T) {
					checkReader(t, d, v.Text, &dialects.Options{Tools: tools})
				})
			}
		}
	}
}
