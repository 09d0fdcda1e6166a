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

// TestCorpusReader reads every corpus vector of the dialect with its
// Reader, cut every way (streamtest.CorpusReader).
func TestCorpusReader(t *testing.T) {
	streamtest.CorpusReader(t, markdownjson.Dialect.(dialects.Incremental))
}
