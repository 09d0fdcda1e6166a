package proxy

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/lenient"
	"github.com/tidwall/gjson"
)

// openAIPath is the chat path of the OpenAI-compatible chat API.
const openAIPath = "/chat/completions"

// openAICodec is the OpenAI-compatible chat completions API: POST
// /v1/chat/completions, streamed as server-sent events when asked.
type openAICodec struct{ sseAPI }

func (openAICodec) name() API    { return OpenAI }
func (openAICodec) path() string { return openAIPath }

func (openAICodec) tools(top obj) []byte { return chatTools(top) }

func (openAICodec) history(top obj) []client.Message { return chatHistory(top) }

func (openAICodec) reask(top obj, more []client.Message) []byte { return chatReask(top, more, false) }

func (openAICodec) whole(ctx context.Context, q *chatCtx, top obj) []byte {
	choices := top.list("choices")
	if len(choices) == 0 {
		return nil
	}
	changed := false
	for i, raw := range choices {
		ch, ok := parseObj(raw)
		if !ok {
			continue
		}
		msgObj, ok := ch.sub("message")
		if !ok {
			continue
		}
		reason, _ := ch.str("finish_reason")
		f, last := q.fixAnswer(ctx, readMessage(msgObj, true), reason == "length", len(choices) == 1)
		if last != nil {
			top = last
			ch = nil
			if cs := top.list("choices"); len(cs) > 0 {
				ch, _ = parseObj(cs[0])
			}
			if ch == nil {
				ch = obj{}
			}
			if msgObj, ok = ch.sub("message"); !ok {
				msgObj = obj{}
			}
			reason, _ = ch.str("finish_reason")
		}
		if !f.changed {
			continue
		}
		changed = true
		renderOpenAIMessage(msgObj, f)
		ch.setRaw("message", msgObj.bytes())
		if len(f.calls) > 0 && reason != "length" {
			ch.setRaw("finish_reason", []byte(`"tool_calls"`))
		} else if reason == "tool_calls" && len(f.calls) == 0 {
			ch.setRaw("finish_reason", []byte(`"stop"`))
		}
		choices[i] = ch.bytes()
	}
	if !changed {
		return nil
	}
	top.setRaw("choices", rawList(choices))
	return top.bytes()
}

// renderOpenAIMessage writes a fixed answer into an OpenAI message.
func renderOpenAIMessage(msgObj obj, f *fixed) {
	if f.content == "" && len(f.calls) > 0 {
		msgObj.setRaw("content", []byte("null"))
	} else {
		msgObj.setRaw("content", marshalString(f.content))
	}
	delete(msgObj, "reasoning")
	if f.reasoning != "" {
		msgObj.setRaw("reasoning_content", marshalString(f.reasoning))
	} else {
		delete(msgObj, "reasoning_content")
	}
	if len(f.calls) == 0 {
		delete(msgObj, "tool_calls")
		return
	}
	calls := make([]json.RawMessage, len(f.calls))
	for i, c := range f.calls {
		calls[i] = openAICall(c.call, c.native)
	}
	msgObj.setRaw("tool_calls", rawList(calls))
}

func (openAICodec) read(top obj) *client.Response {
	out := &client.Response{Done: true}
	if cs := top.list("choices"); len(cs) > 0 {
		if ch, _ := parseObj(cs[0]); ch != nil {
			out.DoneReason, _ = ch.str("finish_reason")
			if msg, ok := ch.sub("message"); ok {
				readInto(out, readMessage(msg, true))
			}
		}
	}
	if usage, ok := top.sub("usage"); ok {
		out.PromptTokens, out.CompletionTokens = intField(usage, "prompt_tokens"), intField(usage, "completion_tokens")
	}
	return out
}

func (openAICodec) newStream(s *streamer) streamCodec { return &openAIStream{s: s} }

// openAIStream rewrites an SSE stream from an OpenAI-compatible server.
type openAIStream struct {
	s *streamer
	// tmpl is the envelope of the first chunk; choiceTmpl the last
	// upstream choice, whose other fields are kept.
	tmpl       obj
	choiceTmpl obj
	roleSent   bool
	finished   bool
	// shape is the upstream choice choiceTmpl was read from, without its
	// delta: a chunk whose choice has the same is written from the same
	// splices.
	shape shapeKey
	text  textSplices
	fast  chunkTemplate
}

