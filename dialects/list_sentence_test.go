package dialects_test

import (
	"strings"
	"testing"
	"time"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/cputime"
	"github.com/dialectkit/toolcall/internal/longtest"
)

// TestListInSentence: a call list inside a sentence on its line is shown;
// one that starts a clause of its own, or ends its sentence, is not. The
// list looked at runs from the "^" mark to the end of the first "]" after
// it.
func TestListInSentence(t *testing.T) {
	for _, tc := range []struct {
		text  string
		shown bool
	}{
		{"try it like ^[f(a=1)] to see", true},
		{"I would run it (see ^[f(a=1)]) later.", true},
		{"I checked it (see ^[f(a=1)]).", true},
		{"(see ^[f(a=1)])", true},
		{"the call (^[f(a=1)]) returns it", true},
		{"the call (and (more) ^[f(a=1)]).", true},
		{"You can call ^[f(a=1)], then read it.", true},
		{"I will call ^[f(a=1)]. Then I answer.", true},
		{"Try ^[f(a=1)]: it works.", true},
		{"For example, ^[f(a=1)] works.", true},
		{"Use **^[f(a=1)]** to check.", true},
		{"He typed “^[f(a=1)]” into it.", true},
		{"He typed “^[f(a=1)]”.", true},
		{"He typed «^[f(a=1)]».", true},
		{"Call ^[f(a=1)] (the tool) now.", true},
		// Not in a sentence.
		{"^[f(a=1)] is the call.", false},
		{"Let me check: ^[f(a=1)]", false},
		{"Sure: ^[f(a=1)] coming up.", false},
		{"Done. ^[f(a=1)] and more", false},
		{"I will check ^[f(a=1)]", false},
		{"I will check ^[f(a=1)]  \nMore text.", false},
		{"I will check the weather ^[f(a=1)].", false},
		{"Checking now ^[f(a=1)])", false},
		{"run^[f(a=1)] now", false},
		{"I will check ^[f(a=1)]more", false},
		{"a (b) ^[f(a=1)]) c", true}, // the sentence goes on
		{"a (b) ^[f(a=1)]).", false},
		{"(x\nI will check ^[f(a=1)]).", false},
		{"He typed ”^[f(a=1)]”.", false},
	} {
		i := strings.Index(tc.text, "^")
		text := tc.text[:i] + tc.text[i+1:]
		end := i + strings.Index(text[i:], "]") + 1
		if got := dialects.ListInSentence(text, i, end); got != tc.shown {
			t.Errorf("%q: shown %v, want %v", tc.text, got, tc.shown)
		}
	}
}

// TestListInSentenceLinear: a long line of lists, each closed by a
// parenthesis it did not open, costs linear time: the look back for the
// opener is bounded.
func TestListInSentenceLinear(t *testing.T) {
	// A timing, so a long suite (DIALECTKIT_LONG=1), not the quick run;
	// CPU time, which does not grow while the work waits for a busy CPU.
	longtest.Skip(t)
	cost := func(n int) time.Duration {
		text := strings.Repeat("see [f(a=1)]) ", n)
		start, cpu := time.Now(), cputime.Process()
		for at := strings.IndexByte(text, '['); at >= 0; {
			end := at + strings.IndexByte(text[at:], ']') + 1
			dialects.ListInSentence(text, at, end)
			k := strings.IndexByte(text[end:], '[')
			if k < 0 {
				break
			}
			at = end + k
		}
		if took := cputime.Process() - cpu; took > 0 {
			return took
		}
		return time.Since(start) // no CPU time on this system
	}
	// Sixteen times the lists: linear work costs about 16 times as much,
	// quadratic 256 times; the bound of 64 leaves a loaded machine room.
	small, big := cost(2000), cost(32000)
	if big > 64*small+50*time.Millisecond {
		t.Errorf("16x the lists cost %v against %v: not linear", big, small)
	}
}

// TestValueInSentence: a JSON call value inside a sentence is shown when
// the sentence ends as a sentence does, or holds the value in an aside or
// a quotation; text after it that ends no sentence leaves it a call. The
// value looked at runs from the "^" mark to the end of the last "}" or "]"
// of its line.
func TestValueInSentence(t *testing.T) {
	for _, tc := range []struct {
		text  string
		shown bool
	}{
		{`You can call ^{"name": "f"} to see the weather.`, true},
		{`I would run it (see ^{"name": "f"}) later.`, true},
		{`I checked it (see ^{"name": "f"})`, true},
		{`He typed “^{"name": "f"}” into it`, true},
		{`You can call ^[{"name": "f"}], then read it!`, true},
		{"You can call ^{\"name\": \"f\"} to see the weather\nin Paris.", true},
		// Not in a sentence, or in one that never ends.
		{`Here is some text and then ^{"name": "f"} more text`, false},
		{"You can call ^{\"name\": \"f\"} to see the weather\n\nDone.", false},
		{`Let me check: ^{"name": "f"}`, false},
		{`Sure: ^{"name": "f"} coming up.`, false},
		{`I will check ^{"name": "f"}.`, false},
		{`^{"name": "f"} is the call.`, false},
	} {
		i := strings.Index(tc.text, "^")
		text := tc.text[:i] + tc.text[i+1:]
		line := text[i:]
		if n := strings.IndexByte(line, '\n'); n >= 0 {
			line = line[:n]
		}
		end := i + strings.LastIndexAny(line, "}]") + 1
		if got := dialects.ValueInSentence(text, i, end); got != tc.shown {
			t.Errorf("%q: shown %v, want %v", tc.text, got, tc.shown)
		}
	}
}
