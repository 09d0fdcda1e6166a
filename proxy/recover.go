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
	history := q.cd.history(q.top)
	if len(history) == 0 {
		return nil, nil // no conversation the re-asks could grow
	}
	model := &upstreamModel{q: q, first: m, doneReason: doneReason, history: len(history)}
	cfg := q.cfg
	cfg.BreakerThreshold = 0 // one run per request: a breaker would never open
	loop := &retry.Loop{Model: model, Tools: q.tools, Registry: q.c.reg, Config: &cfg}
	loop.Parse.Dialect, loop.Parse.Template, loop.Parse.Model = q.ropts.Dialect, q.ropts.Template, q.ropts.Model
	loop.Parse.Fallback = q.ropts.Fallback
	loop.Parse.ReasoningOpen, loop.Parse.ReasoningClosed = q.ropts.ReasoningOpen, q.ropts.ReasoningClosed
	req := &client.Request{Model: q.model, Messages: history, Tools: q.toolList}
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

// upstreamModel is the client.Model the recovery loop asks: its first
// answer is the one already received, the others come from the upstream.
type upstreamModel struct {
	q          *chatCtx
	first      *message
	doneReason string
	history    int // the messages of the client's own request
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
	body := q.cd.reask(q.top, req.Messages[min(u.history, len(req.Messages)):])
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
	return q.cd.read(top), nil
}

func intField(o obj, key string) int {
	var n int
	json.Unmarshal(o[key], &n)
	return n
}
