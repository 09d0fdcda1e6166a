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
	w := engines.Get().(*parserEngine)
	f := &w.e
	*f = engine{owner: w, d: e.d, opts: e.opts, max: e.max, limit: e.limit, cut: e.cut, noText: true, raw: e.raw, marked: e.marked, quiet: true}
	defer f.release()
	f.content.WriteString(e.content.String())
	f.reasoning.WriteString(e.reasoning.String())
	f.calls, f.past, f.raws = e.calls.clone(), slices.Clone(e.past), slices.Clone(e.raws)
	f.errs = slices.Clone(e.errs)
	f.edges = e.edges.Fork()
	f.pieces(pk.Peek())
	f.closed = true
	return f.reading()
}

// reading returns the reading of the output the closed engine's Reader
// made (dialects.Read's), for a decision at a point or at the end: the
// Extraction of its calls (extraction) and the result its pieces make,
// with each call finished once, as it was read.
func (e *engine) reading() *Reading {
	if e.result == nil {
		e.result = e.finish()
	}
	return &Reading{Extraction: e.extraction(), Result: e.result}
}
