package benchmarks

import (
	"sort"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

// Tiny inputs: most tool arguments are under 100 bytes, so the fixed cost
// of a repair (setting up, finding the value, checking the output) is what
// decides the throughput there. The set is broad, not only almost-valid
// text: every malformed corpus input, every fifth cut of each, and the
// damage hunt run on every object and array inside the hunt's seeds
// (small documents, each damaged by every kind, cut at every twelfth
// byte), all the malformed ones under the size limit. Cuts and damage give inputs a repairer gives up on too (a lone
// "-", a dot, a key with no colon), which must cost less than a repair.

// tinyInputs returns the set under limit bytes, deduplicated, in a fixed
// order.
func tinyInputs(tb testing.TB, limit int) []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if len(s) == 0 || len(s) >= limit || seen[s] || gjson.Valid(s) {
			return
		}
		seen[s] = true
		out = append(out, s)
	}
	for _, in := range malformed(loadCorpus(tb)) {
		add(in)
		for cut := 1; cut < len(in) && cut < limit; cut += 5 {
			add(in[:cut])
		}
	}
	var seeds []*node
	var walk func(n *node)
	walk = func(n *node) {
		if n.kind == 'o' || n.kind == 'a' {
			seeds = append(seeds, n)
		}
		for _, k := range n.kids {
			walk(k)
		}
	}
	for _, n := range huntSeedNodes(tb, false) {
		walk(n)
	}
	for _, c := range huntCases(seeds, 1, 12) {
		add(c.in)
	}
	sort.Strings(out)
	return out
}

// pairTiming interleaves passes of the two repairers over inputs and
// returns each one's best pass of rounds: the measure a shared, noisy
// machine can give.
func pairTiming(inputs []string, rounds int) [2]time.Duration {
	best := [2]time.Duration{time.Hour, time.Hour}
	for range rounds {
		for i, r := range repairers {
			start := time.Now()
			for _, in := range inputs {
				r.repair(in)
			}
			best[i] = min(best[i], time.Since(start))
		}
	}
	return best
}

// splitByOutcome splits inputs into those lenient repairs and those it
// gives up on.
func splitByOutcome(inputs []string) (repaired, failed []string) {
	for _, in := range inputs {
		if _, ok := repairers[0].repair(in); ok {
			repaired = append(repaired, in)
		} else {
			failed = append(failed, in)
		}
	}
	return repaired, failed
}

// BenchmarkTinyRatio measures lenient against kaptinlin/jsonrepair on the
// tiny set under 100 bytes and under 1 KB, in the same run: each b.Loop
// round times one pass of each, and the metrics are the ratio of their
// best passes (kaptinlin's time over lenient's: lenient's throughput as a
// multiple of kaptinlin's), on all the inputs and on those lenient gives
// up on, and lenient's time for an input it gives up on over its time for
// one it repairs (under 1: failing is cheaper than repairing).
func BenchmarkTinyRatio(b *testing.B) {
	for _, limit := range []int{100, 1 << 10} {
		inputs := tinyInputs(b, limit)
		repaired, failed := splitByOutcome(inputs)
		b.Run(sizeLabel(limit), func(b *testing.B) {
			all := [2]time.Duration{time.Hour, time.Hour}
			fail := all
			var ok [2]time.Duration
			ok[0] = time.Hour
			for b.Loop() {
				t := pairTiming(inputs, 1)
				all = [2]time.Duration{min(all[0], t[0]), min(all[1], t[1])}
				t = pairTiming(failed, 1)
				fail = [2]time.Duration{min(fail[0], t[0]), min(fail[1], t[1])}
				start := time.Now()
				for _, in := range repaired {
					repairers[0].repair(in)
				}
				ok[0] = min(ok[0], time.Since(start))
			}
			b.ReportMetric(float64(all[1])/float64(all[0]), "x-kaptinlin")
			b.ReportMetric(float64(fail[1])/float64(fail[0]), "x-kaptinlin-failing")
			perFail := float64(fail[0]) / float64(max(len(failed), 1))
			perOK := float64(ok[0]) / float64(max(len(repaired), 1))
			b.ReportMetric(perFail/perOK, "fail/repair")
			b.ReportMetric(float64(len(inputs)), "inputs")
		})
	}
}

func sizeLabel(limit int) string {
	if limit < 1<<10 {
		return "under100B"
	}
	return "under1KB"
}

// TestTinyThroughputRatio logs the ratios of BenchmarkTinyRatio with many
// rounds (go test -run TestTinyThroughputRatio -v); it asserts nothing
// about time, only that the set is broad: inputs of every size class and
// inputs lenient gives up on.
func TestTinyThroughputRatio(t *testing.T) {
	for _, limit := range []int{100, 1 << 10} {
		inputs := tinyInputs(t, limit)
		repaired, failed := splitByOutcome(inputs)
		if len(inputs) < 1000 || len(failed) == 0 || len(repaired) == 0 {
			t.Fatalf("under %d bytes: %d inputs, %d repaired, %d failed: not a broad set", limit, len(inputs), len(repaired), len(failed))
		}
		if testing.Short() {
			continue
		}
		all := pairTiming(inputs, 20)
		fail := pairTiming(failed, 200)
		ok := pairTiming(repaired, 20)
		t.Logf("%d inputs under %d bytes (%d repaired, %d given up on): lenient %.2fx kaptinlin/jsonrepair's throughput; on the ones it gives up on %.2fx; per input, giving up costs lenient %.2fx a repair",
			len(inputs), limit, len(repaired), len(failed),
			float64(all[1])/float64(all[0]), float64(fail[1])/float64(fail[0]),
			(float64(fail[0])/float64(len(failed)))/(float64(ok[0])/float64(len(repaired))))
	}
}

// BenchmarkTiny runs each repairer alone over the tiny set under 100 bytes
// (for -cpuprofile).
func BenchmarkTiny(b *testing.B) {
	inputs := tinyInputs(b, 100)
	for _, r := range repairers {
		b.Run(r.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, in := range inputs {
					r.repair(in)
				}
			}
		})
	}
}
