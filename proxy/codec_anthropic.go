package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/lenient"
	"github.com/tidwall/gjson"
)

// anthropicPath is the path of the Anthropic Messages API.
const anthropicPath = "/v1/messages"

// anthropicCodec is the Anthropic Messages API: POST /v1/messages, whose
// answer is a list of content blocks (thinking, text, tool_use, …),
// streamed as typed server-sent events when asked.
type anthropicCodec struct{ sseAPI }

func (anthropicCodec) name() API    { return Anthropic }
func (anthropicCodec) path() string { return anthropicPath }

// tools keeps the request's client tools (those with an input_schema, type
// absent or "custom"): the server tools (bash_…, web_search_…) are the
// server's to run.
func (anthropicCodec) tools(top obj) []byte {
	return someTools(top, func(t obj) bool {
		if typ, ok := t.str("type"); ok && typ != "custom" {
			return false
		}
		_, ok := t["input_schema"]
		return ok
	})
}

func (anthropicCodec) history(top obj) []client.Message {
	raw := top.list("messages")
	out := make([]client.Message, 0, len(raw))
	for _, r := range raw {
		o, _ := parseObj(r)
		m := client.Message{}
		if o != nil {
			m.Role, _ = o.str("role")
			m.Content = partsText(o, "content")
			for _, b := range o.list("content") {
				if blk, ok := parseObj(b); ok {
					if t, _ := blk.str("type"); t == "tool_use" {
						id, _ := blk.str("id")
						name, _ := blk.str("name")
						m.ToolCalls = append(m.ToolCalls, toolcall.Call{ID: id, Name: name, Arguments: json.RawMessage("{}")})
					}
				}
			}
		}
		out = append(out, m)
	}
	return out
}

// reask writes the loop's messages as Anthropic messages: an assistant's
// text and tool_use blocks, tool results as tool_result blocks of a user
// message, which also takes the notes that follow them.
func (anthropicCodec) reask(top obj, more []client.Message) []byte {
	t := top.clone()
	msgs := top.list("messages")
	var role string
	var blocks []json.RawMessage
	flush := func() {
		if role == "" {
			return
		}
		m := obj{}
		m.setRaw("role", marshalString(role))
		m.setRaw("content", rawList(blocks))
		msgs = append(msgs, m.bytes())
		role, blocks = "", nil
	}
	for _, m := range more {
		r := m.Role
		if r != "assistant" {
			r = "user" // tool results and notes are the user's turn
		}
		if r != role {
			flush()
			role = r
		}
		switch {
		case m.Role == "tool":
			b := obj{}
			b.setRaw("type", []byte(`"tool_result"`))
			b.setRaw("tool_use_id", marshalString(m.ToolCallID))
			b.setRaw("content", marshalString(m.Content))
			blocks = append(blocks, b.bytes())
		case m.Content != "" || len(m.ToolCalls) == 0:
			blocks = append(blocks, textBlock(m.Content))
		}
		for _, c := range m.ToolCalls {
			blocks = append(blocks, toolUseBlock(c, nil))
		}
	}
	flush()
	t.setRaw("messages", rawList(msgs))
	t.setRaw("stream", []byte("false"))
	return t.bytes()
}

func textBlock(text string) json.RawMessage {
	b := obj{}
	b.setRaw("type", []byte(`"text"`))
	b.setRaw("text", marshalString(text))
	return b.bytes()
}

// toolUseBlock is a call as a tool_use block, its arguments the input
// object (arguments that are not JSON, of a failed call that goes out as
// written, as a JSON string); base, when set, is the upstream's own block,
// whose other fields are kept.
func toolUseBlock(c toolcall.Call, base *nativeCall) json.RawMessage {
	b := obj{}
	if base != nil {
		b = base.obj.clone()
	}
	b.setRaw("type", []byte(`"tool_use"`))
	b.setRaw("id", marshalString(c.ID))
	b.setRaw("name", marshalString(c.Name))
	b.setRaw("input", argumentsValue(c.Arguments))
	return b.bytes()
}

// anthAnswer is a Messages answer read into the parts the core fixes.
type anthAnswer struct {
	m        *message
	thinking obj // the first thinking block, whose signature is kept
	others   []json.RawMessage
}

func readBlocks(top obj) *anthAnswer {
	a := &anthAnswer{m: &message{}}
	for _, raw := range top.list("content") {
		b, ok := parseObj(raw)
		if !ok {
			continue
		}
		switch t, _ := b.str("type"); t {
		case "text":
			text, _ := b.str("text")
			a.m.content += text
		case "thinking":
			if a.thinking == nil {
				a.thinking = b
			}
			text, _ := b.str("thinking")
			a.m.reasoning += text
		case "tool_use":
			a.m.calls = append(a.m.calls, anthropicNative(b))
		default:
			a.others = append(a.others, raw)
		}
	}
	return a
}

