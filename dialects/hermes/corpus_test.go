package hermes_test

import (
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/hermes"
	"github.com/dialectkit/toolcall/internal/corpustest"
	"github.com/dialectkit/toolcall/schema"
)

// TestCorpus runs every dev-corpus vector of the dialect with the dialect
// named.
func TestCorpus(t *testing.T) {
	vs, err := corpustest.Dialects()
	if err != nil {
		t.Fatal(err)
	}
	mine := corpustest.ForDialect(vs, "hermes")
	passed := corpustest.Run(t, mine, func(v corpustest.Vector, tools *schema.Set) *toolcall.Result {
		return dialects.Parse(hermes.Dialect, v.Text, &dialects.Options{Tools: tools})
	})
	t.Logf("hermes: %d/%d vectors pass", passed, len(mine))
}
