//go:build unix

package cputime

import (
	"testing"
	"time"
)

// TestProcessGrowsWithWork: busy work adds CPU time; sleeping adds almost
// none.
func TestProcessGrowsWithWork(t *testing.T) {
	start := Process()
	x := 0
	for deadline := time.Now().Add(50 * time.Millisecond); time.Now().Before(deadline); {
		x++
	}
	busy := Process() - start
	if busy < 10*time.Millisecond {
		t.Errorf("50 ms of busy work measured %v of CPU time (%d)", busy, x)
	}
	start = Process()
	time.Sleep(50 * time.Millisecond)
	if idle := Process() - start; idle > 25*time.Millisecond {
		t.Errorf("50 ms of sleep measured %v of CPU time", idle)
	}
}
