package probe

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/dialectkit/toolcall"
)

// WriteText writes the report for people: what the server and the
// template say, a table per mode with a line per prompt and the mode's
// summary, and the recommendation with its config snippet.
func WriteText(w io.Writer, r *Report) error {
	pw := &printer{w: w}
	pw.header(r)
	for i := range r.Modes {
		pw.mode(&r.Modes[i])
	}
	pw.recommendation(&r.Recommendation)
	return pw.err
}

// printer writes text and keeps the first error.
type printer struct {
	w   io.Writer
	err error
}

func (p *printer) printf(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

func (p *printer) header(r *Report) {
	if r.Simulated != "" {
		// The port changes from run to run; the report should not.
		p.printf("probe of %s (%s, simulated server on 127.0.0.1: %s; times and latencies simulated)\n", r.Model, r.API, r.Simulated)
	} else {
		p.printf("probe of %s (%s, %s)\n", r.Model, r.API, r.Host)
	}
	var server []string
	if r.Server.Family != "" {
		server = append(server, "family "+r.Server.Family)
	}
	if r.Server.Capabilities != nil {
		server = append(server, "capabilities "+cmp.Or(strings.Join(r.Server.Capabilities, ", "), "none"))
	}
	if r.Server.Parser != "" {
		server = append(server, "parser "+r.Server.Parser)
	}
	if v := r.Server.Parameter("num_predict"); v != "" {
		server = append(server, "num_predict "+v)
	}
	if len(server) > 0 {
		p.printf("server:    %s\n", strings.Join(server, "; "))
	}
	t := &r.Template
	d := &t.Detection
	switch {
	case t.Bytes == 0:
		p.printf("template:  none (the server gives none; --template FILE supplies one)\n")
	default:
		kind := cmp.Or(d.Kind, "unknown")
		p.printf("template:  %s template, %d bytes (%s); renders tools: %s\n", kind, t.Bytes, t.Source, yesNo(d.Tools))
		line := "no tool-call marker"
		if d.Dialect != "" {
			line = "dialect " + d.Dialect + " — " + d.Reason
			if others := d.Dialects()[1:]; len(others) > 0 {
				line += "; also " + strings.Join(others, ", ")
			}
		}
		if d.CallTag != "" {
			line += fmt.Sprintf("; call tag %q", d.CallTag)
		}
		p.printf("           %s\n", line)
	}
	if t.ParserDialect != "" {
		p.printf("parser:    %s reads %s\n", t.Parser, t.ParserDialect)
	}
	if r.ModelTable.Dialect != "" {
		p.printf("model:     %s (name matches %q)\n", r.ModelTable.Dialect, r.ModelTable.Pattern)
	} else {
		p.printf("model:     no model-name rule matches\n")
	}
	if r.Simulated != "" {
		// The simulation's clock: what the model would have taken, not
		// what the probe did (a fraction of a second).
		p.printf("requests:  %d in %s of simulated time\n", r.Requests, msText(r.DurationMS))
	} else {
		p.printf("requests:  %d in %s\n", r.Requests, msText(r.DurationMS))
	}
}

func (p *printer) mode(m *ModeReport) {
	if m.Mode == ModeNative {
		p.printf("\nnative tools (the request's tools field)\n")
	} else {
		p.printf("\ntools in the system prompt: %s\n", m.Dialect)
	}
	if m.Unsupported != "" {
		p.printf("  not used: %s\n", m.Unsupported)
		return
	}
	tw := tabwriter.NewWriter(p.w, 0, 0, 2, ' ', 0)
	row := func(cols ...string) {
		if p.err == nil {
			_, p.err = fmt.Fprintln(tw, "  "+strings.Join(cols, "\t"))
		}
	}
	row("prompt", "answer", "dialect", "sure", "calls", "well-formed", "repaired", "schema", "outcome", "attempts", "expected", "latency", "tokens")
	for _, r := range m.Results {
		a := &r.Answer
		sure := "-"
		if a.Where == WhereContent || a.Where == WhereToolCalls {
			sure = fmt.Sprintf("%.2f", a.Confidence)
		}
		outcome := outcomeText(&r)
		row(r.Prompt, a.Where, cmp.Or(a.Dialect, "-"), sure, fmt.Sprint(a.Calls), fmt.Sprint(a.WellFormed), fmt.Sprint(a.Repaired),
			fmt.Sprint(a.SchemaValid), outcome, fmt.Sprint(r.Attempts), expectedText(&r), msText(r.LatencyMS),
			fmt.Sprintf("%d+%d", r.PromptTokens, r.CompletionTokens))
	}
	if p.err == nil {
		p.err = tw.Flush()
	}
	s := &m.Summary
	if m.Mode == ModeNative {
		p.printf("  answers: calls in tool_calls %d, in content %d (leak rate %s), no call %d, truncated %d\n",
			s.InToolCalls, s.InContent, percent(s.LeakRate), s.NoCall, s.Truncated)
	} else {
		p.printf("  answers: calls %d, no call %d, truncated %d\n", s.InToolCalls+s.InContent, s.NoCall, s.Truncated)
	}
	if len(s.Dialects) > 0 {
		var seen []string
		for _, d := range s.Dialects {
			seen = append(seen, fmt.Sprintf("%s in %d of %d (confidence %.2f)", d.Dialect, d.Answers, d.Of, d.Confidence))
		}
		p.printf("  dialect seen: %s\n", strings.Join(seen, ", "))
	}
	p.printf("  calls %d: well-formed %s, repaired %s, schema-valid %s", s.Calls, percent(s.WellFormedRate), percent(s.RepairRate), percent(s.SchemaValidRate))
	if len(s.RepairsByKind) > 0 {
		p.printf("; repairs: %s", kindsText(s.RepairsByKind))
	}
	if s.CoercionFixes > 0 {
		p.printf("; coercion would fix %d", s.CoercionFixes)
	}
	p.printf("\n")
	recovered := ""
	if s.Recovered > 0 {
		recovered = " (" + attemptsText(s.RecoveredAt) + ")"
	}
	p.printf("  outcome: %d of %d right (%s), %d at the first attempt, %d recovered%s, %d failed, %d wrong call, %d unwanted call; mean attempts %.2f\n",
		s.FirstTry+s.Recovered, s.Asked, percent(s.SuccessRate), s.FirstTry, s.Recovered, recovered, s.Failed, s.WrongCall, s.Unwanted, s.MeanAttempts)
	p.printf("  latency: first answer mean %s, max %s; all attempts %s; tokens %d prompt + %d completion\n",
		msText(s.MeanLatencyMS), msText(s.MaxLatencyMS), msText(s.TotalMS), s.PromptTokens, s.CompletionTokens)
}

func (p *printer) recommendation(rec *Recommendation) {
	p.printf("\nrecommendation\n  %s\n", rec.Summary)
	for _, r := range rec.Reasons {
		p.printf("  - %s\n", r)
	}
	if rec.Config != "" {
		p.printf("\n")
		for line := range strings.Lines(rec.Config) {
			p.printf("  %s", line)
		}
	}
}

// outcomeText is the outcome with what caused it: the error a failed run
// ended with, what the first answer got wrong when a later one was right.
func outcomeText(r *PromptResult) string {
	switch {
	case r.Error != nil:
		return r.Outcome + " (" + string(r.Error.Code) + ")"
	case r.Outcome != OutcomeRecovered:
		return r.Outcome
	case len(r.Answer.Errors) > 0:
		codes := make([]string, 0, len(r.Answer.Errors))
		for _, c := range r.Answer.Errors {
			if !slices.Contains(codes, string(c)) {
				codes = append(codes, string(c))
			}
		}
		return r.Outcome + " from " + strings.Join(codes, ", ")
	case r.Answer.Where == WhereTruncated:
		return r.Outcome + " from truncation"
	case r.Answer.Where == WhereNone:
		return r.Outcome + " from no call"
	}
	return r.Outcome
}

// expectedText says how the final calls compare with the expectation:
// "yes" (names and arguments), "names" (the right tools, other
// arguments), "no".
func expectedText(r *PromptResult) string {
	switch {
	case r.Outcome == OutcomeUnsupported:
		return "-"
	case r.FinalMatch.Arguments && r.Outcome != OutcomeFailed && r.Outcome != OutcomeUnwanted:
		return "yes"
	case r.FinalMatch.Names && len(r.Final) > 0:
		return "names"
	}
	return "no"
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func percent(f float64) string { return fmt.Sprintf("%.0f%%", f*100) }

// msText prints milliseconds the way a person reads them.
func msText(ms float64) string {
	switch {
	case ms >= 1000:
		return fmt.Sprintf("%.2fs", ms/1000)
	case ms >= 10:
		return fmt.Sprintf("%.0fms", ms)
	}
	return fmt.Sprintf("%.2fms", ms)
}

// kindsText prints repair counts by kind, the most frequent first.
func kindsText(m map[toolcall.RepairKind]int) string {
	type kc struct {
		k toolcall.RepairKind
		n int
	}
	var list []kc
	for k, n := range m {
		list = append(list, kc{k, n})
	}
	slices.SortFunc(list, func(a, b kc) int { return cmp.Or(cmp.Compare(b.n, a.n), cmp.Compare(a.k, b.k)) })
	parts := make([]string, len(list))
	for i, x := range list {
		parts[i] = fmt.Sprintf("%s %d", x.k, x.n)
	}
	return strings.Join(parts, ", ")
}
