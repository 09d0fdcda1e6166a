package dialects_test

import (
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
)

// lineReader is a tiny Reader: a line "CALL name" is a call, every other
// line is content, returned when its line ends.
type lineReader struct {
	held  string
	calls int
	out   []dialects.Piece
}

func (r *lineReader) line(l string) {
	if name, ok := strings.CutPrefix(strings.TrimSuffix(l, "\n"), "CALL "); ok {
		r.out = append(r.out,
			dialects.Piece{Kind: dialects.PieceMarked},
			dialects.Piece{Kind: dialects.PieceCallStart, Index: r.calls, Name: name},
			dialects.Piece{Kind: dialects.PieceCall, Index: r.calls, Call: &dialects.RawCall{Name: name, Arguments: "{}", Offset: -1}})
		r.calls++
		return
	}
	r.out = append(r.out, dialects.Piece{Kind: dialects.PieceContent, Text: l})
}

func (r *lineReader) Write(delta string) []dialects.Piece {
	r.out = r.out[:0]
	r.held += delta
	for {
		i := strings.IndexByte(r.held, '\n')
		if i < 0 {
			return r.out
		}
		r.line(r.held[:i+1])
		r.held = r.held[i+1:]
	}
}

func (r *lineReader) Close() []dialects.Piece {
	r.out = r.out[:0]
	if r.held != "" {
		r.line(r.held)
		r.held = ""
	}
	r.out = append(r.out, dialects.Piece{Kind: dialects.PieceError, Err: &toolcall.Error{Code: toolcall.CodeTruncated, CallIndex: -1, Offset: -1}})
	return r.out
}

func TestRead(t *testing.T) {
	x := dialects.Read(&lineReader{}, "a\nCALL f\nb\nc\nCALL g")
	if x.Content != "a\nb\nc\n" || len(x.Calls) != 2 || x.Calls[0].Name != "f" || x.Calls[1].Name != "g" || !x.Marked || len(x.Errors) != 1 {
		t.Fatalf("Read = %+v", x)
	}
	if x := dialects.Read(&lineReader{}, "only"); x.Content != "only" || x.Marked || len(x.Calls) != 0 {
		t.Fatalf("Read = %+v", x)
	}
}
