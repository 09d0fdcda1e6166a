package streamtest

import (
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/dialects"
)

// lineDialect reads a line "CALL name" as a call and every other line as
// content, returned when its line ends. sloppy makes it return content as
// soon as it arrives, so a "CALL" cut across deltas is read as content.
type lineDialect struct{ sloppy bool }

func (lineDialect) Name() string { return "lines" }
func (d lineDialect) Extract(text string, opts *dialects.Options) *dialects.Extraction {
	return dialects.Read(d.NewReader(opts), text)
}
func (d lineDialect) NewReader(*dialects.Options) dialects.Reader {
	return &lineReader{sloppy: d.sloppy}
}

type lineReader struct {
	sloppy bool
	held   string
	calls  int
	out    []dialects.Piece
}

func (r *lineReader) line(l string) {
	if name, ok := strings.CutPrefix(strings.TrimSuffix(l, "\n"), "CALL "); ok {
		r.out = append(r.out,
			dialects.Piece{Kind: dialects.PieceCallStart, Index: r.calls, Name: name},
			dialects.Piece{Kind: dialects.PieceCall, Index: r.calls, Call: &dialects.RawCall{Name: name, Arguments: "{}", Offset: -1}})
		r.calls++
		return
	}
	r.out = append(r.out, dialects.Piece{Kind: dialects.PieceContent, Text: l})
}

func (r *lineReader) Write(delta string) []dialects.Piece {
	r.out = r.out[:0]
	if r.sloppy && !strings.HasPrefix(r.held+delta, "CALL") {
		r.line(delta)
		return r.out
	}
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
	return r.out
}

func TestCheckReader(t *testing.T) {
	text := "a\nCALL f\nb\nCALL g"
	if err := CheckReader(lineDialect{}, text, nil); err != nil {
		t.Fatalf("a reader that holds each line: %v", err)
	}
	if err := CheckReader(lineDialect{sloppy: true}, text, nil); err == nil {
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
