package stream

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/hermes"
)

// TestTextBuf writes, adds and reads a text in random steps, against a
// plain copy of it: every string read stays the text it was when read,
// though the chunks behind it are used again by another buffer.
func TestTextBuf(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for run := 0; run < 40; run++ {
		var (
			tb    textBuf
			first [256]byte
			ref   strings.Builder
			reads []string
			wants []string
		)
		tb.b = first[:0]
		for step := 0; step < 200; step++ {
			s := strings.Repeat(string(rune('a'+rng.IntN(26))), 1+rng.IntN(1<<rng.IntN(16)))
			switch rng.IntN(10) {
			case 0:
				tb.write(s)
				ref.WriteString(s)
			case 1:
				reads, wants = append(reads, tb.String()), append(wants, ref.String())
				// Another buffer takes the chunks back and writes over them.
				var other textBuf
				other.add(strings.Repeat("#", 4*chunkSize))
				_ = other.String()
			default:
				tb.add(s)
				ref.WriteString(s)
			}
			if tb.Len() != ref.Len() {
				t.Fatalf("run %d step %d: length %d, want %d", run, step, tb.Len(), ref.Len())
			}
		}
		if tb.String() != ref.String() {
			t.Fatalf("run %d: the text differs from what was written", run)
		}
		for i := range reads {
			if reads[i] != wants[i] {
				t.Fatalf("run %d: read %d changed after it was read", run, i)
			}
		}
	}
}

// hermesAt decides Hermes at its first closing marker.
type hermesAt struct{ prof *Profile }

func (h hermesAt) Candidates() []*Profile { return []*Profile{h.prof} }
func (h hermesAt) Points() *PointSet      { return NewPointSet(h.Candidates()) }
func (h hermesAt) Decide(prefix string) (*Profile, string) {
	if strings.Contains(prefix, "</tool_call>") {
		return h.prof, "a Hermes call"
	}
	return nil, ""
}
func (h hermesAt) Parse(text string) *toolcall.Result {
	return dialects.Parse(hermes.Dialect, text, &dialects.Options{})
}

// TestDecidedKeepsBuffer checks that the parser of the dialect a detecting
// parser decides takes the text read so far in the buffer it was read
// into, rather than a copy of it.
func TestDecidedKeepsBuffer(t *testing.T) {
	text := "Let me check.\n<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": \"" + strings.Repeat("x", 5000) + "\"}}\n</tool_call>"
	last := len(text) - 4
	w := NewDetecting(hermesAt{Learn(hermes.Dialect)}, nil)
	p := w.old
	for i := 0; i < last; i += 16 {
		w.Write(text[i:min(i+16, last)])
	}
	if p.inner != nil || cap(p.buf.b)-len(p.buf.b) < len(text)-last {
		t.Fatal("decided early, or no room left for the last delta")
	}
	array := unsafe.SliceData(p.buf.b)
	w.Write(text[last:])
	if p.inner == nil {
		t.Fatal("not decided at the closing marker")
	}
	// The decided dialect's parser: its engine's, or its profile's.
	var buf *textBuf
	if p.inner.eng != nil {
		buf = &p.inner.eng.text
	} else {
		buf = &p.inner.old.buf
	}
	if unsafe.SliceData(buf.b) != array {
		t.Error("the text was copied into the decided dialect's parser")
	}
	if w.Text() != text {
		t.Errorf("Text() = %q", w.Text())
	}
}
