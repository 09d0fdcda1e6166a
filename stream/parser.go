package stream

import (
	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
)

// DefaultMaxBytes is the default cap on a streamed output (Options.MaxBytes).
const DefaultMaxBytes = 16 << 20

// Options configure a Parser.
type Options struct {
	// Parse are the options of the one-shot parse the stream reproduces:
	// tools, repair, validation, reasoning start, caps. ReasoningOpen
	// (the chat template opened a reasoning block) lets reasoning stream
	// from the start; ReasoningClosed lets answer text stream at once.
	// The common call is one literal: &stream.Options{Parse:
	// dialects.Options{Tools: set}}; registry.Stream takes registry.Options.
	Parse dialects.Options

	// MaxBytes caps the output a Parser buffers; zero means
	// DefaultMaxBytes, a negative value no cap. Text past it is not read:
	// the final result is the parse of what was kept, with a TLP-009 error
	// saying where the output was cut.
	MaxBytes int

	// Fallback are the dialects to read the output in, in order, when the
	// parser's own dialect finds no call and no error in it: the first
	// that finds a call gives the result, as registry.Options.Fallback
	// does for a one-shot parse. The stream is the parser's own dialect's
	// as soon as that dialect starts a call (or reports a failed one);
	// until then answer text streams as far as every reading agrees, and
	// a fallback's calls come with Close. Ignored by NewDetecting.
	Fallback []dialects.Dialect
}

// NewParser returns a Parser for output in dialect d, and in the fallback
// chain's when it finds nothing (Options.Fallback). A dialect that reads
// its output in one pass (dialects.Incremental) is streamed with its own
// Reader, its answer and calls as they are decided. Any other dialect is
// read whole, with its Extract, when the output ends: such a stream
// emits nothing before Close. Implement dialects.Incremental to stream.
func NewParser(d dialects.Dialect, opts *Options) *Parser {
	if opts != nil && len(opts.Fallback) > 0 {
		return newChain(d, opts)
	}
	return newAlone(d, opts)
}

// newAlone returns a Parser for output in dialect d alone, whatever
// opts.Fallback says.
func newAlone(d dialects.Dialect, opts *Options) *Parser {
	if inc, ok := d.(dialects.Incremental); ok {
		return newEngine(inc, opts)
	}
	return newEngine(extracted{d}, opts)
}

// extracted reads the output of a dialect that is not dialects.Incremental:
// its Reader holds the output and reads it once, with the dialect's
// Extract, at Close (dialects.Holding).
type extracted struct{ dialects.Dialect }

// NewReader returns a Reader that extracts the whole output with opts.
func (w extracted) NewReader(opts *dialects.Options) dialects.Reader {
	return dialects.Holding(func(text string) *dialects.Extraction { return w.Extract(text, opts) })
}

// Parser reads one model output as it arrives. Write it the deltas, in
// order, then Close it; each call returns the events the new text settled.
// A Parser is not safe for concurrent use.
type Parser struct {
	// eng streams one dialect (engine.go); ch a detecting stream and a
	// fallback chain (chain.go, detect.go).
	eng *engine
	ch  *chain
}

// Write feeds the next delta and returns the events it settled. The slice
// is the Parser's own, to read and not to change, and is reused by the
// next Write: consume (or copy) it before writing again.
func (p *Parser) Write(delta string) []Event {
	if p.eng != nil {
		return p.eng.write(delta)
	}
	return p.ch.write(delta)
}

// Close ends the output and returns the last events, Done last with the
// final result, the one a one-shot parse of the same text gives. Calls
// already reported keep their ids in it. Close again returns nothing.
func (p *Parser) Close() []Event {
	if p.eng != nil {
		return p.eng.close()
	}
	return p.ch.close()
}

// Read reads text as the rest of the output and ends it, as Write(text)
// then Close do, and returns the final result, without making the events
// in between: a one-shot parse that is the stream fed the whole output
// and closed (registry.Parse under detection), at the cost of the reading
// alone.
func (p *Parser) Read(text string) *toolcall.Result {
	if p.eng != nil {
		p.eng.quiet = true
	} else {
		p.ch.quiet = true
		p.ch.whole = p.ch.det != nil && p.ch.text == 0
	}
	p.Write(text)
	p.Close()
	if c := p.ch; c != nil && c.det != nil && c.inner != nil && c.buf.Len() == c.text {
		// The candidate chosen has given its result: nothing reads it
		// again (Text is the stream's own, whole: the output was
		// written at once, before the candidate was chosen).
		c.inner.releaseEngine()
		c.inner = nil
	}
	return p.Result()
}

// releaseEngine gives the memory of p, a candidate's Parser a detecting
// stream no longer reads, back for another (engine.release).
func (p *Parser) releaseEngine() {
	if p.eng != nil {
		p.eng.release()
	}
}

// Text returns the output received so far.
func (p *Parser) Text() string {
	if p.eng != nil {
		return p.eng.str()
	}
	if p.ch.det != nil {
		if p.ch.innerKeepsText() {
			return p.ch.inner.Text()
		}
		return p.ch.buf.Text()
	}
	if p.ch.inner != nil {
		return p.ch.inner.Text()
	}
	return p.ch.alts[0].p.Text()
}

// Result returns the final result once the Parser is closed, else nil.
func (p *Parser) Result() *toolcall.Result {
	if p.eng != nil {
		return p.eng.result
	}
	return p.ch.result
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
	return p.ch.diverged
}

// outText is the text of kind (Content or Reasoning) the stream emitted.
func (p *Parser) outText(kind Kind) string {
	if p.eng != nil {
		return p.eng.outText(kind)
	}
	return p.ch.outText(kind)
}

// hasErrors reports whether the output holds an error of no one call
// already: the reading of a dialect that reads its output itself then
// holds it, whatever follows.
func (p *Parser) hasErrors() bool { return p.eng != nil && len(p.eng.errs) > 0 }
