package proxy

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/retry"
	"github.com/dialectkit/toolcall/schema"
)

// chatCtx is the state of one chat request.
type chatCtx struct {
	c     *core
	cd    codec
	st    *RequestStats
	start time.Time
	w     http.ResponseWriter
	in    *http.Request
	out   *url.URL

	body     []byte
	top      obj
	model    string
	stream   bool
	cfg      config.Config
	tools    *schema.Set
	toolList []toolcall.Tool
	ropts    registry.Options
	ids      map[string]bool
	// original is the content of the answer being fixed, as written.
	original          string
	originalReasoning string

	// callErrs are the calls of the answer that failed their check.
	callErrs []*toolcall.Error

	upstreamTime time.Duration
	cancel       context.CancelFunc
}

// chat fixes one chat request of the API cd: it is sent upstream as the
// client wrote it, and the answer is fixed on its way back.
func (c *core) chat(w http.ResponseWriter, r *http.Request, out *url.URL, cd codec) {
	q := &chatCtx{c: c, cd: cd, w: w, in: r, out: out, start: time.Now(), ids: map[string]bool{},
		st: &RequestStats{CorrelationID: toolcall.NewCorrelationID(), API: cd.name(), Path: r.URL.Path}}
	ctx, cancel := context.WithTimeout(r.Context(), c.opts.TotalTimeout)
	defer cancel()
	q.cancel = cancel
	ctx = retry.WithCorrelationID(ctx, q.st.CorrelationID)
	var failure *toolcall.Error
	defer func() {
		q.st.Total = time.Since(q.start)
		q.st.Upstream = q.upstreamTime
		c.finish(ctx, q.st, failure)
	}()
	failure = q.run(ctx)
}

// fail answers with the proxy's own error, unless the answer has begun.
func (q *chatCtx) fail(status int, e *toolcall.Error) *toolcall.Error {
	e.CorrelationID = q.st.CorrelationID
	q.st.Outcome, q.st.Status = OutcomeError, status
	q.st.ErrorCodes = append(q.st.ErrorCodes, string(e.Code))
	writeError(q.w, q.cd.name(), status, e)
	return e
}

// upstreamFailure answers for an error met reaching the upstream: the
// total timeout is TLP-027 (504), a client gone is TLP-022, anything else
// TLP-015 (502).
func (q *chatCtx) upstreamFailure(ctx context.Context, err error) *toolcall.Error {
	var e *toolcall.Error
	if !errors.As(err, &e) {
		e = transportError(ctx, err)
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) && q.in.Context().Err() == nil {
		return q.fail(http.StatusGatewayTimeout, toolcall.Errorf(toolcall.CodeLimit, err,
			"the request lasted longer than the total timeout ("+q.c.opts.TotalTimeout.String()+")"))
	}
	if e.Code == toolcall.CodeCanceled {
		q.st.Outcome, q.st.Status = OutcomeError, 499
		q.st.ErrorCodes = append(q.st.ErrorCodes, string(e.Code))
		return e
	}
	return q.fail(http.StatusBadGateway, e)
}

