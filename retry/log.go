package retry

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/redact"
)

// Attribute keys of the loop's log records.
const (
	KeyCorrelationID    = "correlation_id"
	KeyToolName         = "tool_name"
	KeyToolCallID       = "tool_call_id"
	KeyParseResult      = "parse_result" // success | repaired | retry | fail
	KeyRepairApplied    = "repair_applied"
	KeyRetryCount       = "retry_count"
	KeyValidationErrors = "validation_errors"
	KeyParseTimeMS      = "parse_time_ms"
	KeyRepairTimeMS     = "repair_time_ms"
	KeyRetryTimeMS      = "retry_time_ms"
	KeyTotalTokens      = "total_tokens"
	KeyErrorCode        = "error_code"
	KeyErrorPosition    = "error_position"
	KeyModel            = "model"
	KeyRetryTokens      = "retry_tokens" // tokens of the attempts after the first
)

// Values of parse_result.
const (
	ParseSuccess  = "success"  // valid at the first attempt, nothing repaired
	ParseRepaired = "repaired" // valid at the first attempt after repair
	ParseRetry    = "retry"    // a retry was needed (or, on a retry record, is made)
	ParseFail     = "fail"     // the run ended without valid calls
)

func (r *run) enabled(ctx context.Context, level slog.Level) bool {
	return r.log != nil && r.log.Enabled(ctx, level)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// logTurn writes the DEBUG records of a parsed answer: one per repaired call
// (with log_repair_details), and the arguments, secrets redacted, only with
// log_argument_values.
func (r *run) logTurn(ctx context.Context, t *turn, att *Attempt) {
	if !r.enabled(ctx, slog.LevelDebug) {
		return
	}
	for i, c := range t.calls {
		if r.cfg.LogRepairDetails {
			var kinds, details []string
			for _, rep := range t.res.Repairs {
				if rep.CallIndex == c.Index {
					kinds = append(kinds, string(rep.Kind))
					details = append(details, rep.String())
				}
			}
			if len(kinds) > 0 {
				// Repair runs inside the parse step, which bounds its time.
				r.log.LogAttrs(ctx, slog.LevelDebug, "tool call repaired",
					slog.String(KeyCorrelationID, r.id),
					slog.String(KeyToolName, safeName(c.Name)),
					slog.String(KeyToolCallID, c.ID),
					slog.String(KeyParseResult, ParseRepaired),
					slog.Any(KeyRepairApplied, kinds),
					slog.Any("repair_details", details),
					slog.Int(KeyRetryCount, att.Number-1),
					slog.Float64(KeyParseTimeMS, ms(att.ParseTime)),
					slog.Float64(KeyRepairTimeMS, ms(att.ParseTime)))
			}
		}
		if !r.cfg.LogArgumentValues {
			continue
		}
		if e := t.errs[i]; e != nil {
			r.log.LogAttrs(ctx, slog.LevelDebug, "tool call output",
				slog.String(KeyCorrelationID, r.id),
				slog.String(KeyToolName, safeName(c.Name)),
				slog.String(KeyToolCallID, c.ID),
				slog.String(KeyErrorCode, string(e.Code)),
				slog.String("raw", redactedExcerpt(e.Raw, maxLoggedRaw)))
			continue
		}
		r.log.LogAttrs(ctx, slog.LevelDebug, "tool call arguments",
			slog.String(KeyCorrelationID, r.id),
			slog.String(KeyToolName, safeName(c.Name)),
			slog.String(KeyToolCallID, c.ID),
			slog.String("arguments", string(redact.JSON(c.Arguments))))
	}
}

// maxLoggedRaw bounds the raw output logged at DEBUG.
const maxLoggedRaw = 4096

// logRetry writes the INFO record of a retry about to be made: one per
// reflected call, or one for a truncation or a rejected request. The text
// sent back quotes the model's output, so it is logged only at DEBUG with
// log_argument_values, redacted.
func (r *run) logRetry(ctx context.Context, att *Attempt, reason string) {
	if !r.enabled(ctx, slog.LevelInfo) {
		return
	}
	base := []slog.Attr{
		slog.String(KeyCorrelationID, r.id),
		slog.String(KeyModel, r.req.Model),
		slog.String(KeyParseResult, ParseRetry),
		slog.Int(KeyRetryCount, att.Number),
		slog.String("reason", reason),
		slog.Int(KeyTotalTokens, r.tokens()),
		slog.Float64(KeyRetryTimeMS, ms(att.Duration())),
	}
	if reason != ReasonReflection {
		code := ""
		if len(att.Errors) > 0 {
			code = string(att.Errors[0].Code)
		}
		attrs := append(base, slog.String(KeyErrorCode, code))
		if reason == ReasonTruncation {
			attrs = append(attrs, slog.Int("max_tokens", r.req.MaxTokens))
		}
		r.log.LogAttrs(ctx, slog.LevelInfo, "tool call retry", attrs...)
		r.logSent(ctx, att)
		return
	}
	for _, e := range att.Errors {
		attrs := append(append([]slog.Attr(nil), base...),
			slog.String(KeyToolName, safeName(e.Tool)),
			slog.String(KeyToolCallID, e.CallID),
			slog.String(KeyErrorCode, string(e.Code)),
			slog.Int(KeyErrorPosition, e.Offset),
			slog.Any(KeyValidationErrors, violationPaths(e)))
		r.log.LogAttrs(ctx, slog.LevelInfo, "tool call retry", attrs...)
	}
	r.logSent(ctx, att)
}

func (r *run) logSent(ctx context.Context, att *Attempt) {
	if !r.cfg.LogArgumentValues || !r.enabled(ctx, slog.LevelDebug) {
		return
	}
	for _, rf := range att.Reflections {
		r.log.LogAttrs(ctx, slog.LevelDebug, "tool call re-ask",
			slog.String(KeyCorrelationID, r.id),
			slog.String(KeyToolName, safeName(rf.Tool)),
			slog.String(KeyToolCallID, rf.CallID),
			slog.String("text", redactedReflection(rf, att.Errors, r.cfg.MaxReflectedExcerpt)))
	}
}

// redactedExcerpt bounds s for a log record, secrets redacted. Redaction
// comes first: an excerpt can cut a secret in two, and the part after the
// cut, without its key, is no longer recognisable as a secret.
func redactedExcerpt(s string, limit int) string {
	return Excerpt(redact.Text(s), limit)
}

// redactedReflection is the text of a re-ask as it may be logged. The text
// quotes an excerpt of the model's output (or of the server's message):
// that excerpt is replaced by one taken from the redacted source, for the
// reason redactedExcerpt gives, before the whole is redacted.
func redactedReflection(rf Reflection, errs []*toolcall.Error, excerpt int) string {
	text := rf.Text
	for _, e := range errs {
		if e.CallID != rf.CallID || e.Code != rf.Code {
			continue
		}
		sources := []string{e.Raw}
		var te *client.TransportError
		if errors.As(e, &te) {
			sources = append(sources, te.Message)
		}
		for _, src := range sources {
			if ex := Excerpt(src, excerpt); ex != "" && strings.Contains(text, ex) {
				text = strings.Replace(text, ex, redactedExcerpt(src, excerpt), 1)
			}
		}
	}
	return redact.Text(text)
}

// violationPaths lists a schema error's violations as "path keyword",
// which name places in the arguments and never their values; a key shaped
// like a credential is redacted.
func violationPaths(e *toolcall.Error) []string {
	out := make([]string, 0, len(e.Violations))
	for _, v := range e.Violations {
		p := v.Path
		if p == "" {
			p = "/"
		}
		out = append(out, safeName(p)+" "+v.Keyword)
	}
	return out
}

// safeName is a tool name or an argument path as it may be logged: a model
// can put a credential there too (a key named after a token), so the
// shapes of credentials are redacted in it as in values.
func safeName(s string) string { return redact.Text(s) }

// logTransport writes the INFO record of a transport retry. The server's
// message may quote model output: DEBUG with log_argument_values only.
func (r *run) logTransport(ctx context.Context, att *Attempt, te *client.TransportError, coded *toolcall.Error, wait time.Duration) {
	if !r.enabled(ctx, slog.LevelInfo) {
		return
	}
	status := 0
	if te != nil {
		status = te.StatusCode
	}
	r.log.LogAttrs(ctx, slog.LevelInfo, "model request failed, retrying",
		slog.String(KeyCorrelationID, r.id),
		slog.String(KeyErrorCode, string(coded.Code)),
		slog.Int("http_status", status),
		slog.Int("transport_retry", r.used.transport),
		slog.Int(KeyRetryCount, att.Number-1),
		slog.Float64("wait_ms", ms(wait)))
	if te != nil && te.Message != "" && r.cfg.LogArgumentValues && r.enabled(ctx, slog.LevelDebug) {
		r.log.LogAttrs(ctx, slog.LevelDebug, "model server message",
			slog.String(KeyCorrelationID, r.id),
			slog.String("server_message", redactedExcerpt(te.Message, maxLoggedRaw)))
	}
}

// logOutcome writes the final record: INFO for success or cancellation,
// WARN when a budget ran out or the model could not be used.
func (r *run) logOutcome(ctx context.Context, out *Outcome, err error) {
	level := slog.LevelInfo
	var coded *toolcall.Error
	if err != nil && (!asCoded(err, &coded) || coded.Code != toolcall.CodeCanceled) {
		level = slog.LevelWarn
	}
	if !r.enabled(ctx, level) {
		return
	}
	attrs := []slog.Attr{slog.String(KeyCorrelationID, r.id), slog.String(KeyModel, r.req.Model)}
	if out != nil {
		var parse, retry time.Duration
		retryTokens := 0
		for i, a := range out.Attempts {
			parse += a.ParseTime
			if i > 0 {
				retry += a.Duration()
				retryTokens += a.PromptTokens + a.CompletionTokens
			}
		}
		attrs = append(attrs,
			slog.String(KeyParseResult, parseResult(out, err)),
			slog.Int(KeyRetryCount, max(len(out.Attempts)-1, 0)),
			slog.Int("calls", len(out.Result.Calls)),
			slog.Any("tool_names", callNames(out.Result.Calls)),
			slog.Any(KeyRepairApplied, repairKinds(out.Result.Repairs)),
			slog.Int(KeyTotalTokens, out.TotalTokens()),
			slog.Int(KeyRetryTokens, retryTokens),
			slog.Int("transport_retries", out.TransportRetries),
			slog.Float64(KeyParseTimeMS, ms(parse)),
			slog.Float64(KeyRetryTimeMS, ms(retry)),
			slog.Float64("duration_ms", ms(out.Duration)))
	} else {
		attrs = append(attrs, slog.String(KeyParseResult, ParseFail))
	}
	msg := "tool calls parsed"
	if err != nil {
		msg = "tool calls failed"
		if coded != nil {
			attrs = append(attrs, slog.String(KeyErrorCode, string(coded.Code)))
			if coded.Code == toolcall.CodeRetriesExhausted {
				msg = "tool call retries exhausted"
				attrs = append(attrs, slog.String("last_error", errorSummary(coded.Err)))
			}
		}
	}
	r.log.LogAttrs(ctx, level, msg, attrs...)
}

func asCoded(err error, target **toolcall.Error) bool {
	e, ok := err.(*toolcall.Error)
	if ok {
		*target = e
	}
	return ok
}

func parseResult(out *Outcome, err error) string {
	switch {
	case err != nil:
		return ParseFail
	case len(out.Attempts) > 1:
		return ParseRetry
	case len(out.Result.Repairs) > 0:
		return ParseRepaired
	}
	return ParseSuccess
}

func callNames(calls []toolcall.Call) []string {
	out := make([]string, len(calls))
	for i, c := range calls {
		out[i] = safeName(c.Name)
	}
	return out
}

func repairKinds(reps []toolcall.Repair) []string {
	var out []string
	seen := map[toolcall.RepairKind]bool{}
	for _, r := range reps {
		if !seen[r.Kind] {
			seen[r.Kind] = true
			out = append(out, string(r.Kind))
		}
	}
	return out
}

func (r *run) tokens() int {
	n := 0
	for _, a := range r.attempts {
		n += a.PromptTokens + a.CompletionTokens
	}
	return n
}
