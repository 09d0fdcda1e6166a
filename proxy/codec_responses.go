package proxy

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/lenient"
	"github.com/tidwall/gjson"
)

// responsesPath is the path of the OpenAI Responses API.
const responsesPath = "/responses"

// responsesCodec is the OpenAI Responses API: POST /v1/responses, whose
// answer is a list of output items (reasoning, message, function_call,
// …), streamed as typed server-sent events when asked.
type responsesCodec struct{ sseAPI }

func (responsesCodec) name() API    { return Responses }
func (responsesCodec) path() string { return responsesPath }

// tools keeps the request's function tools: the built-in ones (web
// search, file search, …) are the server's to run, never a model's call
// in the text.
func (responsesCodec) tools(top obj) []byte {
	return someTools(top, func(t obj) bool {
		typ, _ := t.str("type")
		return typ == "function"
	})
}

// inputItems is the request's input as a list of items: a string input is
// one user message.
func inputItems(top obj) []json.RawMessage {
	if s, ok := top.str("input"); ok {
		m := obj{}
		m.setRaw("role", []byte(`"user"`))
		m.setRaw("content", marshalString(s))
		return []json.RawMessage{m.bytes()}
	}
	return top.list("input")
}

// history is nil for a request that names a stored conversation
// (conversation): the upstream adds each answer to it, so a re-ask would
// add the request's input a second time, and the failed answer with it.
func (responsesCodec) history(top obj) []client.Message {
	if v, ok := top["conversation"]; ok && string(v) != "null" {
		return nil
	}
	var out []client.Message
	for _, raw := range inputItems(top) {
		it, ok := parseObj(raw)
		if !ok {
			out = append(out, client.Message{})
			continue
		}
		typ, _ := it.str("type")
		switch typ {
		case "function_call":
			name, _ := it.str("name")
			id, _ := it.str("call_id")
			out = append(out, client.Message{Role: "assistant", ToolCalls: []toolcall.Call{{ID: id, Name: name, Arguments: json.RawMessage("{}")}}})
		case "function_call_output":
			id, _ := it.str("call_id")
			text, _ := it.str("output")
			out = append(out, client.Message{Role: "tool", Content: text, ToolCallID: id})
		default:
			role, _ := it.str("role")
			out = append(out, client.Message{Role: role, Content: partsText(it, "content")})
		}
	}
	return out
}

// partsText is a content field's text: a string, or the text of its parts.
func partsText(o obj, key string) string {
	if s, ok := o.str(key); ok {
		return s
	}
	var b strings.Builder
	for _, raw := range o.list(key) {
		if p, ok := parseObj(raw); ok {
			if t, ok := p.str("text"); ok {
				b.WriteString(t)
			}
		}
	}
	return b.String()
}

// reask writes the loop's messages as input items: text as messages, calls
// as function_call items, tool results as function_call_output items.
// The request's previous_response_id is kept: the re-ask continues the
// same stored conversation as the request, a branch beside the failed
// answer, which the API allows. The calls' items carry no id: an input
// item's id names an item the upstream stored, and these calls (leaked,
// or a failed answer's) are not among those the request continues from.
// stream_options goes with streaming.
func (responsesCodec) reask(top obj, more []client.Message) []byte {
	t := top.clone()
	items := inputItems(top)
	for _, m := range more {
		if m.Role == "tool" {
			o := obj{}
			o.setRaw("type", []byte(`"function_call_output"`))
			o.setRaw("call_id", marshalString(m.ToolCallID))
			o.setRaw("output", marshalString(m.Content))
			items = append(items, o.bytes())
			continue
		}
		if m.Content != "" || len(m.ToolCalls) == 0 {
			o := obj{}
			o.setRaw("role", marshalString(m.Role))
			o.setRaw("content", marshalString(m.Content))
			items = append(items, o.bytes())
		}
		for _, c := range m.ToolCalls {
			it, _ := parseObj(responsesCall(c, nil, "completed"))
			delete(it, "id")
			items = append(items, it.bytes())
		}
	}
	t.setRaw("input", rawList(items))
	t.setRaw("stream", []byte("false"))
	delete(t, "stream_options")
	return t.bytes()
}

