// Package cputime measures the CPU time the process has used, for
// benchmarks that compare two pieces of work on a shared machine: unlike
// wall time, it does not grow while the work waits for a busy CPU.
package cputime
