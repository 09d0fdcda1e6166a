package streamtest

import (
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/corpustest"
)

// corpusFiles are the corpora a dialect's Reader is held to.
var corpusFiles = []string{"dialects.dev.jsonl", "dialects.ollama.jsonl", "dialects.own.jsonl"}

// CorpusReader reads every vector of the dev, Ollama and own corpora that
// names the dialect d with d's Reader (CheckReader): each cutting reads as
// the whole text does, with the reasoning start unknown, given open and
// given closed. It fails when the corpora hold no vector of d.
func CorpusReader(t *testing.T, d dialects.Incremental) {
	t.Helper()
	n := 0
	for _, file := range corpusFiles {
		vs, err := corpustest.Load(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range corpustest.ForDialect(vs, d.Name()) {
			n++
			tools, err := v.ToolSet()
			if err != nil {
				t.Fatalf("%s: %v", v.ID, err)
			}
			for _, o := range []dialects.Options{{Tools: tools}, {Tools: tools, ReasoningOpen: true}, {Tools: tools, ReasoningClosed: true}} {
				if err := CheckReader(d, v.Text, &o); err != nil {
					t.Errorf("%s (open %v, closed %v): %v", v.ID, o.ReasoningOpen, o.ReasoningClosed, err)
				}
			}
		}
	}
	if n == 0 {
		t.Fatalf("no %s vector", d.Name())
	}
}