// responsesCall is a call as a function_call item, with arguments as a
// JSON string; base, when set, is the upstream's own item, whose other
// fields are kept.
func responsesCall(c toolcall.Call, base *nativeCall, status string) json.RawMessage {
	o := obj{}
	if base != nil {
		o = base.obj.clone()
	}
	o.setRaw("type", []byte(`"function_call"`))
	if _, ok := o["id"]; !ok {
		o.setRaw("id", marshalString("fc_"+strings.TrimPrefix(c.ID, "call_")))
	}
	o.setRaw("call_id", marshalString(c.ID))
	o.setRaw("name", marshalString(c.Name))
	o.setRaw("arguments", marshalString(string(argumentsObject(c.Arguments))))
	o.setRaw("status", marshalString(status))
	return o.bytes()
}

// respAnswer is a Responses answer read into the parts the core fixes.
type respAnswer struct {
	m         *message
	reasoning obj // the first reasoning item, whose other fields are kept
	msg       obj // the first message item
	others    []json.RawMessage
}

// readOutput reads the output items of a response object.
func readOutput(top obj) *respAnswer {
	a := &respAnswer{m: &message{}}
	for _, raw := range top.list("output") {
		it, ok := parseObj(raw)
		if !ok {
			continue
		}
		typ, _ := it.str("type")
		switch typ {
		case "message":
			if a.msg == nil {
				a.msg = it
			}
			for _, p := range it.list("content") {
				if part, ok := parseObj(p); ok {
					if pt, _ := part.str("type"); pt == "output_text" {
						text, _ := part.str("text")
						a.m.content += text
					}
				}
			}
		case "reasoning":
			if a.reasoning == nil {
				a.reasoning = it
			}
			a.m.reasoning += reasoningItemText(it)
		case "function_call":
			a.m.calls = append(a.m.calls, responsesNative(it))
		default:
			a.others = append(a.others, raw)
		}
	}
	return a
}

// reasoningItemText is a reasoning item's text: its summary parts and its
// reasoning_text content parts.
func reasoningItemText(it obj) string {
	return joinText(partsText(it, "summary"), partsText(it, "content"))
}

// responsesNative reads a function_call item as a native call.
func responsesNative(it obj) nativeCall {
	n := nativeCall{obj: it, rc: dialects.RawCall{Offset: -1}}
	n.rc.ID, _ = it.str("call_id")
	n.rc.Name, _ = it.str("name")
	if s, ok := it.str("arguments"); ok {
		n.rc.Arguments, n.shaped = s, true
	} else if a, ok := it["arguments"]; ok && string(a) != "null" {
		n.rc.Arguments = string(a)
	}
	return n
}

// incomplete reports whether a response object stopped for length.
func incomplete(top obj) bool {
	if s, _ := top.str("status"); s != "incomplete" {
		return false
	}
	d, _ := top.sub("incomplete_details")
	r, _ := d.str("reason")
	return r == "" || r == "max_output_tokens"
}

func (responsesCodec) whole(ctx context.Context, q *chatCtx, top obj) []byte {
	if _, ok := top["output"]; !ok {
		return nil
	}
	a := readOutput(top)
	f, last := q.fixAnswer(ctx, a.m, incomplete(top), true)
	if !f.changed {
		return nil
	}
	if last != nil {
		top, a = last, readOutput(last)
	}
	var out []json.RawMessage
	if f.reasoning != "" {
		out = append(out, reasoningItem(a.reasoning, f.reasoning, "completed"))
	}
	if f.content != "" || len(f.calls) == 0 || len(otherParts(a.msg)) > 0 {
		out = append(out, messageItem(a.msg, f.content, "completed"))
	}
	for _, c := range f.calls {
		out = append(out, responsesCall(c.call, c.native, "completed"))
	}
	out = append(out, a.others...)
	top.setRaw("output", rawList(out))
	if _, ok := top["output_text"]; ok {
		top.setRaw("output_text", marshalString(f.content))
	}
	return top.bytes()
}

