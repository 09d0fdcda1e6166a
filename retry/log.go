package retry

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
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
					slog.String(KeyToolName, c.Name),
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
				slog.String(KeyToolName, c.Name),
				slog.String(KeyToolCallID, c.ID),
				slog.String(KeyErrorCode, string(e.Code)),
				slog.String("raw", redactedExcerpt(e.Raw, maxLoggedRaw)))
			continue
		}
		r.log.LogAttrs(ctx, slog.LevelDebug, "tool call arguments",
			slog.String(KeyCorrelationID, r.id),
			slog.String(KeyToolName, c.Name),
			slog.String(KeyToolCallID, c.ID),
			slog.String("arguments", string(Redact(c.Arguments))))
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
			slog.String(KeyToolName, e.Tool),
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
			slog.String(KeyToolName, rf.Tool),
			slog.String(KeyToolCallID, rf.CallID),
			slog.String("text", redactedReflection(rf, att.Errors)))
	}
}

// redactedExcerpt bounds s for a log record, secrets redacted. Redaction
// comes first: an excerpt can cut a secret in two, and the part after the
// cut, without its key, is no longer recognisable as a secret.
func redactedExcerpt(s string, limit int) string {
	return Excerpt(RedactText(s), limit)
}

// redactedReflection is the text of a re-ask as it may be logged. The text
// quotes an excerpt of the model's output (or of the server's message):
// that excerpt is replaced by one taken from the redacted source, for the
// reason redactedExcerpt gives, before the whole is redacted.
func redactedReflection(rf Reflection, errs []*toolcall.Error) string {
	text := rf.Text
	for _, e := range errs {
		if e.CallID != rf.CallID || e.Code != rf.Code {
			continue
		}
		sources := []string{e.Raw}
		var te *TransportError
		if errors.As(e, &te) {
			sources = append(sources, te.Message)
		}
		for _, src := range sources {
			if ex := Excerpt(src, MaxExcerpt); ex != "" && strings.Contains(text, ex) {
				text = strings.Replace(text, ex, redactedExcerpt(src, MaxExcerpt), 1)
			}
		}
	}
	return RedactText(text)
}

// violationPaths lists a schema error's violations as "path keyword",
// which name places in the arguments and never their values.
func violationPaths(e *toolcall.Error) []string {
	out := make([]string, 0, len(e.Violations))
	for _, v := range e.Violations {
		p := v.Path
		if p == "" {
			p = "/"
		}
		out = append(out, p+" "+v.Keyword)
	}
	return out
}

