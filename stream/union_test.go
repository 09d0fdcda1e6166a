package stream

import (
	"testing"

	"github.com/dialectkit/toolcall/dialects/harmony"
	"github.com/dialectkit/toolcall/dialects/hermes"
)

// A detecting parser is made per answer: the union of its candidates is
// built once per candidate list and shared, and another list gets its own.
func TestUnionOfIsBuiltOncePerCandidates(t *testing.T) {
	h, p := Learn(hermes.Dialect), Learn(harmony.Dialect)
	a := unionOf([]*Profile{h, p})
	if b := unionOf([]*Profile{h, p}); b != a {
		t.Fatal("the same candidates built their union again")
	}
	c := unionOf([]*Profile{h})
	if c == a {
		t.Fatal("other candidates got the union of the first ones")
	}
	if len(c.m.triggers) >= len(a.m.triggers) {
		t.Fatalf("the union of one dialect has %d triggers, of two %d", len(c.m.triggers), len(a.m.triggers))
	}
}