// newItemID is an output item id with the API's prefix.
func newItemID(prefix string) string {
	return prefix + strings.TrimPrefix(toolcall.NewCallID(), "call_")
}

// messageItem is an assistant message item holding text; base, when set,
// is the upstream's, whose other fields are kept.
func messageItem(base obj, text, status string) json.RawMessage {
	o := obj{}
	if base != nil {
		o = base.clone()
	}
	o.setRaw("type", []byte(`"message"`))
	if _, ok := o["id"]; !ok {
		o.setRaw("id", marshalString(newItemID("msg_")))
	}
	o.setRaw("role", []byte(`"assistant"`))
	o.setRaw("status", marshalString(status))
	var parts []json.RawMessage
	if text != "" || len(otherParts(base)) == 0 {
		parts = append(parts, textPart(text))
	}
	o.setRaw("content", rawList(append(parts, otherParts(base)...)))
	return o.bytes()
}

// otherParts are a message item's content parts that are not output_text
// (a refusal): they are kept as they came.
func otherParts(msg obj) []json.RawMessage {
	var out []json.RawMessage
	for _, raw := range msg.list("content") {
		if p, ok := parseObj(raw); ok {
			if t, _ := p.str("type"); t != "output_text" {
				out = append(out, raw)
			}
		}
	}
	return out
}

func textPart(text string) json.RawMessage {
	p := obj{}
	p.setRaw("type", []byte(`"output_text"`))
	p.setRaw("text", marshalString(text))
	p.setRaw("annotations", []byte("[]"))
	return p.bytes()
}

// reasoningItem is a reasoning item holding text: in the upstream item's
// shape (reasoning_text content parts) when it used that, else as a
// summary part.
func reasoningItem(base obj, text, status string) json.RawMessage {
	o := obj{}
	if base != nil {
		o = base.clone()
	}
	o.setRaw("type", []byte(`"reasoning"`))
	if _, ok := o["id"]; !ok {
		o.setRaw("id", marshalString(newItemID("rs_")))
	}
	if len(o.list("content")) > 0 && partsText(o, "summary") == "" {
		o.setRaw("content", rawList([]json.RawMessage{reasoningPart("reasoning_text", text)}))
		o.setRaw("summary", []byte("[]"))
	} else {
		o.setRaw("summary", rawList([]json.RawMessage{reasoningPart("summary_text", text)}))
		delete(o, "content")
	}
	if _, ok := o["status"]; ok {
		o.setRaw("status", marshalString(status))
	}
	return o.bytes()
}

func reasoningPart(typ, text string) json.RawMessage {
	p := obj{}
	p.setRaw("type", marshalString(typ))
	p.setRaw("text", marshalString(text))
	return p.bytes()
}

func (responsesCodec) read(top obj) *client.Response {
	a := readOutput(top)
	out := &client.Response{Done: true, DoneReason: "stop"}
	if incomplete(top) {
		out.DoneReason = "length"
	}
	readInto(out, a.m)
	if usage, ok := top.sub("usage"); ok {
		out.PromptTokens, out.CompletionTokens = intField(usage, "input_tokens"), intField(usage, "output_tokens")
	}
	return out
}

func (responsesCodec) newStream(s *streamer) streamCodec {
	return &responsesStream{s: s, natives: map[int]*nativeCall{}, passed: map[int]int{}}
}

// responsesStream rewrites a Responses API stream. The upstream's text and
// reasoning deltas feed the streamer; its function_call items are native
// calls; the events the client gets are the proxy's own, numbered in
// order, and response.completed carries the output they built.
type responsesStream struct {
	s       *streamer
	env     obj // the upstream's response object, its output left out
	started bool
	seq     int
	// items are the output items sent whole, in order.
	items []json.RawMessage
	// The item being written: "message" or "reasoning", its id, index and
	// text so far.
	open      string
	openID    string
	openIndex int
	openText  strings.Builder
	// natives are the upstream's function_call items by output index.
	natives map[int]*nativeCall
	// passed are the items the proxy does not read (a server tool's
	// call) that are open, by the upstream's output index: their index
	// in items, where the added item holds their place until done.
	passed map[int]int
	// refusal is the upstream's refusal text, sent as a message item of
	// its own at the end.
	refusal strings.Builder
	// text are the splices of the open item's text deltas; seqBuf the
	// sequence number of the one being written.
	text   textSplices
	seqBuf []byte
	// fast is the last text delta event read; fastReasoning says its
	// text is reasoning.
	fast          chunkTemplate
	fastReasoning bool
}

