package streamtest

import (
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/dialects"
)

// sloppy is Lines with a Reader that returns a delta that does not open
// with "CALL" as content at once: a call line cut across deltas, or
// written after other lines in the same delta, is read as content.
type sloppy struct{ Lines }

func (d sloppy) Extract(text string, opts *dialects.Options) *dialects.Extraction {
	return dialects.Read(d.NewReader(opts), text)
}

func (d sloppy) NewReader(opts *dialects.Options) dialects.Reader {
	return sloppyReader{d.Lines.NewReader(opts)}
}

type sloppyReader struct{ dialects.Reader }

func (r sloppyReader) Write(delta string) []dialects.Piece {
	if strings.HasPrefix(delta, "CALL") {
		return r.Reader.Write(delta)
	}
	return []dialects.Piece{{Kind: dialects.PieceContent, Text: delta}}
}

func TestCheckReader(t *testing.T) {
	text := "a\nCALL f {}\nb\nCALL g {}"
	if err := CheckReader(Lines{}, text, nil); err != nil {
		t.Fatalf("a reader that holds each line: %v", err)
	}
	if err := CheckReader(sloppy{}, text, nil); err == nil {
		t.Fatal("a reader whose reading depends on the cuts passed")
	}
}

func TestPieceRules(t *testing.T) {
	call := &dialects.RawCall{Name: "f"}
	bad := map[string][]dialects.Piece{
		"out of order":   {{Kind: dialects.PieceCallStart, Index: 1, Name: "f"}},
		"never ended":    {{Kind: dialects.PieceCallStart, Index: 0, Name: "f"}},
		"started twice":  {{Kind: dialects.PieceCallStart}, {Kind: dialects.PieceCallStart}, {Kind: dialects.PieceCall, Call: call}},
		"after its call": {{Kind: dialects.PieceCall, Call: call}, {Kind: dialects.PieceArguments, Text: "x"}},
		"marked twice":   {{Kind: dialects.PieceMarked}, {Kind: dialects.PieceMarked}},
		"nil call":       {{Kind: dialects.PieceCall}},
	}
	for name, ps := range bad {
		if pieceRules(ps) == nil {
			t.Errorf("%s: passed", name)
		}
	}
	good := []dialects.Piece{{Kind: dialects.PieceMarked}, {Kind: dialects.PieceCallStart, Name: "f"}, {Kind: dialects.PieceArguments, Text: "{"}, {Kind: dialects.PieceCall, Call: call}, {Kind: dialects.PieceCall, Index: 1, Call: call}}
	if err := pieceRules(good); err != nil {
		t.Errorf("good pieces: %v", err)
	}
}
