package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dialectkit/toolcall/retry"
)

// Messages of the retry loop's records, as logged.
const (
	msgParsed    = "tool calls parsed"
	msgFailed    = "tool calls failed"
	msgExhausted = "tool call retries exhausted"
	msgRetry     = "tool call retry"
	msgRepaired  = "tool call repaired"
	msgOutput    = "tool call output"
	msgArguments = "tool call arguments"
	msgReask     = "tool call re-ask"
	msgTransport = "model request failed, retrying"
)

func isOutcome(msg string) bool { return msg == msgParsed || msg == msgFailed || msg == msgExhausted }

type statsFlags struct {
	since time.Duration
	json  bool
	now   func() time.Time
}

func newStatsCmd() *cobra.Command {
	f := statsFlags{now: time.Now}
	cmd := &cobra.Command{
		Use:   "stats [LOGFILE...]",
		Short: "Totals and rates of tool call handling, from the retry loop's logs",
		Long: `stats reads the records the retry loop logged (call --log-file, or any
program using the retry package with a slog handler), from the LOGFILEs or
standard input, as JSON lines or as slog's text (logfmt) form, and prints:
runs parsed at once, auto-repaired, recovered by retry and failed, with their
rates; repairs by kind; failures by error code; runs per model and calls per
tool; average and p95 parse, repair and retry times; tokens spent on retries.
docs/logging.md describes the records.`,
		Example: `  dialect-probe stats agent.log
  dialect-probe stats --since 24h --json agent.log old.log
  tail -n 10000 agent.log | dialect-probe stats`,
		RunE: func(cmd *cobra.Command, args []string) error {
			recs, skipped, err := readLogs(args, cmd.InOrStdin())
			if err != nil {
				return err
			}
			st := computeStats(recs, f.since, f.now())
			st.Skipped = skipped
			if f.json {
				return writeJSON(cmd.OutOrStdout(), st)
			}
			printStats(cmd.OutOrStdout(), st)
			return nil
		},
	}
	cmd.Flags().DurationVar(&f.since, "since", 0, "only records of the last DURATION (24h, 90m); records without a time are kept")
	cmd.Flags().BoolVar(&f.json, "json", false, "print the statistics as JSON")
	return cmd
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// timing is the average and 95th percentile of a set of durations, in
// milliseconds.
type timing struct {
	Count int     `json:"count"`
	AvgMS float64 `json:"avg_ms"`
	P95MS float64 `json:"p95_ms"`
}

// logStats are the statistics of a set of records.
type logStats struct {
	Records int `json:"records"`
	Skipped int `json:"skipped_lines"`
	Runs    int `json:"runs"`
	// Outcomes of the runs: parsed at once, auto-repaired, recovered by
	// retry, failed; Rates are the same as fractions of Runs.
	ParsedAtOnce    int                `json:"parsed_at_once"`
	AutoRepaired    int                `json:"auto_repaired"`
	RecoveredRetry  int                `json:"recovered_by_retry"`
	Failed          int                `json:"failed"`
	Rates           map[string]float64 `json:"rates"`
	Retries         int                `json:"retries"`
	RepairsByKind   map[string]int     `json:"repairs_by_kind"`
	FailedRunsBy    map[string]int     `json:"failed_runs_by_code"`
	CallErrorsBy    map[string]int     `json:"call_errors_by_code"`
	RunsByModel     map[string]int     `json:"runs_by_model"`
	CallsByTool     map[string]int     `json:"calls_by_tool"`
	ParseTime       timing             `json:"parse_time"`
	RepairTime      timing             `json:"repair_time"`
	RetryTime       timing             `json:"retry_time"`
	TotalTokens     int                `json:"total_tokens"`
	RetryTokens     int                `json:"retry_tokens"`
	TransportErrors int                `json:"transport_retries"`
}

func computeStats(recs []logRecord, since time.Duration, now time.Time) *logStats {
	st := &logStats{Rates: map[string]float64{}, RepairsByKind: map[string]int{}, FailedRunsBy: map[string]int{},
		CallErrorsBy: map[string]int{}, RunsByModel: map[string]int{}, CallsByTool: map[string]int{}}
	var parse, repair, retryT []float64
	for _, r := range recs {
		if since > 0 {
			if t, ok := r.time(); ok && now.Sub(t) > since {
				continue
			}
		}
		st.Records++
		switch msg := r.msg(); {
		case isOutcome(msg):
			st.Runs++
			switch r.str(retry.KeyParseResult) {
			case retry.ParseSuccess:
				st.ParsedAtOnce++
			case retry.ParseRepaired:
				st.AutoRepaired++
			case retry.ParseRetry:
				st.RecoveredRetry++
			default:
				st.Failed++
				code := r.str(retry.KeyErrorCode)
				if code == "" {
					code = "(none)"
				}
				st.FailedRunsBy[code]++
			}
			if n, ok := r.num(retry.KeyRetryCount); ok {
				st.Retries += int(n)
			}
			for _, k := range r.list(retry.KeyRepairApplied) {
				st.RepairsByKind[k]++
			}
			if m := r.str(retry.KeyModel); m != "" {
				st.RunsByModel[m]++
			}
			for _, t := range r.list("tool_names") {
				st.CallsByTool[t]++
			}
			if v, ok := r.num(retry.KeyParseTimeMS); ok {
				parse = append(parse, v)
			}
			if v, ok := r.num(retry.KeyRetryTimeMS); ok && r.str(retry.KeyParseResult) == retry.ParseRetry {
				retryT = append(retryT, v)
			}
			if v, ok := r.num(retry.KeyTotalTokens); ok {
				st.TotalTokens += int(v)
			}
			if v, ok := r.num(retry.KeyRetryTokens); ok {
				st.RetryTokens += int(v)
			}
		case msg == msgRetry:
			if code := r.str(retry.KeyErrorCode); code != "" {
				st.CallErrorsBy[code]++
			}
		case msg == msgRepaired:
			if v, ok := r.num(retry.KeyRepairTimeMS); ok {
				repair = append(repair, v)
			}
		case msg == msgTransport:
			st.TransportErrors++
		}
	}
	if st.Runs > 0 {
		n := float64(st.Runs)
		st.Rates["parsed_at_once"] = round4(float64(st.ParsedAtOnce) / n)
		st.Rates["auto_repaired"] = round4(float64(st.AutoRepaired) / n)
		st.Rates["recovered_by_retry"] = round4(float64(st.RecoveredRetry) / n)
		st.Rates["failed"] = round4(float64(st.Failed) / n)
	}
	st.ParseTime, st.RepairTime, st.RetryTime = timingOf(parse), timingOf(repair), timingOf(retryT)
	return st
}

func round4(f float64) float64 { return math.Round(f*10000) / 10000 }

// timingOf is the average and nearest-rank 95th percentile of ms.
func timingOf(ms []float64) timing {
	if len(ms) == 0 {
		return timing{}
	}
	s := slices.Clone(ms)
	slices.Sort(s)
	sum := 0.0
	for _, v := range s {
		sum += v
	}
	rank := int(math.Ceil(0.95*float64(len(s)))) - 1
	return timing{Count: len(s), AvgMS: round4(sum / float64(len(s))), P95MS: s[max(rank, 0)]}
}

func printStats(w io.Writer, st *logStats) {
	fmt.Fprintf(w, "records: %d", st.Records)
	if st.Skipped > 0 {
		fmt.Fprintf(w, " (%d lines skipped: not log records)", st.Skipped)
	}
	fmt.Fprintf(w, "\nruns: %d\n", st.Runs)
	if st.Runs > 0 {
		pct := func(n int) string { return fmt.Sprintf("%d (%.1f%%)", n, 100*float64(n)/float64(st.Runs)) }
		fmt.Fprintf(w, "  parsed at once:      %s\n", pct(st.ParsedAtOnce))
		fmt.Fprintf(w, "  auto-repaired:       %s\n", pct(st.AutoRepaired))
		fmt.Fprintf(w, "  recovered by retry:  %s\n", pct(st.RecoveredRetry))
		fmt.Fprintf(w, "  failed:              %s\n", pct(st.Failed))
	}
	fmt.Fprintf(w, "retries: %d, transport retries: %d\n", st.Retries, st.TransportErrors)
	printCounts(w, "repairs by kind (runs)", st.RepairsByKind)
	printCounts(w, "failed runs by code", st.FailedRunsBy)
	printCounts(w, "call errors by code (retried calls)", st.CallErrorsBy)
	printCounts(w, "runs by model", st.RunsByModel)
	printCounts(w, "calls by tool", st.CallsByTool)
	for _, t := range []struct {
		name string
		t    timing
	}{{"parse time", st.ParseTime}, {"repair time", st.RepairTime}, {"retry time", st.RetryTime}} {
		if t.t.Count > 0 {
			fmt.Fprintf(w, "%s: avg %.2f ms, p95 %.2f ms (%d)\n", t.name, t.t.AvgMS, t.t.P95MS, t.t.Count)
		}
	}
	fmt.Fprintf(w, "tokens: %d, of which on retries: %d\n", st.TotalTokens, st.RetryTokens)
}

// printCounts prints a count table, largest first.
func printCounts(w io.Writer, title string, m map[string]int) {
	if len(m) == 0 {
		return
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	fmt.Fprintf(w, "%s: %s\n", title, strings.Join(parts, ", "))
}
