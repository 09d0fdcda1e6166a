package stream

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// benchArguments is a JSON object of about size bytes, shaped like real
// arguments: a few short fields and one long string with escapes.
func benchArguments(size int) string {
	prefix := `{"path":"src/stream/native.go","line":42,"overwrite":true,"tags":["go","stream"],"content":"`
	var b strings.Builder
	b.WriteString(prefix)
	filler := `func main() {\n\tfmt.Println(\"hello, world\")\n}\n`
	for b.Len()+len(filler)+2 <= size {
		b.WriteString(filler)
	}
	for b.Len()+2 < size {
		b.WriteByte('x')
	}
	b.WriteString(`"}`)
	return b.String()
}

// benchStream cuts calls of the given argument size into pieces of n
// bytes, call after call or interleaved.
func benchStream(calls, size, n int, interleave bool) (frags []Fragment, args []string) {
	seqs := make([][]Fragment, calls)
	for i := range calls {
		a := benchArguments(size)
		args = append(args, a)
		seqs[i] = append(seqs[i], Fragment{Index: i, ID: fmt.Sprintf("call_%d", i), Type: "function", Name: "write_file"})
		for rest := a; rest != ""; {
			k := min(n, len(rest))
			seqs[i] = append(seqs[i], Fragment{Index: i, Arguments: rest[:k]})
			rest = rest[k:]
		}
	}
	if !interleave {
		for _, s := range seqs {
			frags = append(frags, s...)
		}
		return frags, args
	}
	for more := true; more; {
		more = false
		for i := range seqs {
			if len(seqs[i]) > 0 {
				frags = append(frags, seqs[i][0])
				seqs[i] = seqs[i][1:]
				more = true
			}
		}
	}
	return frags, args
}

// BenchmarkAccumulator feeds a whole stream through an Accumulator, Raw
// (assembly only) and finished (lenient fast path, id), against
// encoding/json.Unmarshal of the same arguments already joined, measured in
// the same run: the x_unmarshal metric is the ratio.
func BenchmarkAccumulator(b *testing.B) {
	shapes := []struct {
		name               string
		calls, size, piece int
		interleave         bool
	}{
		{"10x1KB/16B", 10, 1 << 10, 16, false},
		{"10x1KB/16B-interleaved", 10, 1 << 10, 16, true},
		{"64KB/16B", 1, 64 << 10, 16, false},
		{"64KB/1B", 1, 64 << 10, 1, false},
	}
	for _, s := range shapes {
		frags, args := benchStream(s.calls, s.size, s.piece, s.interleave)
		total := 0
		for _, a := range args {
			total += len(a)
		}
		// baseNs is the unmarshal baseline's time per stream, from its last
		// (longest) round: b.Run completes every round before it returns.
		var baseNs float64
		b.Run(s.name+"/unmarshal", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(total))
			for b.Loop() {
				for _, a := range args {
					var v any
					if err := json.Unmarshal([]byte(a), &v); err != nil {
						b.Fatal(err)
					}
				}
			}
			baseNs = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
		})
		accumulate := func(raw bool) func(b *testing.B) {
			return func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(total))
				for b.Loop() {
					a := NewAccumulator(&AccumulatorOptions{Raw: raw})
					for _, f := range frags {
						a.Add(f)
					}
					if done := a.End(); len(done) != s.calls || done[0].Err != nil {
						b.Fatalf("completions: %d", len(done))
					}
				}
				if baseNs > 0 {
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/baseNs, "x_unmarshal")
				}
			}
		}
		b.Run(s.name+"/raw", accumulate(true))
		b.Run(s.name+"/finish", accumulate(false))
	}
}
