package ollamawire

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
)

// TestReaderHoldsBody: the Reader returns nothing before the body ends,
// and its pieces at Close make the Extraction Extract reads, however the
// body is cut into deltas (a whole body, 1-, 7- and 64-byte deltas).
func TestReaderHoldsBody(t *testing.T) {
	inputs := map[string]string{
		"empty":    "",
		"prose":    "I think it is sunny.",
		"no done":  `{"model":"m","created_at":"t","message":{"role":"assistant","content":"hi"},"done":false}`,
		"thinking": `{"model":"m","created_at":"t","message":{"role":"assistant","content":"ok","thinking":"let me see"},"done":true}`,
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "*json"))
	for _, f := range files {
		if filepath.Base(f) == "tools.json" {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs[filepath.Base(f)] = string(data)
	}
	if len(inputs) < 9 {
		t.Fatalf("found %d inputs", len(inputs))
	}
	for name, text := range inputs {
		want := Dialect{}.Extract(text, nil)
		for _, size := range []int{0, 1, 7, 64} {
			r := Dialect{}.NewReader(&dialects.Options{})
			if size == 0 {
				if got := dialects.Read(r, text); !sameExtraction(got, want) {
					t.Errorf("%s: Read = %+v, Extract = %+v", name, got, want)
				}
				continue
			}
			for i := 0; i < len(text); i += size {
				if ps := r.Write(text[i:min(i+size, len(text))]); len(ps) != 0 {
					t.Fatalf("%s, %d-byte deltas: Write at %d returned %d pieces before the body ended", name, size, i, len(ps))
				}
			}
			got := &dialects.Extraction{}
			for _, p := range r.Close() {
				switch p.Kind {
				case dialects.PieceContent:
					got.Content += p.Text
				case dialects.PieceReasoning:
					got.Reasoning += p.Text
				case dialects.PieceCall:
					if p.Index != len(got.Calls) {
						t.Fatalf("%s: call %d came as call %d", name, len(got.Calls), p.Index)
					}
					got.Calls = append(got.Calls, *p.Call)
				case dialects.PieceError:
					var e *toolcall.Error
					if !errors.As(p.Err, &e) {
						t.Fatalf("%s: error %v is no *toolcall.Error", name, p.Err)
					}
					got.Errors = append(got.Errors, e)
				case dialects.PieceMarked:
					got.Marked = true
				}
			}
			if len(r.Close()) != 0 {
				t.Errorf("%s: a second Close returned pieces", name)
			}
			if !sameExtraction(got, want) {
				t.Errorf("%s, %d-byte deltas: pieces %+v, Extract %+v", name, size, got, want)
			}
		}
	}
}

// sameExtraction compares two extractions, an empty list equal to none.
func sameExtraction(a, b *dialects.Extraction) bool {
	same := func(x, y any, n int) bool { return n == 0 || reflect.DeepEqual(x, y) }
	return len(a.Calls) == len(b.Calls) && same(a.Calls, b.Calls, len(a.Calls)) &&
		len(a.Errors) == len(b.Errors) && same(a.Errors, b.Errors, len(a.Errors)) &&
		a.Content == b.Content && a.Reasoning == b.Reasoning && a.Marked == b.Marked
}
