package markdownjson_test

import (
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/streamtest"

	"github.com/dialectkit/toolcall/dialects/markdownjson"
	"github.com/dialectkit/toolcall/internal/corpustest"
)

// TestCorpus runs every dev vector of the dialect with the dialect named.
func TestCorpus(t *testing.T) { corpustest.RunDialects(t, markdownjson.Dialect) }

// TestCorpusReader reads every corpus vector of the dialect cut every way:
// each cutting reads as the whole text does.
func TestCorpusReader(t *testing.T) {
	n := 0
	for _, file := range []string{"dialects.dev.jsonl", "dialects.ollama.jsonl", "dialects.own.jsonl"} {
		vs, err := corpustest.Load(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range corpustest.ForDialect(vs, "markdown_json") {
			tools, err := v.ToolSet()
			if err != nil {
				t.Fatal(err)
			}
			n++
			for _, o := range []dialects.Options{{Tools: tools}, {Tools: tools, ReasoningOpen: true}, {Tools: tools, ReasoningClosed: true}} {
				if err := streamtest.CheckReader(markdownjson.Dialect.(dialects.Incremental), v.Text, &o); err != nil {
					t.Errorf("%s: %v", v.ID, err)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no markdown_json vector")
	}
}
