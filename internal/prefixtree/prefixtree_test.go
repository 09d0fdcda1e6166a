package prefixtree

import (
	"slices"
	"strings"
	"testing"
)

// naive is what Match must find: the keys of the literals s[i:] begins
// with, increasing, and whether s[i:] is a proper prefix of one.
func naive(lits []string, s string, i int) ([]int32, bool) {
	var keys []int32
	partial := false
	for k, l := range lits {
		switch {
		case l == "":
		case strings.HasPrefix(s[i:], l):
			keys = append(keys, int32(k))
		case len(l) > len(s)-i && strings.HasPrefix(l, s[i:]):
			partial = true
		}
	}
	return keys, partial
}

func TestMatchAgreesWithComparingEachLiteral(t *testing.T) {
	lits := []string{"<tool_call>", "<tool", "</tool_call>", "<", "[TOOL_CALLS]", "[", "<｜tool▁calls▁begin｜>", "", "<think>", "</think>", "<tool_call>"}
	var tr Tree
	for k, l := range lits {
		tr.Add(l, int32(k))
	}
	texts := []string{
		"say <tool_call>{} </tool_call> [TOOL_CALLS][x]",
		"<｜tool▁calls▁begin｜><think>a</think>",
		"cut <tool_ca",
		"cut <｜tool▁cal",
		"<",
		"plain text",
	}
	for _, text := range texts {
		// Every prefix of every text, at every place: the end of the
		// text may cut a literal anywhere.
		for n := 1; n <= len(text); n++ {
			s := text[:n]
			for i := range s {
				got, gotPartial := tr.Match(s, i, nil)
				want, wantPartial := naive(lits, s, i)
				// "<tool_call>" was added twice under different keys.
				if !slices.Equal(got, want) || gotPartial != wantPartial {
					t.Fatalf("Match(%q, %d) = %v, %v; want %v, %v", s, i, got, gotPartial, want, wantPartial)
				}
				if tr.Starts(s[i]) != (len(want) > 0 || wantPartial) {
					t.Fatalf("Starts(%q) = %v at %d of %q", s[i], tr.Starts(s[i]), i, s)
				}
			}
		}
	}
}

func TestMatchAppendsToBuf(t *testing.T) {
	var tr Tree
	tr.Add("ab", 2)
	tr.Add("a", 1)
	buf := []int32{9}
	got, _ := tr.Match("abc", 0, buf)
	if !slices.Equal(got, []int32{9, 1, 2}) {
		t.Fatalf("got %v, want [9 1 2]", got)
	}
}
