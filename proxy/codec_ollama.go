package proxy

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
)

// ollamaPath is the chat path of Ollama's native API.
const ollamaPath = "/api/chat"

// ollamaCodec is Ollama's native chat API: POST /api/chat, streamed as
// NDJSON unless the request says "stream": false.
type ollamaCodec struct{}

func (ollamaCodec) name() API           { return Ollama }
func (ollamaCodec) path() string        { return ollamaPath }
func (ollamaCodec) streamDefault() bool { return true }
func (ollamaCodec) streamType() string  { return "application/x-ndjson" }

func (ollamaCodec) tools(top obj) []byte { return chatTools(top) }

func (ollamaCodec) isStream(ct string, requested bool) bool {
	return strings.Contains(ct, "ndjson") || (requested && !strings.Contains(ct, "application/json"))
}

// chatTools is the tools field of a chat request (Ollama, OpenAI chat).
func chatTools(top obj) []byte {
	raw, ok := top["tools"]
	if !ok || string(raw) == "null" {
		return nil
	}
	return raw
}

func (ollamaCodec) history(top obj) []client.Message { return chatHistory(top) }

// chatHistory reads a chat request's messages for the loop: roles, text
// and call ids. The loop only appends to them; what goes upstream is the
// client's own messages as sent.
func chatHistory(top obj) []client.Message {
	raw := top.list("messages")
	out := make([]client.Message, 0, len(raw))
	for _, r := range raw {
		o, _ := parseObj(r)
		m := client.Message{}
		if o != nil {
			m.Role, _ = o.str("role")
			m.Content, _ = o.str("content")
			for _, n := range readNativeCalls(o.list("tool_calls"), false) {
				m.ToolCalls = append(m.ToolCalls, toolcall.Call{ID: n.rc.ID, Name: n.rc.Name, Arguments: json.RawMessage("{}")})
			}
		}
		out = append(out, m)
	}
	return out
}

// chatReask is a chat request with the loop's messages after its own, in
// the API's shape (ollama: Ollama's, else OpenAI's), and streaming off.
func chatReask(top obj, more []client.Message, ollama bool) []byte {
	t := top.clone()
	msgs := top.list("messages")
	for _, m := range more {
		o := obj{}
		o.setRaw("role", marshalString(m.Role))
		o.setRaw("content", marshalString(m.Content))
		if len(m.ToolCalls) > 0 {
			calls := make([]json.RawMessage, len(m.ToolCalls))
			for i, c := range m.ToolCalls {
				if ollama {
					calls[i] = ollamaCall(c, i, nil)
				} else {
					calls[i] = openAICall(c, nil)
				}
			}
			o.setRaw("tool_calls", rawList(calls))
		}
		if m.ToolCallID != "" {
			o.setRaw("tool_call_id", marshalString(m.ToolCallID))
		}
		if ollama && m.ToolName != "" {
			o.setRaw("tool_name", marshalString(m.ToolName))
		}
		if ollama && m.Reasoning != "" {
			o.setRaw("thinking", marshalString(m.Reasoning))
		}
		msgs = append(msgs, o.bytes())
	}
	t.setRaw("messages", rawList(msgs))
	t.setRaw("stream", []byte("false"))
	delete(t, "stream_options")
	return t.bytes()
}

func (ollamaCodec) reask(top obj, more []client.Message) []byte { return chatReask(top, more, true) }

func (ollamaCodec) whole(ctx context.Context, q *chatCtx, top obj) []byte {
	msgObj, ok := top.sub("message")
	if !ok {
		return nil
	}
	reason, _ := top.str("done_reason")
	done := string(top["done"]) == "true"
	f, last := q.fixAnswer(ctx, readMessage(msgObj, false), reason == "length" || !done, true)
	if !f.changed {
		return nil
	}
	if last != nil {
		top = last
		if msgObj, ok = top.sub("message"); !ok {
			msgObj = obj{}
		}
	}
	msgObj.setRaw("content", marshalString(f.content))
	if f.reasoning != "" {
		msgObj.setRaw("thinking", marshalString(f.reasoning))
	} else {
		delete(msgObj, "thinking")
	}
	delete(msgObj, "tool_calls")
	if len(f.calls) > 0 {
		calls := make([]json.RawMessage, len(f.calls))
		for i, c := range f.calls {
			calls[i] = ollamaCall(c.call, i, c.native)
		}
		msgObj.setRaw("tool_calls", rawList(calls))
	}
	top.setRaw("message", msgObj.bytes())
	return top.bytes()
}