// sendRefusal sends the upstream's refusal, when it made one, as a
// message item holding a refusal part.
func (o *responsesStream) sendRefusal() {
	text := o.refusal.String()
	if text == "" {
		return
	}
	id := newItemID("msg_")
	idx := len(o.items)
	part := obj{}
	part.setRaw("type", []byte(`"refusal"`))
	part.setRaw("refusal", []byte(`""`))
	added := obj{"type": json.RawMessage(`"message"`), "id": marshalString(id), "status": json.RawMessage(`"in_progress"`),
		"role": json.RawMessage(`"assistant"`), "content": json.RawMessage("[]")}
	o.ev("response.output_item.added", obj{"output_index": json.RawMessage(itoa(idx)), "item": added.bytes()})
	at := func(f obj) obj {
		f.setRaw("item_id", marshalString(id))
		f.set("output_index", idx)
		f.setRaw("content_index", []byte("0"))
		return f
	}
	o.ev("response.content_part.added", at(obj{"part": part.bytes()}))
	o.ev("response.refusal.delta", at(obj{"delta": marshalString(text)}))
	o.ev("response.refusal.done", at(obj{"refusal": marshalString(text)}))
	part.setRaw("refusal", marshalString(text))
	o.ev("response.content_part.done", at(obj{"part": part.bytes()}))
	done := added.clone()
	done.setRaw("status", []byte(`"completed"`))
	done.setRaw("content", rawList([]json.RawMessage{part.bytes()}))
	o.ev("response.output_item.done", obj{"output_index": json.RawMessage(itoa(idx)), "item": done.bytes()})
	o.items = append(o.items, done.bytes())
}

// ev writes one event: its type, sequence number and fields.
func (o *responsesStream) ev(typ string, fields obj) {
	fields.setRaw("type", marshalString(typ))
	fields.set("sequence_number", o.seq)
	o.seq++
	o.s.write(sseEvent(typ, fields.bytes()))
}

// response is the envelope with status and output.
func (o *responsesStream) response(env obj, status string, output []json.RawMessage) []byte {
	r := obj{}
	if env != nil {
		r = env.clone()
	}
	if status != "" {
		r.setRaw("status", marshalString(status))
	}
	if output == nil {
		output = []json.RawMessage{}
	}
	r.setRaw("output", rawList(output))
	return r.bytes()
}

// start sends response.created once, before any other event.
func (o *responsesStream) start() {
	if o.started {
		return
	}
	o.started = true
	o.ev("response.created", obj{"response": o.response(o.env, "in_progress", nil)})
}

