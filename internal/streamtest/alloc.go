package streamtest

import (
	"math"
	"runtime"
)

// Allocated returns the bytes f allocates in one of a few runs after a
// first that warms the pools: the least of them, since a collection may
// empty a pool (sync.Pool) in any one run, which then allocates afresh
// what it would have reused, while what f allocates for the text (a copy
// of it) is allocated in every run. The bounds tests put on it are checked
// without the race detector, under which sync.Pool drops what is put back
// at random.
func Allocated(f func()) uint64 {
	f()
	var before, after runtime.MemStats
	least := uint64(math.MaxUint64)
	for range 5 {
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	return least
}
