package benchmarks

import (
	"testing"
	"time"
)

// TestThroughputRatio measures lenient against kaptinlin/jsonrepair on the
// malformed corpus inputs under 100 bytes and under 1 KB, interleaving the
// two and keeping each one's best of many rounds, which is what a shared,
// noisy machine can measure. It logs the ratios; go test -bench gives the
// absolute figures.
func TestThroughputRatio(t *testing.T) {
	if testing.Short() {
		t.Skip("measurement")
	}
	for _, limit := range []int{100, 1 << 10} {
		var inputs []string
		for _, in := range malformed(loadCorpus(t)) {
			if len(in) < limit {
				inputs = append(inputs, in)
			}
		}
		best := make([]time.Duration, len(repairers))
		for i := range best {
			best[i] = time.Hour
		}
		for range 40 {
			for i, r := range repairers {
				start := time.Now()
				for range 20 {
					for _, in := range inputs {
						r.repair(in)
					}
				}
				best[i] = min(best[i], time.Since(start))
			}
		}
		t.Logf("%d inputs under %d bytes: lenient %v, kaptinlin/jsonrepair %v for 20 passes: %.2fx its throughput",
			len(inputs), limit, best[0], best[1], float64(best[1])/float64(best[0]))
	}
}
