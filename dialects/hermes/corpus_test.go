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
// Reader, cut every way (streamtest.CorpusReader).
func TestCorpusReader(t *testing.T) {
	streamtest.CorpusReader(t, hermes.Dialect.(dialects.Incremental))
}
