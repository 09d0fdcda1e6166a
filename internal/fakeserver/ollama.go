package fakeserver

import (
	"cmp"
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// created is the fixed Unix time of every answer, so that recorded streams
// are reproducible.
const created = 1772183643

func createdAt() time.Time { return time.Unix(created, 0).UTC() }

// ollamaResponse is one /api/chat response object.
type ollamaResponse struct {
	Model              string        `json:"model"`
	CreatedAt          time.Time     `json:"created_at"`
	Message            ollamaMessage `json:"message"`
	Done               bool          `json:"done"`
	DoneReason         string        `json:"done_reason,omitempty"`
	TotalDuration      int64         `json:"total_duration,omitempty"`
	LoadDuration       int64         `json:"load_duration,omitempty"`
	PromptEvalCount    int           `json:"prompt_eval_count,omitempty"`
	PromptEvalDuration int64         `json:"prompt_eval_duration,omitempty"`
	EvalCount          int           `json:"eval_count,omitempty"`
	EvalDuration       int64         `json:"eval_duration,omitempty"`
}

type ollamaMessage struct {
	Role      string           `json:"role"`
	Content   string           `json:"content"`
	Thinking  string           `json:"thinking,omitempty"`
	ToolCalls []ollamaToolCall `json:"tool_calls,omitempty"`
}

type ollamaToolCall struct {
	ID       string `json:"id,omitempty"`
	Function struct {
		Index     int             `json:"index"`
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// ollamaCall renders scripted call i the way /api/chat sends it.
func (a *answer) ollamaCall(i int) ollamaToolCall {
	c := a.turn.Calls[i]
	var tc ollamaToolCall
	tc.ID = a.callID(i)
	tc.Function.Index = i
	tc.Function.Name = c.Name
	args := strings.TrimSpace(c.Arguments)
	switch {
	case args == "" && !c.AsString:
		tc.Function.Arguments = json.RawMessage("{}")
	case !c.AsString && strings.HasPrefix(args, "{") && json.Valid([]byte(args)):
		tc.Function.Arguments = json.RawMessage(args)
	default:
		tc.Function.Arguments, _ = json.Marshal(c.Arguments)
	}
	return tc
}

// ollamaFinal is the last response of a turn: done, with counts and timings.
func (a *answer) ollamaFinal() ollamaResponse {
	prompt, completion := a.tokens()
	return ollamaResponse{
		Model:              a.req.Model,
		CreatedAt:          createdAt(),
		Message:            ollamaMessage{Role: "assistant"},
		Done:               true,
		DoneReason:         cmp.Or(a.turn.DoneReason, "stop"),
		TotalDuration:      int64(prompt+completion) * int64(time.Millisecond),
		LoadDuration:       int64(time.Millisecond),
		PromptEvalCount:    prompt,
		PromptEvalDuration: int64(prompt) * int64(100*time.Microsecond),
		EvalCount:          completion,
		EvalDuration:       int64(completion) * int64(10*time.Millisecond),
	}
}

// ollamaStream writes the turn as NDJSON: thinking chunks, content chunks,
// one response per call (Ollama sends whole calls), then the final message,
// or an error line, or nothing (Truncate).
func (a *answer) ollamaStream() {
	a.w.Header().Set("Content-Type", "application/x-ndjson")
	a.w.WriteHeader(http.StatusOK)
	t := a.turn
	chunk := func(m ollamaMessage) bool {
		m.Role = "assistant"
		return a.sendLine(ollamaResponse{Model: a.req.Model, CreatedAt: createdAt(), Message: m})
	}
	for _, p := range pieces(t.Thinking, t.ChunkSize) {
		if !chunk(ollamaMessage{Thinking: p}) {
			return
		}
	}
	for _, p := range pieces(t.Content, t.ChunkSize) {
		if !chunk(ollamaMessage{Content: p}) {
			return
		}
	}
	for i := range t.Calls {
		if !chunk(ollamaMessage{ToolCalls: []ollamaToolCall{a.ollamaCall(i)}}) {
			return
		}
	}
	if a.stall() {
		return
	}
	switch {
	case t.StreamError != "":
		a.sendLine(map[string]string{"error": t.StreamError})
	case t.Truncate:
	default:
		a.sendLine(a.ollamaFinal())
	}
}

// ollamaWhole writes the turn as one response object ("stream": false).
func (a *answer) ollamaWhole() {
	t := a.turn
	if t.StreamError != "" {
		// The server turns an error it would have streamed into a 500.
		writeError(a.w, Ollama, http.StatusInternalServerError, t.StreamError)
		return
	}
	resp := a.ollamaFinal()
	resp.Message = ollamaMessage{Role: "assistant", Content: t.Content, Thinking: t.Thinking}
	for i := range t.Calls {
		resp.Message.ToolCalls = append(resp.Message.ToolCalls, a.ollamaCall(i))
	}
	data, _ := json.Marshal(resp)
	a.w.Header().Set("Content-Type", "application/json; charset=utf-8")
	a.w.WriteHeader(http.StatusOK)
	if t.Truncate {
		data = data[:len(data)/2]
	}
	a.send(data)
}

// sendLine writes v as one NDJSON line.
func (a *answer) sendLine(v any) bool {
	data, err := json.Marshal(v)
	if err != nil {
		return false
	}
	return a.send(append(data, '\n'))
}
