package tagged_test

import (
	"encoding/json"
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/tagged"
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
