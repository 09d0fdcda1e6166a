package dialects_test

import (
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/streamtest"
)

func TestRead(t *testing.T) {
	read := func(text string) *dialects.Extraction { return dialects.Read(streamtest.Lines{}.NewReader(nil), text) }
	x := read("a\nMARK\nCALL f {}\nb\nc\nERR bad\nCALL g {\"x\":")
	if x.Content != "a\nb\nc" || len(x.Calls) != 2 || x.Calls[0].Name != "f" || x.Calls[1].Name != "g" || !x.Marked ||
		len(x.Errors) != 1 || x.Errors[0].Code != toolcall.CodeMalformedCall || x.Calls[0].AtEnd || !x.Calls[1].AtEnd {
		t.Fatalf("Read = %+v", x)
	}
	if x := read("only"); x.Content != "only" || x.Marked || len(x.Calls) != 0 || len(x.Errors) != 0 {
		t.Fatalf("Read = %+v", x)
	}
}

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
		var e dialects.Edges
		for i, p := range tc.pieces {
			held, text := e.Next(p)
			if got := held + text; got != tc.want[i] {
				t.Errorf("%q: piece %d gives %q, want %q", tc.pieces, i, got, tc.want[i])
			}
		}
	}
}
