package stream_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/hermes"
	"github.com/dialectkit/toolcall/internal/cputime"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/stream"
)

// bigCall is a Hermes call whose arguments hold about size bytes of text.
func bigCall(size int) string {
	var b strings.Builder
	b.WriteString("Let me write that file.\n<tool_call>\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"notes.txt\", \"text\": \"")
	line := `lorem ipsum dolor sit amet, \"quoted\" and <tags> too\n`
	for b.Len() < size {
		b.WriteString(line)
	}
	b.WriteString("\"}}\n</tool_call>")
	return b.String()
}

// BenchmarkStream measures streaming a 64 KB and a 256 KB call in 1-byte,
// 16-byte and 1 KB deltas, against one-shot parsing of the same text in the
// same run. The engine's promise: total streaming cost within a small
// multiple of one-shot at every delta size, and linear in the length.
//
// Each stream sub-benchmark alternates one stream and one one-shot parse
// of the same text and reports the ratio of their CPU times (x_oneshot),
// so that the machine's load weighs on both sides alike; its ns/op and
// allocations are the stream's alone.
func BenchmarkStream(b *testing.B) {
	opts := &dialects.Options{ReasoningClosed: true}
	oneShot := func(b *testing.B, text string) {
		if res := dialects.Parse(hermes.Dialect, text, opts); len(res.Calls) != 1 {
			b.Fatal(res.Errors)
		}
	}
	for _, size := range []int{64 << 10, 256 << 10} {
		text := bigCall(size)
		b.Run(fmt.Sprintf("oneshot/%dKB", size>>10), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(text)))
			start := cputime.Process()
			for b.Loop() {
				oneShot(b, text)
			}
			reportCPU(b, start)
		})
		for _, delta := range []int{1, 16, 1024} {
			b.Run(fmt.Sprintf("stream/%dKB/%dB", size>>10, delta), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(text)))
				pair := pairTimer{}
				for b.Loop() {
					pair.stream(b, func() {
						p := stream.NewParser(hermes.Dialect, &stream.Options{Parse: *opts})
						// The deltas are cut as they are written: a slice
						// of 262 144 one-byte strings would make the
						// collector's work, not the stream's, the cost.
						for i := 0; i < len(text); i += delta {
							p.Write(text[i:min(i+delta, len(text))])
						}
						evs := p.Close()
						if res := evs[len(evs)-1].Result; len(res.Calls) != 1 {
							b.Fatal(res.Errors)
						}
					})
					pair.baseline(b, func() { oneShot(b, text) })
				}
				pair.report(b)
			})
		}
	}
}

// BenchmarkStreamDetect measures a stream whose dialect is detected, in
// 16-byte deltas, against the registry's one-shot parse with detection,
// alternated as in BenchmarkStream (x_oneshot).
func BenchmarkStreamDetect(b *testing.B) {
	text := bigCall(64 << 10)
	opts := &registry.Options{}
	opts.ReasoningClosed = true
	chunks := split(text, 16)
	b.Run("oneshot", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(text)))
		start := cputime.Process()
		for b.Loop() {
			registry.Parse(text, opts)
		}
		reportCPU(b, start)
	})
	b.Run("stream", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(text)))
		pair := pairTimer{}
		for b.Loop() {
			pair.stream(b, func() {
				p := registry.Stream(opts)
				for _, c := range chunks {
					p.Write(c)
				}
				p.Close()
			})
			pair.baseline(b, func() { registry.Parse(text, opts) })
		}
		pair.report(b)
	})
}

// pairTimer times a stream and its one-shot baseline alternately within
// one benchmark loop: the baseline runs with the timer stopped, so ns/op
// and the allocation counts are the stream's, and both sides' CPU times
// are summed for the ratio.
type pairTimer struct{ streamCPU, baseCPU time.Duration }

func (pt *pairTimer) stream(b *testing.B, f func()) {
	start := cputime.Process()
	f()
	pt.streamCPU += cputime.Process() - start
}

func (pt *pairTimer) baseline(b *testing.B, f func()) {
	b.StopTimer()
	start := cputime.Process()
	f()
	pt.baseCPU += cputime.Process() - start
	b.StartTimer()
}

// report gives the stream's CPU time per operation (cpu-ns/op) and its
// ratio to the baseline's (x_oneshot).
func (pt *pairTimer) report(b *testing.B) {
	if b.N == 0 || pt.baseCPU <= 0 {
		return
	}
	b.ReportMetric(float64(pt.streamCPU)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(pt.streamCPU)/float64(pt.baseCPU), "x_oneshot")
}

// reportCPU reports the process CPU time per operation since start
// ("cpu-ns/op"): on a shared machine, wall time measures the machine's
// load as much as the code; run with -cpu 1 so that it is the code's.
func reportCPU(b *testing.B, start time.Duration) {
	if start > 0 && b.N > 0 {
		b.ReportMetric(float64(cputime.Process()-start)/float64(b.N), "cpu-ns/op")
	}
}

func split(text string, n int) []string {
	var out []string
	for len(text) > n {
		out, text = append(out, text[:n]), text[n:]
	}
	return append(out, text)
}

// BenchmarkWriteSteady measures one Write of 1 or 16 bytes inside a long
// argument string: the per-delta cost of the Reader there.
func BenchmarkWriteSteady(b *testing.B) {
	head := "<tool_call>\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"notes.txt\", \"text\": \"" + strings.Repeat("x", 256)
	for _, delta := range []string{"a", `lorem \"ipsum\" d`} {
		b.Run(fmt.Sprintf("%dB", len(delta)), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(delta)))
			var p *stream.Parser
			n := 0
			for b.Loop() {
				if n == 0 {
					b.StopTimer()
					p = stream.NewParser(hermes.Dialect, &stream.Options{Parse: dialects.Options{ReasoningClosed: true}})
					for i := 0; i < len(head); i += 16 {
						p.Write(head[i:min(i+16, len(head))])
					}
					n = 1 << 16
					b.StartTimer()
				}
				p.Write(delta)
				n--
			}
		})
	}
}
