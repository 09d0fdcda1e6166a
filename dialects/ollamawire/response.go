package ollamawire

import (
	"encoding/json"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
)

// ChatResponse is one /api/chat response as this package reads it: the
// fields of Ollama's wire format that carry calls, text and status. It is
// this package's own small type, so that reading Ollama's calls does not
// need the ollama client; client/ollamaclient converts its api.ChatResponse.
type ChatResponse struct {
	// Model is the model name the server reported.
	Model string
	// Message is the assistant message of the response (or of this chunk
	// of a stream).
	Message Message
	// Done marks the final response of a turn; DoneReason says why
	// generation stopped ("stop", "length", …).
	Done       bool
	DoneReason string
	// PromptEvalCount and EvalCount are the prompt and output token counts.
	PromptEvalCount, EvalCount int
	// The timings the server reported.
	TotalDuration, LoadDuration, PromptEvalDuration, EvalDuration time.Duration
}

// Message is the assistant message of a ChatResponse.
type Message struct {
	// Content is the answer text, Thinking the reasoning.
	Content, Thinking string
	// ToolCalls are the native calls, in the order the server sent them.
	ToolCalls []ToolCall
}

// ToolCall is one native call of a Message.
type ToolCall struct {
	// ID is the call id the server gave, if any.
	ID string
	// Index is the call's function.index.
	Index int
	// Name is the function name.
	Name string
	// Arguments is the arguments as JSON: an object, or a JSON string
	// holding one, as the server sent them.
	Arguments json.RawMessage
}

// ParseResponse parses the calls of one ChatResponse.
//
// Ollama sends whole calls, never fragments, so it is fine to call it on
// each streamed chunk; for that reason it does not report a chunk without
// done as truncated (ParseResponses does, for a whole stream). A response
// whose done_reason is "length" is reported as truncated (TLP-014).
func ParseResponse(resp ChatResponse, opts *dialects.Options) *toolcall.Result {
	a := newAccumulator()
	a.addResponse(&resp)
	return a.finish(false, 0).Result(opts)
}

// ParseResponses parses a whole stream of ChatResponse values. See
// DecodeResponses.
func ParseResponses(resps []ChatResponse, opts *dialects.Options) *toolcall.Result {
	return DecodeResponses(resps).Result(opts)
}

// DecodeResponses folds a stream of ChatResponse values into a Stream:
// calls in arrival order, content and thinking concatenated, and the status
// of the response marked done. A stream without such a response (a
// connection that dropped) is reported as truncated.
func DecodeResponses(resps []ChatResponse) *Stream {
	a := newAccumulator()
	a.sawDoneField = true // every ChatResponse has a Done field
	for i := range resps {
		a.addResponse(&resps[i])
	}
	return a.finish(true, -1)
}

// addResponse folds a ChatResponse into the accumulator.
func (a *accumulator) addResponse(resp *ChatResponse) {
	for i := range resp.Message.ToolCalls {
		tc := &resp.Message.ToolCalls[i]
		a.call(pendingCall{
			raw:      dialects.RawCall{ID: tc.ID, Name: tc.Name, Arguments: string(tc.Arguments), Offset: -1},
			index:    tc.Index,
			hasIndex: true,
		})
	}
	a.add(&response{
		offset:   -1,
		model:    resp.Model,
		content:  resp.Message.Content,
		thinking: resp.Message.Thinking,
		hasDone:  true,
		status: Status{
			Model:              resp.Model,
			Done:               resp.Done,
			DoneReason:         resp.DoneReason,
			PromptEvalCount:    resp.PromptEvalCount,
			EvalCount:          resp.EvalCount,
			TotalDuration:      resp.TotalDuration,
			LoadDuration:       resp.LoadDuration,
			PromptEvalDuration: resp.PromptEvalDuration,
			EvalDuration:       resp.EvalDuration,
		},
	})
}
