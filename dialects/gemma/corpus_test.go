package gemma_test

import (
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/gemma"
	"github.com/dialectkit/toolcall/internal/corpustest"
	"github.com/dialectkit/toolcall/schema"
)

func TestCorpus(t *testing.T) {
	vs, err := corpustest.Dialects()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range gemma.All() {
		t.Run(d.Name(), func(t *testing.T) {
			mine := corpustest.ForDialect(vs, d.Name())
			passed := corpustest.Run(t, mine, func(v corpustest.Vector, tools *schema.Set) *toolcall.Result {
				return dialects.Parse(d, v.Text, &dialects.Options{Tools: tools})
			})
			t.Logf("%s: %d/%d corpus vectors pass", d.Name(), passed, len(mine))
		})
	}
}
