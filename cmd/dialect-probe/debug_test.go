package main

import (
	"strconv"
	"strings"
	"testing"
)

func strconvQuote(s string) string { return strconv.Quote(s) }

func TestDebugGolden(t *testing.T) {
	stdout, stderr, code := runCLI(t, "", "debug", "--correlation-id", "run-retry", goldenLog)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"run run-retry (model llama3.2): 5 record(s)",
		"attempt 1:\n  failed: tool get_weather, call call_r1: TLP-004",
		"    validation: /days type, /api_key additionalProperties",
		`    output: {"city":"Paris","days":"three","api_key":"[REDACTED]"}`,
		"  sent back for call call_r1:\n    | Your call to \"get_weather\" failed with TLP-004",
		"attempt 2:\n  valid: tool get_weather, call call_r2, arguments {\"city\":\"Paris\",\"days\":3}",
		"outcome: retry (tool calls parsed); 1 call(s): get_weather; retries 1",
		"tokens: 567 (retries: 342)",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("debug lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "sk-live") {
		t.Error("a secret was printed")
	}

	// A run logged without argument values shows no raw text.
	stdout, _, code = runCLI(t, "", "debug", "--correlation-id", "run-failed", goldenLog)
	if code != 0 || strings.Contains(stdout, "output:") || !strings.Contains(stdout, "attempt 2:\n  failed: tool get_wether, call call_f2: TLP-005") ||
		!strings.Contains(stdout, "outcome: fail (tool call retries exhausted), TLP-006") || !strings.Contains(stdout, "last error: TLP-005 (get_wether)") {
		t.Errorf("run-failed:\n%s", stdout)
	}
	// An error whose position is in the argument text gets a caret.
	stdout, _, code = runCLI(t, "", "debug", "--correlation-id", "run-malformed", goldenLog)
	want := "  failed: tool get_weather, call call_m1: TLP-003 at byte 26\n" +
		"    output: {\"city\": \"Paris\", \"days\": ::::}\n" +
		"                                      ^\n"
	if code != 0 || !strings.Contains(stdout, want) {
		t.Errorf("run-malformed:\n%s", stdout)
	}
	stdout, _, code = runCLI(t, "", "debug", "--correlation-id", "run-repaired", goldenLog)
	if code != 0 || !strings.Contains(stdout, "repaired: tool get_weather, call call_gen1: trailing_comma@64") {
		t.Errorf("run-repaired:\n%s", stdout)
	}
	if _, stderr, code := runCLI(t, "", "debug", "--correlation-id", "nope", goldenLog); code != 1 || !strings.Contains(stderr, `no record has correlation id "nope"`) {
		t.Errorf("unknown id: exit %d %s", code, stderr)
	}
	if _, _, code := runCLI(t, "", "debug", goldenLog); code != 2 {
		t.Errorf("no --correlation-id: exit %d", code)
	}
}

func TestCaretLine(t *testing.T) {
	line, col := caretLine(`{"a": 1,, "b": 2}`, 8, true)
	if line != `{"a": 1,, "b": 2}` || col != 8 {
		t.Errorf("got %q %d", line, col)
	}
	long := strings.Repeat("x", 100) + "!" + strings.Repeat("y", 100)
	line, col = caretLine(long, 100, true)
	if []rune(line)[col] != '!' || !strings.HasPrefix(line, "…") || !strings.HasSuffix(line, "…") {
		t.Errorf("got %q %d", line, col)
	}
	if _, col := caretLine("abc", 10, true); col != -1 {
		t.Errorf("position past the text: col %d", col)
	}
}

// TestDebugRedactsAgain: a log written by a program that did not redact
// still shows no secret.
func TestDebugRedactsAgain(t *testing.T) {
	log := `{"time":"2026-11-20T09:00:00Z","level":"DEBUG","msg":"tool call output","correlation_id":"x","tool_call_id":"c1","tool_name":"f","error_code":"TLP-003","raw":"{\"password\": \"hunter2\", \"key\": \"sk-live-1234567890abcdef\", ::}"}
{"time":"2026-11-20T09:00:01Z","level":"INFO","msg":"tool call retry","correlation_id":"x","tool_call_id":"c1","tool_name":"f","error_code":"TLP-003","error_position":5,"retry_count":1,"reason":"reflection"}
{"time":"2026-11-20T09:00:02Z","level":"DEBUG","msg":"tool call arguments","correlation_id":"x","tool_call_id":"c2","tool_name":"f","arguments":"{\"password\":\"hunter2\"}"}
`
	stdout, _, code := runCLI(t, log, "debug", "--correlation-id", "x")
	if code != 0 || strings.Contains(stdout, "hunter2") || strings.Contains(stdout, "sk-live") || !strings.Contains(stdout, "output:") {
		t.Errorf("exit %d:\n%s", code, stdout)
	}
}
