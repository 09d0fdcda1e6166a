package markers_test

import (
	"testing"

	"github.com/dialectkit/toolcall/dialects/markers"
	"github.com/dialectkit/toolcall/internal/corpustest"
)

// TestCorpus runs every dev vector of this package's dialects with the
// dialect named.
func TestCorpus(t *testing.T) { corpustest.RunDialects(t, markers.All()...) }
