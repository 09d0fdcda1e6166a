package registry

import (
	"testing"

	"github.com/dialectkit/toolcall/dialects/hermes"
	"github.com/dialectkit/toolcall/dialects/plainjson"
)

// TestPrepare: Prepare builds what a detecting stream reads the output
// with (the candidate set, with its dialects' syntax) and the decision
// points, so that the first detecting parse or stream builds nothing; a
// dialect registered later is taken in by the next Prepare.
func TestPrepare(t *testing.T) {
	r := New(plainjson.Dialect)
	built := func() []string {
		r.mu.RLock()
		tab := r.detectTab
		r.mu.RUnlock()
		if tab == nil || tab.gen != r.gen || tab.cands.Load() == nil {
			return nil
		}
		var names []string
		for _, e := range tab.entries {
			names = append(names, e.d.Name())
		}
		return names
	}
	if got := built(); got != nil {
		t.Fatalf("a new registry has candidates %v", got)
	}
	r.Prepare()
	if got := built(); len(got) != 1 || got[0] != "json" {
		t.Errorf("after Prepare: %v, want json", got)
	}
	before := r.table().pts.Load()
	if before == nil {
		t.Fatal("Prepare built no point set")
	}
	cands := r.candidates()
	r.Prepare()
	if after := r.table().pts.Load(); after != before || r.candidates() != cands {
		t.Error("a second Prepare built the point set or the candidates again")
	}
	if err := r.Register(hermes.Dialect); err != nil {
		t.Fatal(err)
	}
	r.Prepare()
	if got := built(); len(got) != 2 || got[1] != "hermes" {
		t.Errorf("after Register and Prepare: %v, want json and hermes", got)
	}
}