func (q *chatCtx) run(ctx context.Context) *toolcall.Error {
	c := q.c
	body, e := q.readChatBody()
	if e != nil {
		return e
	}
	q.body = body
	q.readRequest()
	q.st.Model = q.model
	q.st.Stream = q.stream

	if err := c.acquire(ctx); err != nil {
		if q.in.Context().Err() != nil {
			return q.upstreamFailure(ctx, err)
		}
		return q.fail(http.StatusServiceUnavailable, toolcall.Errorf(toolcall.CodeLimit, err,
			"too many requests in flight (max_concurrent "+strconv.Itoa(c.opts.MaxConcurrent)+"), and none came free in time"))
	}
	defer c.release()

	q.readingStart(ctx)
	q.tidyRequest(ctx)

	begin := time.Now()
	retries := 0
	resp, err := c.sendWithRetry(ctx, q.cancel, &q.cfg, func() (*http.Request, error) { return q.upstreamRequest(ctx, q.body) }, &retries)
	q.upstreamTime += time.Since(begin)
	q.st.Retries += retries
	if err != nil {
		return q.upstreamFailure(ctx, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 || q.tools == nil {
		// The upstream's own error, or nothing to fix: as it came.
		return q.unfixed(ctx, resp)
	}
	if q.cd.isStream(resp.Header.Get("Content-Type"), q.stream) {
		return q.streamAnswer(ctx, resp)
	}
	return q.whole(ctx, resp)
}

// readingStart sets where the output is read as starting, inside a
// reasoning block the chat template opened or outside any. The template
// says, when it does (registry.TemplateReasoningStart); when there is
// none, or its variables decide (thinking on or off), the model's
// reasoning setting does; without one, neither is set, and the output's
// own bytes decide (its first reasoning tag; a dialect whose family never
// opens a block starts outside). Never outside by default: text before a
// lone closing tag is reasoning, and a call drafted there is no call.
// The template is asked for whenever tools are declared, a dialect
// configured or not: it is the evidence of where the output starts, and
// of the dialect when none is configured.
func (q *chatCtx) readingStart(ctx context.Context) {
	if q.tools == nil {
		return
	}
	ev := q.c.modelEvidence(ctx, q.c.baseURL(q.out, q.cd), q.model, q.in.Header)
	q.ropts.Template = ev.template
	q.ropts.ReasoningOpen, q.ropts.ReasoningClosed = false, false
	if q.ropts.Template != "" {
		q.ropts.ReasoningOpen, q.ropts.ReasoningClosed = q.c.reg.TemplateReasoningStart(q.ropts.Template)
	}
	if !q.ropts.ReasoningOpen && !q.ropts.ReasoningClosed {
		q.ropts.ReasoningOpen = q.cfg.Reasoning == config.ReasoningOpen
		q.ropts.ReasoningClosed = q.cfg.Reasoning == config.ReasoningClosed
	}
	q.familyStart(ev)
}

// readRequest reads what the proxy needs of the request: model, stream,
// tools. A body that is not a JSON object is sent on as it is, unfixed.
func (q *chatCtx) readRequest() {
	q.stream = q.cd.streamDefault()
	top, ok := parseObj(q.body)
	q.cfg = q.c.configFor("")
	if !ok {
		return
	}
	q.top = top
	q.model, _ = top.str("model")
	q.cfg = q.c.configFor(q.model)
	if raw, ok := top["stream"]; ok {
		q.stream = string(bytes.TrimSpace(raw)) == "true"
	}
	if raw := q.cd.tools(top); raw != nil {
		switch e := q.c.tools.get(raw); {
		case e.set != nil:
			q.tools, q.toolList = e.set, e.list
		case e.err != nil:
			q.c.log.LogAttrs(context.Background(), levelWarn, "proxy: the request's tools are not valid; the answer is not fixed",
				attrString("correlation_id", q.st.CorrelationID), attrString("error", e.err.Error()))
		}
	}
	if raw, ok := top["n"]; ok && q.stream && string(bytes.TrimSpace(raw)) != "1" && string(raw) != "null" {
		// Several choices streamed at once interleave their deltas: such
		// an answer is passed on as it comes.
		q.tools, q.toolList = nil, nil
	}
	q.ropts = registry.Options{Dialect: q.cfg.Dialect, Fallback: q.cfg.Fallback, Model: q.model}
	q.ropts.SetDialectOptions(q.cfg.DialectOptions(q.tools))
}

// upstreamRequest builds the request sent upstream with body.
func (q *chatCtx) upstreamRequest(ctx context.Context, body []byte) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, q.out.String(), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header = q.c.outgoingHeader(q.in.Header)
	// The answer is read here: it must come unencoded.
	req.Header.Del("Accept-Encoding")
	req.Header.Del("Content-Length")
	req.ContentLength = int64(len(body))
	return req, nil
}

// readAnswer reads a whole answer, up to MaxResponseBytes.
func (q *chatCtx) readAnswer(resp *http.Response) ([]byte, *toolcall.Error) {
	data, err := io.ReadAll(io.LimitReader(resp.Body, q.c.opts.MaxResponseBytes+1))
	if err != nil {
		return nil, toolcall.Errorf(toolcall.CodeTransport, err, "reading the upstream answer failed: "+err.Error())
	}
	if int64(len(data)) > q.c.opts.MaxResponseBytes {
		return nil, q.c.tooLarge()
	}
	return data, nil
}

// whole fixes an answer that came in one piece.
func (q *chatCtx) whole(ctx context.Context, resp *http.Response) *toolcall.Error {
	begin := time.Now()
	data, e := q.readAnswer(resp)
	q.upstreamTime += time.Since(begin)
	if e != nil {
		if e.Code == toolcall.CodeTransport {
			return q.upstreamFailure(ctx, e)
		}
		return q.fail(http.StatusBadGateway, e)
	}
	top, ok := parseObj(data)
	var out []byte
	if ok {
		out = q.cd.whole(ctx, q, top)
	}
	if out == nil {
		out = data
		if q.st.Outcome == "" {
			q.st.Outcome = OutcomeUnchanged
		}
	} else if len(q.callErrs) > 0 {
		if o, ok := parseObj(out); ok {
			o.setRaw(CallErrorsField, callErrorsJSON(q.callErrs))
			out = o.bytes()
		}
	}
	q.st.Status = resp.StatusCode
	copyHeader(q.w.Header(), resp.Header, true)
	q.w.Header().Set(CorrelationHeader, q.st.CorrelationID)
	if len(q.callErrs) > 0 {
		q.w.Header().Set(CallErrorsHeader, callErrorCodes(q.callErrs))
	}
	q.w.Header().Set("Content-Length", strconv.Itoa(len(out)))
	q.w.WriteHeader(resp.StatusCode)
	q.w.Write(out)
	return nil
}

// fixAnswer fixes one answer m (truncated: it stopped for length) and
// records it; mayRecover lets a failed answer be asked again. last, when
// set, is the upstream's last answer, the one recovery read the fixed
// answer from: its envelope is the one to keep.
func (q *chatCtx) fixAnswer(ctx context.Context, m *message, truncated, mayRecover bool) (f *fixed, last obj) {
	f = q.fix(ctx, m, truncated)
	if mayRecover && f.recoverable() {
		if rf, raw := q.recoverAnswer(ctx, m, ""); rf != nil {
			f, last = rf, raw
		}
	}
	q.record(f)
	return f, last
}

// record adds a fixed answer to the request's statistics, and logs its
// calls at DEBUG.
func (q *chatCtx) record(f *fixed) {
	q.logCalls(context.Background(), f)
	st := q.st
	if f.dialect != "" {
		st.Dialect = f.dialect
	}
	st.Calls += len(f.calls)
	for k, n := range f.fixes {
		if st.Fixed == nil {
			st.Fixed = map[string]int{}
		}
		st.Fixed[k] += n
	}
	for _, r := range f.repairs {
		if st.Repairs == nil {
			st.Repairs = map[string]int{}
		}
		st.Repairs[string(r.Kind)]++
	}
	for _, e := range f.errors {
		st.ErrorCodes = append(st.ErrorCodes, string(e.Code))
	}
	q.callErrs = append(q.callErrs, f.errors...)
	switch {
	case st.Outcome == OutcomeRecovered && len(f.errors) == 0:
	case len(f.errors) > 0:
		st.Outcome = OutcomeFailed
	case f.changed:
		if st.Outcome != OutcomeRecovered {
			st.Outcome = OutcomeFixed
		}
	case st.Outcome == "":
		st.Outcome = OutcomeUnchanged
	}
}
