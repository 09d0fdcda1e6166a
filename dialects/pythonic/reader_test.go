package pythonic_test

import (
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/pythonic"
	"github.com/dialectkit/toolcall/internal/corpustest"
	"github.com/dialectkit/toolcall/internal/streamtest"
)

// checkReader holds the dialect's Reader to the contract on text, under
// opts and with the start of reasoning given either way.
func checkReader(t *testing.T, d dialects.Dialect, text string, opts *dialects.Options) {
	t.Helper()
	inc, ok := d.(dialects.Incremental)
	if !ok {
		return // read whole, not yet by the family's engine
	}
	variants := []dialects.Options{*opts, *opts, *opts}
	variants[1].ReasoningOpen = true
	variants[2].ReasoningClosed = true
	for i := range variants {
		if err := streamtest.CheckReader(inc, text, &variants[i]); err != nil {
			t.Errorf("reader (open %v, closed %v): %v", variants[i].ReasoningOpen, variants[i].ReasoningClosed, err)
		}
	}
}

// TestReaderRows reads every row of the family's tables with the Reader,
// cut every way.
func TestReaderRows(t *testing.T) {
	tables := map[string][]row{
		"pythonic": pythonicRows, "llama4_pythonic": llama4Rows, "olmo3": olmo3Rows,
		"lfm2": lfm2Rows, "sarashina": sarashinaRows, "llama3_builtin": builtinRows,
	}
	for _, d := range pythonic.All() {
		for _, r := range tables[d.Name()] {
			t.Run(d.Name()+"/"+r.name, func(t *testing.T) {
				checkReader(t, d, r.text, &dialects.Options{Tools: toolSet(t, r.tools), ReasoningOpen: r.open})
			})
		}
	}
}

// TestReaderCorpus reads the corpus vectors of the family's dialects with
// the Reader, cut every way.
func TestReaderCorpus(t *testing.T) {
	for _, file := range []string{"dialects.dev.jsonl", "dialects.ollama.jsonl", "dialects.own.jsonl"} {
		vs, err := corpustest.Load(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range pythonic.All() {
			for _, v := range corpustest.ForDialect(vs, d.Name()) {
				tools, err := v.ToolSet()
				if err != nil {
					t.Fatalf("%s: %v", v.ID, err)
				}
				checkReader(t, d, v.Text, &dialects.Options{Tools: tools})
			}
		}
	}
}