// logTransport writes the INFO record of a transport retry. The server's
// message may quote model output: DEBUG with log_argument_values only.
func (r *run) logTransport(ctx context.Context, att *Attempt, te *TransportError, coded *toolcall.Error, wait time.Duration) {
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
	attrs := []slog.Attr{slog.String(KeyCorrelationID, r.id)}
	if out != nil {
		var parse, retry time.Duration
		for i, a := range out.Attempts {
			parse += a.ParseTime
			if i > 0 {
				retry += a.Duration()
			}
		}
		attrs = append(attrs,
			slog.String(KeyParseResult, parseResult(out, err)),
			slog.Int(KeyRetryCount, max(len(out.Attempts)-1, 0)),
			slog.Int("calls", len(out.Result.Calls)),
			slog.Any("tool_names", callNames(out.Result.Calls)),
			slog.Any(KeyRepairApplied, repairKinds(out.Result.Repairs)),
			slog.Int(KeyTotalTokens, out.TotalTokens()),
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
		out[i] = c.Name
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

// Redaction.

// Redacted replaces a secret value.
const Redacted = "[REDACTED]"

// secretKeyWords mark a key whose value is a secret, matched in the key
// lower-cased with everything but letters and digits removed.
var secretKeyWords = []string{
	"password", "passwd", "passphrase", "secret", "token", "apikey", "accesskey",
	"privatekey", "authorization", "credential", "cookie", "sessionid", "bearer",
}

func secretKey(key string) bool {
	var b strings.Builder
	for _, r := range strings.ToLower(key) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		}
	}
	k := b.String()
	if k == "auth" || k == "pwd" || k == "pin" {
		return true
	}
	for _, w := range secretKeyWords {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

// secretValues match secrets by their shape, wherever they appear.
var secretValues = []struct {
	re   *regexp.Regexp
	repl string
}{
	{regexp.MustCompile(`(?i)\b(bearer|basic|token)\s+[A-Za-z0-9\-._~+/]{8,}=*`), "$1 " + Redacted},
	{regexp.MustCompile(`\bsk-[A-Za-z0-9_\-]{8,}`), Redacted},
	{regexp.MustCompile(`\b(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{16,}`), Redacted},
	{regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}`), Redacted},
	{regexp.MustCompile(`\bAKIA[0-9A-Z]{16}\b`), Redacted},
	{regexp.MustCompile(`\bAIza[0-9A-Za-z_\-]{35}`), Redacted},
	{regexp.MustCompile(`\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`), Redacted},
	{regexp.MustCompile(`-----BEGIN [A-Z ]*PRIVATE KEY-----(?s:.*?)(?:-----END [A-Z ]*PRIVATE KEY-----|$)`), Redacted},
}

// secretPairs match "key": value pairs (JSON, Python, YAML-ish, tagged
// parameters) whose key names a secret, in text that is not JSON.
var secretPairs = []*regexp.Regexp{
	regexp.MustCompile(`(?i)(["']?[A-Za-z0-9_.\-]*(?:password|passwd|passphrase|secret|token|api[_\-]?key|access[_\-]?key|private[_\-]?key|authorization|credential|cookie)[A-Za-z0-9_.\-]*["']?\s*[:=]\s*)("(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|[^\s,;}\])]+)`),
	regexp.MustCompile(`(?is)(<(?:parameter|param|arg|argument)\b[^>]*(?:password|passwd|secret|token|key|authorization|credential)[^>]*>)(.*?)(</|$)`),
	regexp.MustCompile(`(?is)(<arg_key>[^<]*(?:password|passwd|secret|token|key|authorization|credential)[^<]*</arg_key>\s*<arg_value>)(.*?)(</arg_value>|$)`),
}

// Redact returns args with secret values replaced by "[REDACTED]": the value
// of every key that names a secret (password, token, api_key, secret,
// authorization, …), at any depth, and any string that looks like a
// credential (bearer tokens, sk-… keys, GitHub and Slack tokens, AWS key
// ids, JWTs, private keys). Keys and their order are kept. Text that is not
// JSON is redacted as text and returned as a JSON string.
func Redact(args json.RawMessage) json.RawMessage {
	if !gjson.ValidBytes(args) {
		return json.RawMessage(strconv.Quote(RedactText(string(args))))
	}
	var b bytes.Buffer
	redactValue(&b, gjson.ParseBytes(args), false)
	return b.Bytes()
}

func redactValue(b *bytes.Buffer, v gjson.Result, secret bool) {
	switch {
	case secret:
		b.WriteString(`"` + Redacted + `"`)
	case v.IsObject():
		b.WriteByte('{')
		first := true
		v.ForEach(func(k, val gjson.Result) bool {
			if !first {
				b.WriteByte(',')
			}
			first = false
			b.WriteString(k.Raw)
			b.WriteByte(':')
			redactValue(b, val, secretKey(k.String()))
			return true
		})
		b.WriteByte('}')
	case v.IsArray():
		b.WriteByte('[')
		for i, item := range v.Array() {
			if i > 0 {
				b.WriteByte(',')
			}
			redactValue(b, item, false)
		}
		b.WriteByte(']')
	case v.Type == gjson.String:
		s := v.String()
		if red := redactShapes(s); red != s {
			out, _ := json.Marshal(red)
			b.Write(out)
			return
		}
		b.WriteString(v.Raw)
	default:
		b.WriteString(v.Raw)
	}
}

func redactShapes(s string) string {
	for _, p := range secretValues {
		s = p.re.ReplaceAllString(s, p.repl)
	}
	return s
}

// RedactText redacts secrets in text that may not be JSON (a model's raw
// output, a server message): values of keys that name a secret, in JSON,
// Python, key=value or tagged-parameter syntax, and credential-shaped
// strings.
func RedactText(s string) string {
	for _, re := range secretPairs[:1] {
		s = re.ReplaceAllString(s, `${1}"`+Redacted+`"`)
	}
	for _, re := range secretPairs[1:] {
		s = re.ReplaceAllString(s, `${1}`+Redacted+`${3}`)
	}
	return redactShapes(s)
}