func (o *responsesStream) line(ctx context.Context, line []byte) bool {
	s := o.s
	payload, ok := ssePayload(line)
	if !ok {
		return true // event lines: the data carries its type
	}
	if o.plain(payload) || o.unread(payload) {
		return true
	}
	ev, ok := parseObj(payload)
	if !ok {
		return true
	}
	typ, _ := ev.str("type")
	idx := -1
	if v, ok := ev["output_index"]; ok {
		json.Unmarshal(v, &idx)
	}
	if i, ok := o.passed[idx]; ok && typ != "response.output_item.done" {
		// An event of an item the proxy does not read: as it came, at
		// the item's place and in the stream's numbering.
		ev.set("output_index", i)
		delete(ev, "sequence_number")
		o.ev(typ, ev)
		return true
	}
	// Every type read here is one responsesReads names.
	switch typ {
	case "response.created":
		o.env, _ = ev.sub("response")
		o.start()
	case "response.in_progress":
		o.start()
		env, _ := ev.sub("response")
		o.ev(typ, obj{"response": o.response(env, "", nil)})
	case "response.output_text.delta":
		text, _ := ev.str("delta")
		s.contentDelta(text, o)
	case "response.refusal.delta":
		text, _ := ev.str("delta")
		o.refusal.WriteString(text)
	case "response.reasoning_summary_text.delta", "response.reasoning_text.delta":
		text, _ := ev.str("delta")
		s.reasoningDelta(text, o)
	case "response.output_item.added":
		it, _ := ev.sub("item")
		switch t, _ := it.str("type"); t {
		case "function_call":
			n := responsesNative(it)
			o.natives[idx] = &n
			s.openNative[len(s.openNative)] = &n
		case "message", "reasoning":
		default:
			// An item the proxy does not read (a server tool's call)
			// opens at its place among the items sent; its events
			// follow as they come.
			o.start()
			o.closeOpen()
			i := len(o.items)
			o.items = append(o.items, ev["item"])
			o.passed[idx] = i
			o.ev(typ, obj{"output_index": json.RawMessage(itoa(i)), "item": ev["item"]})
		}
	case "response.function_call_arguments.delta":
		if n := o.natives[idx]; n != nil {
			d, _ := ev.str("delta")
			n.rc.Arguments += d
		}
	case "response.output_item.done":
		it, _ := ev.sub("item")
		switch t, _ := it.str("type"); t {
		case "function_call":
			n := responsesNative(it)
			if p := o.natives[idx]; p != nil {
				*p = n
			} else {
				s.openNative[len(s.openNative)] = &n
			}
		case "message", "reasoning":
		default:
			if i, ok := o.passed[idx]; ok {
				delete(o.passed, idx)
				o.items[i] = ev["item"]
				o.ev(typ, obj{"output_index": json.RawMessage(itoa(i)), "item": ev["item"]})
				break
			}
			// An item the proxy does not read, done without being
			// added: added and done at its place among the items sent.
			o.start()
			o.closeOpen()
			i := len(o.items)
			o.ev("response.output_item.added", obj{"output_index": json.RawMessage(itoa(i)), "item": ev["item"]})
			o.ev("response.output_item.done", obj{"output_index": json.RawMessage(itoa(i)), "item": ev["item"]})
			o.items = append(o.items, ev["item"])
		}
	case "response.completed", "response.incomplete", "response.failed":
		env, _ := ev.sub("response")
		reason := ""
		if incomplete(env) {
			reason = "length"
			s.truncated = true
		}
		s.endNative(ctx, o, reason)
		o.start()
		o.closeOpen()
		o.sendRefusal()
		r := o.response(env, "", o.items)
		if ro, ok := parseObj(r); ok && len(s.f.errors) > 0 {
			s.markErrors(ro)
			r = ro.bytes()
		}
		o.ev(typ, obj{"response": r})
		return false
	case "error":
		s.endNative(ctx, o, "")
		o.start()
		o.closeOpen()
		delete(ev, "sequence_number")
		o.ev(typ, ev)
		return false
	}
	return true
}

// responsesReads reports whether line reads events of type typ: those it
// does not are the upstream's own part and done events of its text and
// reasoning items, which the stream writes itself from what it settled.
func responsesReads(typ string) bool {
	switch typ {
	case "response.created", "response.in_progress", "response.output_text.delta", "response.refusal.delta",
		"response.reasoning_summary_text.delta", "response.reasoning_text.delta", "response.output_item.added",
		"response.function_call_arguments.delta", "response.output_item.done",
		"response.completed", "response.incomplete", "response.failed", "error":
		return true
	}
	return false
}

// unread reports whether line would do nothing with an event, told from
// its type without reading the event whole (the done events of a text
// item carry the whole text again): no item the proxy does not read is
// open (each of their events goes out as it came), and the type is none
// responsesReads names. The type is the last "type" key's, as parseObj
// reads it; an event with an escaped key is read whole.
func (o *responsesStream) unread(payload []byte) bool {
	if o.s.q.c.wholeChunks || len(o.passed) > 0 || len(payload) == 0 || payload[0] != '{' {
		return false
	}
	var typ gjson.Result
	plain := true
	parseView(payload).ForEach(func(k, v gjson.Result) bool {
		key, ok := plainKey(k.Raw)
		if plain = ok; ok && key == "type" {
			typ = v
		}
		return ok
	})
	if !plain || typ.Type != gjson.String {
		return false
	}
	t, ok := rawString(typ.Raw)
	return ok && !responsesReads(t)
}

