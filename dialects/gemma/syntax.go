package gemma

import "github.com/dialectkit/toolcall/dialects"

// Syntax describes the dialect to the stream engine: each call block is a
// region; Gemma 4's thought channel is its reasoning wrapper.
func (d *Dialect) Syntax() dialects.Syntax {
	syn := dialects.Syntax{
		Starts: []string{d.open},
		Ends:   []string{d.close},
		Tokens: []string{d.delims[0]},
		// A <think> block is reasoning too (Extract).
		Reasoning: []dialects.ReasoningTags{dialects.Think},
		// FunctionGemma does not reason: no template opens a block.
		ReasoningClosed: !d.reasoning,
	}
	if d.reasoning {
		// The channel names itself ("thought") after its opening token;
		// it is the family's own wrapper, first.
		syn.Reasoning = []dialects.ReasoningTags{{Open: channelOpen + "thought", Close: channelClose}, dialects.Think}
		syn.Tokens = append(syn.Tokens, channelOpen)
	}
	return syn
}
