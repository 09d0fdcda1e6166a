//go:build !unix

package cputime

import "time"

// Process returns 0: the CPU time is not measured on this system, and
// benchmarks report wall time only.
func Process() time.Duration { return 0 }
