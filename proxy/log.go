package proxy

import (
	"context"
	"log/slog"
	"sort"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/redact"
	"github.com/dialectkit/toolcall/retry"
)

const levelWarn = slog.LevelWarn

func attrString(k, v string) slog.Attr { return slog.String(k, v) }

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// finish tells the Observer about a request that ended and logs it: one
// record per request, with the keys package retry uses. Argument values
// are never logged: the record holds names, counts, codes and times.
func (c *core) finish(ctx context.Context, st *RequestStats, failure *toolcall.Error) {
	if st.Outcome == "" {
		st.Outcome = OutcomeUnchanged
	}
	if c.opts.Observer != nil {
		c.opts.Observer.ObserveRequest(st)
	}
	level := slog.LevelInfo
	switch {
	case st.Outcome == OutcomePassThrough:
		level = slog.LevelDebug
	case st.Outcome == OutcomeFailed, st.Outcome == OutcomeError && (failure == nil || failure.Code != toolcall.CodeCanceled):
		level = slog.LevelWarn
	}
	if !c.log.Enabled(ctx, level) {
		return
	}
	attrs := []slog.Attr{
		slog.String(retry.KeyCorrelationID, st.CorrelationID),
		slog.String("api", string(st.API)),
		slog.String("path", st.Path),
		slog.Int("status", st.Status),
		slog.String("outcome", st.Outcome),
	}
	if st.Outcome != OutcomePassThrough {
		attrs = append(attrs,
			slog.String(retry.KeyModel, st.Model),
			slog.String("dialect", st.Dialect),
			slog.Bool("stream", st.Stream),
			slog.Int("calls", st.Calls),
			slog.Any("fixed", sortedKeys(st.Fixed)),
			slog.Any(retry.KeyRepairApplied, sortedKeys(st.Repairs)),
			slog.Int(retry.KeyRetryCount, st.Retries),
			slog.Any("error_codes", st.ErrorCodes))
	}
	if failure != nil {
		attrs = append(attrs, slog.String(retry.KeyErrorCode, string(failure.Code)), slog.String("error", redact.Text(failure.Error())))
	}
	attrs = append(attrs,
		slog.Float64("upstream_ms", ms(st.Upstream)),
		slog.Float64("added_ms", ms(max(st.Total-st.Upstream, 0))),
		slog.Float64("duration_ms", ms(st.Total)))
	c.log.LogAttrs(ctx, level, "proxy request", attrs...)
}

// sortedKeys lists a count map as "kind=n" in key order.
func sortedKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	for i, k := range out {
		out[i] = k + "=" + itoa(m[k])
	}
	return out
}

// maxLoggedRaw bounds the raw output logged at DEBUG.
const maxLoggedRaw = 4096

// logCalls writes the DEBUG records of a fixed answer, as the retry loop
// does: one per repaired call with log_repair_details (kinds and details,
// never values), and, only with log_argument_values, each call's
// arguments and each failed call's text, secrets redacted.
func (q *chatCtx) logCalls(ctx context.Context, f *fixed) {
	log := q.c.log
	if !log.Enabled(ctx, slog.LevelDebug) || (!q.cfg.LogRepairDetails && !q.cfg.LogArgumentValues) {
		return
	}
	id := q.st.CorrelationID
	for _, c := range f.calls {
		if q.cfg.LogRepairDetails {
			var kinds, details []string
			for _, r := range f.repairs {
				if r.CallIndex == c.call.Index {
					kinds = append(kinds, string(r.Kind))
					details = append(details, r.String())
				}
			}
			if len(kinds) > 0 {
				log.LogAttrs(ctx, slog.LevelDebug, "tool call repaired",
					slog.String(retry.KeyCorrelationID, id),
					slog.String(retry.KeyToolName, redact.Text(c.call.Name)),
					slog.String(retry.KeyToolCallID, c.call.ID),
					slog.Any(retry.KeyRepairApplied, kinds),
					slog.Any("repair_details", details))
			}
		}
		if q.cfg.LogArgumentValues {
			log.LogAttrs(ctx, slog.LevelDebug, "tool call arguments",
				slog.String(retry.KeyCorrelationID, id),
				slog.String(retry.KeyToolName, redact.Text(c.call.Name)),
				slog.String(retry.KeyToolCallID, c.call.ID),
				slog.String("arguments", string(redact.JSON(c.call.Arguments))))
		}
	}
	if !q.cfg.LogArgumentValues {
		return
	}
	for _, e := range f.errors {
		raw := redact.Text(e.Raw)
		if len(raw) > maxLoggedRaw {
			raw = raw[:maxLoggedRaw] + "…"
		}
		log.LogAttrs(ctx, slog.LevelDebug, "tool call output",
			slog.String(retry.KeyCorrelationID, id),
			slog.String(retry.KeyToolName, redact.Text(e.Tool)),
			slog.String(retry.KeyErrorCode, string(e.Code)),
			slog.String("raw", raw))
	}
}
