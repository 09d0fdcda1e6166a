package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/lenient"
	"github.com/tidwall/gjson"
)

// Kinds of request-side fix counted in RequestStats.Fixed.
const (
	// fixHistoryRepaired counts past calls whose arguments were repaired.
	fixHistoryRepaired = "history_repaired"
	// fixHistoryLeaked counts past calls moved out of an assistant
	// message's text into its calls.
	fixHistoryLeaked = "history_leaked"
)

// pastCall is a tool call of an assistant message in a request's history.
type pastCall struct {
	ID, Name string
	// Arguments is the arguments text as the client sent it; repaired,
	// it is the repaired JSON and Repaired is set.
	Arguments string
	Repaired  bool
}

// pastMessage is an assistant message of a request's history, as a codec
// decoded it: its text and its calls. tidyHistory changes it in place and
// says so in Changed; the codec writes the changed messages back, and
// every other byte of the request as it came.
type pastMessage struct {
	Content string
	Calls   []pastCall
	// Reasoning is reasoning split off Content when leaked calls moved out
	// of it.
	Reasoning string
	// Leaked says calls were read out of Content (now without their
	// markup) into Calls, each with an id.
	Leaked  bool
	Changed bool
}

// tidyHistory makes a request's past assistant messages acceptable to the
// upstream and consistent with the answers the proxy sends: a call whose
// arguments are not valid JSON (Ollama's /v1 answers such a history with
// 400) gets them repaired; a message without calls whose text holds calls
// leaked in a dialect, every one of them valid against the request's tools,
// gets them as calls and its text without their markup, as the answer was
// fixed. Arguments that cannot be repaired, and text whose calls do not all
// read, stay as they are. It counts the fixes in the request's statistics.
func (q *chatCtx) tidyHistory(ctx context.Context, msgs []*pastMessage) {
	lopts := q.ropts.DialectOptions().Lenient
	for _, m := range msgs {
		for i := range m.Calls {
			c := &m.Calls[i]
			args := strings.TrimSpace(c.Arguments)
			if args == "" || json.Valid([]byte(args)) {
				continue
			}
			res := lenient.RepairString(args, &lopts)
			if res.Err != nil {
				continue
			}
			c.Arguments, c.Repaired, m.Changed = string(res.Output), true, true
			q.countFix(fixHistoryRepaired, 1)
		}
		if len(m.Calls) > 0 || q.tools == nil || strings.TrimSpace(m.Content) == "" {
			continue
		}
		opts := q.contentOptions("")
		res, _ := q.c.reg.ParseDetectContext(ctx, m.Content, &opts)
		if res == nil || len(res.Calls) == 0 || len(res.Errors) > 0 {
			continue
		}
		for _, c := range res.Calls {
			id := c.ID
			if id == "" || q.ids[id] {
				id = q.newID()
			}
			q.ids[id] = true
			m.Calls = append(m.Calls, pastCall{ID: id, Name: c.Name, Arguments: string(c.Arguments)})
		}
		m.Content, m.Reasoning, m.Leaked, m.Changed = res.Content, res.Reasoning, true, true
		q.countFix(fixHistoryLeaked, len(res.Calls))
	}
}

// countFix adds request-side fixes to the request's statistics.
func (q *chatCtx) countFix(kind string, n int) {
	if q.st.Fixed == nil {
		q.st.Fixed = map[string]int{}
	}
	q.st.Fixed[kind] += n
}

// tidyRequest applies tidyHistory to the request before it goes upstream;
// the request read (q.top) follows.
func (q *chatCtx) tidyRequest(ctx context.Context) {
	if q.top == nil {
		return
	}
	var edits []histEdit
	var msgs []*pastMessage
	switch q.cd.(type) {
	case ollamaCodec:
		edits, msgs = chatHistoryEdits(q.body, false)
	case openAICodec:
		edits, msgs = chatHistoryEdits(q.body, true)
	case responsesCodec:
		edits, msgs = responsesHistoryEdits(q.body)
	case anthropicCodec:
		edits, msgs = anthropicHistoryEdits(q.body)
	}
	if len(msgs) == 0 {
		return
	}
	q.tidyHistory(ctx, msgs)
	out := applyEdits(q.body, edits)
	if out == nil {
		return
	}
	q.body = out
	if top, ok := parseObj(out); ok {
		q.top = top
	}
}

// histEdit is an item of a request's history list, as a codec read it:
// its span in the body and the message it belongs to; write gives the
// item as it goes upstream once the message is tidied, nil to keep it.
type histEdit struct {
	start, end int
	m          *pastMessage
	write      func() []byte
}

