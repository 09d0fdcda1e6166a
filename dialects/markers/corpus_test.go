package markers_test

import (
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/markers"
	"github.com/dialectkit/toolcall/internal/corpustest"
	"github.com/dialectkit/toolcall/schema"
)

// TestCorpus runs every dev vector of this package's dialects with the
// dialect named.
func TestCorpus(t *testing.T) {
	vs, err := corpustest.Dialects()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range markers.All() {
		t.Run(d.Name(), func(t *testing.T) {
			own := corpustest.ForDialect(vs, d.Name())
			passed := corpustest.Run(t, own, func(v corpustest.Vector, tools *schema.Set) *toolcall.Result {
				return dialects.Parse(d, v.Text, &dialects.Options{Tools: tools})
			})
			t.Logf("%s: %d/%d vectors pass", d.Name(), passed, len(own))
		})
	}
}
