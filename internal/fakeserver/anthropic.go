package fakeserver

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
)

// anthropicBlock is one content block of a Messages answer.
type anthropicBlock struct {
	Type      string          `json:"type"`
	Text      *string         `json:"text,omitempty"`
	Thinking  *string         `json:"thinking,omitempty"`
	Signature *string         `json:"signature,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
}

type anthropicMessage struct {
	ID           string           `json:"id"`
	Type         string           `json:"type"`
	Role         string           `json:"role"`
	Model        string           `json:"model"`
	Content      []anthropicBlock `json:"content"`
	StopReason   *string          `json:"stop_reason"`
	StopSequence *string          `json:"stop_sequence"`
	Usage        map[string]int   `json:"usage"`
}

// anthropicStop is the turn's stop_reason: max_tokens for "length",
// tool_use when it has calls, else end_turn.
func (a *answer) anthropicStop() string {
	switch {
	case a.turn.DoneReason == "length":
		return "max_tokens"
	case a.turn.DoneReason != "" && a.turn.DoneReason != "stop":
		return a.turn.DoneReason
	case len(a.turn.Calls) > 0:
		return "tool_use"
	}
	return "end_turn"
}

// anthropicInput is a scripted call's arguments as a tool_use input: the
// object when they are one, else the text as a JSON string (which no
// real server sends, and a proxy must survive).
func anthropicInput(args string) json.RawMessage {
	args = strings.TrimSpace(args)
	switch {
	case args == "":
		return json.RawMessage("{}")
	case strings.HasPrefix(args, "{") && json.Valid([]byte(args)):
		return json.RawMessage(args)
	}
	b, _ := json.Marshal(args)
	return b
}

// anthropicBlocks are the turn's content blocks: thinking, text (when
// there is text or no call), then the calls.
func (a *answer) anthropicBlocks() []anthropicBlock {
	t := a.turn
	var blocks []anthropicBlock
	if t.Thinking != "" {
		sig := "sig-" + strconv.Itoa(a.req.Seq)
		blocks = append(blocks, anthropicBlock{Type: "thinking", Thinking: &t.Thinking, Signature: &sig})
	}
	if t.Content != "" || len(t.Calls) == 0 {
		blocks = append(blocks, anthropicBlock{Type: "text", Text: &t.Content})
	}
	for i, c := range t.Calls {
		blocks = append(blocks, anthropicBlock{Type: "tool_use", ID: a.callID(i), Name: c.Name, Input: anthropicInput(c.Arguments)})
	}
	return blocks
}

func (a *answer) anthropicMsg(blocks []anthropicBlock, stop *string) anthropicMessage {
	p, c := a.tokens()
	if blocks == nil {
		blocks = []anthropicBlock{}
		c = 1
	}
	return anthropicMessage{ID: "msg_" + strconv.Itoa(a.req.Seq), Type: "message", Role: "assistant", Model: a.req.Model,
		Content: blocks, StopReason: stop, Usage: map[string]int{"input_tokens": p, "output_tokens": c}}
}

// anthropicWhole writes the turn as one message object.
func (a *answer) anthropicWhole() {
	if a.turn.StreamError != "" {
		writeError(a.w, Anthropic, http.StatusInternalServerError, a.turn.StreamError)
		return
	}
	stop := a.anthropicStop()
	a.sendWhole(a.anthropicMsg(a.anthropicBlocks(), &stop))
}

// anthropicStream writes the turn as the Messages API's events, each with
// its event line: message_start, a ping, each block's
// content_block_start, deltas (text_delta, thinking_delta and
// signature_delta, input_json_delta) and content_block_stop, then
// message_delta with the stop_reason and message_stop.
func (a *answer) anthropicStream() {
	a.startEvents()
	t := a.turn
	ev := func(typ string, fields map[string]any) bool { return a.sendTyped(typ, fields) }
	if !ev("message_start", map[string]any{"message": a.anthropicMsg(nil, nil)}) || !ev("ping", map[string]any{}) {
		return
	}
	call := 0
	for i, b := range a.anthropicBlocks() {
		open := b
		empty := ""
		var deltas []map[string]any
		switch b.Type {
		case "thinking":
			open.Thinking, open.Signature = &empty, &empty
			for _, p := range pieces(*b.Thinking, t.ChunkSize) {
				deltas = append(deltas, map[string]any{"type": "thinking_delta", "thinking": p})
			}
			deltas = append(deltas, map[string]any{"type": "signature_delta", "signature": *b.Signature})
		case "text":
			open.Text = &empty
			for _, p := range pieces(*b.Text, t.ChunkSize) {
				deltas = append(deltas, map[string]any{"type": "text_delta", "text": p})
			}
		case "tool_use":
			open.Input = json.RawMessage("{}")
			for _, p := range pieces(t.Calls[call].Arguments, t.ChunkSize) {
				deltas = append(deltas, map[string]any{"type": "input_json_delta", "partial_json": p})
			}
			call++
		}
		if !ev("content_block_start", map[string]any{"index": i, "content_block": open}) {
			return
		}
		for _, d := range deltas {
			if !ev("content_block_delta", map[string]any{"index": i, "delta": d}) {
				return
			}
		}
		if !ev("content_block_stop", map[string]any{"index": i}) {
			return
		}
	}
	if a.stall() {
		return
	}
	switch {
	case t.StreamError != "":
		ev("error", map[string]any{"error": map[string]any{"type": "api_error", "message": t.StreamError}})
		return
	case t.Truncate:
		return
	}
	_, c := a.tokens()
	if !ev("message_delta", map[string]any{"delta": map[string]any{"stop_reason": a.anthropicStop(), "stop_sequence": nil},
		"usage": map[string]int{"output_tokens": c}}) {
		return
	}
	ev("message_stop", map[string]any{})
}
