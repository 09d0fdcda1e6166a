package harmony

import "github.com/dialectkit/toolcall/dialects"

// Syntax describes the dialect to the stream engine: a commentary message is
// a call region closed by <|call|>; the analysis channel is reasoning; any
// other header holds the stream back until the end, where the one-shot
// reader settles it.
func (harmonyDialect) Syntax() dialects.Syntax {
	return dialects.Syntax{
		Starts: []string{mChannel + "commentary", mStart + "assistant to="},
		Ends:   []string{mCall},
		// A <think> block is reasoning too (Extract).
		Reasoning: []dialects.ReasoningTags{{Open: mChannel + "analysis" + mMessage, Close: mEnd}, dialects.Think},
		Tokens:    []string{mChannel, mConstrain, mCall, mMessage, mStart, mReturn, mEnd},
		Quotes:    `"`,
		// The prompt may end inside a header: " to=functions.f<|channel|>…".
		MarkedStart: true,
		// The model writes its own analysis channel header; an <|end|>
		// alone ends no block.
		ReasoningClosed: true,
	}
}
