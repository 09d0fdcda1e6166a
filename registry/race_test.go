//go:build race

package registry_test

// raceEnabled reports whether the race detector is on. Under it, sync.Pool
// drops what is put back at random, so the memory the pooled Readers
// reuse is allocated afresh in some runs and not in others: the bounds on
// what a parse allocates are checked without it (go test, and the long
// suite).
const raceEnabled = true
