package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/dialectkit/toolcall/redact"
	"github.com/dialectkit/toolcall/retry"
)

func newDebugCmd() *cobra.Command {
	var id string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "debug --correlation-id ID [LOGFILE...]",
		Short: "Everything the logs say about one run, attempt by attempt",
		Long: `debug reads the retry loop's records (JSON lines or logfmt, from the LOGFILEs
or standard input) and prints everything about the run with that correlation
id, attempt by attempt: each failed call's tool, call id and error code, the
validation result, the error with a caret under its position, the repairs
made, what was sent back, transport retries, and the outcome.

Argument values and raw model output appear only when the log was written at
DEBUG with log_argument_values on, and then with secrets already redacted by
the logger: debug shows what the log holds and nothing more.`,
		Example: `  dialect-probe debug --correlation-id 3k9x7f2a agent.log`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if id == "" {
				return errors.New("--correlation-id is required")
			}
			recs, _, err := readLogs(args, cmd.InOrStdin())
			if err != nil {
				return err
			}
			run := collectRun(recs, id)
			if len(run.Records) == 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "dialect-probe: no record has correlation id %q\n", id)
				return exitError{1}
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), run)
			}
			printRun(cmd.OutOrStdout(), run)
			return nil
		},
	}
	cmd.Flags().StringVar(&id, "correlation-id", "", "the run's correlation id (required)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the run's records, grouped by attempt, as JSON")
	return cmd
}

// debugRun is one run's records grouped by attempt.
type debugRun struct {
	CorrelationID string          `json:"correlation_id"`
	Model         string          `json:"model,omitempty"`
	Records       []logRecord     `json:"-"`
	Attempts      []*debugAttempt `json:"attempts"`
	Outcome       logRecord       `json:"outcome,omitempty"`
}

type debugAttempt struct {
	Number  int         `json:"number"`
	Records []logRecord `json:"records"`
}

// collectRun gathers the records of one correlation id. A record that says
// which attempt it belongs to (retry_count) places it; the others (the
// arguments and raw output logged as an answer is parsed) belong to the
// attempt after the last retry record before them.
func collectRun(recs []logRecord, id string) *debugRun {
	run := &debugRun{CorrelationID: id}
	cur, afterRetry := 1, false
	attempt := func(n int) *debugAttempt {
		for _, a := range run.Attempts {
			if a.Number == n {
				return a
			}
		}
		a := &debugAttempt{Number: n}
		run.Attempts = append(run.Attempts, a)
		return a
	}
	for _, r := range recs {
		if r.str(retry.KeyCorrelationID) != id {
			continue
		}
		run.Records = append(run.Records, r)
		if m := r.str(retry.KeyModel); m != "" && run.Model == "" {
			run.Model = m
		}
		msg := r.msg()
		n, has := r.num(retry.KeyRetryCount)
		switch {
		case isOutcome(msg):
			run.Outcome = r
			continue
		case msg == msgRetry && has:
			cur, afterRetry = int(n), true
		case (msg == msgRepaired || msg == msgTransport) && has:
			cur, afterRetry = int(n)+1, false
		case msg == msgReask:
			// What was sent back after the attempt that failed.
		case afterRetry:
			cur, afterRetry = cur+1, false
		}
		a := attempt(cur)
		a.Records = append(a.Records, r)
	}
	return run
}

func printRun(w io.Writer, run *debugRun) {
	fmt.Fprintf(w, "run %s", run.CorrelationID)
	if run.Model != "" {
		fmt.Fprintf(w, " (model %s)", run.Model)
	}
	fmt.Fprintf(w, ": %d record(s)\n", len(run.Records))
	for _, a := range run.Attempts {
		fmt.Fprintf(w, "attempt %d:\n", a.Number)
		raws := map[string]logRecord{} // call id → its raw output record
		for _, r := range a.Records {
			if r.msg() == msgOutput {
				raws[r.str(retry.KeyToolCallID)] = r
			}
		}
		for _, r := range a.Records {
			switch r.msg() {
			case msgRetry:
				printRetry(w, r, raws)
			case msgRepaired:
				fmt.Fprintf(w, "  repaired: tool %s, call %s: %s\n", r.str(retry.KeyToolName), r.str(retry.KeyToolCallID),
					strings.Join(orList(r.list("repair_details"), r.list(retry.KeyRepairApplied)), ", "))
			case msgArguments:
				fmt.Fprintf(w, "  valid: tool %s, call %s, arguments %s\n", r.str(retry.KeyToolName), r.str(retry.KeyToolCallID), redactArgs(r.str("arguments")))
			case msgOutput:
				if !retried(a, r.str(retry.KeyToolCallID)) {
					fmt.Fprintf(w, "  output of call %s (%s): %s\n", r.str(retry.KeyToolCallID), r.str(retry.KeyErrorCode), oneLine(redact.Text(r.str("raw"))))
				}
			case msgReask:
				fmt.Fprintf(w, "  sent back for call %s:\n", r.str(retry.KeyToolCallID))
				for _, line := range strings.Split(redact.Text(r.str("text")), "\n") {
					fmt.Fprintf(w, "    | %s\n", line)
				}
			case msgTransport:
				fmt.Fprintf(w, "  transport: %s (HTTP %s), retrying after %s ms\n", r.str(retry.KeyErrorCode), r.str("http_status"), r.str("wait_ms"))
			default:
				fmt.Fprintf(w, "  %s: %s\n", r.str("level"), r.msg())
			}
		}
	}
	o := run.Outcome
	if o == nil {
		fmt.Fprintln(w, "outcome: not logged (the run is still going, or its record is in another file)")
		return
	}
	fmt.Fprintf(w, "outcome: %s (%s)", o.str(retry.KeyParseResult), o.msg())
	if c := o.str(retry.KeyErrorCode); c != "" {
		fmt.Fprintf(w, ", %s", c)
	}
	repairs := strings.Join(o.list(retry.KeyRepairApplied), ", ")
	if repairs == "" {
		repairs = "none"
	}
	fmt.Fprintf(w, "; %s call(s): %s; retries %s; repairs: %s\n", o.str("calls"), strings.Join(o.list("tool_names"), ", "),
		o.str(retry.KeyRetryCount), repairs)
	fmt.Fprintf(w, "tokens: %s (retries: %s); parse %s ms, retries %s ms, total %s ms\n", o.str(retry.KeyTotalTokens), o.str(retry.KeyRetryTokens),
		o.str(retry.KeyParseTimeMS), o.str(retry.KeyRetryTimeMS), o.str("duration_ms"))
	if last := o.str("last_error"); last != "" {
		fmt.Fprintf(w, "last error: %s\n", last)
	}
}

