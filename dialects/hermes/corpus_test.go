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

// TestReaderPeeks: the Reader NewReader returns (lent from a pool) is a
// dialects.Peeker, so a detecting stream ranks hermes by its peeks, and
// CorpusReader checks them against a whole read at every cut.
func TestReaderPeeks(t *testing.T) {
	r := hermes.Dialect.(dialects.Incremental).NewReader(&dialects.Options{})
	pk, ok := r.(dialects.Peeker)
	if !ok {
		t.Fatalf("%T is not a dialects.Peeker", r)
	}
	r.Write("<tool_call>{\"name\": \"f\", \"arguments\": {")
	if ps := pk.Peek(); len(ps) == 0 || ps[len(ps)-1].Kind != dialects.PieceCall || ps[len(ps)-1].Call.Name != "f" {
		t.Errorf("Peek inside a call's arguments returns %+v, want it to end with the call cut (as Close would)", ps)
	}
	r.Close()
}