func (o *openAIStream) line(ctx context.Context, line []byte) bool {
	s := o.s
	payload, ok := ssePayload(line)
	if !ok {
		return true // event names, comments and ids carry nothing to fix
	}
	if string(payload) == "[DONE]" {
		if !o.finished {
			s.endNative(ctx, o, "")
		}
		s.write([]byte("data: [DONE]\n\n"))
		return false
	}
	if o.plain(payload) {
		return true
	}
	top, ok := parseObj(payload)
	if !ok {
		s.write(dataEvent(payload))
		return true
	}
	if _, isErr := top["error"]; isErr {
		s.endNative(ctx, o, "")
		s.write(dataEvent(payload))
		return false
	}
	choices := top.list("choices")
	if len(choices) == 0 {
		// The usage chunk, or another without choices: as it came.
		s.write(dataEvent(payload))
		return true
	}
	ch, _ := parseObj(choices[0])
	if ch == nil {
		return true
	}
	delta, _ := ch.sub("delta")
	if delta == nil {
		delta = obj{}
	}
	if o.tmpl == nil {
		o.tmpl = top
	}
	o.choiceTmpl = ch
	o.shape.start()
	o.shape.add(string(choices[0]), "delta")
	if o.shape.keep() {
		o.text.reset()
	}
	if role, ok := delta["role"]; ok && !o.roleSent {
		o.roleSent = true
		o.chunk(func(d obj) { d.setRaw("role", role); d.setRaw("content", []byte(`""`)) }, nil)
	}
	m := readMessage(delta, true)
	s.reasoningDelta(m.reasoning, o)
	s.contentDelta(m.content, o)
	for _, frag := range delta.list("tool_calls") {
		o.fragment(frag)
	}
	if reason, ok := ch.str("finish_reason"); ok {
		o.finished = true
		s.truncated = reason == "length"
		s.endNative(ctx, o, reason)
		switch {
		case reason != "length" && len(s.sent) > 0:
			reason = "tool_calls"
		case reason == "tool_calls" && len(s.sent) == 0:
			reason = "stop"
		}
		fin := top.clone()
		c := ch.clone()
		c.setRaw("delta", []byte("{}"))
		c.setRaw("finish_reason", marshalString(reason))
		fin.setRaw("choices", rawList([]json.RawMessage{c.bytes()}))
		s.markErrors(fin)
		s.write(dataEvent(fin.bytes()))
	}
	return true
}

// cut: a stream that ended after its finish_reason lacks only [DONE];
// one that ended before it sends what was settled.
func (o *openAIStream) cut(ctx context.Context) {
	if !o.finished {
		o.s.endNative(ctx, o, "")
		o.s.truncated = true
	}
}

func (o *openAIStream) errorEvent(e *toolcall.Error) []byte {
	return dataEvent(errorBody(OpenAI, http.StatusBadGateway, e))
}

// dataEvent is a server-sent event of data alone.
func dataEvent(payload []byte) []byte {
	return append(append([]byte("data: "), payload...), '\n', '\n')
}

// fragment adds a native tool-call delta to the call of its index.
func (o *openAIStream) fragment(raw json.RawMessage) {
	s := o.s
	f, ok := parseObj(raw)
	if !ok {
		return
	}
	idx := len(s.openNative)
	if v, ok := f["index"]; ok {
		json.Unmarshal(v, &idx)
	}
	n := s.openNative[idx]
	if n == nil {
		n = &nativeCall{obj: obj{}, fn: obj{}, rc: dialects.RawCall{Offset: -1}, shaped: true}
		s.openNative[idx] = n
	}
	if id, ok := f.str("id"); ok && id != "" {
		n.rc.ID = id
	}
	if fn, ok := f.sub("function"); ok {
		if name, ok := fn.str("name"); ok && name != "" {
			n.rc.Name += name
		}
		if args, ok := fn.str("arguments"); ok {
			n.rc.Arguments += args
		} else if a, ok := fn["arguments"]; ok && len(a) > 0 && a[0] == '{' {
			n.rc.Arguments += string(a)
		}
	}
}

// plain handles a chunk that carries only text (content, reasoning) in
// its one choice, whose other fields are those of the chunk before: read
// with gjson, no object built, and written from the splices; a chunk that
// matches the last one read so (fast) is not parsed at all. false: the
// chunk is not one, line reads it whole.
func (o *openAIStream) plain(payload []byte) bool {
	if o.tmpl == nil || o.s.q.c.wholeChunks {
		return false
	}
	var text [maxFields][]byte // content, thinking, reasoning_content, reasoning
	if !o.fast.read(payload, &text, o.readPlain) {
		return false
	}
	var reasoning string
	for _, t := range text[1:] {
		if t != nil {
			s, _ := rawString(string(t))
			reasoning += s
		}
	}
	var content string
	if text[0] != nil {
		content, _ = rawString(string(text[0]))
	}
	o.s.reasoningDelta(reasoning, o)
	o.s.contentDelta(content, o)
	return true
}

// openAITextFields are the fields of a delta that carry text, in the
// order of the fields of a template (content, then the reasoning).
var openAITextFields = [maxFields]string{"content", "thinking", "reasoning_content", "reasoning"}

