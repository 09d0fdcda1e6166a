package proxy

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/internal/httpx"
	"github.com/dialectkit/toolcall/retry"
)

// recoverWhole asks the upstream again for the calls of a whole answer
// that failed (Config.MaxRetries above 0), and returns the recovered answer
// with the envelope of the upstream's last answer. It returns nil when
// recovery is off or did not end with every call valid: the first answer
// then goes out as fixed without it.
func (q *chatCtx) recoverWhole(ctx context.Context, m *message, f *fixed, top obj) (*fixed, obj) {
	doneReason := ""
	rf, last := q.recoverAnswer(ctx, m, doneReason)
	if rf == nil {
		return nil, nil
	}
	if last == nil {
		last = top
	}
	return rf, last
}

// recoverAnswer runs the retry loop from the first answer m: the loop
// parses it, reflects its failed calls back with the reflection the loop
// writes (retry.RenderReflection over the configured template), and asks
// the upstream again, within max_retries and with the loop's transport
// backoff and budget. The re-asks are the client's own request (every
// field kept) with the conversation grown by the loop and streaming off.
func (q *chatCtx) recoverAnswer(ctx context.Context, m *message, doneReason string) (*fixed, obj) {
	if q.cfg.MaxRetries <= 0 || q.top == nil {
		return nil, nil
	}
	rawMsgs := q.top.list("messages")
	model := &upstreamModel{q: q, first: m, doneReason: doneReason, raw: rawMsgs}
	cfg := q.cfg
	cfg.BreakerThreshold = 0 // one run per request: a breaker would never open
	loop := &retry.Loop{Model: model, Tools: q.tools, Registry: q.c.reg, Config: &cfg}
	loop.Parse.Dialect, loop.Parse.Template, loop.Parse.Model = q.ropts.Dialect, q.ropts.Template, q.ropts.Model
	loop.Parse.Fallback = q.ropts.Fallback
	loop.Parse.ReasoningOpen, loop.Parse.ReasoningClosed = q.ropts.ReasoningOpen, q.ropts.ReasoningClosed
	req := &client.Request{Model: q.model, Messages: historyOf(rawMsgs), Tools: q.toolList}
	out, err := loop.Run(ctx, req)
	q.upstreamTime += model.upstream
	if out == nil {
		return nil, nil
	}
	q.st.Retries += max(len(out.Attempts)-1, 0) + out.TransportRetries
	if err != nil || out.Result == nil || len(out.Result.Errors) > 0 {
		return nil, nil
	}
	res := out.Result
	rf := &fixed{content: res.Content, reasoning: res.Reasoning, dialect: res.Dialect, repairs: res.Repairs, changed: true}
	for _, c := range res.Calls {
		if c.ID == "" || q.ids[c.ID] {
			c.ID = q.newID()
		}
		q.ids[c.ID] = true
		rf.calls = append(rf.calls, outCall{call: c})
	}
	if res.Dialect != retry.NativeDialect {
		rf.count(fixLeaked, len(res.Calls))
	}
	for _, r := range res.Repairs {
		if isCoercion(r) {
			rf.count(fixCoerced, 1)
		} else {
			rf.count(fixRepaired, 1)
		}
	}
	q.st.Outcome = OutcomeRecovered
	return rf, model.lastTop
}

// historyOf reads the request's messages for the loop: roles, text and
// call ids. The loop only appends to them; what goes upstream is the
// client's own messages as sent.
func historyOf(raw []json.RawMessage) []client.Message {
	out := make([]client.Message, 0, len(raw))
	for _, r := range raw {
		o, _ := parseObj(r)
		m := client.Message{}
		if o != nil {
			m.Role, _ = o.str("role")
			m.Content, _ = o.str("content")
			for _, n := range readNativeCalls(o.list("tool_calls")) {
				m.ToolCalls = append(m.ToolCalls, toolcall.Call{ID: n.rc.ID, Name: n.rc.Name, Arguments: json.RawMessage("{}")})
			}
		}
		out = append(out, m)
	}
	return out
}

// upstreamModel is the client.Model the recovery loop asks: its first
// answer is the one already received, the others come from the upstream.
type upstreamModel struct {
	q          *chatCtx
	first      *message
	doneReason string
	raw        []json.RawMessage
	asked      int
	lastTop    obj
	upstream   time.Duration
}