// applyEdits writes the body with the edits of changed messages in place,
// every other byte as it came; nil when nothing changed.
func applyEdits(body []byte, edits []histEdit) []byte {
	var out bytes.Buffer
	at := 0
	for _, e := range edits {
		if !e.m.Changed {
			continue
		}
		b := e.write()
		if b == nil {
			continue
		}
		out.Write(body[at:e.start])
		out.Write(b)
		at = e.end
	}
	if at == 0 {
		return nil
	}
	out.Write(body[at:])
	return out.Bytes()
}

// historyItems calls f with each object of the body's array at path, its
// span in the body; a non-object item is passed as nil.
func historyItems(body []byte, path string, f func(o obj, start, end int)) {
	list := gjson.GetBytes(body, path)
	if !list.IsArray() || list.Index <= 0 {
		return
	}
	list.ForEach(func(_, v gjson.Result) bool {
		if v.Index <= 0 {
			f(nil, 0, 0)
			return true
		}
		start, end := v.Index, v.Index+len(v.Raw) // gjson gives them in body
		o, _ := parseObj(body[start:end])
		f(o, start, end)
		return true
	})
}

// chatHistoryEdits reads a chat request's assistant messages (Ollama's
// /api/chat and OpenAI's chat completions share their shape; asString says
// whether arguments are JSON strings, OpenAI's shape).
func chatHistoryEdits(body []byte, asString bool) ([]histEdit, []*pastMessage) {
	var edits []histEdit
	var msgs []*pastMessage
	historyItems(body, "messages", func(o obj, start, end int) {
		if role, _ := o.str("role"); role != "assistant" {
			return
		}
		m := &pastMessage{}
		m.Content, _ = o.str("content")
		for _, n := range readNativeCalls(o.list("tool_calls"), asString) {
			m.Calls = append(m.Calls, pastCall{ID: n.rc.ID, Name: n.rc.Name, Arguments: n.rc.Arguments})
		}
		edits = append(edits, histEdit{start, end, m, func() []byte { return writeChatMessage(o, m, asString) }})
		msgs = append(msgs, m)
	})
	return edits, msgs
}

// responsesHistoryEdits reads a Responses request's past assistant turns:
// an assistant message item and the function_call items that follow it
// (reasoning items between them) are one message; function_call items
// with no message before them are one of their own.
func responsesHistoryEdits(body []byte) ([]histEdit, []*pastMessage) {
	var edits []histEdit
	var msgs []*pastMessage
	var cur *pastMessage
	historyItems(body, "input", func(o obj, start, end int) {
		typ, _ := o.str("type")
		role, _ := o.str("role")
		switch {
		case typ == "function_call":
			if cur == nil {
				cur = &pastMessage{}
				msgs = append(msgs, cur)
			}
			m, k := cur, len(cur.Calls)
			rc := responsesNative(o).rc
			m.Calls = append(m.Calls, pastCall{ID: rc.ID, Name: rc.Name, Arguments: rc.Arguments})
			edits = append(edits, histEdit{start, end, m, func() []byte {
				if !m.Calls[k].Repaired {
					return nil
				}
				o.setRaw("arguments", marshalString(m.Calls[k].Arguments))
				return o.bytes()
			}})
		case role == "assistant" && (typ == "" || typ == "message"):
			m := &pastMessage{Content: partsText(o, "content")}
			cur = m
			msgs = append(msgs, m)
			edits = append(edits, histEdit{start, end, m, func() []byte {
				if !m.Leaked {
					return nil
				}
				return writeResponsesTurn(o, m)
			}})
		case typ == "reasoning":
		default:
			cur = nil
		}
	})
	return edits, msgs
}

// writeResponsesTurn writes an assistant message item whose calls leaked
// into its text as the items an answer has: reasoning, the message
// without the calls' markup (left out when no text or other part
// remains), and a function_call item for each call.
func writeResponsesTurn(o obj, m *pastMessage) []byte {
	var items []json.RawMessage
	if m.Reasoning != "" {
		items = append(items, reasoningItem(nil, m.Reasoning, "completed"))
	}
	if _, ok := o.str("content"); ok {
		if strings.TrimSpace(m.Content) != "" {
			o.setRaw("content", marshalString(m.Content))
			items = append(items, o.bytes())
		}
	} else if parts := replaceText(o.list("content"), "text", m.Content); len(parts) > 0 {
		o.setRaw("content", rawList(parts))
		items = append(items, o.bytes())
	}
	for _, c := range m.Calls {
		items = append(items, responsesCall(toolcall.Call{ID: c.ID, Name: c.Name, Arguments: json.RawMessage(c.Arguments)}, nil, "completed"))
	}
	var out bytes.Buffer
	for i, it := range items {
		if i > 0 {
			out.WriteByte(',')
		}
		out.Write(it)
	}
	return out.Bytes()
}

