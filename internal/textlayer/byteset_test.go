package textlayer

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestByteSetIndex searches sets of every size in texts of random bytes,
// at every offset, against a search a byte at a time; the rows are the
// cases a word search gets wrong if its test is off by a byte or a borrow.
func TestByteSetIndex(t *testing.T) {
	rows := []struct {
		name, set, text string
		want            int
	}{
		{"empty set", "", "abc<", -1},
		{"one byte", "<", "abc<d<", 3},
		{"none in the text", "<>]", "abcdefghijklmnop", -1},
		{"in the second word", "<>]", "abcdefgh]ijk", 8},
		{"in the tail past the words", "<>]", "abcdefghij>", 10},
		{"first of two in a word", "<>", "ab>c<defg", 2},
		{"a byte below a match borrows", "<]", "\x00\x01]\x00<\x00\x00\x00", 2},
		{"high bytes", "\xe2\xc4", "abc\xff\x80\xc4\xe2", 5},
		{"five bytes, by table", "<>]\"'", "abcdefgh'", 8},
		{"a byte given twice", "<<>", "aaaaaaaaa>", 9},
	}
	for _, tt := range rows {
		t.Run(tt.name, func(t *testing.T) {
			var s ByteSet
			for i := 0; i < len(tt.set); i++ {
				s.Add(tt.set[i])
			}
			if got := s.Index(tt.text); got != tt.want {
				t.Errorf("Index(%q) = %d, want %d", tt.text, got, tt.want)
			}
			if of := ByteSetOf(tt.set); of != s {
				t.Errorf("ByteSetOf(%q) = %+v, want the set Add builds, %+v", tt.set, of, s)
			}
		})
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for run := 0; run < 2000; run++ {
		var s ByteSet
		members := ""
		for range rng.IntN(7) {
			c := byte(rng.IntN(256))
			s.Add(c)
			members += string([]byte{c})
		}
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = byte(rng.IntN(256))
			if rng.IntN(4) == 0 && members != "" {
				b[i] = members[rng.IntN(len(members))]
			}
		}
		text := string(b)
		for from := 0; from <= len(text); from++ {
			want := -1
			for i := from; i < len(text); i++ {
				if strings.IndexByte(members, text[i]) >= 0 {
					want = i - from
					break
				}
			}
			if got := s.Index(text[from:]); got != want {
				t.Fatalf("set %q: Index(%q) = %d, want %d", members, text[from:], got, want)
			}
		}
	}
}
