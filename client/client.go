// Package client defines what a chat model is to this module: the Model
// interface, the Request and Response of one chat turn, and the
// TransportError behind a failed request. The adapters live in the
// subpackages: client/ollamaclient for Ollama's native /api/chat, client/openaiclient
// for OpenAI-compatible servers (llama.cpp, vLLM, LM Studio, …). Package
// retry drives a Model in its reflection loop.
package client

import (
	"context"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
)

// Message is one turn of a conversation, in the shape both Ollama's and the
// OpenAI-compatible chat APIs share.
type Message struct {
	// Role is "system", "user", "assistant" or "tool".
	Role    string `json:"role"`
	Content string `json:"content"`
	// Reasoning is the model's thinking (Ollama "thinking", OpenAI-compatible
	// "reasoning_content"), sent back where the server accepts it.
	Reasoning string `json:"reasoning,omitempty"`
	// ToolCalls are the calls of an assistant message. Their Arguments are
	// always a JSON object, so the history can be replayed to any server.
	ToolCalls []toolcall.Call `json:"tool_calls,omitempty"`
	// ToolCallID and ToolName identify the call a "tool" message answers.
	ToolCallID string `json:"tool_call_id,omitempty"`
	ToolName   string `json:"tool_name,omitempty"`
}

// Request is one chat request.
type Request struct {
	Model    string
	Messages []Message
	// Tools are sent as native tool definitions, unless the model is driven
	// through a text dialect and they were written into the prompt instead.
	Tools []toolcall.Tool
	// MaxTokens caps the answer (Ollama num_predict, OpenAI max_tokens); 0
	// leaves the server's default.
	MaxTokens int
	// Options are passed through to the server (temperature, num_ctx, …).
	Options map[string]any
}

// Response is the model's answer to one request.
type Response struct {
	// Content and Reasoning are the text of the answer.
	Content   string
	Reasoning string
	// NativeCalls are the calls the server returned in its tool_calls field,
	// arguments as the server sent them (an object, or a string that may not
	// be valid JSON): they go through dialects.Finish like any other call.
	NativeCalls []dialects.RawCall
	// Done reports that the server said the answer was complete; a stream
	// that ended without its final message has Done false.
	Done bool
	// DoneReason is why generation stopped: "stop", "length", "tool_calls", …
	DoneReason string
	// PromptTokens and CompletionTokens are the server's token counts.
	PromptTokens, CompletionTokens int
}

// Truncated reports whether the answer was cut off: it stopped for length,
// or the stream ended without its final message.
func (r *Response) Truncated() bool {
	return !r.Done || r.DoneReason == "length"
}

// Model is a chat model behind some server. Implementations return a
// *toolcall.Error: CodeTransport for network failures, 429 and 5xx (with a
// *TransportError cause carrying the status and Retry-After), CodeRequestRejected
// for a 400 about the request, CodeCanceled when ctx ends.
type Model interface {
	Chat(ctx context.Context, req *Request) (*Response, error)
}

// DefaultMaxResponseBytes is how many bytes of one answer an adapter reads
// unless told otherwise: far more than any answer, little enough that a
// runaway stream cannot exhaust memory.
const DefaultMaxResponseBytes = 64 << 20

// TransportError is the cause of a CodeTransport or CodeRequestRejected
// error: what the server answered, if it answered.
type TransportError struct {
	// StatusCode is the HTTP status, or 0 when no response arrived.
	StatusCode int
	// RetryAfter is the server's Retry-After, or 0.
	RetryAfter time.Duration
	// Message is the server's error text. It may quote model output, so it
	// is logged only at DEBUG.
	Message string
	// Err is the underlying error (network, decode), if any.
	Err error
}

// Error says what the server answered, or what failed when it did not.
func (e *TransportError) Error() string {
	switch {
	case e.StatusCode != 0 && e.Message != "":
		return "server answered " + StatusText(e.StatusCode) + ": " + e.Message
	case e.StatusCode != 0:
		return "server answered " + StatusText(e.StatusCode)
	case e.Err != nil:
		return e.Err.Error()
	}
	return "transport failure"
}

// Unwrap returns the underlying error.
func (e *TransportError) Unwrap() error { return e.Err }

// Retryable reports whether the failure is worth retrying after a wait:
// no response at all, 408, 429 and 5xx.
func (e *TransportError) Retryable() bool {
	return e.StatusCode == 0 || e.StatusCode == 408 || e.StatusCode == 429 || e.StatusCode >= 500
}