// cut: the stream ended before its last event; what was settled goes
// out, its items closed.
func (o *responsesStream) cut(ctx context.Context) {
	o.s.endNative(ctx, o, "")
	o.s.truncated = true
	if o.started {
		o.closeOpen()
	}
}

func (o *responsesStream) errorEvent(e *toolcall.Error) []byte {
	f := obj{}
	f.setRaw("type", []byte(`"error"`))
	f.setRaw("code", marshalString(string(e.Code)))
	f.setRaw("message", marshalString(e.Error()))
	f.setRaw("param", []byte("null"))
	f.set("sequence_number", o.seq)
	o.seq++
	return sseEvent("error", f.bytes())
}

// at is the fields that place an event in the open item.
func (o *responsesStream) at(fields obj) obj {
	fields.setRaw("item_id", marshalString(o.openID))
	fields.set("output_index", o.openIndex)
	return fields
}

// ensureOpen opens an item of kind unless it is the one being written.
func (o *responsesStream) ensureOpen(kind string) {
	o.start()
	if o.open == kind {
		return
	}
	o.closeOpen()
	o.open, o.openIndex = kind, len(o.items)
	o.openText.Reset()
	o.text.reset()
	idx := json.RawMessage(itoa(o.openIndex))
	if kind == "message" {
		o.openID = newItemID("msg_")
		item := obj{"type": json.RawMessage(`"message"`), "id": marshalString(o.openID), "status": json.RawMessage(`"in_progress"`),
			"role": json.RawMessage(`"assistant"`), "content": json.RawMessage("[]")}
		o.ev("response.output_item.added", obj{"output_index": idx, "item": item.bytes()})
		o.ev("response.content_part.added", o.at(obj{"content_index": json.RawMessage("0"), "part": textPart("")}))
		return
	}
	o.openID = newItemID("rs_")
	item := obj{"type": json.RawMessage(`"reasoning"`), "id": marshalString(o.openID), "summary": json.RawMessage("[]")}
	o.ev("response.output_item.added", obj{"output_index": idx, "item": item.bytes()})
	o.ev("response.reasoning_summary_part.added", o.at(obj{"summary_index": json.RawMessage("0"), "part": reasoningPart("summary_text", "")}))
}

// closeOpen ends the item being written: its done events, and the item
// whole.
func (o *responsesStream) closeOpen() {
	text := o.openText.String()
	switch o.open {
	case "message":
		o.ev("response.output_text.done", o.at(obj{"content_index": json.RawMessage("0"), "text": marshalString(text), "logprobs": json.RawMessage("[]")}))
		o.ev("response.content_part.done", o.at(obj{"content_index": json.RawMessage("0"), "part": textPart(text)}))
		item := messageItem(obj{"id": marshalString(o.openID)}, text, "completed")
		o.ev("response.output_item.done", obj{"output_index": json.RawMessage(itoa(o.openIndex)), "item": item})
		o.items = append(o.items, item)
	case "reasoning":
		o.ev("response.reasoning_summary_text.done", o.at(obj{"summary_index": json.RawMessage("0"), "text": marshalString(text)}))
		o.ev("response.reasoning_summary_part.done", o.at(obj{"summary_index": json.RawMessage("0"), "part": reasoningPart("summary_text", text)}))
		item := reasoningItem(obj{"id": marshalString(o.openID)}, text, "completed")
		o.ev("response.output_item.done", obj{"output_index": json.RawMessage(itoa(o.openIndex)), "item": item})
		o.items = append(o.items, item)
	}
	o.open = ""
}

