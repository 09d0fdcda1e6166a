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

// tidyRequest applies tidyHistory to the request before it goes upstream,
// for the APIs whose history it reads; the request read (q.top) follows.
func (q *chatCtx) tidyRequest(ctx context.Context) {
	if q.top == nil {
		return
	}
	var out []byte
	switch q.cd.(type) {
	case ollamaCodec:
		out = q.tidyChat(ctx, q.body, false)
	case openAICodec:
		out = q.tidyChat(ctx, q.body, true)
	}
	if out == nil {
		return
	}
	q.body = out
	if top, ok := parseObj(out); ok {
		q.top = top
	}
}

// tidyChat applies tidyHistory to a chat request's messages (Ollama's
// /api/chat and OpenAI's chat completions share their shape; asString says
// whether arguments are JSON strings, OpenAI's shape). It returns the body
// with the changed messages written again, every other byte as it came,
// or nil when nothing changed.
func (q *chatCtx) tidyChat(ctx context.Context, body []byte, asString bool) []byte {
	list := gjson.GetBytes(body, "messages")
	if !list.IsArray() || list.Index <= 0 {
		return nil
	}
	type item struct {
		start, end int // in body
		o          obj
		m          *pastMessage
	}
	var items []item
	var msgs []*pastMessage
	list.ForEach(func(_, v gjson.Result) bool {
		if v.Get("role").String() != "assistant" || v.Index <= 0 {
			return true
		}
		start := v.Index // gjson gives it in body
		o, ok := parseObj(body[start : start+len(v.Raw)])
		if !ok {
			return true
		}
		m := &pastMessage{}
		m.Content, _ = o.str("content")
		for _, n := range readNativeCalls(o.list("tool_calls"), asString) {
			m.Calls = append(m.Calls, pastCall{ID: n.rc.ID, Name: n.rc.Name, Arguments: n.rc.Arguments})
		}
		items = append(items, item{start: start, end: start + len(v.Raw), o: o, m: m})
		msgs = append(msgs, m)
		return true
	})
	if len(msgs) == 0 {
		return nil
	}
	q.tidyHistory(ctx, msgs)
	var out bytes.Buffer
	at := 0
	for _, it := range items {
		if !it.m.Changed {
			continue
		}
		out.Write(body[at:it.start])
		out.Write(writeChatMessage(it.o, it.m, asString))
		at = it.end
	}
	if at == 0 {
		return nil
	}
	out.Write(body[at:])
	return out.Bytes()
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
