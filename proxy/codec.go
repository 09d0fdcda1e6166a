package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
)

// codec is one chat API at the edge of the core: it reads the API's
// request (tools, conversation) and answers (content, reasoning, native
// calls), and writes the fixed answer back in the API's shape. Fixing,
// limits, recovery, metrics and logs are the core's, the same for every
// API.
type codec interface {
	// name is the API, as RequestStats.API and the error shapes know it.
	name() API
	// path is the chat path's suffix, taken off to find the upstream's
	// base URL.
	path() string
	// streamDefault is whether a request that does not say streams.
	streamDefault() bool
	// tools returns the request's function tools as a JSON array
	// toolcall.ParseTools reads; nil when it declares none.
	tools(top obj) []byte
	// history reads the request's conversation for the recovery loop,
	// empty when the request cannot be asked again; reask writes the
	// request again with the loop's messages after it, streaming off.
	history(top obj) []client.Message
	reask(top obj, more []client.Message) []byte
	// whole fixes a whole answer (q.fixAnswer does the fixing); nil means
	// send it unchanged.
	whole(ctx context.Context, q *chatCtx, top obj) []byte
	// read reads a whole answer the recovery loop asked for.
	read(top obj) *client.Response
	// isStream reports whether an upstream answer with this Content-Type
	// is a stream (requested: the request asked for one).
	isStream(contentType string, requested bool) bool
	// streamType is the Content-Type of the streamed answer.
	streamType() string
	// newStream returns what reads and writes one streamed answer.
	newStream(s *streamer) streamCodec
}

// streamCodec reads the events of one streamed answer, hands what they
// carry to the streamer (content and reasoning deltas, native calls), and
// writes what the streamer settled as the API's events.
type streamCodec interface {
	emitter
	// line handles one line of the upstream's stream; false ends the
	// stream (its last event was handled, and written).
	line(ctx context.Context, line []byte) bool
	// cut ends a stream the upstream stopped without its last event.
	cut(ctx context.Context)
	// errorEvent is an error as the stream's last event.
	errorEvent(e *toolcall.Error) []byte
}

// emitter writes settled parts of the answer in the protocol's chunks.
type emitter interface {
	content(text string)
	reasoning(text string)
	call(c toolcall.Call, index int, base *nativeCall)
}

// codecFor returns the codec of a chat request, or nil for a request the
// proxy passes through: the chat API of the upstream's kind (Ollama's
// /api/chat, OpenAI's /chat/completions), and under either kind the
// OpenAI Responses API (/responses) and the Anthropic Messages API
// (/v1/messages), which the servers speak at those same paths.
func (c *core) codecFor(r *http.Request) codec {
	if r.Method != http.MethodPost {
		return nil
	}
	p := r.URL.Path
	switch {
	case strings.HasSuffix(p, responsesPath):
		return responsesCodec{}
	case strings.HasSuffix(p, anthropicPath):
		return anthropicCodec{}
	case c.api == OpenAI && strings.HasSuffix(p, openAIPath):
		return openAICodec{}
	case c.api == Ollama && strings.HasSuffix(p, ollamaPath):
		return ollamaCodec{}
	}
	return nil
}

// errorAPI is the API whose error shape answers r: its chat API's, or
// the upstream kind's.
func (c *core) errorAPI(r *http.Request) API {
	if cd := c.codecFor(r); cd != nil {
		return cd.name()
	}
	return c.api
}

// sseEvent is one server-sent event with its event line.
func sseEvent(name string, data []byte) []byte {
	b := make([]byte, 0, len(name)+len(data)+16)
	b = append(b, "event: "...)
	b = append(b, name...)
	b = append(b, "\ndata: "...)
	b = append(b, data...)
	return append(b, '\n', '\n')
}

// ssePayload returns the data of an SSE data line, or ok false for any
// other line (event names, comments, ids).
func ssePayload(line []byte) ([]byte, bool) {
	t := bytes.TrimSpace(line)
	if !bytes.HasPrefix(t, []byte("data:")) {
		return nil, false
	}
	return bytes.TrimSpace(t[len("data:"):]), true
}

// sseAPI is what the APIs that stream server-sent events only when asked
// share (OpenAI chat, Responses, Anthropic).
type sseAPI struct{}

func (sseAPI) streamDefault() bool { return false }
func (sseAPI) streamType() string  { return "text/event-stream" }

func (sseAPI) isStream(ct string, _ bool) bool { return strings.Contains(ct, "event-stream") }

// someTools returns the request's tools that keep accepts, as a JSON
// array; nil when none does.
func someTools(top obj, keep func(t obj) bool) []byte {
	var out []json.RawMessage
	for _, raw := range top.list("tools") {
		if t, ok := parseObj(raw); ok && keep(t) {
			out = append(out, raw)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return rawList(out)
}