// readPlain reads a chunk with gjson and reports whether it is one plain
// handles, adding the holes of its template: the values of the fields it
// does not look at (the envelope but its choices), and the delta's text.
func (o *openAIStream) readPlain(payload []byte) bool {
	if !lenient.Valid(payload) {
		return false
	}
	var choices gjson.Result
	ok, n := true, 0
	parseView(payload).ForEach(func(k, v gjson.Result) bool {
		switch key, plain := plainKey(k.Raw); {
		case !plain || key == "error":
			ok = false
		case key == "choices":
			choices, n = v, n+1
		default:
			o.fast.hole(v, -1)
		}
		return ok
	})
	if !ok || n != 1 || !choices.IsArray() {
		return false
	}
	var choice gjson.Result
	choices.ForEach(func(_, v gjson.Result) bool { choice = v; return false })
	if !choice.IsObject() {
		return false
	}
	o.shape.start()
	if o.shape.add(choice.Raw, "delta"); !o.shape.same() {
		return false
	}
	var delta gjson.Result
	n = 0
	choice.ForEach(func(k, v gjson.Result) bool {
		switch key, plain := plainKey(k.Raw); {
		case !plain || key == "finish_reason" && v.Type == gjson.String:
			ok = false
		case key == "delta":
			delta, n = v, n+1
		}
		return ok
	})
	if !ok || n > 1 || n == 1 && !delta.IsObject() {
		return false
	}
	var seen [maxFields]bool
	delta.ForEach(func(k, v gjson.Result) bool {
		key, plain := plainKey(k.Raw)
		switch {
		case !plain || key == "role" && !o.roleSent || key == "tool_calls" && v.IsArray() && len(v.Raw) > 2 && strings.TrimSpace(v.Raw[1:len(v.Raw)-1]) != "":
			ok = false
		default:
			if i := slices.Index(openAITextFields[:], key); i >= 0 {
				// A field that comes twice is read once, as
				// encoding/json would not: such a chunk is read whole.
				ok = !seen[i]
				seen[i] = true
				if v.Type == gjson.String {
					o.fast.hole(v, i)
				}
			}
		}
		return ok
	})
	return ok
}

// chunk writes a chunk made from the templates.
func (o *openAIStream) chunk(set func(delta obj), toolCalls []json.RawMessage) {
	o.s.write(o.chunkBytes(set, toolCalls))
}

func (o *openAIStream) chunkBytes(set func(delta obj), toolCalls []json.RawMessage) []byte {
	top := o.tmpl.clone()
	delete(top, "usage")
	d := obj{}
	set(d)
	if toolCalls != nil {
		d.setRaw("tool_calls", rawList(toolCalls))
	}
	c := obj{}
	if o.choiceTmpl != nil {
		c = o.choiceTmpl.clone()
		if _, ok := c["logprobs"]; ok {
			// Token log-probabilities belong to the upstream's chunk, not
			// to what the proxy settled.
			c.setRaw("logprobs", []byte("null"))
		}
	}
	if _, ok := c["index"]; !ok {
		c.setRaw("index", []byte("0"))
	}
	c.setRaw("finish_reason", []byte("null"))
	c.setRaw("delta", d.bytes())
	top.setRaw("choices", rawList([]json.RawMessage{c.bytes()}))
	return dataEvent(top.bytes())
}

func (o *openAIStream) content(text string) {
	o.text.write(o.s, &o.text.content, text, func(v [][]byte) []byte {
		return o.chunkBytes(func(d obj) { d.setRaw("content", v[0]) }, nil)
	})
}

func (o *openAIStream) reasoning(text string) {
	o.text.write(o.s, &o.text.reasoning, text, func(v [][]byte) []byte {
		return o.chunkBytes(func(d obj) { d.setRaw("reasoning_content", v[0]) }, nil)
	})
}

// call sends a call as OpenAI's tool-call deltas: a header with index, id,
// type and name, then the arguments.
func (o *openAIStream) call(c toolcall.Call, index int, _ *nativeCall) {
	head := obj{}
	head.set("index", index)
	head.setRaw("id", marshalString(c.ID))
	head.setRaw("type", []byte(`"function"`))
	fn := obj{}
	fn.setRaw("name", marshalString(c.Name))
	fn.setRaw("arguments", []byte(`""`))
	head.setRaw("function", fn.bytes())
	o.chunk(func(obj) {}, []json.RawMessage{head.bytes()})
	for _, piece := range argumentPieces(c.Arguments) {
		frag := obj{}
		frag.set("index", index)
		fa := obj{}
		fa.setRaw("arguments", marshalString(piece))
		frag.setRaw("function", fa.bytes())
		o.chunk(func(obj) {}, []json.RawMessage{frag.bytes()})
	}
}

// argumentPieces cuts a call's arguments (a JSON object, {} when empty)
// into the pieces a stream sends them in, never inside a UTF-8 sequence.
func argumentPieces(a json.RawMessage) []string {
	args := string(argumentsObject(a))
	const piece = 4 << 10
	var out []string
	for len(args) > 0 {
		n := min(len(args), piece)
		for n < len(args) && n > 0 && !utf8.RuneStart(args[n]) {
			n--
		}
		out = append(out, args[:n])
		args = args[n:]
	}
	return out
}
