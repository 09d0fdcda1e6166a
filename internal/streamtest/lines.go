package streamtest

import (
	"strings"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
)

// Lines is a dialect that reads its output one line at a time with a
// Reader of its own (dialects.Incremental), for the tests of what streams
// a Reader's pieces:
//
//	CALL name arguments   a call; announced once its name is followed by a
//	                      space, its arguments shown as they arrive; a call
//	                      line the output ends in is cut (RawCall.AtEnd)
//	THINK text            reasoning: text and its line break
//	ERR message           an error of no call (TLP-018)
//	MARK                  the dialect's marker (PieceMarked), once
//
// Every other line is content, returned when its line ends.
type Lines struct{}

// Name names the dialect.
func (Lines) Name() string { return "lines" }

// Extract reads text whole with the dialect's Reader.
func (d Lines) Extract(text string, opts *dialects.Options) *dialects.Extraction {
	return dialects.Read(d.NewReader(opts), text)
}

// NewReader returns a Reader of one output.
func (Lines) NewReader(*dialects.Options) dialects.Reader { return &linesReader{call: -1} }

type linesReader struct {
	line   strings.Builder // the line read so far
	off    int             // the offset of its first byte
	call   int             // the index of the call it is, once announced, or -1
	shown  int             // the bytes of that call's arguments shown
	calls  int
	marked bool
	out    []dialects.Piece
}

func (r *linesReader) Write(delta string) []dialects.Piece {
	r.out = r.out[:0]
	for delta != "" {
		i := strings.IndexByte(delta, '\n')
		if i < 0 {
			r.line.WriteString(delta)
			r.announce()
			return r.out
		}
		r.line.WriteString(delta[:i+1])
		delta = delta[i+1:]
		r.announce()
		r.end(false)
	}
	return r.out
}

func (r *linesReader) Close() []dialects.Piece {
	r.out = r.out[:0]
	if r.line.Len() > 0 {
		r.end(true)
	}
	return r.out
}

// callLine splits a call line into its name and arguments; named says a
// space followed the name.
func callLine(line string) (name, args string, named, ok bool) {
	rest, ok := strings.CutPrefix(line, "CALL ")
	if !ok {
		return "", "", false, false
	}
	name, args, named = strings.Cut(strings.TrimSuffix(rest, "\n"), " ")
	return name, args, named, true
}

// announce starts the call of the line so far, and shows its arguments.
func (r *linesReader) announce() {
	name, args, named, ok := callLine(r.line.String())
	if !ok || !named {
		return
	}
	if r.call < 0 {
		r.call = r.calls
		r.calls++
		r.out = append(r.out, dialects.Piece{Kind: dialects.PieceCallStart, Index: r.call, Name: name})
	}
	if len(args) > r.shown {
		r.out = append(r.out, dialects.Piece{Kind: dialects.PieceArguments, Index: r.call, Text: args[r.shown:]})
		r.shown = len(args)
	}
}

// end reads the line, whole or cut by the end of the output.
func (r *linesReader) end(cut bool) {
	line := r.line.String()
	if name, args, _, ok := callLine(line); ok {
		if r.call < 0 {
			r.call = r.calls
			r.calls++
		}
		rc := &dialects.RawCall{Name: name, Arguments: args, Offset: r.off, Text: line, AtEnd: cut}
		r.out = append(r.out, dialects.Piece{Kind: dialects.PieceCall, Index: r.call, Call: rc})
	} else if text, ok := strings.CutPrefix(line, "THINK "); ok {
		r.out = append(r.out, dialects.Piece{Kind: dialects.PieceReasoning, Text: text})
	} else if msg, ok := strings.CutPrefix(line, "ERR "); ok {
		e := toolcall.NewError(toolcall.CodeMalformedCall, strings.TrimSuffix(msg, "\n"))
		e.Offset = r.off
		r.out = append(r.out, dialects.Piece{Kind: dialects.PieceError, Err: e})
	} else if strings.TrimSuffix(line, "\n") == "MARK" && !r.marked {
		r.marked = true
		r.out = append(r.out, dialects.Piece{Kind: dialects.PieceMarked})
	} else {
		r.out = append(r.out, dialects.Piece{Kind: dialects.PieceContent, Text: line})
	}
	r.off += len(line)
	r.line.Reset()
	r.call, r.shown = -1, 0
}
