package stream

import (
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/hermes"
)

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
	if reading.eng == nil || reading.eng.text.Len() != 0 {
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
