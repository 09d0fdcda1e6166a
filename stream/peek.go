package stream

import (
	"slices"

	"github.com/dialectkit/toolcall/dialects"
)

// peek returns the engine's reading of the output so far, as Close would
// make it, leaving the engine as it was: the Reader's peek
// (dialects.Peeker) added to a copy of what its pieces reported. It
// returns nil when the Reader cannot peek, or the engine is closed.
func (e *engine) peek() *Reading {
	pk, ok := e.r.(dialects.Peeker)
	if !ok || e.closed {
		return nil
	}
	f := &engine{d: e.d, opts: e.opts, max: e.max, limit: e.limit, cut: e.cut, noText: true, raw: e.raw, marked: e.marked}
	f.text.n0 = e.text.Len()
	f.content.WriteString(e.content.String())
	f.reasoning.WriteString(e.reasoning.String())
	f.calls, f.past, f.raws = slices.Clone(e.calls), slices.Clone(e.past), slices.Clone(e.raws)
	f.errs = slices.Clone(e.errs)
	f.edges = e.edges.Fork()
	f.pieces(pk.Peek())
	f.closed = true
	return f.reading()
}

// reading returns the Extraction the closed engine's Reader made of the
// output (dialects.Read's: the content and reasoning as the pieces gave
// them), for a decision at a point: the detector finishes it as one-shot
// detection finishes Extract's (Reading.Result nil).
func (e *engine) reading() *Reading {
	x := e.extraction()
	x.Content, x.Reasoning = e.content.String(), e.reasoning.String()
	return &Reading{Extraction: x}
}
