// Package longtest is the switch for the long test suites: hostile inputs at
// full size, soak runs, long fuzz-seed sweeps. They run only when the
// environment variable DIALECTKIT_LONG is "1" (CI sets it), so that
// `go test ./...` stays quick enough to run on every change.
package longtest

import (
	"os"
	"testing"
)

// Env is the environment variable that turns the long suites on.
const Env = "DIALECTKIT_LONG"

// Enabled reports whether the long suites run.
func Enabled() bool { return os.Getenv(Env) == "1" }

// Scaled returns n when the long suites run, and a tenth of it (at least
// 1) otherwise: the size of a hostile or soak input that the default run
// keeps, scaled down, while the long suites run it at full size.
func Scaled(n int) int {
	if Enabled() {
		return n
	}
	return max(1, n/10)
}

// Skip skips t unless the long suites are on.
func Skip(t testing.TB) {
	t.Helper()
	if !Enabled() {
		t.Skipf("long suite: set %s=1 to run it", Env)
	}
}
