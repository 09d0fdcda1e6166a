package registry

import (
	"testing"

	"github.com/dialectkit/toolcall/dialects/hermes"
	"github.com/dialectkit/toolcall/dialects/plainjson"
)

// TestPrepare: Prepare learns the profile of every registered dialect and
// the decision points, so that the first detecting parse builds nothing;
// a dialect registered later is learnt by the next Prepare.
func TestPrepare(t *testing.T) {
	r := New(plainjson.Dialect)
	learnt := func() map[string]bool {
		m := map[string]bool{}
		r.profiles.Range(func(k, _ any) bool { m[k.(string)] = true; return true })
		return m
	}
	if n := len(learnt()); n != 0 {
		t.Fatalf("a new registry has %d profiles", n)
	}
	r.Prepare()
	if got := learnt(); len(got) != 1 || !got["json"] {
		t.Errorf("after Prepare: %v, want json", got)
	}
	before, _ := pointSets.Load(r)
	if before == nil {
		t.Fatal("Prepare built no point set")
	}
	r.Prepare()
	if after, _ := pointSets.Load(r); after.(pointSet).set != before.(pointSet).set {
		t.Error("a second Prepare built the point set again")
	}
	if err := r.Register(hermes.Dialect); err != nil {
		t.Fatal(err)
	}
	r.Prepare()
	if got := learnt(); len(got) != 2 || !got["hermes"] {
		t.Errorf("after Register and Prepare: %v, want json and hermes", got)
	}
}
