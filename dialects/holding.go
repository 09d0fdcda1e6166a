package dialects

import "strings"

// Holding returns the Reader of a dialect whose input is a whole response
// body (Syntax.Body): nothing of a body can be told before it ends (a
// response's last line says whether the stream ended, an NDJSON stream's
// calls are ordered by their index at the end), so the Reader holds every
// byte and reads the body once, with extract, at Close. Its pieces are
// those of extract's Extraction: the reasoning, the content, each call by
// its index, the errors, and PieceMarked when the body was marked.
//
// It serves such dialects only: a dialect of model text reads it as it
// arrives, so that its answer and calls stream.
func Holding(extract func(text string) *Extraction) Reader {
	return &holding{extract: extract}
}

type holding struct {
	extract func(string) *Extraction
	text    strings.Builder
	closed  bool
}

func (h *holding) Write(delta string) []Piece {
	h.text.WriteString(delta)
	return nil
}

// Text returns the body given so far (TextReader).
func (h *holding) Text() string { return h.text.String() }

func (h *holding) Close() []Piece {
	if h.closed {
		return nil
	}
	h.closed = true
	x := h.extract(h.text.String())
	ps := make([]Piece, 0, len(x.Calls)+len(x.Errors)+3)
	if x.Reasoning != "" {
		ps = append(ps, Piece{Kind: PieceReasoning, Text: x.Reasoning})
	}
	if x.Content != "" {
		ps = append(ps, Piece{Kind: PieceContent, Text: x.Content})
	}
	for i := range x.Calls {
		ps = append(ps, Piece{Kind: PieceCall, Index: i, Call: &x.Calls[i]})
	}
	for _, e := range x.Errors {
		ps = append(ps, Piece{Kind: PieceError, Err: e})
	}
	if x.Marked {
		ps = append(ps, Piece{Kind: PieceMarked})
	}
	return ps
}
