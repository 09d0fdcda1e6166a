package textlayer

import "testing"

// TestEdges feeds content in pieces: what goes out is the content less
// the spaces that begin and end it, the spaces between its text given
// before the text that follows them, and characters outside the space set
// kept.
func TestEdges(t *testing.T) {
	for _, tc := range []struct {
		pieces []string
		want   []string // what goes out after each piece, held and text joined
	}{
		{[]string{" \n a", "b \n", "\t", "c \r\n"}, []string{"a", "b", "", " \n\tc"}},
		{[]string{"  ", "\n"}, []string{"", ""}},
		{[]string{"\u00a0a\u00a0"}, []string{"\u00a0a\u00a0"}},
		{[]string{"\fa ", "\v"}, []string{"\fa", " \v"}},
		{[]string{"a", "", " ", "b"}, []string{"a", "", "", " b"}},
	} {
		var e Edges
		for i, p := range tc.pieces {
			held, text := e.Next(p)
			if got := held + text; got != tc.want[i] {
				t.Errorf("%q: piece %d gives %q, want %q", tc.pieces, i, got, tc.want[i])
			}
		}
	}
}
