package dialects

// Syntax describes the strings where a dialect's calls and reasoning may
// begin and end. It does not stream the dialect (its Reader does, see
// Incremental): detection reads it to tell which candidates an output so
// far may be in and where the output may decide its dialect (package
// stream's CandidateSet and PointSet), and ImplicitReasoning to tell
// where an output that may have begun inside a reasoning block settles.
//
// The description only has to be conservative: a missing string costs
// detection an early decision, never correctness.
type Syntax struct {
	// Starts open a call region: a call, or a section holding calls.
	Starts []string
	// Ends close the region a Start opened: the output so far may decide
	// its dialect right after one. A dialect whose regions are not closed
	// by a marker of their own leaves Ends empty.
	Ends []string
	// CallEnds close one call inside a region that holds several (a
	// section's </invoke>): the output may decide its dialect right after
	// one too.
	CallEnds []string
	// Reasoning lists the reasoning wrappers.
	Reasoning []ReasoningTags
	// Tokens are other markers with a meaning in the dialect (framing
	// tokens that are stripped, channel headers, alternative call
	// wrappers). Under detection the dialect is a candidate from the
	// first one on.
	Tokens []string
	// Answer are tokens that open the model's answer (Cohere's
	// <|START_RESPONSE|>): like a call, an output that opens with one
	// (after whitespace) did not begin inside a reasoning block the
	// template opened (ImplicitReasoning), so a stream settles where it
	// starts as soon as one arrives.
	Answer []string
	// Bare lists the bytes that may begin a call written without a
	// marker, such as '{' and '[' for JSON dialects. Under detection the
	// dialect is a candidate from the first one on.
	Bare string
	// Openings are texts that, opening the output (after whitespace), mean
	// it began inside the dialect's framing, as a header the prompt wrote
	// half of; under detection no text before the dialect's markers is
	// emitted while the output may so open.
	Openings []string
	// MarkedStart says output that does not open with one of the
	// dialect's markers (after whitespace) may have begun inside a header
	// the prompt wrote: under detection the dialect's own reading of the
	// text before its markers is all that is emitted of it.
	MarkedStart bool
	// Header, with MarkedStart, tells whether text read before one of the
	// dialect's markers can be the rest of a header the prompt began (a
	// few words on one line). Before a dialect is detected, the output's
	// opening text is held while it can, so that answer text streamed
	// early is never read as a header later. It must hold for every
	// prefix of any text it holds for, short of a line break inside it.
	Header func(text string) bool
	// ReasoningClosed says no chat template of the dialect's family opens
	// a reasoning block in its generation prompt: a model of the family
	// that reasons writes its own opening tag (Mistral's [THINK], Llama's
	// and Granite's templates open nothing). With neither
	// Options.ReasoningOpen nor ReasoningClosed set, the dialect then
	// reads a closing tag with no opening one as Options.ReasoningClosed
	// does, as text (ImplicitReasoning).
	ReasoningClosed bool
	// Body says the dialect reads a server's whole response body (a JSON
	// value, or a stream of them), not model text. Under detection it is
	// no candidate for output that opens, after whitespace, with anything
	// but '{' or '[': text before a body is model text, which such a
	// dialect would drop as a line it cannot read, so neither an answer
	// streamed before the dialect is known nor a JSON example written
	// after prose is ever read as a response.
	Body bool
	// Opaque says the dialect's output cannot be read before it ends (a
	// whole-response format such as an API response body): under
	// detection the dialect's reading says nothing before its markers,
	// and no point of its output decides it early.
	Opaque bool
}

// Streamable is implemented by dialects that describe their syntax to
// detection. A dialect that does not implement it is described by its
// Markers alone (SyntaxOf).
type Streamable interface {
	Syntax() Syntax
}

// SyntaxOf returns d's syntax: its own description, or one derived from its
// markers.
func SyntaxOf(d Dialect) Syntax {
	if s, ok := d.(Streamable); ok {
		return s.Syntax()
	}
	var syn Syntax
	if m, ok := d.(Marked); ok {
		syn.Tokens = m.Markers()
	}
	if len(syn.Tokens) == 0 {
		syn.Opaque = true
	}
	return syn
}
