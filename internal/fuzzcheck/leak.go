package fuzzcheck

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// LeakWait is how long CheckGoroutines waits for goroutines to end: a
// goroutine that outlives its work by this much has leaked.
const LeakWait = 5 * time.Second

// CheckGoroutines records the number of goroutines now and returns a
// function that fails tb when, within LeakWait, the number does not come
// back down to it. Use it as
//
//	defer fuzzcheck.CheckGoroutines(t)()
//
// It polls runtime.NumGoroutine rather than taking a dependency; on
// failure it prints every goroutine's stack. Tests that use it must not
// run in parallel with others.
func CheckGoroutines(tb testing.TB) func() {
	tb.Helper()
	before := runtime.NumGoroutine()
	return func() {
		tb.Helper()
		deadline := time.Now().Add(LeakWait)
		for {
			now := runtime.NumGoroutine()
			if now <= before {
				return
			}
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<20)
				buf = buf[:runtime.Stack(buf, true)]
				tb.Errorf("%d goroutines still running, %d before:\n%s", now, before, strings.TrimSpace(string(buf)))
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}
