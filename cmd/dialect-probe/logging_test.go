package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dialectkit/toolcall/internal/fakeserver"
)

const goldenLog = "testdata/logs/golden.jsonl"

// goldenRuns are the runs of the golden log: one per outcome the stats
// count, against the fake server.
var goldenRuns = []struct {
	id, model, config string
	script            fakeserver.Script
	args              []string
}{
	{id: "run-at-once", model: "qwen3:8b", script: fakeserver.Script{
		{Calls: []fakeserver.Call{{ID: "call_a1", Name: "get_weather", Arguments: `{"city":"Paris","days":3}`}}, PromptTokens: 180, CompletionTokens: 20}}},
	{id: "run-repaired", model: "qwen3:8b", args: []string{"--dialect", "hermes"}, script: fakeserver.Script{
		{Content: `<tool_call>{"name": "get_weather", "arguments": {"city": "Paris", "days": 3,}}</tool_call>`, PromptTokens: 180, CompletionTokens: 30}}},
	{id: "run-retry", model: "llama3.2", config: "log_argument_values: true\nstrict_validation: true\n", script: fakeserver.Script{
		{Calls: []fakeserver.Call{{ID: "call_r1", Name: "get_weather", Arguments: `{"city":"Paris","days":"three","api_key":"sk-live-1234567890abcdef"}`}}, PromptTokens: 200, CompletionTokens: 25},
		{Calls: []fakeserver.Call{{ID: "call_r2", Name: "get_weather", Arguments: `{"city":"Paris","days":3}`}}, PromptTokens: 320, CompletionTokens: 22}}},
	{id: "run-malformed", model: "qwen3:8b", config: "log_argument_values: true\n", args: []string{"--api", "openai"}, script: fakeserver.Script{
		{Calls: []fakeserver.Call{{ID: "call_m1", Name: "get_weather", Arguments: `{"city": "Paris", "days": ::::}`}}, PromptTokens: 190, CompletionTokens: 20},
		{Calls: []fakeserver.Call{{ID: "call_m2", Name: "get_weather", Arguments: `{"city": "Paris", "days": 3}`}}, PromptTokens: 300, CompletionTokens: 20}}},
	{id: "run-failed", model: "llama3.2", script: fakeserver.Script{
		{Calls: []fakeserver.Call{{ID: "call_f1", Name: "get_wether", Arguments: `{"city":"Paris"}`}}, PromptTokens: 150, CompletionTokens: 15},
		{Calls: []fakeserver.Call{{ID: "call_f2", Name: "get_wether", Arguments: `{"city":"Paris"}`}}, PromptTokens: 260, CompletionTokens: 15},
		{Calls: []fakeserver.Call{{ID: "call_f3", Name: "get_wether", Arguments: `{"city":"Paris"}`}}, PromptTokens: 300, CompletionTokens: 15}}},
}

var generatedCallID = regexp.MustCompile(`call_[a-z0-9]{8,}`)

// normaliseLog makes a log written by call stable: record times are set a
// second apart from a fixed start, one hour per run, and measured
// durations get fixed values, so that the statistics of the golden log are
// known figures.
func normaliseLog(t *testing.T, data []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	start := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	runs, ids := map[string]int{}, map[string]string{}
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		line = generatedCallID.ReplaceAllStringFunc(line, func(s string) string {
			if _, ok := ids[s]; !ok {
				ids[s] = fmt.Sprintf("call_gen%d", len(ids)+1)
			}
			return ids[s]
		})
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log line %d is not JSON: %v\n%s", i, err, line)
		}
		id, _ := rec["correlation_id"].(string)
		if _, ok := runs[id]; !ok {
			runs[id] = len(runs)
		}
		run := runs[id]
		rec["time"] = start.Add(time.Duration(run)*time.Hour + time.Duration(i)*time.Second).Format(time.RFC3339Nano)
		retries, _ := rec["retry_count"].(float64)
		for k := range rec {
			switch k {
			case "parse_time_ms":
				rec[k] = 1.5 + float64(run)
			case "repair_time_ms":
				rec[k] = 0.5
			case "retry_time_ms":
				rec[k] = 40 * retries
			case "duration_ms":
				rec[k] = 100.0 + 50*retries
			case "wait_ms":
				rec[k] = 0.0
			}
		}
		b, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		out.Write(b)
		out.WriteByte('\n')
	}
	return out.Bytes()
}

