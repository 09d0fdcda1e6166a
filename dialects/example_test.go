package dialects_test

import (
	"fmt"
	"strings"

	"github.com/dialectkit/toolcall/dialects"
)

// lineDialect is a dialect written outside this module: a model writes
// one call per line, "CALL name {arguments}", and every other line is its
// answer. It is Incremental, so it streams, and its Extract is the same
// Reader fed the whole text (dialects.Read).
type lineDialect struct{}

func (lineDialect) Name() string { return "line" }

func (d lineDialect) Extract(text string, opts *dialects.Options) *dialects.Extraction {
	return dialects.Read(d.NewReader(opts), text)
}

func (lineDialect) NewReader(*dialects.Options) dialects.Reader { return &lineReader{} }

// lineReader decides each line once it ends: what follows a line break
// cannot change the line before it, so a call goes out with its line. It
// keeps only the line not yet ended.
type lineReader struct {
	line   strings.Builder
	offset int // of the line not yet ended
	calls  int
	out    []dialects.Piece
}

func (r *lineReader) Write(delta string) []dialects.Piece {
	r.out = r.out[:0]
	for {
		i := strings.IndexByte(delta, '\n')
		if i < 0 {
			r.line.WriteString(delta)
			return r.out
		}
		r.line.WriteString(delta[:i+1])
		delta = delta[i+1:]
		r.decide(false)
	}
}

func (r *lineReader) Close() []dialects.Piece {
	r.out = r.out[:0]
	if r.line.Len() > 0 {
		r.decide(true) // the last line, which the end of the output may have cut
	}
	return r.out
}

func (r *lineReader) decide(atEnd bool) {
	line := r.line.String()
	r.line.Reset()
	start := r.offset
	r.offset += len(line)
	rest, ok := strings.CutPrefix(line, "CALL ")
	if !ok {
		r.out = append(r.out, dialects.Piece{Kind: dialects.PieceContent, Text: line})
		return
	}
	name, args, _ := strings.Cut(strings.TrimSpace(rest), " ")
	// Finish checks the name, repairs and validates the arguments; AtEnd
	// says the end of the output may have cut them (TLP-014 if repair had
	// to close them).
	rc := &dialects.RawCall{Name: name, Arguments: args, Offset: start, Text: line, AtEnd: atEnd}
	r.out = append(r.out, dialects.Piece{Kind: dialects.PieceCall, Index: r.calls, Call: rc})
	r.calls++
}

// Example_incremental writes a dialect of its own, streams an output with
// its Reader, then parses the same output in one shot.
func Example_incremental() {
	var d lineDialect
	text := "Checking both cities.\nCALL get_weather {\"city\": \"Paris\"}\nCALL get_weather {\"city\": \"Oslo\""
	r := d.NewReader(nil)
	show := func(ps []dialects.Piece) {
		for _, p := range ps {
			switch p.Kind {
			case dialects.PieceContent:
				fmt.Printf("content %q\n", p.Text)
			case dialects.PieceCall:
				fmt.Println("call", p.Index, p.Call.Name)
			}
		}
	}
	for _, delta := range []string{text[:30], text[30:60], text[60:]} {
		show(r.Write(delta))
	}
	show(r.Close())

	res := dialects.Parse(d, text, nil)
	fmt.Printf("%q\n", res.Content)
	for _, c := range res.Calls {
		fmt.Println(c.Name, string(c.Arguments))
	}
	for _, e := range res.Errors {
		fmt.Println(e.Code, e.CallIndex)
	}
	// Output:
	// content "Checking both cities.\n"
	// call 0 get_weather
	// call 1 get_weather
	// "Checking both cities."
	// get_weather {"city":"Paris"}
	// TLP-014 1
}