// anthropicNative reads a tool_use block as a native call.
func anthropicNative(b obj) nativeCall {
	n := nativeCall{obj: b, rc: dialects.RawCall{Offset: -1}}
	n.rc.ID, _ = b.str("id")
	n.rc.Name, _ = b.str("name")
	in := bytes.TrimSpace(b["input"])
	if s, ok := b.str("input"); ok {
		n.rc.Arguments = s
	} else if len(in) > 0 && string(in) != "null" {
		n.rc.Arguments, n.shaped = string(in), in[0] == '{'
	}
	return n
}

func (anthropicCodec) whole(ctx context.Context, q *chatCtx, top obj) []byte {
	if _, ok := top["content"]; !ok {
		return nil
	}
	a := readBlocks(top)
	reason, _ := top.str("stop_reason")
	f, last := q.fixAnswer(ctx, a.m, reason == "max_tokens", true)
	if !f.changed {
		return nil
	}
	if last != nil {
		top, a = last, readBlocks(last)
		reason, _ = top.str("stop_reason")
	}
	var out []json.RawMessage
	if f.reasoning != "" {
		out = append(out, thinkingBlock(a.thinking, f.reasoning))
	}
	out = append(out, a.others...)
	if f.content != "" || len(f.calls) == 0 {
		out = append(out, textBlock(f.content))
	}
	for _, c := range f.calls {
		out = append(out, toolUseBlock(c.call, c.native))
	}
	top.setRaw("content", rawList(out))
	top.setRaw("stop_reason", marshalString(anthropicStop(reason, len(f.calls))))
	return top.bytes()
}

// anthropicStop is the stop_reason of a fixed answer with calls calls: a
// call to run is tool_use (unless the answer was cut), and tool_use
// without a call is end_turn.
func anthropicStop(reason string, calls int) string {
	switch {
	case calls > 0 && reason != "max_tokens":
		return "tool_use"
	case reason == "tool_use" && calls == 0:
		return "end_turn"
	}
	return reason
}

// thinkingBlock is a thinking block holding text; base, when set, is the
// upstream's, whose signature is kept.
func thinkingBlock(base obj, text string) json.RawMessage {
	b := obj{}
	if base != nil {
		b = base.clone()
	}
	b.setRaw("type", []byte(`"thinking"`))
	b.setRaw("thinking", marshalString(text))
	if _, ok := b["signature"]; !ok {
		b.setRaw("signature", []byte(`""`))
	}
	return b.bytes()
}

func (anthropicCodec) read(top obj) *client.Response {
	a := readBlocks(top)
	out := &client.Response{Done: true}
	reason, _ := top.str("stop_reason")
	out.DoneReason = map[bool]string{true: "length", false: "stop"}[reason == "max_tokens"]
	readInto(out, a.m)
	if usage, ok := top.sub("usage"); ok {
		out.PromptTokens, out.CompletionTokens = intField(usage, "input_tokens"), intField(usage, "output_tokens")
	}
	return out
}

func (anthropicCodec) newStream(s *streamer) streamCodec {
	return &anthropicStream{s: s, blocks: map[int]*anthBlock{}}
}

// anthBlock is an upstream content block being streamed.
type anthBlock struct {
	typ    string
	start  json.RawMessage
	native *nativeCall
	// at is the index a block the proxy does not read was sent at, -1
	// for the others.
	at int
}

// anthropicStream rewrites a Messages API stream: the upstream's text and
// thinking deltas feed the streamer, its tool_use blocks are native calls,
// and the blocks the client gets are the proxy's own, numbered in order.
type anthropicStream struct {
	s      *streamer
	blocks map[int]*anthBlock
	// next is the index of the next block sent; open the kind of the
	// block being written ("text", "thinking"), signature the upstream's
	// thinking signature.
	next      int
	open      string
	signature string
	finished  bool
	// text are the splices of the text deltas of block textAt.
	text   textSplices
	textAt int
	// fast is the last text or thinking delta event read; fastThinking
	// says its text is thinking.
	fast         chunkTemplate
	fastThinking bool
}

func (o *anthropicStream) ev(typ string, fields obj) {
	fields.setRaw("type", marshalString(typ))
	o.s.write(sseEvent(typ, fields.bytes()))
}