// TestGoldenLog runs call against the fake server with --log-file, one run
// per outcome, and compares the log with the golden one that docs/logging.md
// shows and the stats and debug tests read. -update rewrites it.
func TestGoldenLog(t *testing.T) {
	logFile := filepath.Join(t.TempDir(), "agent.log")
	for _, r := range goldenRuns {
		srv := fakeserver.NewServer(r.script, nil)
		tools, cfg := callFiles(t, fastConfig+r.config)
		args := append([]string{"call", "--host", srv.URL, "--model", r.model, "--tools", tools, "--config", cfg,
			"--prompt", "Weather in Paris for 3 days?", "--log-file", logFile, "--correlation-id", r.id}, r.args...)
		_, stderr, code := runCLI(t, "", args...)
		srv.Close()
		if code > 1 {
			t.Fatalf("%s: exit %d: %s", r.id, code, stderr)
		}
	}
	data, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "sk-live-1234567890abcdef") {
		t.Fatal("a secret reached the log file")
	}
	got := normaliseLog(t, data)
	if *update {
		if err := os.WriteFile(goldenLog, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(goldenLog)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the log differs from %s (go test -run TestGoldenLog -update to rewrite it)\n got:\n%s", goldenLog, got)
	}
}

func TestLogFormatFlag(t *testing.T) {
	srv := fakeserver.NewServer(goldenRuns[0].script, nil)
	defer srv.Close()
	tools, cfg := callFiles(t, fastConfig)
	base := []string{"call", "--host", srv.URL, "--model", "m", "--tools", tools, "--config", cfg, "--prompt", "x", "--verbose"}
	_, stderr, code := runCLI(t, "", append(base, "--log-format", "json")...)
	if code != 0 || !strings.HasPrefix(stderr, "{") || !strings.Contains(stderr, `"msg":"tool calls parsed"`) {
		t.Errorf("json: exit %d\n%s", code, stderr)
	}
	_, stderr, code = runCLI(t, "", append(base, "--log-format", "text")...)
	if code != 0 || !strings.Contains(stderr, `msg="tool calls parsed"`) {
		t.Errorf("text: exit %d\n%s", code, stderr)
	}
	// The text form reads back like the JSON form.
	recs, skipped, err := readLogs(nil, strings.NewReader(stderr))
	if err != nil || skipped != 0 || len(recs) == 0 || recs[len(recs)-1].str("parse_result") != "success" {
		t.Errorf("reading the text form: %v, %d skipped, %v", err, skipped, recs)
	}
	_, _, code = runCLI(t, "", append(base, "--log-format", "xml")...)
	if code != 2 {
		t.Errorf("--log-format xml: exit %d", code)
	}
}

// TestProbeLogFile: probe appends the retry loop's records to --log-file,
// and stats reads them.
func TestProbeLogFile(t *testing.T) {
	logFile := filepath.Join(t.TempDir(), "probe.log")
	if _, stderr, code := runCLI(t, "", "probe", "--sim", "malformed", "--quiet", "--log-file", logFile); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	recs, skipped, err := readLogs([]string{logFile}, nil)
	if err != nil || skipped != 0 || len(recs) == 0 {
		t.Fatalf("%d records, %d skipped, %v", len(recs), skipped, err)
	}
	st := computeStats(recs, 0, time.Now())
	if st.Runs == 0 || st.RecoveredRetry == 0 {
		t.Errorf("stats of the probe's log: %+v", st)
	}
}
