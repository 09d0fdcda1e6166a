package retry

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/arguments"
	"github.com/dialectkit/toolcall/lenient"
	"github.com/dialectkit/toolcall/redact"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/schema"
)

// Loop asks a model for tool calls and asks again, with the error in hand,
// when calls fail. The zero value is not usable: Model is required. A Loop
// may run any number of conversations at once; it must not be copied after
// first use.
type Loop struct {
	// Model answers chat requests.
	Model client.Model
	// Tools are the declared tools that calls are validated against. When
	// nil, Parse.Tools, else the tools of each client.Request, are used. A
	// request without tools is sent with these: give the tools once, here
	// or in the request.
	Tools *schema.Set
	// Registry parses text answers; nil means registry.Default().
	Registry *registry.Registry
	// Parse supplies the dialect (empty means detect it), the fallback
	// chain, the chat template and model name used as evidence, and
	// ReasoningOpen. Repair, limits and validation come from Config, and
	// the tools from Tools.
	Parse registry.Options
	// Config holds the settings; nil means config.Default().
	Config *config.Config
	// Logger receives the loop's records; nil means no logging.
	Logger *slog.Logger
	// Stats, when set, collects counts and times of every run.
	Stats *Stats
	// Breaker stops runs against a model that keeps failing. When nil, the
	// loop makes its own from Config (circuit_breaker_threshold, 0 turns it
	// off).
	Breaker *Breaker

	// Clock is the time the loop runs on: nil is the real clock. A
	// simulation passes its own.
	Clock Clock

	// rnd draws backoff jitter; nil means the global math/rand/v2 source.
	// Tests seed it (export_test.go); the loop locks around it.
	rnd *rand.Rand

	mu      sync.Mutex // guards rnd and breaker
	breaker *Breaker
}

// Clock is the time a Loop runs on: Now measures durations, Sleep waits
// between attempts and must return early with ctx's error when ctx ends.
type Clock interface {
	Now() time.Time
	Sleep(ctx context.Context, d time.Duration) error
}

// Why an attempt was made (Attempt.Reason).
const (
	ReasonInitial    = "initial"    // the first request of the run
	ReasonReflection = "reflection" // failed calls were sent back
	ReasonTruncation = "truncation" // the previous answer was cut off
	ReasonRejected   = "rejected"   // the server rejected the previous request (HTTP 400)
)

// Attempt records one model turn of a run: why it was made, what came back,
// what was wrong, what was sent back, and what it cost.
type Attempt struct {
	// Number counts attempts from 1.
	Number int `json:"number"`
	// Reason is why the attempt was made: ReasonInitial, ReasonReflection,
	// ReasonTruncation or ReasonRejected.
	Reason string `json:"reason"`
	// Dialect is the dialect the answer was parsed with (NativeDialect for
	// the server's tool_calls), empty when it had no calls.
	Dialect string `json:"dialect,omitempty"`
	// Calls counts the calls that parsed and validated.
	Calls int `json:"calls"`
	// Errors are what was wrong: one per failed call, or the truncation,
	// rejection or transport error that ended the attempt.
	Errors []*toolcall.Error `json:"errors,omitempty"`
	// Repairs are the changes made to the answer's arguments.
	Repairs []toolcall.Repair `json:"repairs,omitempty"`
	// Truncated and Rejected mark an answer cut off for length and a
	// request the server refused.
	Truncated bool `json:"truncated,omitempty"`
	Rejected  bool `json:"rejected,omitempty"`
	// Reflections are what was sent back after this attempt.
	Reflections []Reflection `json:"reflections,omitempty"`
	// MaxTokens is the output budget the request asked for (0: server default).
	MaxTokens int `json:"max_tokens,omitempty"`
	// PromptTokens and CompletionTokens are the server's counts.
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	// TransportRetries counts the requests repeated after a transport failure.
	TransportRetries int `json:"transport_retries,omitempty"`
	// ModelTime is the time spent in Model.Chat, ParseTime in parsing,
	// repair and validation, Wait in backoff and retry delays. In JSON they
	// are milliseconds: model_time_ms, parse_time_ms, wait_ms.
	ModelTime time.Duration `json:"-"`
	ParseTime time.Duration `json:"-"`
	Wait      time.Duration `json:"-"`
}

// attemptTimes are an Attempt's times in JSON, milliseconds.
type attemptTimes struct {
	ModelTime float64 `json:"model_time_ms"`
	ParseTime float64 `json:"parse_time_ms"`
	Wait      float64 `json:"wait_ms"`
}

