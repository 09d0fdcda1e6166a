package dialects

import (
	"slices"

	"github.com/dialectkit/toolcall/internal/coded"
	"github.com/dialectkit/toolcall/internal/textlayer"
)

// Incremental is implemented by a dialect whose engine reads an output in
// one pass as it arrives. Its Extract is Read of a new Reader: the stream
// package feeds the same Reader delta by delta, so a streamed output and a
// one-shot parse of the same text agree by construction, with no second
// reading of the output. Implement Incremental to stream: a dialect that
// has only Extract is read whole when its output ends (package stream
// emits nothing of it before Close).
type Incremental interface {
	Dialect
	// NewReader returns a Reader for one output, read with opts. opts is
	// read, never changed, and must not change while the Reader is used.
	NewReader(opts *Options) Reader
}

// A Reader reads one model output in a dialect, in order: Write gives it
// the output's next bytes and returns the pieces they decided, Close ends
// the output and returns the rest.
//
// A piece is final: once returned it is never taken back or changed, so a
// Reader returns a piece of content, reasoning or a call only when no
// later byte can change it (text that could still open a marker, become
// reasoning, or be trimmed as trailing whitespace is held). A call is
// decided by its framing and what precedes it, looking ahead no further
// than the end of its own region or line, so a call is returned as soon as
// its region closes. Together the pieces are the output's Extraction (see
// Read).
//
// The work a Reader does is linear in the length of the output, however
// the output is cut into deltas. The slice Write and Close return may be
// reused by the next call. A Reader is not safe for concurrent use.
type Reader interface {
	// Write reads the output's next bytes.
	Write(delta string) []Piece
	// Close ends the output: what was held is decided, a call left open is
	// cut (TLP-014). Write must not be called after Close.
	Close() []Piece
}

// A TextReader is a Reader that keeps the whole output it has been given,
// as one string: Text returns it without a copy, so that whoever feeds the
// Reader (package stream, for Parser.Text) need not keep a copy of its
// own. A Reader that keeps only what it has not decided yet is not one.
type TextReader interface {
	Reader
	// Text returns the output given so far, whole, Close or no Close.
	Text() string
}

// PieceKind says what a Piece reports.
type PieceKind uint8

// The kinds of Piece. Content and reasoning arrive as deltas whose
// concatenation is Extraction.Content and Extraction.Reasoning. Calls are
// numbered from 0 in the order they begin; a call may be announced by
// PieceCallStart and PieceArguments before its PieceCall, and every
// PieceCallStart is followed, later, by exactly one PieceCall of the same
// index.
const (
	// PieceContent is more answer text (Piece.Text).
	PieceContent PieceKind = iota + 1
	// PieceReasoning is more reasoning text (Piece.Text).
	PieceReasoning
	// PieceCallStart says call Piece.Index has begun, with tool name
	// Piece.Name, and will be a call (or a failed call): an output that
	// may yet turn out not to hold it is not announced.
	PieceCallStart
	// PieceArguments is more of call Piece.Index's argument text as
	// written (Piece.Text), for display only.
	PieceArguments
	// PieceCall is call Piece.Index, whole (Piece.Call): its name,
	// arguments as written, and Err when the dialect could not read it.
	PieceCall
	// PieceError is an error of the output that belongs to no call
	// (Piece.Err), as in Extraction.Errors.
	PieceError
	// PieceMarked says the dialect's own markers were read
	// (Extraction.Marked); returned at most once.
	PieceMarked
)

// Piece is one thing a Reader decided about the output.
type Piece struct {
	Kind PieceKind
	// Text is the delta of PieceContent, PieceReasoning and
	// PieceArguments.
	Text string
	// Index is the call's number, for the call pieces.
	Index int
	// Name is the tool name of a PieceCallStart.
	Name string
	// Call is the whole call of a PieceCall.
	Call *RawCall
	// Err is the error of a PieceError, a *toolcall.Error (errors.As).
	Err error
}

// Read reads text whole with r, as one delta, and returns the Extraction
// its pieces make: the calls in order of their index, the content and
// reasoning joined, the errors in order. It is the Extract of every
// Incremental dialect. The spaces that begin and end the content are not
// content, in every family, and a stream drops them as Read does; the
// spaces between its text are content, as written. Only ' ', '\t', '\r'
// and '\n' are spaces: other characters Unicode calls spaces are text.
func Read(r Reader, text string) *Extraction {
	x := &Extraction{}
	var content, reasoning textlayer.Joined
	var edges textlayer.Edges
	add := func(ps []Piece) {
		// The calls of ps are counted first, so that x.Calls is
		// allocated once, at its length, not grown call by call.
		n := len(x.Calls)
		for i := range ps {
			if ps[i].Kind == PieceCall {
				n = max(n, ps[i].Index+1)
			}
		}
		x.Calls = slices.Grow(x.Calls, n-len(x.Calls))
		for i := range ps {
			p := &ps[i]
			switch p.Kind {
			case PieceContent:
				held, text := edges.Next(p.Text)
				content.Add(held)
				content.Add(text)
			case PieceReasoning:
				reasoning.Add(p.Text)
			case PieceCall:
				for len(x.Calls) <= p.Index {
					x.Calls = append(x.Calls, RawCall{Offset: -1})
				}
				x.Calls[p.Index] = *p.Call
			case PieceError:
				x.Errors = append(x.Errors, coded.As(p.Err))
			case PieceMarked:
				x.Marked = true
			}
		}
	}
	add(r.Write(text))
	add(r.Close())
	x.Content, x.Reasoning = content.String(), reasoning.String()
	return x
}
