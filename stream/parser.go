package stream

import "github.com/dialectkit/toolcall"

// Parser reads one model output as it arrives. Write it the deltas, in
// order, then Close it; each call returns the events the new text settled.
// A Parser is not safe for concurrent use.
type Parser struct {
	// eng streams a dialect that reads its output itself (engine.go);
	// old any other dialect, a detecting stream and a fallback chain.
	eng *engine
	ch  *chain
	old *profiled
}

// Write feeds the next delta and returns the events it settled. The slice
// is the Parser's own, to read and not to change, and is reused by the
// next Write: consume (or copy) it before writing again.
func (p *Parser) Write(delta string) []Event {
	if p.eng != nil {
		return p.eng.write(delta)
	}
	if p.ch != nil {
		return p.ch.write(delta)
	}
	return p.old.Write(delta)
}

// Close ends the output and returns the last events, Done last with the
// final result, the one a one-shot parse of the same text gives. Calls
// already reported keep their ids in it. Close again returns nothing.
func (p *Parser) Close() []Event {
	if p.eng != nil {
		return p.eng.close()
	}
	if p.ch != nil {
		return p.ch.close()
	}
	return p.old.Close()
}

// Text returns the output received so far.
func (p *Parser) Text() string {
	if p.eng != nil {
		return p.eng.text.String()
	}
	if p.ch != nil {
		if p.ch.det != nil {
			return p.ch.buf.String()
		}
		if p.ch.inner != nil {
			return p.ch.inner.Text()
		}
		return p.ch.alts[0].p.Text()
	}
	return p.old.Text()
}

// Result returns the final result once the Parser is closed, else nil.
func (p *Parser) Result() *toolcall.Result {
	if p.eng != nil {
		return p.eng.result
	}
	if p.ch != nil {
		return p.ch.result
	}
	return p.old.Result()
}

// Disagreement reports, after Close, the first thing the stream emitted
// that the final result contradicts, or "". Streamed text and calls are
// only emitted once certain, so this is always empty unless a dialect's
// description (dialects.Syntax) promises more than its parse keeps; the
// final result stands either way. A dialect that reads its output itself
// gives its result from the pieces it streamed, so there it is always "".
func (p *Parser) Disagreement() string {
	if p.eng != nil {
		return ""
	}
	if p.ch != nil {
		return p.ch.diverged
	}
	return p.old.diverged
}

// textLen is the length of the output received so far.
func (p *Parser) textLen() int {
	if p.eng != nil {
		return p.eng.text.Len()
	}
	if p.ch != nil {
		return p.ch.text
	}
	return p.old.textLen()
}

// outText is the text of kind (Content or Reasoning) the stream emitted.
func (p *Parser) outText(kind Kind) string {
	if p.eng != nil {
		return p.eng.outText(kind)
	}
	if p.ch != nil {
		return p.ch.outText(kind)
	}
	return p.old.outText(kind)
}

// hasErrors reports whether the output holds an error of no one call
// already: the reading of a dialect that reads its output itself then
// holds it, whatever follows.
func (p *Parser) hasErrors() bool { return p.eng != nil && len(p.eng.errs) > 0 }

// dialectName is the name of the dialect the Parser reads its output in,
// or "" under detection.
func (p *Parser) dialectName() string {
	switch {
	case p.eng != nil:
		return p.eng.d.Name()
	case p.ch != nil:
		if p.ch.det != nil {
			return ""
		}
		return p.ch.name
	}
	return p.old.d.Name()
}
