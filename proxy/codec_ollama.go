package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/lenient"
	"github.com/tidwall/gjson"
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
	// shape is tmpl's text without the values the text events change
	// (created_at, the message's content and thinking); createdAt is the
	// created_at of the chunk being handled.
	shape     shapeKey
	createdAt []byte
	text      textSplices
	fast      chunkTemplate
}

func (o *ollamaStream) line(ctx context.Context, line []byte) bool {
	s := o.s
	if o.plain(line) {
		return true
	}
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
		o.readShape(string(bytes.TrimSpace(line)), string(top["message"]))
	} else if o.tmpl == nil {
		o.tmpl = obj{"model": top["model"], "created_at": top["created_at"]}
		o.msgTmpl = obj{"role": json.RawMessage(`"assistant"`)}
		o.readShape("", "")
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

// readShape reads the shape of the chunk that is now the template (top
// and its message as they came) and its created_at: the splices are made
// again when the shape changed, and never when created_at is not a string
// (its hole holds a string).
func (o *ollamaStream) readShape(top, msg string) {
	o.shape.start()
	o.shape.add(top, "created_at", "message")
	o.shape.add(msg, "content", "thinking")
	if o.shape.keep() {
		o.text.reset()
	}
	o.createdAt = o.createdAt[:0]
	if c := o.tmpl["created_at"]; len(c) > 0 && c[0] == '"' {
		o.createdAt = append(o.createdAt, c...)
	} else {
		o.text.content = spliceSlot{made: true}
		o.text.reasoning = spliceSlot{made: true}
	}
}

// plain handles a chunk that carries only text (content, thinking), in
// the shape of the chunk before: read with gjson, no object built, and
// written from the splices; a chunk that matches the last one read so
// (fast) is not parsed at all. false: the chunk is not one, line reads it
// whole.
func (o *ollamaStream) plain(line []byte) bool {
	line = bytes.TrimSpace(line)
	if o.tmpl == nil || o.s.q.c.wholeChunks {
		return false
	}
	// The fields of the template: the message's content and thinking,
	// the chunk's created_at.
	var vals [maxFields][]byte
	if !o.fast.read(line, &vals, o.readPlain) || vals[2] == nil {
		return false
	}
	var content, thinking string
	if vals[0] != nil {
		content, _ = rawString(string(vals[0]))
	}
	if vals[1] != nil {
		thinking, _ = rawString(string(vals[1]))
	}
	o.createdAt = append(o.createdAt[:0], vals[2]...)
	o.s.reasoningDelta(thinking, o)
	o.s.contentDelta(content, o)
	return true
}

// readPlain reads a chunk with gjson and reports whether it is one plain
// handles, adding the holes of its template: created_at, the message's
// content and thinking.
func (o *ollamaStream) readPlain(line []byte) bool {
	if len(line) == 0 || line[0] != '{' || !lenient.Valid(line) {
		return false
	}
	raw := string(line)
	var msg, created gjson.Result
	top := gjson.Parse(raw)
	if !distinctKeys(top, func(key string, v gjson.Result) bool {
		switch key {
		case "error":
			return false
		case "done":
			return v.Type == gjson.False
		case "message":
			msg = v
			return v.IsObject()
		case "created_at":
			created = v
			return v.Type == gjson.String
		}
		return true
	}) || !msg.Exists() || !created.Exists() {
		return false
	}
	o.fast.hole(created, 2)
	if !distinctKeys(msg, func(key string, v gjson.Result) bool {
		switch key {
		case "content":
			if v.Type == gjson.String {
				o.fast.hole(v, 0)
			}
		case "thinking":
			if v.Type == gjson.String {
				o.fast.hole(v, 1)
			}
		case "tool_calls":
			return !v.IsArray() || len(v.Array()) == 0
		}
		return true
	}) {
		return false
	}
	o.shape.start()
	o.shape.add(raw, "created_at", "message")
	o.shape.add(msg.Raw, "content", "thinking")
	return o.shape.same()
}

func (o *ollamaStream) chunk(set func(msg obj)) {
	o.s.write(o.chunkBytes(set, o.createdAt))
}

// chunkBytes is a chunk made from the templates, with created (when set)
// as its created_at.
func (o *ollamaStream) chunkBytes(set func(msg obj), created []byte) []byte {
	top := o.tmpl.clone()
	if len(created) > 0 {
		top.setRaw("created_at", created)
	}
	msg := o.msgTmpl.clone()
	delete(msg, "thinking")
	delete(msg, "tool_calls")
	msg.setRaw("content", []byte(`""`))
	set(msg)
	top.setRaw("message", msg.bytes())
	top.setRaw("done", []byte("false"))
	delete(top, "done_reason")
	return append(top.bytes(), '\n')
}

// textEvent writes a text event: the text under key in the message, the
// chunk's created_at the second hole.
func (o *ollamaStream) textEvent(slot *spliceSlot, key, text string) {
	o.text.write(o.s, slot, text, func(v [][]byte) []byte {
		return o.chunkBytes(func(m obj) { m.setRaw(key, v[0]) }, v[1])
	}, o.createdAt)
}

func (o *ollamaStream) content(text string) { o.textEvent(&o.text.content, "content", text) }

func (o *ollamaStream) reasoning(text string) { o.textEvent(&o.text.reasoning, "thinking", text) }

func (o *ollamaStream) call(c toolcall.Call, index int, base *nativeCall) {
	o.chunk(func(m obj) { m.setRaw("tool_calls", rawList([]json.RawMessage{ollamaCall(c, index, base)})) })
}

func ensureNewline(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] == '\n' {
		return b
	}
	return append(b, '\n')
}