// plain handles a text delta event (output text, reasoning) read with
// gjson, no object built; an event that matches the last one read so
// (fast) is not parsed at all. false: the event is not one, line reads it
// whole.
func (o *responsesStream) plain(payload []byte) bool {
	if o.s.q.c.wholeChunks {
		return false
	}
	var vals [maxFields][]byte // the delta
	if !o.fast.read(payload, &vals, o.readPlain) {
		return false
	}
	text, _ := rawString(string(vals[0]))
	if o.fastReasoning {
		o.s.reasoningDelta(text, o)
	} else {
		o.s.contentDelta(text, o)
	}
	return true
}

// readPlain reads an event with gjson and reports whether it is one plain
// handles, adding the holes of its template: the delta, and the values of
// the fields it does not look at (sequence_number, item_id, …). An event
// of another type is told from its type, before the rest is read.
func (o *responsesStream) readPlain(payload []byte) bool {
	if len(payload) == 0 || payload[0] != '{' {
		return false
	}
	hasType, hasText := false, false
	if !distinctKeys(parseView(payload), func(key string, v gjson.Result) bool {
		switch key {
		case "type":
			typ, _ := rawString(v.Raw)
			switch typ {
			case "response.output_text.delta":
				o.fastReasoning = false
			case "response.reasoning_summary_text.delta", "response.reasoning_text.delta":
				o.fastReasoning = true
			default:
				return false
			}
			hasType = true
		case "delta":
			hasText = v.Type == gjson.String
			o.fast.hole(v, 0)
		default:
			o.fast.hole(v, -1)
		}
		return true
	}) || !hasType || !hasText {
		return false
	}
	return lenient.Valid(payload)
}

func (o *responsesStream) content(text string) {
	o.ensureOpen("message")
	o.openText.WriteString(text)
	o.textEvent(&o.text.content, "response.output_text.delta", text, func(v []byte) obj {
		return o.at(obj{"content_index": json.RawMessage("0"), "delta": v, "logprobs": json.RawMessage("[]")})
	})
}

func (o *responsesStream) reasoning(text string) {
	o.ensureOpen("reasoning")
	o.openText.WriteString(text)
	o.textEvent(&o.text.reasoning, "response.reasoning_summary_text.delta", text, func(v []byte) obj {
		return o.at(obj{"summary_index": json.RawMessage("0"), "delta": v})
	})
}

// textEvent writes a text delta event as ev does, from the slot's
// splice: the text and the sequence number in its holes.
func (o *responsesStream) textEvent(slot *spliceSlot, typ, text string, fields func(delta []byte) obj) {
	o.seqBuf = strconv.AppendInt(o.seqBuf[:0], int64(o.seq), 10)
	o.text.write(o.s, slot, text, func(v [][]byte) []byte {
		f := fields(v[0])
		f.setRaw("type", marshalString(typ))
		f.setRaw("sequence_number", v[1])
		return sseEvent(typ, f.bytes())
	}, o.seqBuf)
	o.seq++
}

// call sends a call as a function_call item: added with empty arguments,
// the arguments in deltas, their done event, the item done.
func (o *responsesStream) call(c toolcall.Call, _ int, base *nativeCall) {
	o.start()
	o.closeOpen()
	idx := len(o.items)
	added, _ := parseObj(responsesCall(c, base, "in_progress"))
	added.setRaw("arguments", []byte(`""`))
	id, _ := added.str("id")
	o.ev("response.output_item.added", obj{"output_index": json.RawMessage(itoa(idx)), "item": added.bytes()})
	at := func(f obj) obj {
		f.setRaw("item_id", marshalString(id))
		f.set("output_index", idx)
		return f
	}
	for _, piece := range argumentPieces(c.Arguments) {
		o.ev("response.function_call_arguments.delta", at(obj{"delta": marshalString(piece)}))
	}
	args := string(argumentsObject(c.Arguments))
	o.ev("response.function_call_arguments.done", at(obj{"arguments": marshalString(args), "name": marshalString(c.Name)}))
	done, _ := parseObj(responsesCall(c, base, "completed"))
	done.setRaw("id", marshalString(id))
	o.ev("response.output_item.done", obj{"output_index": json.RawMessage(itoa(idx)), "item": done.bytes()})
	o.items = append(o.items, done.bytes())
}
