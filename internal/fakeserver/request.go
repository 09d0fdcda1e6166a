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
	switch r.API {
	case Responses:
		return r.decodeResponses()
	case Anthropic:
		return r.decodeAnthropic()
	}
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

// decodeResponses reads a Responses API request: input (a string, or
// items: messages, function_call, function_call_output), tools, stream,
// max_output_tokens.
func (r *Request) decodeResponses() error {
	var w struct {
		Model           string            `json:"model"`
		Input           json.RawMessage   `json:"input"`
		Instructions    string            `json:"instructions"`
		Stream          bool              `json:"stream"`
		Tools           []json.RawMessage `json:"tools"`
		MaxOutputTokens int               `json:"max_output_tokens"`
	}
	if err := json.Unmarshal(r.Body, &w); err != nil {
		return errors.New("invalid request body: " + err.Error())
	}
	r.Model, r.Stream, r.Tools, r.MaxTokens = w.Model, w.Stream, w.Tools, w.MaxOutputTokens
	if w.Instructions != "" {
		r.Messages = append(r.Messages, Message{Role: "system", Content: w.Instructions})
	}
	var text string
	if json.Unmarshal(w.Input, &text) == nil {
		r.Messages = append(r.Messages, Message{Role: "user", Content: text})
		return nil
	}
	var items []struct {
		Type      string          `json:"type"`
		Role      string          `json:"role"`
		Content   json.RawMessage `json:"content"`
		CallID    string          `json:"call_id"`
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		Output    json.RawMessage `json:"output"`
	}
	if len(w.Input) > 0 && json.Unmarshal(w.Input, &items) != nil {
		return errors.New("invalid request body: input is neither a string nor a list of items")
	}
	for _, it := range items {
		switch it.Type {
		case "function_call":
			var s string
			if json.Unmarshal(it.Arguments, &s) != nil || !json.Valid([]byte(s)) {
				return errors.New("invalid function_call arguments")
			}
			c := ToolCall{ID: it.CallID, Name: it.Name, Arguments: it.Arguments}
			if n := len(r.Messages); n > 0 && r.Messages[n-1].Role == "assistant" {
				r.Messages[n-1].ToolCalls = append(r.Messages[n-1].ToolCalls, c)
				continue
			}
			r.Messages = append(r.Messages, Message{Role: "assistant", ToolCalls: []ToolCall{c}})
		case "function_call_output":
			r.Messages = append(r.Messages, Message{Role: "tool", Content: contentText(it.Output), ToolCallID: it.CallID})
		case "reasoning":
		default:
			r.Messages = append(r.Messages, Message{Role: it.Role, Content: contentText(it.Content)})
		}
	}
	return nil
}

// decodeAnthropic reads a Messages API request: system, messages (a string
// or content blocks: text, tool_use, tool_result, thinking), tools,
// stream, max_tokens.
func (r *Request) decodeAnthropic() error {
	var w struct {
		Model     string            `json:"model"`
		System    json.RawMessage   `json:"system"`
		Stream    bool              `json:"stream"`
		Tools     []json.RawMessage `json:"tools"`
		MaxTokens int               `json:"max_tokens"`
		Messages  []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(r.Body, &w); err != nil {
		return errors.New("invalid request body: " + err.Error())
	}
	if w.MaxTokens <= 0 {
		return errors.New("max_tokens: Field required")
	}
	r.Model, r.Stream, r.Tools, r.MaxTokens = w.Model, w.Stream, w.Tools, w.MaxTokens
	if s := contentText(w.System); s != "" {
		r.Messages = append(r.Messages, Message{Role: "system", Content: s})
	}
	for _, m := range w.Messages {
		var text string
		if json.Unmarshal(m.Content, &text) == nil {
			r.Messages = append(r.Messages, Message{Role: m.Role, Content: text})
			continue
		}
		var blocks []struct {
			Type      string          `json:"type"`
			Text      string          `json:"text"`
			Thinking  string          `json:"thinking"`
			ID        string          `json:"id"`
			Name      string          `json:"name"`
			Input     json.RawMessage `json:"input"`
			ToolUseID string          `json:"tool_use_id"`
			Content   json.RawMessage `json:"content"`
		}
		if json.Unmarshal(m.Content, &blocks) != nil {
			return errors.New("invalid request body: content is neither a string nor a list of blocks")
		}
		msg := Message{Role: m.Role}
		for _, b := range blocks {
			switch b.Type {
			case "text":
				msg.Content += b.Text
			case "thinking":
				msg.Thinking += b.Thinking
			case "tool_use":
				if in := bytes.TrimSpace(b.Input); len(in) == 0 || in[0] != '{' {
					return errors.New("tool_use.input: Input should be a valid dictionary")
				}
				msg.ToolCalls = append(msg.ToolCalls, ToolCall{ID: b.ID, Name: b.Name, Arguments: b.Input})
			case "tool_result":
				r.Messages = append(r.Messages, Message{Role: "tool", Content: contentText(b.Content), ToolCallID: b.ToolUseID})
			}
		}
		if msg.Content != "" || msg.Thinking != "" || len(msg.ToolCalls) > 0 {
			r.Messages = append(r.Messages, msg)
		}
	}
	return nil
}