// Chat answers the loop.
func (u *upstreamModel) Chat(ctx context.Context, req *client.Request) (*client.Response, error) {
	u.asked++
	if u.asked == 1 {
		resp := &client.Response{Content: u.first.content, Reasoning: u.first.reasoning, Done: true, DoneReason: u.doneReason}
		for _, n := range u.first.calls {
			resp.NativeCalls = append(resp.NativeCalls, n.rc)
		}
		return resp, nil
	}
	q := u.q
	body := q.reask(req.Messages[min(len(u.raw), len(req.Messages)):])
	r, err := q.upstreamRequest(ctx, body)
	if err != nil {
		return nil, toolcall.Errorf(toolcall.CodeTransport, err, "cannot build the upstream request")
	}
	begin := time.Now()
	defer func() { u.upstream += time.Since(begin) }()
	resp, err := q.c.roundTripIdle(ctx, q.cancel, r)
	if err != nil {
		if ctx.Err() != nil {
			return nil, toolcall.Errorf(toolcall.CodeCanceled, ctx.Err(), "the request ended: "+ctx.Err().Error())
		}
		return nil, transportError(ctx, err)
	}
	defer resp.Body.Close()
	data, e := q.readAnswer(resp)
	if e != nil {
		return nil, e
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		te := &client.TransportError{StatusCode: resp.StatusCode, RetryAfter: client.RetryAfter(resp.Header, time.Now()),
			Message: httpx.ServerMessage(data)}
		code := toolcall.CodeTransport
		if resp.StatusCode == http.StatusBadRequest || resp.StatusCode == http.StatusUnprocessableEntity {
			code = toolcall.CodeRequestRejected
		}
		return nil, toolcall.Errorf(code, te, "server answered "+client.StatusText(resp.StatusCode))
	}
	top, ok := parseObj(data)
	if !ok {
		return nil, toolcall.Errorf(toolcall.CodeTransport, errors.New("not a JSON object"), "the upstream answer is not a JSON object")
	}
	u.lastTop = top
	out := &client.Response{Done: true}
	var msg obj
	if q.c.api == OpenAI {
		if cs := top.list("choices"); len(cs) > 0 {
			ch, _ := parseObj(cs[0])
			if ch != nil {
				msg, _ = ch.sub("message")
				out.DoneReason, _ = ch.str("finish_reason")
			}
		}
		if usage, ok := top.sub("usage"); ok {
			out.PromptTokens, out.CompletionTokens = intField(usage, "prompt_tokens"), intField(usage, "completion_tokens")
		}
	} else {
		msg, _ = top.sub("message")
		out.DoneReason, _ = top.str("done_reason")
		out.Done = string(top["done"]) == "true"
		out.PromptTokens, out.CompletionTokens = intField(top, "prompt_eval_count"), intField(top, "eval_count")
	}
	if msg != nil {
		m := readMessage(msg)
		out.Content, out.Reasoning = m.content, m.reasoning
		for _, n := range m.calls {
			out.NativeCalls = append(out.NativeCalls, n.rc)
		}
	}
	return out, nil
}

func intField(o obj, key string) int {
	var n int
	json.Unmarshal(o[key], &n)
	return n
}

// reask is the client's request with the loop's messages after its own
// appended, and streaming off.
func (q *chatCtx) reask(more []client.Message) []byte {
	top := q.top.clone()
	msgs := q.top.list("messages")
	for _, m := range more {
		msgs = append(msgs, q.wireMessage(m))
	}
	top.setRaw("messages", rawList(msgs))
	top.setRaw("stream", []byte("false"))
	delete(top, "stream_options")
	return top.bytes()
}

// wireMessage renders a message of the loop in the protocol's shape.
func (q *chatCtx) wireMessage(m client.Message) json.RawMessage {
	o := obj{}
	o.setRaw("role", marshalString(m.Role))
	o.setRaw("content", marshalString(m.Content))
	if len(m.ToolCalls) > 0 {
		calls := make([]json.RawMessage, len(m.ToolCalls))
		for i, c := range m.ToolCalls {
			if q.c.api == OpenAI {
				calls[i] = openAICall(c, nil)
			} else {
				calls[i] = ollamaCall(c, i, nil)
			}
		}
		o.setRaw("tool_calls", rawList(calls))
	}
	if m.ToolCallID != "" {
		o.setRaw("tool_call_id", marshalString(m.ToolCallID))
	}
	if m.ToolName != "" && q.c.api == Ollama {
		o.setRaw("tool_name", marshalString(m.ToolName))
	}
	if m.Reasoning != "" && q.c.api == Ollama {
		o.setRaw("thinking", marshalString(m.Reasoning))
	}
	return o.bytes()
}
