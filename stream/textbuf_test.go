package stream

import (
	"math/rand/v2"
	"strings"
	"testing"

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
type hermesAt struct{}

func (hermesAt) Candidates() *CandidateSet {
	return NewCandidateSet([]Candidate{{Dialect: hermes.Dialect}})
}
func (hermesAt) Points() *PointSet {
	return NewPointSet([]dialects.Dialect{hermes.Dialect})
}
func (hermesAt) Decide(prefix string, _ func(int) *Reading) (int, string) {
	if strings.Contains(prefix, "</tool_call>") {
		return 0, "a Hermes call"
	}
	return -1, ""
}
func (hermesAt) Priors() []string { return nil }
func (hermesAt) Settle(text string, read func(int) *Reading) (int, string, *toolcall.Result) {
	if read(0) != nil {
		return 0, "a Hermes output", nil
	}
	return -1, "", dialects.Parse(hermes.Dialect, text, &dialects.Options{})
}

// TestDecidedKeepsReading checks that the Reader of the dialect a
// detecting stream decides carries on with what it read: the text is kept
// once, by the detecting stream, and the decided Parser is the one that
// read the output while it was undecided, not a new one fed it again.
func TestDecidedKeepsReading(t *testing.T) {
	text := "Let me check.\n<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": \"" + strings.Repeat("x", 5000) + "\"}}\n</tool_call>"
	last := len(text) - 4
	w := NewDetecting(hermesAt{}, nil)
	c := w.ch
	for i := 0; i < last; i += 16 {
		w.Write(text[i:min(i+16, last)])
	}
	if c.inner != nil || len(c.alts) != 1 {
		t.Fatalf("decided early, or %d readings", len(c.alts))
	}
	reading := c.alts[0].p
	w.Write(text[last:])
	if c.inner != reading {
		t.Fatal("not decided at the closing marker, or decided with another Parser")
	}
	if reading.eng == nil || reading.eng.text.b != nil {
		t.Error("the decided dialect's Parser keeps a copy of the text")
	}
	if w.Text() != text {
		t.Errorf("Text() = %q", w.Text())
	}
	evs := w.Close()
	if res := evs[len(evs)-1].Result; res.Dialect != "hermes" || len(res.Calls) != 1 {
		t.Errorf("result %+v", res)
	}
}