func (ollamaCodec) read(top obj) *client.Response {
	out := &client.Response{}
	out.DoneReason, _ = top.str("done_reason")
	out.Done = string(top["done"]) == "true"
	out.PromptTokens, out.CompletionTokens = intField(top, "prompt_eval_count"), intField(top, "eval_count")
	if msg, ok := top.sub("message"); ok {
		readInto(out, readMessage(msg, false))
	}
	return out
}

// readInto puts a message's parts in a loop's response.
func readInto(out *client.Response, m *message) {
	out.Content, out.Reasoning = m.content, m.reasoning
	for _, n := range m.calls {
		out.NativeCalls = append(out.NativeCalls, n.rc)
	}
}

func (ollamaCodec) newStream(s *streamer) streamCodec { return &ollamaStream{s: s} }

// ollamaStream rewrites an NDJSON stream from Ollama.
type ollamaStream struct {
	s *streamer
	// tmpl is the last upstream chunk that was not final; msgTmpl its
	// message.
	tmpl    obj
	msgTmpl obj
}

func (o *ollamaStream) line(ctx context.Context, line []byte) bool {
	s := o.s
	top, ok := parseObj(line)
	if !ok {
		s.write(line)
		return true
	}
	if _, isErr := top["error"]; isErr {
		s.endNative(ctx, o, "")
		s.write(ensureNewline(line))
		return false
	}
	msg, _ := top.sub("message")
	if msg == nil {
		msg = obj{}
	}
	m := readMessage(msg, false)
	done := string(top["done"]) == "true"
	if !done {
		o.tmpl, o.msgTmpl = top, msg
	} else if o.tmpl == nil {
		o.tmpl = obj{"model": top["model"], "created_at": top["created_at"]}
		o.msgTmpl = obj{"role": json.RawMessage(`"assistant"`)}
	}
	s.reasoningDelta(m.reasoning, o)
	s.contentDelta(m.content, o)
	for i := range m.calls {
		s.openNative[len(s.openNative)] = &m.calls[i]
	}
	if !done {
		return true
	}
	reason, _ := top.str("done_reason")
	s.endNative(ctx, o, reason)
	s.truncated = reason == "length"
	// The final chunk: counts and done_reason as the upstream sent them.
	msg = msg.clone()
	msg.setRaw("content", []byte(`""`))
	delete(msg, "thinking")
	delete(msg, "tool_calls")
	top.setRaw("message", msg.bytes())
	s.markErrors(top)
	s.write(append(top.bytes(), '\n'))
	return false
}

// cut: what was settled goes out, and the stream ends as the upstream's
// did.
func (o *ollamaStream) cut(ctx context.Context) {
	o.s.endNative(ctx, o, "")
	o.s.truncated = true
}

func (o *ollamaStream) errorEvent(e *toolcall.Error) []byte {
	return append(errorBody(Ollama, 502, e), '\n')
}

func (o *ollamaStream) chunk(set func(msg obj)) {
	top := o.tmpl.clone()
	msg := o.msgTmpl.clone()
	delete(msg, "thinking")
	delete(msg, "tool_calls")
	msg.setRaw("content", []byte(`""`))
	set(msg)
	top.setRaw("message", msg.bytes())
	top.setRaw("done", []byte("false"))
	delete(top, "done_reason")
	o.s.write(append(top.bytes(), '\n'))
}

func (o *ollamaStream) content(text string) {
	o.chunk(func(m obj) { m.setRaw("content", marshalString(text)) })
}

func (o *ollamaStream) reasoning(text string) {
	o.chunk(func(m obj) { m.setRaw("thinking", marshalString(text)) })
}

func (o *ollamaStream) call(c toolcall.Call, index int, base *nativeCall) {
	o.chunk(func(m obj) { m.setRaw("tool_calls", rawList([]json.RawMessage{ollamaCall(c, index, base)})) })
}

func ensureNewline(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] == '\n' {
		return b
	}
	return append(b, '\n')
}
