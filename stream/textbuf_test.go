package stream

import (
	"math/rand/v2"
	"strings"
	"testing"
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