// replaceText replaces a content list's text parts (those with a text
// field) by one holding text, the first one's other fields kept, at its
// place; other parts stay as they are. An empty text leaves no text part.
func replaceText(parts []json.RawMessage, key, text string) []json.RawMessage {
	var out []json.RawMessage
	done := false
	for _, raw := range parts {
		p, ok := parseObj(raw)
		if _, isText := p.str(key); !ok || !isText {
			out = append(out, raw)
			continue
		}
		if done || strings.TrimSpace(text) == "" {
			done = true
			continue
		}
		p.setRaw(key, marshalString(text))
		out = append(out, p.bytes())
		done = true
	}
	return out
}

// anthropicHistoryEdits reads a Messages request's assistant messages:
// their text blocks (or string content) and tool_use blocks, whose input
// is the arguments (a string input is read as its text).
func anthropicHistoryEdits(body []byte) ([]histEdit, []*pastMessage) {
	var edits []histEdit
	var msgs []*pastMessage
	historyItems(body, "messages", func(o obj, start, end int) {
		if role, _ := o.str("role"); role != "assistant" {
			return
		}
		m := &pastMessage{Content: partsText(o, "content")}
		for _, raw := range o.list("content") {
			if b, ok := parseObj(raw); ok {
				if t, _ := b.str("type"); t == "tool_use" {
					c := pastCall{}
					c.ID, _ = b.str("id")
					c.Name, _ = b.str("name")
					if s, ok := b.str("input"); ok {
						c.Arguments = s
					} else {
						c.Arguments = string(b["input"])
					}
					m.Calls = append(m.Calls, c)
				}
			}
		}
		edits = append(edits, histEdit{start, end, m, func() []byte { return writeAnthropicMessage(o, m) }})
		msgs = append(msgs, m)
	})
	return edits, msgs
}

// writeAnthropicMessage writes a tidied assistant message: its tool_use
// blocks' repaired input, or its leaked calls as tool_use blocks after
// its text (a thinking block before it for reasoning; no empty text
// block, which the API refuses).
func writeAnthropicMessage(o obj, m *pastMessage) []byte {
	if !m.Leaked {
		blocks := o.list("content")
		k := 0
		for i, raw := range blocks {
			b, ok := parseObj(raw)
			if t, _ := b.str("type"); !ok || t != "tool_use" {
				continue
			}
			if k < len(m.Calls) && m.Calls[k].Repaired {
				b.setRaw("input", argumentsValue(json.RawMessage(m.Calls[k].Arguments)))
				blocks[i] = b.bytes()
			}
			k++
		}
		o.setRaw("content", rawList(blocks))
		return o.bytes()
	}
	var blocks []json.RawMessage
	if m.Reasoning != "" {
		blocks = append(blocks, thinkingBlock(nil, m.Reasoning))
	}
	if _, ok := o.str("content"); ok {
		if strings.TrimSpace(m.Content) != "" {
			blocks = append(blocks, textBlock(m.Content))
		}
	} else {
		blocks = append(blocks, replaceText(o.list("content"), "text", m.Content)...)
	}
	for _, c := range m.Calls {
		blocks = append(blocks, toolUseBlock(toolcall.Call{ID: c.ID, Name: c.Name, Arguments: json.RawMessage(c.Arguments)}, nil))
	}
	o.setRaw("content", rawList(blocks))
	return o.bytes()
}

// writeChatMessage writes a tidied assistant message in the chat shape:
// its repaired arguments, or its leaked calls as tool_calls.
func writeChatMessage(o obj, m *pastMessage, asString bool) []byte {
	if m.Leaked {
		o.setRaw("content", marshalString(m.Content))
		if m.Reasoning != "" {
			key := "thinking"
			if asString {
				key = "reasoning_content"
			}
			o.setRaw(key, marshalString(m.Reasoning))
		}
		calls := make([]json.RawMessage, len(m.Calls))
		for i, c := range m.Calls {
			tc := toolcall.Call{ID: c.ID, Name: c.Name, Arguments: json.RawMessage(c.Arguments)}
			if asString {
				calls[i] = openAICall(tc, nil)
			} else {
				calls[i] = ollamaCall(tc, i, nil)
			}
		}
		o.setRaw("tool_calls", rawList(calls))
		return o.bytes()
	}
	raw := o.list("tool_calls")
	for i, n := range readNativeCalls(raw, asString) {
		if i >= len(m.Calls) || !m.Calls[i].Repaired {
			continue
		}
		fn := n.fn
		if asString {
			fn.setRaw("arguments", marshalString(m.Calls[i].Arguments))
		} else {
			fn.setRaw("arguments", []byte(m.Calls[i].Arguments))
		}
		n.obj.setRaw("function", fn.bytes())
		raw[i] = n.obj.bytes()
	}
	o.setRaw("tool_calls", rawList(raw))
	return o.bytes()
}
