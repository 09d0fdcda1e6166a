package gemma_test

import (
	"testing"

	"github.com/dialectkit/toolcall/dialects/gemma"
	"github.com/dialectkit/toolcall/internal/corpustest"
	"github.com/dialectkit/toolcall/internal/streamtest"
)

// TestCorpus runs every dev vector of this package's dialects with the
// dialect named.
func TestCorpus(t *testing.T) { corpustest.RunDialects(t, gemma.All()...) }

// TestCorpusReader holds each dialect's Reader to the corpora: every
// cutting of a vector reads as the whole vector does.
func TestCorpusReader(t *testing.T) {
	for _, d := range []*gemma.Dialect{gemma.FunctionGemma, gemma.Gemma4} {
		t.Run(d.Name(), func(t *testing.T) { streamtest.CorpusReader(t, d) })
	}
}
