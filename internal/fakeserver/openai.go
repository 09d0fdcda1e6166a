package fakeserver

import (
	"encoding/json"
	"net/http"
	"strconv"
)

// openAIChunk is one chat.completion.chunk, or with Object
// "chat.completion" the whole answer.
type openAIChunk struct {
	ID      string         `json:"id"`
	Object  string         `json:"object"`
	Created int64          `json:"created"`
	Model   string         `json:"model"`
	Choices []openAIChoice `json:"choices"`
	Usage   *openAIUsage   `json:"usage,omitempty"`
}

type openAIChoice struct {
	Index        int            `json:"index"`
	Delta        *openAIMessage `json:"delta,omitempty"`
	Message      *openAIMessage `json:"message,omitempty"`
	FinishReason *string        `json:"finish_reason"`
}

type openAIMessage struct {
	Role             string           `json:"role,omitempty"`
	Content          *string          `json:"content,omitempty"`
	ReasoningContent string           `json:"reasoning_content,omitempty"`
	ToolCalls        []openAIToolCall `json:"tool_calls,omitempty"`
}

type openAIToolCall struct {
	Index    *int   `json:"index,omitempty"`
	ID       string `json:"id,omitempty"`
	Type     string `json:"type,omitempty"`
	Function struct {
		Name      string  `json:"name,omitempty"`
		Arguments *string `json:"arguments,omitempty"`
	} `json:"function"`
}

type openAIUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

func (a *answer) openAIID() string { return "chatcmpl-" + strconv.Itoa(a.req.Seq) }

func (a *answer) finishReason() string {
	switch {
	case a.turn.DoneReason != "":
		return a.turn.DoneReason
	case len(a.turn.Calls) > 0:
		return "tool_calls"
	}
	return "stop"
}

func (a *answer) usage() *openAIUsage {
	p, c := a.tokens()
	return &openAIUsage{PromptTokens: p, CompletionTokens: c, TotalTokens: p + c}
}

// openAIStream writes the turn as server-sent events: the role, reasoning
// and content deltas, tool call fragments (a header with id and name, then
// the arguments in pieces), the finish_reason, the usage chunk when the
// client asked for it, and [DONE].
func (a *answer) openAIStream() {
	a.w.Header().Set("Content-Type", "text/event-stream")
	a.w.Header().Set("Cache-Control", "no-cache")
	a.w.WriteHeader(http.StatusOK)
	t := a.turn
	delta := func(d openAIMessage, finish *string) bool {
		return a.sendEvent(openAIChunk{
			ID: a.openAIID(), Object: "chat.completion.chunk", Created: created, Model: a.req.Model,
			Choices: []openAIChoice{{Delta: &d, FinishReason: finish}},
		})
	}
	empty := ""
	if !delta(openAIMessage{Role: "assistant", Content: &empty}, nil) {
		return
	}
	for _, p := range pieces(t.Thinking, t.ChunkSize) {
		if !delta(openAIMessage{ReasoningContent: p}, nil) {
			return
		}
	}
	for _, p := range pieces(t.Content, t.ChunkSize) {
		if !delta(openAIMessage{Content: &p}, nil) {
			return
		}
	}
	for _, frag := range a.callFragments() {
		if !delta(openAIMessage{ToolCalls: []openAIToolCall{frag}}, nil) {
			return
		}
	}
	if a.stall() {
		return
	}
	switch {
	case t.StreamError != "":
		a.sendEvent(map[string]any{"error": map[string]any{"message": t.StreamError, "type": "server_error", "code": 500}})
		return
	case t.Truncate:
		return
	}
	reason := a.finishReason()
	if !delta(openAIMessage{}, &reason) {
		return
	}
	if a.req.IncludeUsage && !a.sendEvent(openAIChunk{
		ID: a.openAIID(), Object: "chat.completion.chunk", Created: created, Model: a.req.Model,
		Choices: []openAIChoice{}, Usage: a.usage(),
	}) {
		return
	}
	a.send([]byte("data: [DONE]\n\n"))
}

// callFragments cuts the turn's calls into tool_calls deltas: for each call
// a header (index, id, type, name, empty arguments), then its arguments in
// ChunkSize pieces; with Interleave, the pieces of all calls take turns.
func (a *answer) callFragments() []openAIToolCall {
	t := a.turn
	var frags []openAIToolCall
	rest := make([][]string, len(t.Calls))
	for i, c := range t.Calls {
		h := openAIToolCall{Index: &i, ID: a.callID(i), Type: "function"}
		h.Function.Name = c.Name
		empty := ""
		h.Function.Arguments = &empty
		rest[i] = pieces(c.Arguments, t.ChunkSize)
		if !t.Interleave {
			frags = append(frags, h)
			frags = append(frags, argFragments(i, rest[i])...)
			rest[i] = nil
			continue
		}
		frags = append(frags, h)
	}
	for more := true; more; {
		more = false
		for i := range rest {
			if len(rest[i]) == 0 {
				continue
			}
			frags = append(frags, argFragments(i, rest[i][:1])...)
			rest[i] = rest[i][1:]
			more = true
		}
	}
	return frags
}

func argFragments(index int, ps []string) []openAIToolCall {
	out := make([]openAIToolCall, len(ps))
	for j := range ps {
		out[j].Index = &index
		out[j].Function.Arguments = &ps[j]
	}
	return out
}

// openAIWhole writes the turn as one chat.completion object.
func (a *answer) openAIWhole() {
	t := a.turn
	if t.StreamError != "" {
		writeError(a.w, OpenAI, http.StatusInternalServerError, t.StreamError)
		return
	}
	msg := &openAIMessage{Role: "assistant", ReasoningContent: t.Thinking}
	if t.Content != "" || len(t.Calls) == 0 {
		msg.Content = &t.Content
	}
	for i, c := range t.Calls {
		tc := openAIToolCall{ID: a.callID(i), Type: "function"}
		tc.Function.Name = c.Name
		tc.Function.Arguments = &t.Calls[i].Arguments
		msg.ToolCalls = append(msg.ToolCalls, tc)
	}
	reason := a.finishReason()
	data, _ := json.Marshal(openAIChunk{
		ID: a.openAIID(), Object: "chat.completion", Created: created, Model: a.req.Model,
		Choices: []openAIChoice{{Message: msg, FinishReason: &reason}}, Usage: a.usage(),
	})
	a.w.Header().Set("Content-Type", "application/json")
	a.w.WriteHeader(http.StatusOK)
	if t.Truncate {
		data = data[:len(data)/2]
	}
	a.send(data)
}

// sendEvent writes v as one SSE data event.
func (a *answer) sendEvent(v any) bool {
	data, err := json.Marshal(v)
	if err != nil {
		return false
	}
	event := make([]byte, 0, len(data)+8)
	event = append(event, "data: "...)
	event = append(event, data...)
	event = append(event, "\n\n"...)
	return a.send(event)
}
