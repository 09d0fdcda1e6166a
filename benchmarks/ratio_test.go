package benchmarks

import (
	"os"
	"strconv"
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

// TestRepairPasses runs one repairer over the malformed corpus inputs
// under 100 bytes, REPAIR_PASSES times (REPAIR_WITH: 0 lenient, 1
// kaptinlin/jsonrepair), and nothing else; without REPAIR_PASSES it is
// skipped. It is for counting instructions, which a loaded machine does
// not change as it changes time: the instructions of a run with N passes,
// less those of a run with none, divided by N × 173, are the instructions
// of one repair. With valgrind:
//
//	go test -c -o /tmp/b.test && for n in 0 50; do GOGC=off REPAIR_PASSES=$n \
//	  valgrind --tool=cachegrind --cache-sim=no /tmp/b.test -test.run TestRepairPasses; done
func TestRepairPasses(t *testing.T) {
	passes, err := strconv.Atoi(os.Getenv("REPAIR_PASSES"))
	if err != nil {
		t.Skip("REPAIR_PASSES not set")
	}
	with, _ := strconv.Atoi(os.Getenv("REPAIR_WITH"))
	var inputs []string
	for _, in := range malformed(loadCorpus(t)) {
		if len(in) < 100 {
			inputs = append(inputs, in)
		}
	}
	repair := repairers[with].repair
	for range passes {
		for _, in := range inputs {
			repair(in)
		}
	}
}