func (o *anthropicStream) line(ctx context.Context, line []byte) bool {
	s := o.s
	payload, ok := ssePayload(line)
	if !ok {
		return true // event lines: the data carries its type
	}
	if o.plain(payload) {
		return true
	}
	ev, ok := parseObj(payload)
	if !ok {
		return true
	}
	typ, _ := ev.str("type")
	idx := -1
	if v, ok := ev["index"]; ok {
		json.Unmarshal(v, &idx)
	}
	switch typ {
	case "message_start":
		if msg, ok := ev.sub("message"); ok {
			msg.setRaw("content", []byte("[]"))
			ev.setRaw("message", msg.bytes())
		}
		o.ev(typ, ev)
	case "ping":
		o.ev(typ, ev)
	case "content_block_start":
		blk, _ := ev.sub("content_block")
		t, _ := blk.str("type")
		b := &anthBlock{typ: t, start: ev["content_block"], at: -1}
		o.blocks[idx] = b
		switch t {
		case "text":
			text, _ := blk.str("text")
			s.contentDelta(text, o)
		case "thinking":
			text, _ := blk.str("thinking")
			s.reasoningDelta(text, o)
		case "tool_use":
			n := anthropicNative(blk)
			if in := strings.TrimSpace(n.rc.Arguments); in == "{}" {
				// The input comes in input_json_delta pieces.
				n.rc.Arguments = ""
			}
			b.native = &n
		default:
			// A block the proxy does not read (redacted thinking, a
			// server tool's use or result): at its place, its deltas
			// following as they come.
			o.closeOpen()
			b.at = o.next
			o.next++
			o.ev(typ, obj{"index": json.RawMessage(itoa(b.at)), "content_block": b.start})
		}
	case "content_block_delta":
		if b := o.blocks[idx]; b != nil && b.at >= 0 {
			ev.setRaw("index", []byte(itoa(b.at)))
			o.ev(typ, ev)
			break
		}
		d, _ := ev.sub("delta")
		switch t, _ := d.str("type"); t {
		case "text_delta":
			text, _ := d.str("text")
			s.contentDelta(text, o)
		case "thinking_delta":
			text, _ := d.str("thinking")
			s.reasoningDelta(text, o)
		case "signature_delta":
			o.signature, _ = d.str("signature")
		case "input_json_delta":
			if b := o.blocks[idx]; b != nil && b.native != nil {
				p, _ := d.str("partial_json")
				b.native.rc.Arguments += p
			}
		}
	case "content_block_stop":
		b := o.blocks[idx]
		if b == nil {
			break
		}
		switch b.typ {
		case "text", "thinking":
		case "tool_use":
			if strings.TrimSpace(b.native.rc.Arguments) == "" {
				b.native.rc.Arguments = "{}"
			}
			b.native.shaped = true
			s.openNative[len(s.openNative)] = b.native
		default:
			o.ev(typ, obj{"index": json.RawMessage(itoa(b.at))})
		}
	case "message_delta":
		d, _ := ev.sub("delta")
		reason, _ := d.str("stop_reason")
		o.finish(ctx, reason)
		if d == nil {
			d = obj{}
		}
		d.setRaw("stop_reason", marshalString(anthropicStop(reason, len(s.sent))))
		ev.setRaw("delta", d.bytes())
		s.markErrors(ev)
		o.ev(typ, ev)
	case "message_stop":
		o.finish(ctx, "")
		o.ev(typ, ev)
		return false
	case "error":
		o.finish(ctx, "")
		o.ev(typ, ev)
		return false
	}
	return true
}

// finish settles the answer once: the text, the upstream's own calls,
// the block being written closed.
func (o *anthropicStream) finish(ctx context.Context, reason string) {
	if o.finished {
		return
	}
	o.finished = true
	if reason == "max_tokens" {
		o.s.truncated = true
		reason = "length"
	}
	o.s.endNative(ctx, o, reason)
	o.closeOpen()
}

// cut: the stream ended before message_stop; what was settled goes out.
func (o *anthropicStream) cut(ctx context.Context) {
	if !o.finished {
		o.s.truncated = true
	}
	o.finish(ctx, "")
}

func (o *anthropicStream) errorEvent(e *toolcall.Error) []byte {
	return sseEvent("error", errorBody(Anthropic, http.StatusBadGateway, e))
}

// ensureOpen opens a block of kind unless it is the one being written.
func (o *anthropicStream) ensureOpen(kind string) {
	if o.open == kind {
		return
	}
	o.closeOpen()
	o.open = kind
	blk := obj{}
	blk.setRaw("type", marshalString(kind))
	if kind == "text" {
		blk.setRaw("text", []byte(`""`))
	} else {
		blk.setRaw("thinking", []byte(`""`))
		blk.setRaw("signature", []byte(`""`))
	}
	o.ev("content_block_start", obj{"index": json.RawMessage(itoa(o.next)), "content_block": blk.bytes()})
}

