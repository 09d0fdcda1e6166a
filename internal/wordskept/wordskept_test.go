package wordskept

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/internal/jsonscan"
	"github.com/dialectkit/toolcall/lenient"
)

// droppedWordSet is the rule droppedWord applies, written as plainly as it
// reads: every word of out in a set, then the first word of src (syntax
// aside) missing from it.
func droppedWordSet(src, out []byte) string {
	have := map[string]bool{}
	for i := 0; ; {
		s, e, _ := nextWord(out, i)
		if s == len(out) {
			break
		}
		have[string(out[s:e])] = true
		i = e
	}
	src = jsonscan.WithoutRemovableSyntax(src)
	for i := 0; ; {
		s, e, syntax := nextWord(src, i)
		if s == len(src) {
			return ""
		}
		if !syntax && !have[string(src[s:e])] {
			return string(src[s:e])
		}
		i = e
	}
}

// droppedWord finds the same word as the plain set rule, whether repair
// kept the words' order or not.
func TestDroppedWordAgreesWithSet(t *testing.T) {
	cases := [][2]string{
		{`{"a": 1, "b": "two words"}`, `{"a":1,"b":"two words"}`},
		{`{"a": 1, "b": 2, "a": 3}`, `{"b":2,"a":3}`},
		{`{a: 'x', b: True}`, `{"a":"x","b":true}`},
		{`{"a": "x", "b": "gone"}`, `{"a":"x"}`},
		{`{"b": "y", "a": "x"}`, `{"a":"x","b":"y"}`},
		{`{"a": "x" // note\n}`, `{"a":"x"}`},
		{`{"a": u"x", "e": "\u00e9\n"}`, `{"a":"x","e":"é\n"}`},
		{`{"w": "one two three", "v": "two"}`, `{"w":"one three","v":"two"}`},
		{``, ``},
		{`word`, ``},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	vocab := []string{"a", "b", "city", "Paris", "True", "None", "0x1F", "u", "r", "_x", "n1", "é"}
	seps := []string{" ", ", ", `"`, "'", "\\", ": ", "{", "}", "[", "]", "\n", "// c\n", "#c\n"}
	for range 2000 {
		var src strings.Builder
		for range rng.IntN(12) {
			src.WriteString(seps[rng.IntN(len(seps))])
			src.WriteString(vocab[rng.IntN(len(vocab))])
		}
		s := src.String()
		cases = append(cases, [2]string{s, string(lenient.Repair([]byte(s), nil).Output)})
		// out with one word taken out, or two words swapped.
		f := strings.Fields(s)
		if len(f) > 1 {
			i, j := rng.IntN(len(f)), rng.IntN(len(f))
			g := append([]string(nil), f...)
			g[i], g[j] = g[j], g[i]
			cases = append(cases, [2]string{s, strings.Join(g, " ")})
			cases = append(cases, [2]string{s, strings.Join(append(append([]string(nil), f[:i]...), f[i+1:]...), " ")})
		}
	}
	for _, c := range cases {
		if got, want := droppedWord([]byte(c[0]), []byte(c[1])), droppedWordSet([]byte(c[0]), []byte(c[1])); got != want {
			t.Errorf("droppedWord(%q, %q) = %q, want %q", c[0], c[1], got, want)
		}
	}
}

// Checking that repair kept every word of a long argument allocates
// nothing when repair kept their order, whatever the number of words.
func TestDroppedWordDoesNotAllocate(t *testing.T) {
	src := []byte(`{"path": "a.go", "content": "` + strings.Repeat(`func handler(w http.ResponseWriter) {\n\tfmt.Fprintf(w, \"hello\")\n}\n`, 1000) + `"}`)
	out := lenient.Repair(src, nil).Output
	if w := droppedWord(src, out); w != "" {
		t.Fatalf("dropped %q", w)
	}
	if n := testing.AllocsPerRun(10, func() { droppedWord(src, out) }); n != 0 {
		t.Errorf("%v allocations, want 0", n)
	}
}
