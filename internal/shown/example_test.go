package shown

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// presentedAsExampleWhole is PresentedAsExample as it read whole lines:
// the oracle that the bounded look must agree with.
func presentedAsExampleWhole(text string, at int) bool {
	end := at
	for end > 0 && text[end-1] != '\n' {
		end--
	}
	line := strings.TrimSpace(text[end:at])
	for (line == "" || strings.HasPrefix(line, "```")) && end > 0 {
		e := end - 1
		s := e
		for s > 0 && text[s-1] != '\n' {
			s--
		}
		line, end = strings.TrimSpace(text[s:e]), s
	}
	if len(line) > exampleProse {
		line = line[len(line)-exampleProse:]
	}
	line = strings.ToLower(line)
	for _, w := range exampleWords {
		if strings.Contains(line, w) {
			return true
		}
	}
	return false
}

// The look back before a value is bounded (a long line of values cost the
// square of its length when each value read the whole line) and gives
// what reading the whole line gave.
func TestPresentedAsExampleBoundedLook(t *testing.T) {
	pieces := []string{"For example: ", "Here is the format", "\n", "\n\n", "```json\n", "```\n", "   ",
		"I will call it ", `{"name": "f"}`, strings.Repeat("x", 450), strings.Repeat(" ", 500), "such as ", "done. "}
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		var b strings.Builder
		for range 1 + r.IntN(12) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		text := b.String()
		for at := 0; at <= len(text); at += 1 + r.IntN(40) {
			if got, want := PresentedAsExample(text, at), presentedAsExampleWhole(text, at); got != want {
				t.Fatalf("PresentedAsExample(%q, %d) = %v, reading the whole line gives %v", text, at, got, want)
			}
		}
	}
	long := strings.Repeat("prose ", 200) + "for example: " + `{"name": "f"}`
	if !PresentedAsExample(long, strings.LastIndexByte(long, '{')) {
		t.Error("the example words right before a value on a long line are missed")
	}
}

// BenchmarkPresentedAsExampleLongLine is a megabyte line of values, each
// looked at: linear work, not quadratic.
func BenchmarkPresentedAsExampleLongLine(b *testing.B) {
	text := strings.Repeat(`words {"a": 1} `, 1<<16)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		for i := strings.IndexByte(text, '{'); i >= 0; {
			PresentedAsExample(text, i)
			j := strings.IndexByte(text[i+1:], '{')
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
}

// The example words match whatever the case of their ASCII letters, and
// asking about a value under a line of invalid UTF-8 allocates nothing: a
// hostile output of such lines, each with a value, cost hundreds of times
// its size when the line was lowered with strings.ToLower.
func TestPresentedAsExampleFoldsASCII(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"FOR EXAMPLE:\n{\"name\": \"f\"}", true},
		{"Here Is The Format: {\"name\": \"f\"}", true},
		{"\xff\xfeExample\xc0 {\"name\": \"f\"}", true},
		{"\xff\xfe\xc3\x28 {\"name\": \"f\"}", false},
		{"I will call it: {\"name\": \"f\"}", false},
	} {
		if got := PresentedAsExample(c.text, strings.IndexByte(c.text, '{')); got != c.want {
			t.Errorf("PresentedAsExample(%q) = %v, want %v", c.text, got, c.want)
		}
	}
	bad := strings.Repeat("\xff\xfe\xc3\x28\xc0", 80) + ` {"a": 1}`
	at := strings.IndexByte(bad, '{')
	if n := testing.AllocsPerRun(100, func() { PresentedAsExample(bad, at) }); n != 0 {
		t.Errorf("a value under a line of invalid UTF-8: %v allocations, want 0", n)
	}
}