func orList(a, b []string) []string {
	if len(a) > 0 {
		return a
	}
	return b
}

// retried reports whether the attempt has a retry record for the call.
func retried(a *debugAttempt, callID string) bool {
	for _, r := range a.Records {
		if r.msg() == msgRetry && r.str(retry.KeyToolCallID) == callID {
			return true
		}
	}
	return false
}

// printRetry prints a failed call: its error, its validation result and,
// when the log holds the raw output, the output with a caret under the
// error's position.
func printRetry(w io.Writer, r logRecord, raws map[string]logRecord) {
	reason := r.str("reason")
	if reason != "" && reason != retry.ReasonReflection {
		fmt.Fprintf(w, "  retry (%s): %s\n", reason, r.str(retry.KeyErrorCode))
		return
	}
	id := r.str(retry.KeyToolCallID)
	fmt.Fprintf(w, "  failed: tool %s, call %s: %s", r.str(retry.KeyToolName), id, r.str(retry.KeyErrorCode))
	pos, hasPos := r.num(retry.KeyErrorPosition)
	if hasPos && pos >= 0 {
		fmt.Fprintf(w, " at byte %d", int(pos))
	}
	fmt.Fprintln(w)
	if v := r.list(retry.KeyValidationErrors); len(v) > 0 {
		fmt.Fprintf(w, "    validation: %s\n", strings.Join(v, ", "))
	}
	out, ok := raws[id]
	if !ok {
		return
	}
	raw := redact.Text(out.str("raw"))
	// Only these codes place their position in the argument text; the
	// others give the call's place in the whole answer.
	inArgs := false
	switch r.str(retry.KeyErrorCode) {
	case "TLP-002", "TLP-003", "TLP-007", "TLP-013":
		inArgs = true
	}
	line, caret := caretLine(raw, int(pos), inArgs && hasPos && pos >= 0)
	fmt.Fprintf(w, "    output: %s\n", line)
	if caret >= 0 {
		fmt.Fprintf(w, "            %s^\n", strings.Repeat(" ", caret))
	}
}

// caretLine returns raw on one line (line breaks shown as ⏎), at most 100
// characters around pos, and the column of pos in it, or -1 when pos is
// not inside raw.
func caretLine(raw string, pos int, hasPos bool) (string, int) {
	if !hasPos || pos > len(raw) {
		return oneLine(raw), -1
	}
	start := max(0, pos-60)
	for start > 0 && !utf8.RuneStart(raw[start]) {
		start--
	}
	end := min(len(raw), pos+40)
	for end < len(raw) && !utf8.RuneStart(raw[end]) {
		end++
	}
	prefix := oneLine(raw[start:pos])
	text := oneLine(raw[start:end])
	col := utf8.RuneCountInString(prefix)
	if start > 0 {
		text, col = "…"+text, col+1
	}
	if end < len(raw) {
		text += "…"
	}
	return text, col
}

func oneLine(s string) string {
	return strings.NewReplacer("\r\n", "⏎", "\n", "⏎", "\r", "⏎", "\t", " ").Replace(s)
}

// redactArgs redacts logged arguments again, in case the program that wrote
// the log did not: JSON by key and shape, other text by shape.
func redactArgs(s string) string {
	if json.Valid([]byte(s)) {
		return string(redact.JSON(json.RawMessage(s)))
	}
	return redact.Text(s)
}
