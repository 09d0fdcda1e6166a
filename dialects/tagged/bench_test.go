package tagged_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/tagged"
	"github.com/dialectkit/toolcall/internal/cputime"
	"github.com/dialectkit/toolcall/render"
)

// BenchmarkParse parses a typical single-call output of every dialect:
// extraction, typing and the finishing step. Compare with
// BenchmarkBaselineUnmarshal, encoding/json decoding the same arguments.
func BenchmarkParse(b *testing.B) {
	for _, d := range tagged.All() {
		text := sampleOf(b, d.Name())
		b.Run(d.Name(), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				res := dialects.Parse(d, text, nil)
				if len(res.Calls) != 1 {
					b.Fatal("no call")
				}
			}
		})
	}
}

// BenchmarkExtract is the dialect's own share: finding the call, without
// typing and finishing.
func BenchmarkExtract(b *testing.B) {
	for _, d := range tagged.All() {
		text := sampleOf(b, d.Name())
		b.Run(d.Name(), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(text)))
			opts := &dialects.Options{}
			for b.Loop() {
				if ext := d.Extract(text, opts); len(ext.Calls) != 1 {
					b.Fatal("no call")
				}
			}
		})
	}
}

// BenchmarkBaselineUnmarshal decodes the samples' arguments with
// encoding/json, the cost a strict JSON dialect could not go below.
func BenchmarkBaselineUnmarshal(b *testing.B) {
	args := []byte(`{"city": "Tokyo"}`)
	b.ReportAllocs()
	b.SetBytes(int64(len(args)))
	for b.Loop() {
		var v map[string]any
		if err := json.Unmarshal(args, &v); err != nil {
			b.Fatal(err)
		}
	}
}

func sampleOf(b *testing.B, name string) string {
	for _, s := range samples {
		if s.dialect == name {
			return s.text
		}
	}
	b.Fatalf("no sample for %s", name)
	return ""
}

// BenchmarkReader reads an output of prose and several calls with the
// dialect's Reader fed whole (Extract), and in 16-byte and 1-byte deltas:
// a stream's cost against the one-shot parse's.
func BenchmarkReader(b *testing.B) {
	for _, d := range tagged.All() {
		one := sampleOf(b, d.Name())
		text := strings.Repeat("Let me look that up for you, then compare the two answers.\n"+one+"\n", 8)
		inc := d.(dialects.Incremental)
		want := len(d.Extract(text, &dialects.Options{ReasoningClosed: true}).Calls)
		if r, ok := render.For(d.Name()); ok && want != 8 {
			// The sample goes on from a header the template opened
			// (glimmer's): repeated, each call is written whole.
			one = r.Calls([]toolcall.Call{{Name: "get_weather", Arguments: json.RawMessage(`{"city":"Tokyo"}`)}})
			text = strings.Repeat("Let me look that up for you, then compare the two answers.\n"+one+"\n", 8)
			want = len(d.Extract(text, &dialects.Options{ReasoningClosed: true}).Calls)
		}
		for _, n := range []int{0, 16, 1} {
			name := d.Name() + "/whole"
			if n > 0 {
				name = d.Name() + "/" + strconv.Itoa(n) + "-byte"
			}
			b.Run(name, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(text)))
				opts := &dialects.Options{ReasoningClosed: true}
				for b.Loop() {
					r := inc.NewReader(opts)
					calls := 0
					count := func(ps []dialects.Piece) {
						for _, p := range ps {
							if p.Kind == dialects.PieceCall {
								calls++
							}
						}
					}
					if n == 0 {
						count(r.Write(text))
					} else {
						for i := 0; i < len(text); i += n {
							count(r.Write(text[i:min(len(text), i+n)]))
						}
					}
					count(r.Close())
					if calls != want || want == 0 {
						b.Fatalf("%d calls, want %d", calls, want)
					}
				}
			})
		}
	}
}

// BenchmarkTemplateReasoning reads an output that starts in a long
// reasoning block the template opened (Options.ReasoningOpen), closes it
// and makes a call, with the dialect's Reader fed in 16-byte deltas and
// whole, in turn in each round: cpu-ns/op is the stream's CPU time, and
// x_oneshot its ratio to the one-shot read's in the same run.
//
//	go test ./dialects/tagged -run '^$' -bench TemplateReasoning -benchtime 200x -cpu 1
func BenchmarkTemplateReasoning(b *testing.B) {
	for _, d := range tagged.All() {
		r, ok := render.For(d.Name())
		if !ok {
			b.Fatalf("no renderer for %s", d.Name())
		}
		syn := d.(interface{ Syntax() dialects.Syntax }).Syntax()
		closing := dialects.Think.Close // glimmer's, whose Syntax lists none
		if len(syn.Reasoning) > 0 {
			closing = syn.Reasoning[0].Close
		}
		call := r.Calls([]toolcall.Call{{Name: "get_weather", Arguments: json.RawMessage(`{"city":"Tokyo"}`)}})
		text := strings.Repeat("The user wants the weather in Tokyo, so I should look it up first.\n", 40) +
			closing + "\n" + call
		inc := d.(dialects.Incremental)
		opts := &dialects.Options{ReasoningOpen: true}
		want := len(d.Extract(text, opts).Calls)
		if want != 1 {
			b.Fatalf("%s: %d calls, want 1", d.Name(), want)
		}
		read := func(n int) {
			rd := inc.NewReader(opts)
			calls := 0
			count := func(ps []dialects.Piece) {
				for _, p := range ps {
					if p.Kind == dialects.PieceCall {
						calls++
					}
				}
			}
			for i := 0; i < len(text); i += n {
				count(rd.Write(text[i:min(len(text), i+n)]))
			}
			count(rd.Close())
			if calls != want {
				b.Fatalf("%d calls, want %d", calls, want)
			}
		}
		b.Run(d.Name(), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(text)))
			var streamCPU, wholeCPU time.Duration
			for b.Loop() {
				start := cputime.Process()
				read(16)
				streamCPU += cputime.Process() - start
				b.StopTimer()
				start = cputime.Process()
				read(len(text))
				wholeCPU += cputime.Process() - start
				b.StartTimer()
			}
			if wholeCPU > 0 {
				b.ReportMetric(float64(streamCPU)/float64(b.N), "cpu-ns/op")
				b.ReportMetric(float64(streamCPU)/float64(wholeCPU), "x_oneshot")
			}
		})
	}
}
