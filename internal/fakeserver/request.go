package fakeserver

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
)

// wireRequest is the union of both protocols' request bodies.
type wireRequest struct {
	Model         string            `json:"model"`
	Messages      []wireMessage     `json:"messages"`
	Stream        *bool             `json:"stream"`
	Tools         []json.RawMessage `json:"tools"`
	Options       map[string]any    `json:"options"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	MaxTokens           int `json:"max_tokens"`
	MaxCompletionTokens int `json:"max_completion_tokens"`
}

type wireMessage struct {
	Role             string          `json:"role"`
	Content          json.RawMessage `json:"content"`
	Thinking         string          `json:"thinking"`
	ReasoningContent string          `json:"reasoning_content"`
	ToolCalls        []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
	ToolCallID string `json:"tool_call_id"`
	ToolName   string `json:"tool_name"`
	Name       string `json:"name"`
}

// decode fills the request's fields from its body.
func (r *Request) decode() error {
	var w wireRequest
	if err := json.Unmarshal(r.Body, &w); err != nil {
		return errors.New("invalid request body: " + err.Error())
	}
	r.Model = w.Model
	// Ollama streams unless told not to; OpenAI only when asked.
	r.Stream = r.API == Ollama
	if w.Stream != nil {
		r.Stream = *w.Stream
	}
	r.IncludeUsage = w.StreamOptions != nil && w.StreamOptions.IncludeUsage
	r.Tools = w.Tools
	r.Options = w.Options
	switch {
	case r.API == Ollama:
		if n, ok := w.Options["num_predict"].(float64); ok {
			r.MaxTokens = int(n)
		}
	case w.MaxCompletionTokens > 0:
		r.MaxTokens = w.MaxCompletionTokens
	default:
		r.MaxTokens = w.MaxTokens
	}
	for _, m := range w.Messages {
		msg := Message{
			Role:       m.Role,
			Content:    contentText(m.Content),
			Thinking:   cmp.Or(m.Thinking, m.ReasoningContent),
			ToolCallID: m.ToolCallID,
			ToolName:   cmp.Or(m.ToolName, m.Name),
		}
		for _, c := range m.ToolCalls {
			msg.ToolCalls = append(msg.ToolCalls, ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
		}
		r.Messages = append(r.Messages, msg)
	}
	return nil
}

// contentText reads a message content: a string, null, or OpenAI content
// parts ([{"type": "text", "text": …}]).
func contentText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var b bytes.Buffer
		for _, p := range parts {
			b.WriteString(p.Text)
		}
		return b.String()
	}
	return ""
}
