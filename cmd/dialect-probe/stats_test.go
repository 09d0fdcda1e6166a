package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
)

// TestStatsGolden reads the golden log that call wrote against the fake
// server: four runs, one of each outcome.
func TestStatsGolden(t *testing.T) {
	stdout, stderr, code := runCLI(t, "", "stats", "--json", goldenLog)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var st logStats
	if err := json.Unmarshal([]byte(stdout), &st); err != nil {
		t.Fatal(err)
	}
	check := func(name string, got, want any) {
		t.Helper()
		if gj, _ := json.Marshal(got); string(gj) != mustJSON(want) {
			t.Errorf("%s = %s, want %s", name, gj, mustJSON(want))
		}
	}
	check("runs", st.Runs, 5)
	check("outcomes", []int{st.ParsedAtOnce, st.AutoRepaired, st.RecoveredRetry, st.Failed}, []int{1, 1, 2, 1})
	check("rates", st.Rates, map[string]float64{"auto_repaired": 0.2, "failed": 0.2, "parsed_at_once": 0.2, "recovered_by_retry": 0.4})
	check("retries", st.Retries, 4)
	check("repairs", st.RepairsByKind, map[string]int{"trailing_comma": 1})
	check("failed runs", st.FailedRunsBy, map[string]int{"TLP-006": 1})
	check("call errors", st.CallErrorsBy, map[string]int{"TLP-003": 1, "TLP-004": 1, "TLP-005": 2})
	check("models", st.RunsByModel, map[string]int{"llama3.2": 2, "qwen3:8b": 3})
	check("tools", st.CallsByTool, map[string]int{"get_weather": 4})
	// parse_time_ms is 1.5, 2.5, 3.5, 4.5, 5.5 in the golden log.
	check("parse time", st.ParseTime, timing{Count: 5, AvgMS: 3.5, P95MS: 5.5})
	check("repair time", st.RepairTime, timing{Count: 1, AvgMS: 0.5, P95MS: 0.5})
	check("retry time", st.RetryTime, timing{Count: 2, AvgMS: 40, P95MS: 40})
	check("tokens", []int{st.TotalTokens, st.RetryTokens}, []int{200 + 210 + 567 + 530 + 755, 342 + 320 + 590})

	// The human form, and standard input.
	data, err := os.ReadFile(goldenLog)
	if err != nil {
		t.Fatal(err)
	}
	stdout, _, code = runCLI(t, string(data), "stats")
	for _, want := range []string{"runs: 5", "parsed at once:      1 (20.0%)", "recovered by retry:  2 (40.0%)",
		"repairs by kind (runs): trailing_comma 1", "call errors by code (retried calls): TLP-005 2, TLP-003 1, TLP-004 1",
		"runs by model: qwen3:8b 3, llama3.2 2", "parse time: avg 3.50 ms, p95 5.50 ms (5)", "tokens: 2262, of which on retries: 1252"} {
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("stats lacks %q:\n%s", want, stdout)
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestStatsSinceAndText(t *testing.T) {
	data, err := os.ReadFile(goldenLog)
	if err != nil {
		t.Fatal(err)
	}
	recs, _, err := readLogs(nil, strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	// The runs are an hour apart from 09:00; at 13:30, the last 2h hold
	// the last two runs (12:00 and 13:00) and the one at 11:00 is out.
	now := time.Date(2026, 11, 20, 13, 30, 0, 0, time.UTC)
	if st := computeStats(recs, 2*time.Hour, now); st.Runs != 2 || st.RecoveredRetry != 1 || st.Failed != 1 {
		t.Errorf("--since 2h: %+v", st)
	}
	// The same records in logfmt, as slog's text handler writes them.
	var text strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		text.WriteString(logfmt(m))
		text.WriteByte('\n')
	}
	trecs, skipped, err := readLogs(nil, strings.NewReader(text.String()))
	if err != nil || skipped != 0 {
		t.Fatalf("text form: %v, %d skipped", err, skipped)
	}
	a, b := computeStats(recs, 0, now), computeStats(trecs, 0, now)
	if mustJSON(a) != mustJSON(b) {
		t.Errorf("stats differ between the forms:\njson %s\ntext %s", mustJSON(a), mustJSON(b))
	}
	// Lines that are not records are skipped and counted.
	_, skipped, _ = readLogs(nil, strings.NewReader("hello\n{\"no\": \"msg\"}\n"+strings.Split(string(data), "\n")[0]+"\n"))
	if skipped != 2 {
		t.Errorf("skipped %d lines, want 2", skipped)
	}
}

// logfmt writes a record the way slog's text handler does: the standard
// keys first, values quoted when they need it, lists as [a b].
func logfmt(m map[string]any) string {
	var parts []string
	add := func(k string, v any) {
		var s string
		switch x := v.(type) {
		case nil:
			s = "<nil>"
		case []any:
			var items []string
			for _, it := range x {
				items = append(items, strings.TrimSpace(mustJSONString(it)))
			}
			s = "[" + strings.Join(items, " ") + "]"
		case string:
			s = x
		default:
			s = mustJSON(x)
		}
		if s == "" || strings.ContainsAny(s, " =\"\n") {
			s = strconvQuote(s)
		}
		parts = append(parts, k+"="+s)
	}
	for _, k := range []string{"time", "level", "msg"} {
		add(k, m[k])
	}
	for k, v := range m {
		if k != "time" && k != "level" && k != "msg" {
			add(k, v)
		}
	}
	return strings.Join(parts, " ")
}

func mustJSONString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return mustJSON(v)
}
