package tagged_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/tagged"
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
