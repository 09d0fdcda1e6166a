//go:build unix

package cputime

import (
	"testing"
	"time"
)

// TestProcessGrowsWithWork: busy work adds CPU time (on a loaded machine
// it takes longer than the CPU time it gets, so the loop runs until the
// clock has moved); sleeping adds almost none.
func TestProcessGrowsWithWork(t *testing.T) {
	start := Process()
	x := 0
	for deadline := time.Now().Add(10 * time.Second); Process()-start < 20*time.Millisecond; x++ {
		if time.Now().After(deadline) {
			t.Fatalf("10 s of busy work measured %v of CPU time (%d)", Process()-start, x)
		}
	}
	start = Process()
	time.Sleep(50 * time.Millisecond)
	if idle := Process() - start; idle > 40*time.Millisecond {
		t.Errorf("50 ms of sleep measured %v of CPU time", idle)
	}
}
