package proxy

import (
	"context"
	"log/slog"
	"sort"
	"time"

	"github.com/dialectkit/toolcall"
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
		attrs = append(attrs, slog.String(retry.KeyErrorCode, string(failure.Code)), slog.String("error", failure.Error()))
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