// closeOpen ends the block being written; a thinking block gets the
// upstream's signature first.
func (o *anthropicStream) closeOpen() {
	if o.open == "" {
		return
	}
	if o.open == "thinking" && o.signature != "" {
		d := obj{}
		d.setRaw("type", []byte(`"signature_delta"`))
		d.setRaw("signature", marshalString(o.signature))
		o.ev("content_block_delta", obj{"index": json.RawMessage(itoa(o.next)), "delta": d.bytes()})
		o.signature = ""
	}
	o.ev("content_block_stop", obj{"index": json.RawMessage(itoa(o.next))})
	o.next++
	o.open = ""
}

func (o *anthropicStream) delta(typ, key, text string) {
	o.s.write(o.deltaEvent(typ, key, marshalString(text)))
}

// deltaEvent is a content_block_delta event of the block being written,
// val (raw JSON) under key.
func (o *anthropicStream) deltaEvent(typ, key string, val []byte) []byte {
	d := obj{}
	d.setRaw("type", marshalString(typ))
	d.setRaw(key, val)
	f := obj{"index": json.RawMessage(itoa(o.next)), "delta": d.bytes()}
	f.setRaw("type", []byte(`"content_block_delta"`))
	return sseEvent("content_block_delta", f.bytes())
}

// textEvent writes a text delta from the slot's splice, made again for
// each block.
func (o *anthropicStream) textEvent(slot *spliceSlot, typ, key, text string) {
	if o.textAt != o.next {
		o.text.reset()
		o.textAt = o.next
	}
	o.text.write(o.s, slot, text, func(v [][]byte) []byte { return o.deltaEvent(typ, key, v[0]) })
}

// plain handles a text or thinking delta event read with gjson, no
// object built; an event that matches the last one read so (fast) is not
// parsed at all. false: the event is not one, line reads it whole.
func (o *anthropicStream) plain(payload []byte) bool {
	if o.s.q.c.wholeChunks {
		return false
	}
	var vals [maxFields][]byte // the delta's text
	if !o.fast.read(payload, &vals, o.readPlain) {
		return false
	}
	text, _ := rawString(string(vals[0]))
	if o.fastThinking {
		o.s.reasoningDelta(text, o)
	} else {
		o.s.contentDelta(text, o)
	}
	return true
}

// readPlain reads an event with gjson and reports whether it is one plain
// handles, adding the holes of its template: the delta's text, and the
// values of the fields it does not look at (the block's index, …). An
// event of another type is told from its type, before the rest is read.
func (o *anthropicStream) readPlain(payload []byte) bool {
	if len(payload) == 0 || payload[0] != '{' {
		return false
	}
	var typ string
	var delta gjson.Result
	if !distinctKeys(parseView(payload), func(key string, v gjson.Result) bool {
		switch key {
		case "type":
			typ, _ = rawString(v.Raw)
			// An event of another type is told before the rest is read.
			return typ == "content_block_delta"
		case "delta":
			delta = v
		default:
			o.fast.hole(v, -1)
		}
		return true
	}) || typ != "content_block_delta" || !delta.IsObject() {
		return false
	}
	var dtyp string
	var text, thinking gjson.Result
	if !distinctKeys(delta, func(key string, v gjson.Result) bool {
		switch key {
		case "type":
			dtyp, _ = rawString(v.Raw)
		case "text":
			text = v
		case "thinking":
			thinking = v
		default:
			o.fast.hole(v, -1)
		}
		return true
	}) {
		return false
	}
	// The field the delta's type does not name is not looked at.
	switch {
	case dtyp == "text_delta" && text.Type == gjson.String:
		o.fast.hole(text, 0)
		o.fast.hole(thinking, -1)
		o.fastThinking = false
	case dtyp == "thinking_delta" && thinking.Type == gjson.String:
		o.fast.hole(thinking, 0)
		o.fast.hole(text, -1)
		o.fastThinking = true
	default:
		return false
	}
	return lenient.Valid(payload)
}

func (o *anthropicStream) content(text string) {
	o.ensureOpen("text")
	o.textEvent(&o.text.content, "text_delta", "text", text)
}

func (o *anthropicStream) reasoning(text string) {
	o.ensureOpen("thinking")
	o.textEvent(&o.text.reasoning, "thinking_delta", "thinking", text)
}

// call sends a call as a tool_use block: started with an empty input, the
// input in input_json_delta pieces, stopped.
func (o *anthropicStream) call(c toolcall.Call, _ int, base *nativeCall) {
	o.closeOpen()
	start, _ := parseObj(toolUseBlock(c, base))
	start.setRaw("input", []byte("{}"))
	o.ev("content_block_start", obj{"index": json.RawMessage(itoa(o.next)), "content_block": start.bytes()})
	for _, piece := range argumentPieces(argumentsValue(c.Arguments)) {
		o.delta("input_json_delta", "partial_json", piece)
	}
	o.ev("content_block_stop", obj{"index": json.RawMessage(itoa(o.next))})
	o.next++
}
