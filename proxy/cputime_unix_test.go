//go:build unix

package proxy_test

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used, which unlike wall
// time does not grow while the benchmark waits for a busy machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
