package hermes_test

import (
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/hermes"
	"github.com/dialectkit/toolcall/internal/corpustest"
	"github.com/dialectkit/toolcall/internal/streamtest"
)

// TestCorpus runs every dev vector of the dialect with the dialect named.
func TestCorpus(t *testing.T) { corpustest.RunDialects(t, hermes.Dialect) }

// TestCorpusReader reads every corpus vector of the dialect with its
// engine, cut every way streamtest.Cuts gives: each cutting reads as the
// whole text does, with the reasoning start unknown, given open and given
// closed.
func TestCorpusReader(t *testing.T) {
	n := 0
	for _, file := range []string{"dialects.dev.jsonl", "dialects.ollama.jsonl", "dialects.own.jsonl"} {
		vs, err := corpustest.Load(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range corpustest.ForDialect(vs, "hermes") {
			n++
			tools, err := v.ToolSet()
			if err != nil {
				t.Fatalf("%s: %v", v.ID, err)
			}
			for _, o := range []dialects.Options{{Tools: tools}, {Tools: tools, ReasoningOpen: true}, {Tools: tools, ReasoningClosed: true}} {
				if err := streamtest.CheckReader(reader, v.Text, &o); err != nil {
					t.Errorf("%s (open %v, closed %v): %v", v.ID, o.ReasoningOpen, o.ReasoningClosed, err)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no hermes vector")
	}
}
