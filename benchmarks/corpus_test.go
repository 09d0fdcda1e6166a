package benchmarks

import (
	"bufio"
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/kaptinlin/jsonrepair"
	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall/lenient"
)

type vector struct {
	ID       string          `json:"id"`
	Category string          `json:"category"`
	Input    string          `json:"input"`
	Expected json.RawMessage `json:"expected"`
}

func loadCorpus(tb testing.TB) []vector {
	tb.Helper()
	f, err := os.Open("../testdata/corpus/repair.dev.jsonl")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var vs []vector
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var v vector
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			tb.Fatal(err)
		}
		vs = append(vs, v)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return vs
}

// malformed returns the inputs of the corpus that are not valid JSON: the
// ones a repairer has work to do on.
func malformed(vs []vector) []string {
	var out []string
	for _, v := range vs {
		if !gjson.Valid(v.Input) {
			out = append(out, v.Input)
		}
	}
	return out
}

// sameJSON compares two JSON texts as values (numbers as float64).
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// repairers are the two contenders, each turning text into JSON or failing.
var repairers = []struct {
	name   string
	repair func(string) ([]byte, bool)
}{
	{"lenient", func(s string) ([]byte, bool) {
		res := lenient.RepairString(s, nil)
		return res.Output, res.Err == nil
	}},
	{"kaptinlin/jsonrepair", func(s string) ([]byte, bool) {
		out, err := jsonrepair.Repair(s)
		return []byte(out), err == nil
	}},
}

// TestPassRate reports, for each repairer, how many corpus vectors come out
// as the expected value, how many fail with an error, and how many come out
// as valid JSON with a different value (the silent corruptions).
func TestPassRate(t *testing.T) {
	vs := loadCorpus(t)
	for _, r := range repairers {
		pass, failed, wrong := 0, 0, 0
		for _, v := range vs {
			out, ok := r.repair(v.Input)
			switch {
			case !ok:
				failed++
			case sameJSON(out, v.Expected):
				pass++
			default:
				wrong++
			}
		}
		t.Logf("%-22s %3d/%d pass (%.1f%%), %d errors, %d different values",
			r.name, pass, len(vs), 100*float64(pass)/float64(len(vs)), failed, wrong)
	}
}

func BenchmarkMalformedCorpus(b *testing.B) {
	inputs := malformed(loadCorpus(b))
	total := 0
	for _, in := range inputs {
		total += len(in)
	}
	for _, r := range repairers {
		b.Run(r.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(total))
			for b.Loop() {
				for _, in := range inputs {
					r.repair(in)
				}
			}
		})
	}
}

// BenchmarkMalformedTiny runs the corpus inputs under 100 bytes, one
// argument or two: here the fixed cost of a call (allocations, set-up,
// stages that decide nothing) is what the throughput measures.
func BenchmarkMalformedTiny(b *testing.B) {
	benchmarkBelow(b, 100)
}

// benchmarkBelow runs the malformed corpus inputs shorter than limit.
func benchmarkBelow(b *testing.B, limit int) {
	var inputs []string
	total := 0
	for _, in := range malformed(loadCorpus(b)) {
		if len(in) < limit {
			inputs = append(inputs, in)
			total += len(in)
		}
	}
	b.Logf("%d inputs under %d bytes, %d bytes in all", len(inputs), limit, total)
	for _, r := range repairers {
		b.Run(r.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(total))
			for b.Loop() {
				for _, in := range inputs {
					r.repair(in)
				}
			}
		})
	}
}

// BenchmarkMalformedSmall runs only the corpus inputs under 1 KB, the size
// of tool-call arguments, so the two large stress vectors do not dominate.
func BenchmarkMalformedSmall(b *testing.B) {
	benchmarkBelow(b, 1<<10)
}
