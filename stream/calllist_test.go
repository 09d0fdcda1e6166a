package stream

import "testing"

// TestCallListEntriesStay: every index has its own entry, an entry stays
// where it is as the list grows (events point to it), and a clone shares
// none.
func TestCallListEntriesStay(t *testing.T) {
	var l callList
	const n = 300
	at := make([]*engineCall, 0, n)
	for i := range n {
		l.grow(i + 1)
		if l.len() != i+1 {
			t.Fatalf("len %d after grow(%d)", l.len(), i+1)
		}
		c := l.at(i)
		c.call.Index = i
		at = append(at, c)
		for j := range at {
			if l.at(j) != at[j] {
				t.Fatalf("entry %d moved when the list grew to %d", j, i+1)
			}
			if l.at(j).call.Index != j {
				t.Fatalf("entry %d holds call %d", j, l.at(j).call.Index)
			}
		}
	}
	allocated := 1
	for _, b := range l.blocks {
		allocated += len(b)
	}
	if allocated > 2*n {
		t.Errorf("%d entries allocated for %d calls", allocated, n)
	}
	c := l.clone()
	for i := range n {
		if c.at(i) == l.at(i) || c.at(i).call.Index != i {
			t.Fatalf("clone's entry %d is the list's, or holds call %d", i, c.at(i).call.Index)
		}
	}
	l.grow(10) // shorter: nothing changes
	if l.len() != n {
		t.Errorf("grow to fewer entries changed the length to %d", l.len())
	}
}