// MarshalJSON writes the attempt with its times in milliseconds.
func (a Attempt) MarshalJSON() ([]byte, error) {
	type plain Attempt
	return json.Marshal(struct {
		plain
		attemptTimes
	}{plain(a), attemptTimes{ms(a.ModelTime), ms(a.ParseTime), ms(a.Wait)}})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (a *Attempt) UnmarshalJSON(data []byte) error {
	type plain Attempt
	var v struct {
		plain
		attemptTimes
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*a = Attempt(v.plain)
	a.ModelTime, a.ParseTime, a.Wait = fromMS(v.attemptTimes.ModelTime), fromMS(v.attemptTimes.ParseTime), fromMS(v.attemptTimes.Wait)
	return nil
}

// Duration is the attempt's time: in the model, in parsing and in waits.
func (a *Attempt) Duration() time.Duration { return a.ModelTime + a.ParseTime + a.Wait }

// Outcome is the result of a run.
type Outcome struct {
	// CorrelationID ties together the run's errors, log records and
	// statistics.
	CorrelationID string `json:"correlation_id"`
	// Result holds the calls to run: the valid calls of the last answer
	// merged with the calls kept from earlier attempts, numbered in the
	// order of History's last assistant message. After a failure, Errors
	// says what still failed.
	Result *toolcall.Result `json:"result"`
	// History is the conversation to continue with, safe to replay to the
	// same server: every call that failed is stored with {} arguments and
	// answered by its error, and the last assistant message holds
	// Result.Calls, whose results the caller appends once it has run them.
	History []client.Message `json:"history"`
	// Attempts are the model turns of the run, in order.
	Attempts []Attempt `json:"attempts"`
	// PromptTokens and CompletionTokens sum the counts of every attempt.
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	// TransportRetries counts the requests repeated after a transport failure.
	TransportRetries int `json:"transport_retries"`
	// Duration is the run's wall time; duration_ms in JSON.
	Duration time.Duration `json:"-"`
}

// MarshalJSON writes the outcome with its duration in milliseconds
// (duration_ms).
func (o Outcome) MarshalJSON() ([]byte, error) {
	type plain Outcome
	return json.Marshal(struct {
		plain
		DurationMS float64 `json:"duration_ms"`
	}{plain(o), ms(o.Duration)})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (o *Outcome) UnmarshalJSON(data []byte) error {
	type plain Outcome
	var v struct {
		plain
		DurationMS float64 `json:"duration_ms"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*o = Outcome(v.plain)
	o.Duration = fromMS(v.DurationMS)
	return nil
}

// TotalTokens is the sum of prompt and completion tokens of every attempt.
func (o *Outcome) TotalTokens() int { return o.PromptTokens + o.CompletionTokens }

// Retries counts the reflection attempts (failed calls sent back).
func (o *Outcome) Retries() int {
	n := 0
	for _, a := range o.Attempts {
		if a.Reason == ReasonReflection {
			n++
		}
	}
	return n
}

type correlationKey struct{}

// WithCorrelationID returns a context whose runs use id as their
// correlation id, to tie the loop's records to the caller's own.
func WithCorrelationID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, correlationKey{}, id)
}

// CorrelationID returns the correlation id carried by ctx, if any.
func CorrelationID(ctx context.Context) string {
	id, _ := ctx.Value(correlationKey{}).(string)
	return id
}

// Run sends req to the model and returns the validated calls of its
// answer. Calls that fail to parse or validate are sent back as their
// tool results, with the error and a correct example, up to
// Config.MaxRetries times; calls that succeeded are kept. Transport
// failures are retried after backoff on their own budget, a request the
// server rejects (HTTP 400) is explained to the model at most
// Config.ModelHTTPRetries times, and an answer cut off for length is
// treated as truncation (Config.OnTruncation).
//
// Errors are *toolcall.Error: TLP-006 when a budget ran out (wrapping the
// last error), TLP-021 when the circuit breaker is open, TLP-022 when ctx
// ended (errors.Is(err, context.Canceled) holds), TLP-014 for truncation
// with OnTruncation "fail", TLP-015 or TLP-020 for a transport failure
// that is not retried, TLP-024 for an invalid Config. Once the model was
// asked, the Outcome is returned with the error, for inspection.
func (l *Loop) Run(ctx context.Context, req *client.Request) (*Outcome, error) {
	r, err := l.newRun(ctx, req)
	if err != nil {
		return nil, err
	}
	breaker := l.breakerFor(&r.cfg)
	if err := breaker.Allow(req.Model); err != nil {
		var open *toolcall.Error
		errors.As(err, &open)
		e := r.tag(open)
		r.finish(ctx, nil, e)
		return nil, e
	}
	out, err := r.loop(ctx)
	breaker.Record(req.Model, breakerOutcome(err))
	r.finish(ctx, out, err)
	return out, err
}

// breakerOutcome is how the breaker counts a run's end: exhausted budgets
// and transport failures count against the model, cancellation and
// truncation with OnTruncation "fail" do not.
func breakerOutcome(err error) BreakerOutcome {
	var e *toolcall.Error
	switch {
	case err == nil:
		return BreakerSuccess
	case !errors.As(err, &e):
		return BreakerNeutral
	}
	switch e.Code {
	case toolcall.CodeRetriesExhausted, toolcall.CodeTransport, toolcall.CodeRequestRejected:
		return BreakerFailure
	}
	return BreakerNeutral
}

func (l *Loop) breakerFor(cfg *config.Config) *Breaker {
	if l.Breaker != nil {
		return l.Breaker
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.breaker == nil {
		l.breaker = &Breaker{Threshold: cfg.BreakerThreshold, Cooldown: cfg.BreakerCooldown, Now: l.now}
	}
	return l.breaker
}

func (l *Loop) random() float64 {
	if l.rnd == nil {
		return rand.Float64()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.rnd.Float64()
}

func (l *Loop) now() time.Time {
	if l.Clock != nil {
		return l.Clock.Now()
	}
	return time.Now()
}

// run is the state of one Run.
type run struct {
	l     *Loop
	cfg   config.Config
	reg   *registry.Registry
	tools *schema.Set
	opts  registry.Options
	log   *slog.Logger
	id    string
	start time.Time

	req     client.Request   // the request as sent next (MaxTokens may grow)
	sent    []client.Message // the conversation as the model sees it
	history []client.Message // the replay-safe conversation handed back
	ids     map[string]bool

	// kept are valid calls of earlier attempts, waiting for the final
	// assistant message; keptRepairs their repairs.
	kept        []toolcall.Call
	keptRepairs []toolcall.Repair

	attempts []Attempt
	used     struct{ reflections, transport, rejected, truncations int }

	hint     string // the dialect the chat template names
	hintDone bool
}

func (l *Loop) newRun(ctx context.Context, req *client.Request) (*run, error) {
	if l.Model == nil {
		return nil, toolcall.NewError(toolcall.CodeInvalidInput, "retry: Loop.Model is nil")
	}
	if req == nil {
		return nil, toolcall.NewError(toolcall.CodeInvalidInput, "retry: the request is nil")
	}
	cfg := config.Default()
	if l.Config != nil {
		cfg = *l.Config
		if err := cfg.Validate(); err != nil {
			return nil, err
		}
	}
	r := &run{l: l, cfg: cfg, id: CorrelationID(ctx), start: l.now(), req: *req, ids: map[string]bool{}}
	if r.id == "" {
		r.id = toolcall.NewCorrelationID()
	}
	r.log = l.Logger
	r.tools = l.Tools
	if r.tools == nil {
		r.tools = l.Parse.Tools
	}
	if r.tools == nil && len(req.Tools) > 0 {
		set, err := schema.NewSet(req.Tools...)
		if err != nil {
			return nil, err
		}
		r.tools = set
	}
	if len(r.req.Tools) == 0 && r.tools != nil {
		// Tools are given once: those the calls are checked against are
		// the ones the model is offered.
		r.req.Tools = r.tools.Tools()
	}
	r.reg = l.Registry
	if r.reg == nil {
		r.reg = registry.Default()
	}
	r.opts = l.Parse
	if r.opts.Dialect == "" {
		r.opts.Dialect = cfg.Dialect
		if len(r.opts.Fallback) == 0 {
			r.opts.Fallback = cfg.Fallback
		}
	}
	if r.opts.Dialect == "" {
		// Detection's tables are built before the first parse is timed: an
		// attempt's ParseTime is the parse, not the process's warm-up.
		r.reg.Prepare()
	}
	if r.opts.Dialect != "" {
		if _, ok := r.reg.Lookup(r.opts.Dialect); !ok {
			e := toolcall.NewError(toolcall.CodeUnknownDialect, fmt.Sprintf("no dialect is registered as %q; known: %s", r.opts.Dialect, strings.Join(r.reg.Names(), ", ")))
			return nil, e
		}
	}
	reasoningOpen, reasoningClosed, versions := r.opts.ReasoningOpen, r.opts.ReasoningClosed, r.opts.Validation.Versions
	r.opts.SetDialectOptions(cfg.DialectOptions(r.tools))
	r.opts.ReasoningOpen, r.opts.ReasoningClosed = reasoningOpen, reasoningClosed
	// The tool versions the caller pins (schema.VersionOptions) are not
	// settings of the configuration: they come with the parse options.
	r.opts.Validation.Versions = versions

	r.sent = SanitizeHistory(req.Messages)
	r.history = append([]client.Message(nil), r.sent...)
	for _, m := range r.sent {
		for _, c := range m.ToolCalls {
			r.ids[c.ID] = true
		}
	}
	return r, nil
}

// loop runs attempts until one succeeds or a budget runs out.
func (r *run) loop(ctx context.Context) (*Outcome, error) {
	reason := ReasonInitial
	for {
		att := Attempt{Number: len(r.attempts) + 1, Reason: reason, MaxTokens: r.req.MaxTokens}
		resp, rejected, err := r.chat(ctx, &att)
		if err != nil {
			r.attempts = append(r.attempts, att)
			return r.stop(err)
		}
		if rejected != nil {
			next, err := r.onRejected(ctx, att, rejected)
			if err != nil {
				return r.stop(err)
			}
			reason = next
			continue
		}
		att.PromptTokens, att.CompletionTokens = resp.PromptTokens, resp.CompletionTokens
		if resp.Truncated() {
			next, err := r.onTruncated(ctx, att, resp)
			if err != nil {
				return r.stop(err)
			}
			reason = next
			continue
		}
		t := r.parse(ctx, resp, &att)
		if err := ctx.Err(); err != nil {
			// The deadline passed while parsing a long answer: the run ends
			// now, not after the parse.
			r.attempts = append(r.attempts, att)
			return r.stop(r.canceled(err))
		}
		r.logTurn(ctx, t, &att)
		if t.ok() {
			r.attempts = append(r.attempts, att)
			return r.outcome(t), nil
		}
		if e := t.firstOf(toolcall.CodeVersionMismatch); e != nil {
			// A pinned major that no declared version has is the
			// caller's to fix: asking the model again cannot help.
			r.attempts = append(r.attempts, att)
			return r.outcome(t), e
		}
		if r.used.reflections >= r.cfg.MaxRetries {
			r.attempts = append(r.attempts, att)
			out := r.outcome(t)
			return out, r.exhausted(t.err(), "max_retries", r.cfg.MaxRetries)
		}
		r.used.reflections++
		r.reflect(t, &att)
		r.attempts = append(r.attempts, att)
		r.logRetry(ctx, &r.attempts[len(r.attempts)-1], ReasonReflection)
		if err := r.sleep(ctx, r.cfg.RetryDelay, &r.attempts[len(r.attempts)-1]); err != nil {
			return r.stop(err)
		}
		reason = ReasonReflection
	}
}

// stop ends the run with err, which is recorded on the last attempt as
// what ended it.
func (r *run) stop(err error) (*Outcome, error) {
	last := &r.attempts[len(r.attempts)-1]
	var e *toolcall.Error
	if errors.As(err, &e) && !slices.Contains(last.Errors, e) {
		last.Errors = append(last.Errors, e)
	}
	return r.outcome(nil), err
}

// onRejected reflects a request the server refused (HTTP 400) back to the
// model, within the model_http_retries budget.
func (r *run) onRejected(ctx context.Context, att Attempt, rejected *toolcall.Error) (string, error) {
	att.Rejected = true
	att.Errors = append(att.Errors, rejected)
	if r.used.rejected >= r.cfg.ModelHTTPRetries {
		r.attempts = append(r.attempts, att)
		if r.cfg.ModelHTTPRetries == 0 {
			return "", rejected
		}
		return "", r.exhausted(rejected, "model_http_retries", r.cfg.ModelHTTPRetries)
	}
	r.used.rejected++
	status, detail := "HTTP 400", "(no details)"
	var te *client.TransportError
	if errors.As(rejected, &te) {
		if te.StatusCode != 0 {
			status = "HTTP " + client.StatusText(te.StatusCode)
		}
		if te.Message != "" {
			// The server's message may quote the request, its headers
			// included: credentials are redacted before it is sent back.
			detail = Excerpt(redact.Text(te.Message), MaxExcerpt)
		}
	}
	text := strings.NewReplacer("{status}", status, "{message}", detail).Replace(rejectedNote)
	r.appendBoth(client.Message{Role: "user", Content: text})
	att.Reflections = append(att.Reflections, Reflection{Code: rejected.Code, Text: text})
	r.attempts = append(r.attempts, att)
	last := &r.attempts[len(r.attempts)-1]
	r.logRetry(ctx, last, ReasonRejected)
	return ReasonRejected, r.sleep(ctx, r.cfg.ModelHTTPRetryDelay, last)
}

// onTruncated recovers from an answer cut off for length: with a larger
// output budget, or by asking for a shorter answer. The cut-off answer is
// discarded: repairing it would invent the end of its arguments.
func (r *run) onTruncated(ctx context.Context, att Attempt, resp *client.Response) (string, error) {
	msg := "the stream ended before the final message"
	if resp.DoneReason == "length" {
		msg = fmt.Sprintf("the answer stopped at the output length limit after %d tokens", resp.CompletionTokens)
	}
	terr := r.tag(toolcall.NewError(toolcall.CodeTruncated, msg))
	att.Truncated = true
	att.Errors = append(att.Errors, terr)
	if r.cfg.OnTruncation == config.TruncationFail || r.cfg.TruncationRetries == 0 {
		r.attempts = append(r.attempts, att)
		return "", terr
	}
	if r.used.truncations >= r.cfg.TruncationRetries {
		r.attempts = append(r.attempts, att)
		return "", r.exhausted(terr, "truncation_retries", r.cfg.TruncationRetries)
	}
	r.used.truncations++
	shorter := r.cfg.OnTruncation == config.TruncationShorter
	if !shorter {
		if n := raiseMaxTokens(r.req.MaxTokens, resp.CompletionTokens, r.cfg.MaxTokensCap); n > r.req.MaxTokens {
			r.req.MaxTokens = n
		} else {
			shorter = true // at the cap: more room is not on offer
		}
	}
	if shorter {
		r.appendBoth(client.Message{Role: "user", Content: shorterNote})
		att.Reflections = append(att.Reflections, Reflection{Code: toolcall.CodeTruncated, Text: shorterNote})
	}
	r.attempts = append(r.attempts, att)
	r.logRetry(ctx, &r.attempts[len(r.attempts)-1], ReasonTruncation)
	return ReasonTruncation, nil
}

// raiseMaxTokens doubles the output budget (or the tokens the cut-off
// answer used, when the request left the budget to the server), up to the
// cap.
func raiseMaxTokens(current, used, limit int) int {
	base := current
	if base <= 0 {
		base = used
	}
	if base <= 0 {
		base = 1024
	}
	return min(base*2, limit)
}

// turn is one parsed answer.
type turn struct {
	res    *toolcall.Result
	native bool
	sample string // the model's text, to tell dialect variants apart
	// calls are every call of the answer in order, failed ones with {}
	// arguments; errs[i] is calls[i]'s error, nil when it is valid.
	calls []toolcall.Call
	errs  []*toolcall.Error
	// written[i] are failed call i's arguments as the model wrote them,
	// when they are a JSON object: the re-ask shows the model its own
	// call (nil: {}).
	written []json.RawMessage
	// loose are errors that belong to no call.
	loose []*toolcall.Error
}

func (t *turn) ok() bool {
	if len(t.loose) > 0 {
		return false
	}
	for _, e := range t.errs {
		if e != nil {
			return false
		}
	}
	return true
}

// failed returns every error of the turn, calls' first.
func (t *turn) failed() []*toolcall.Error {
	var out []*toolcall.Error
	for _, e := range t.errs {
		if e != nil {
			out = append(out, e)
		}
	}
	return append(out, t.loose...)
}

// firstOf returns the turn's first error with the code, or nil.
func (t *turn) firstOf(code toolcall.Code) *toolcall.Error {
	for _, e := range t.failed() {
		if e.Code == code {
			return e
		}
	}
	return nil
}

func (t *turn) err() error {
	errs := t.failed()
	if len(errs) == 1 {
		return errs[0]
	}
	res := toolcall.Result{Errors: errs}
	return res.Err()
}

// parse reads the answer: the server's native calls through dialects.Finish,
// text through the registry (the configured dialect, or detection).
// Parsing text honours ctx (registry.ParseDetectContext).
func (r *run) parse(ctx context.Context, resp *client.Response, att *Attempt) *turn {
	begin := r.l.now()
	t := &turn{sample: resp.Content}
	if len(resp.NativeCalls) > 0 {
		ext := &dialects.Extraction{Calls: resp.NativeCalls, Content: resp.Content, Reasoning: resp.Reasoning}
		do := r.opts.DialectOptions()
		t.res = dialects.Finish(NativeDialect, ext, &do)
		t.native = true
	} else {
		t.res = r.parseText(ctx, resp.Content, resp.Reasoning != "")
		switch {
		case t.res.Reasoning == "":
			t.res.Reasoning = resp.Reasoning
		case resp.Reasoning != "":
			t.res.Reasoning = resp.Reasoning + "\n" + t.res.Reasoning
		}
	}
	r.collect(t)
	att.ParseTime = r.l.now().Sub(begin)
	att.Dialect = t.res.Dialect
	att.Repairs = t.res.Repairs
	att.Errors = t.failed()
	for _, e := range t.errs {
		if e == nil {
			att.Calls++
		}
	}
	return t
}

// parseText parses a text answer with the registry. Detection sets aside
// failed calls of dialects without markers (bare JSON, pythonic), so that
// prose is not mistaken for a call; when nothing was found, a reading
// that calls a declared tool is taken as the call the model meant, and
// parsed again under that dialect so that its errors can be sent back.
//
// After reasoning the server split off itself (split: Ollama's thinking,
// reasoning_content), the content starts outside reasoning: the server
// ended the block the template opened, and what it sent as content
// follows it.
func (r *run) parseText(ctx context.Context, content string, split bool) *toolcall.Result {
	opts := r.opts
	if split {
		opts.ReasoningOpen, opts.ReasoningClosed = false, true
	}
	res, _ := r.reg.ParseDetectContext(ctx, content, &opts)
	if ctx.Err() != nil || len(res.Calls) > 0 || len(res.Errors) > 0 || r.opts.Dialect != "" || !mentionsTool(content, r.tools) {
		return res
	}
	probe := opts
	probe.Tools = nil
	probe.Template, probe.Model = "", "" // the output alone decides here
	probe.Validation = schema.Options{}
	loose, _ := r.reg.ParseDetectContext(ctx, content, &probe)
	if ctx.Err() != nil || loose.Dialect == "" || !callsDeclaredTool(loose.Calls, r.tools) {
		return res
	}
	named := opts
	named.Dialect, named.Fallback = loose.Dialect, nil
	again, _ := r.reg.ParseDetectContext(ctx, content, &named)
	return again
}

// mentionsTool reports whether text holds a declared tool name, ignoring
// case: without one, no reading of it can call a declared tool.
func mentionsTool(text string, tools *schema.Set) bool {
	if tools.Len() == 0 {
		return false
	}
	lower := strings.ToLower(text)
	for _, name := range tools.Names() {
		if strings.Contains(lower, strings.ToLower(name)) {
			return true
		}
	}
	return false
}

func callsDeclaredTool(calls []toolcall.Call, tools *schema.Set) bool {
	for _, c := range calls {
		if _, ok := tools.Lookup(c.Name); ok {
			return true
		}
		if _, ok := tools.LookupFold(c.Name); ok {
			return true
		}
	}
	return false
}

// collect lays the turn's valid and failed calls out in the order the
// model wrote them, gives every call a unique id, and tags errors with the
// attempt and correlation id. Errors that belong to no call, or to a call
// index already taken, are loose.
func (r *run) collect(t *turn) {
	type entry struct {
		call toolcall.Call
		err  *toolcall.Error
	}
	attempt := len(r.attempts) + 1
	entries := make([]entry, 0, len(t.res.Calls)+len(t.res.Errors))
	for _, c := range t.res.Calls {
		entries = append(entries, entry{call: c})
	}
	for _, e := range t.res.Errors {
		e.Attempt, e.CorrelationID = attempt, r.id
		if e.CallIndex < 0 {
			t.loose = append(t.loose, e)
			continue
		}
		stored := toolcall.Call{ID: e.CallID, Name: r.storedName(e.Tool), Arguments: json.RawMessage("{}"), Index: e.CallIndex}
		entries = append(entries, entry{call: stored, err: e})
	}
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].call.Index < entries[j].call.Index })
	renumbered := map[int]int{} // the answer's call index → the turn's
	for _, en := range entries {
		old := en.call.Index
		if _, taken := renumbered[old]; taken && en.err != nil {
			t.loose = append(t.loose, en.err)
			continue
		}
		c := en.call
		c.Index = len(t.calls)
		if c.ID == "" || r.ids[c.ID] {
			c.ID = r.newID()
		}
		r.ids[c.ID] = true
		if en.err != nil {
			en.err.CallID, en.err.CallIndex = c.ID, c.Index
		}
		if _, taken := renumbered[old]; !taken {
			renumbered[old] = c.Index
		}
		t.calls = append(t.calls, c)
		t.errs = append(t.errs, en.err)
		t.written = append(t.written, writtenArguments(en.err, t.native))
	}
	for i, rep := range t.res.Repairs {
		if n, ok := renumbered[rep.CallIndex]; ok {
			t.res.Repairs[i].CallIndex = n
		}
	}
	if len(t.calls) == 0 && len(t.loose) == 0 && len(r.kept) == 0 && r.cfg.RequireToolCall {
		e := toolcall.NewError(toolcall.CodeMissingFunction, "the answer called no tool, and a tool call is required")
		e.Attempt, e.CorrelationID = attempt, r.id
		if r.tools != nil {
			e.Known = r.tools.Names()
		}
		t.loose = append(t.loose, e)
	}
}

func (r *run) newID() string {
	for {
		if id := toolcall.NewCallID(); !r.ids[id] {
			return id
		}
	}
}

// storedName is the name a failed call is stored under in history: a
// declared name as it is, anything else made safe to replay.
func (r *run) storedName(name string) string {
	if _, ok := r.tools.Lookup(name); ok {
		return name
	}
	return replayName(name)
}

// replayName makes a name safe to store in history: servers and templates
// expect [A-Za-z0-9_-], at most 64 bytes, non-empty.
func replayName(name string) string {
	var b strings.Builder
	for _, c := range []byte(strings.TrimSpace(name)) {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '-':
			b.WriteByte(c)
		default:
			b.WriteByte('_')
		}
		if b.Len() == dialects.MaxNameLength {
			break
		}
	}
	if b.Len() == 0 {
		return "invalid_call"
	}
	return b.String()
}

// keep saves a valid call of a failed turn for the final message, unless
// an equal call is already kept.
func (r *run) keep(t *turn, c toolcall.Call) {
	if r.isKept(c) {
		return
	}
	for _, rep := range t.res.Repairs {
		if rep.CallIndex == c.Index {
			rep.CallIndex = len(r.kept)
			r.keptRepairs = append(r.keptRepairs, rep)
		}
	}
	c.Index = len(r.kept)
	r.kept = append(r.kept, c)
}

// isKept reports whether a call with the same name and the same arguments
// (compared as values, not bytes) is already kept: a model told that its
// call was accepted sometimes makes it again.
func (r *run) isKept(c toolcall.Call) bool {
	var args any
	if json.Unmarshal(c.Arguments, &args) != nil {
		return false
	}
	for _, k := range r.kept {
		if k.Name != c.Name {
			continue
		}
		var other any
		if json.Unmarshal(k.Arguments, &other) == nil && reflect.DeepEqual(args, other) {
			return true
		}
	}
	return false
}

// outcome assembles the Outcome. The kept calls and the calls of the last
// turn t (nil when the run ended without a parsed answer) form the last
// assistant message; when t failed, its failed calls are answered there by
// their errors, so that History stays replay-safe.
func (r *run) outcome(t *turn) *Outcome {
	out := &Outcome{CorrelationID: r.id, Attempts: r.attempts, TransportRetries: r.used.transport}
	for _, a := range r.attempts {
		out.PromptTokens += a.PromptTokens
		out.CompletionTokens += a.CompletionTokens
	}
	res := &toolcall.Result{Calls: append([]toolcall.Call{}, r.kept...)}
	res.Repairs = append(res.Repairs, r.keptRepairs...)
	final := client.Message{Role: "assistant"}
	calls := append([]toolcall.Call(nil), r.kept...)
	var results []client.Message
	if t != nil {
		res.Content, res.Reasoning, res.Dialect = t.res.Content, t.res.Reasoning, t.res.Dialect
		final.Content, final.Reasoning = t.res.Content, t.res.Reasoning
		for i, c := range t.calls {
			e := t.errs[i]
			if e == nil && r.isKept(c) {
				continue // made again after it was accepted
			}
			old := c.Index
			c.Index = len(calls)
			calls = append(calls, c)
			if e != nil {
				moved := *e
				moved.CallIndex = c.Index
				res.Errors = append(res.Errors, &moved)
				text := r.reflectionText(e, c.ID, t, len(r.attempts), 0)
				results = append(results, client.Message{Role: "tool", Content: text, ToolCallID: c.ID, ToolName: c.Name})
				continue
			}
			res.Calls = append(res.Calls, c)
			for _, rep := range t.res.Repairs {
				if rep.CallIndex == old {
					rep.CallIndex = c.Index
					res.Repairs = append(res.Repairs, rep)
				}
			}
		}
		res.Errors = append(res.Errors, t.loose...)
	} else if n := len(r.attempts); n > 0 {
		res.Errors = r.attempts[n-1].Errors
	}
	out.History = append([]client.Message(nil), r.history...)
	if len(calls) > 0 {
		final.ToolCalls = calls
	}
	if len(final.ToolCalls) > 0 || final.Content != "" || final.Reasoning != "" {
		out.History = append(append(out.History, final), results...)
	}
	out.Result = res
	return out
}

// appendBoth adds a message to the conversation as sent and as handed back.
func (r *run) appendBoth(m client.Message) {
	r.sent = append(r.sent, m)
	r.history = append(r.history, m)
}

// sleep waits d, counted on att, and turns cancellation into TLP-022.
func (r *run) sleep(ctx context.Context, d time.Duration, att *Attempt) error {
	if err := ctx.Err(); err != nil {
		return r.canceled(err)
	}
	if d <= 0 {
		return nil
	}
	att.Wait += d
	sleep := SleepContext
	if r.l.Clock != nil {
		sleep = r.l.Clock.Sleep
	}
	if err := sleep(ctx, d); err != nil {
		if c := ctx.Err(); c != nil {
			return r.canceled(c)
		}
		return r.canceled(err)
	}
	return nil
}

func (r *run) canceled(cause error) *toolcall.Error {
	e := toolcall.Errorf(toolcall.CodeCanceled, cause, "the run was cancelled: "+cause.Error())
	return r.tagAt(e, len(r.attempts)+1)
}

// exhausted is the TLP-006 error of a budget that ran out, wrapping the
// last error.
func (r *run) exhausted(last error, budget string, size int) *toolcall.Error {
	return r.exhaustedAt(last, budget, size, len(r.attempts))
}

func (r *run) exhaustedAt(last error, budget string, size, attempts int) *toolcall.Error {
	msg := fmt.Sprintf("gave up after %d attempt(s): %s (%d) spent", attempts, budget, size)
	if codes := errorSummary(last); codes != "" {
		msg += "; last error: " + codes
	}
	e := toolcall.Errorf(toolcall.CodeRetriesExhausted, last, msg)
	var te *toolcall.Error
	if errors.As(last, &te) && te.Tool != "" {
		e.Tool = te.Tool
	}
	return r.tagAt(e, attempts)
}

// errorSummary lists the codes (and tool names, credential shapes
// redacted as in the log records) of an error or of joined errors, never
// their messages, which may come from a server.
func errorSummary(err error) string {
	var parts []string
	var walk func(error)
	walk = func(err error) {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
			return
		}
		var te *toolcall.Error
		if errors.As(err, &te) {
			s := string(te.Code)
			if te.Tool != "" {
				s += " (" + safeName(te.Tool) + ")"
			}
			parts = append(parts, s)
		}
	}
	walk(err)
	return strings.Join(parts, ", ")
}

// tag returns a copy of e carrying the run's correlation id and the
// current attempt number.
func (r *run) tag(e *toolcall.Error) *toolcall.Error {
	return r.tagAt(e, len(r.attempts)+1)
}

func (r *run) tagAt(e *toolcall.Error, attempt int) *toolcall.Error {
	cp := *e
	cp.CorrelationID = r.id
	if cp.Attempt == 0 {
		cp.Attempt = attempt
	}
	return &cp
}

// finish records the run in the statistics and logs its outcome.
func (r *run) finish(ctx context.Context, out *Outcome, err error) {
	if out != nil {
		out.Duration = r.l.now().Sub(r.start)
	}
	if r.l.Stats != nil {
		r.l.Stats.record(out, err)
	}
	r.logOutcome(ctx, out, err)
}

// SanitizeHistory returns a copy of msgs that is safe to replay: tool call
// arguments held as a JSON string that encodes an object (as OpenAI-style
// clients store them) are decoded, and any other arguments that are not a
// JSON object become {}, since a server that decodes the history would
// otherwise fail every later request. The messages themselves are not
// modified.
func SanitizeHistory(msgs []client.Message) []client.Message {
	out := append([]client.Message(nil), msgs...)
	for i, m := range out {
		bad := false
		for _, c := range m.ToolCalls {
			if !isJSONObject(c.Arguments) {
				bad = true
				break
			}
		}
		if !bad {
			continue
		}
		calls := append([]toolcall.Call(nil), m.ToolCalls...)
		for j := range calls {
			if !isJSONObject(calls[j].Arguments) {
				calls[j].Arguments = replayArguments(calls[j].Arguments)
			}
		}
		out[i].ToolCalls = calls
	}
	return out
}

// replayArguments decodes arguments that are a JSON string holding an
// object; anything else that is not an object becomes {}. Nothing is
// repaired: history is not the place to guess.
func replayArguments(args json.RawMessage) json.RawMessage {
	obj, _, err := arguments.Read(string(args), &lenient.Options{}, true)
	if err != nil {
		return json.RawMessage("{}")
	}
	return obj
}

// writtenArguments are a failed call's arguments as the model wrote them,
// nil unless they are a JSON object: the arguments read whole of a call
// off its schema (Error.Raw then holds them, repaired as they were read),
// or the arguments of a native call, whatever failed. Anything else (text
// that is not JSON, a leaked call's markup) is not an object a server
// would accept in a history: it is quoted in the call's tool result.
func writtenArguments(e *toolcall.Error, native bool) json.RawMessage {
	if e == nil || !native && e.Code != toolcall.CodeSchema {
		return nil
	}
	raw := json.RawMessage(strings.TrimSpace(e.Raw))
	if !isJSONObject(raw) {
		return nil
	}
	return raw
}

func isJSONObject(b json.RawMessage) bool {
	t := strings.TrimSpace(string(b))
	return len(t) > 0 && t[0] == '{' && json.Valid([]byte(t))
}
