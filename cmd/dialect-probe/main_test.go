package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func runCLI(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), code
}

func jsonLines(t *testing.T, s string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("output line %q is not JSON: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

func TestParseJSONL(t *testing.T) {
	in := strings.Join([]string{
		`{"id": "a", "text": "{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\",}}"}`,
		`not json at all`,
		`{"id": 7, "dialect": "json", "chunks": ["[{\"name\": \"x\", ", "\"arguments\": {}}]"]}`,
		``,
		`{"id": "c"}`,
		`{"id": "d", "text": "hi", "dialect": "nope"}`,
		`{"id": "e", "text": "{\"name\": \"get_wether\", \"arguments\": {}}", "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {}}}}]}`,
		`{"id": "f", "text": "hello", "tools": [{"function": {"parameters": {}}}]}`,
		`{"id": "g", "text": "Just prose."}`,
	}, "\n")
	stdout, stderr, code := runCLI(t, in, "parse", "--jsonl")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := jsonLines(t, stdout)
	if len(lines) != 8 {
		t.Fatalf("got %d output lines for 8 input lines:\n%s", len(lines), stdout)
	}
	ids := []any{"a", nil, 7.0, "c", "d", "e", "f", "g"}
	for i, want := range ids {
		if lines[i]["id"] != want {
			t.Errorf("line %d id = %v, want %v", i, lines[i]["id"], want)
		}
	}
	code0 := func(i int) string {
		errs, _ := lines[i]["errors"].([]any)
		if len(errs) == 0 {
			return ""
		}
		return errs[0].(map[string]any)["code"].(string)
	}
	calls := func(i int) []any { c, _ := lines[i]["calls"].([]any); return c }
	if len(calls(0)) != 1 || code0(0) != "" || lines[0]["dialect"] != "json" {
		t.Errorf("line a: %v", lines[0])
	}
	if args := calls(0)[0].(map[string]any)["arguments"].(map[string]any); args["city"] != "Paris" {
		t.Errorf("line a arguments: %v", args)
	}
	if code0(1) != "TLP-016" || code0(3) != "TLP-016" {
		t.Errorf("bad lines: %v / %v", lines[1], lines[3])
	}
	if len(calls(2)) != 1 || calls(2)[0].(map[string]any)["name"] != "x" {
		t.Errorf("chunks line: %v", lines[2])
	}
	if code0(4) != "TLP-018" {
		t.Errorf("unknown dialect: %v", lines[4])
	}
	if code0(5) != "TLP-005" || len(calls(5)) != 0 {
		t.Errorf("unknown tool: %v", lines[5])
	}
	if code0(6) != "TLP-017" {
		t.Errorf("bad tools: %v", lines[6])
	}
	if len(calls(7)) != 0 || lines[7]["content"] != "Just prose." || code0(7) != "" {
		t.Errorf("prose: %v", lines[7])
	}
}

func TestRepairJSONL(t *testing.T) {
	in := strings.Join([]string{
		`{"id": "1", "input": "{\"a\": 1}"}`,
		`{"id": "2", "input": "{'a': True,}"}`,
		`{"id": "3"}`,
		`{"id": "4", "input": "` + strings.Repeat("x", 200) + `"}`,
		`{oops`,
	}, "\n")
	stdout, _, code := runCLI(t, in, "repair", "--jsonl", "--max-line", "150")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := jsonLines(t, stdout)
	if len(lines) != 5 {
		t.Fatalf("got %d lines:\n%s", len(lines), stdout)
	}
	if lines[0]["output"] != `{"a": 1}` || lines[0]["error"] != nil {
		t.Errorf("valid input must pass byte for byte: %v", lines[0])
	}
	if lines[1]["output"] != `{"a":true}` || lines[1]["error"] != nil {
		t.Errorf("repaired: %v", lines[1])
	}
	for _, i := range []int{2, 3, 4} {
		if lines[i]["output"] != nil || !strings.HasPrefix(lines[i]["error"].(string), "TLP-016") {
			t.Errorf("line %d: %v", i, lines[i])
		}
	}
	if lines[3]["id"] != "4" || lines[4]["id"] != nil {
		t.Errorf("ids: %v %v", lines[3]["id"], lines[4]["id"])
	}
}

func TestRepairHuman(t *testing.T) {
	stdout, stderr, code := runCLI(t, `{"path": "test.txt",}`, "repair")
	if code != 0 || strings.TrimSpace(stdout) != `{"path":"test.txt"}` || !strings.Contains(stderr, "trailing_comma") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	_, stderr, code = runCLI(t, `{"a": ::::}`, "repair")
	if code != 1 || !strings.Contains(stderr, "TLP-") {
		t.Errorf("unrepairable: exit %d, stderr %q", code, stderr)
	}
}

func TestParseHuman(t *testing.T) {
	stdout, _, code := runCLI(t, `I'll look. {"name": "get_weather", "arguments": {"city": "Lima"}}`, "parse")
	if code != 0 || !strings.Contains(stdout, "dialect: json") || !strings.Contains(stdout, `get_weather {"city":"Lima"}`) ||
		!strings.Contains(stdout, `content: "I'll look."`) {
		t.Errorf("exit %d:\n%s", code, stdout)
	}
	stdout, _, code = runCLI(t, `{"name": "", "arguments": {}}`, "parse", "--json")
	var out map[string]any
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("--json output: %v\n%s", err, stdout)
	}
	if code != 1 || out["detection"] == nil {
		t.Errorf("exit %d, %v", code, out)
	}
}

func TestDialectsAndHelp(t *testing.T) {
	stdout, _, code := runCLI(t, "", "dialects")
	if code != 0 || !strings.Contains(stdout, "json") {
		t.Errorf("dialects: exit %d\n%s", code, stdout)
	}
	stdout, _, _ = runCLI(t, "", "dialects", "--json")
	var list []map[string]any
	if err := json.Unmarshal([]byte(stdout), &list); err != nil || len(list) == 0 {
		t.Errorf("dialects --json: %v\n%s", err, stdout)
	}
	stdout, _, code = runCLI(t, "", "--help")
	for _, sub := range []string{"parse", "repair", "dialects"} {
		if !strings.Contains(stdout, sub) {
			t.Errorf("--help does not mention %s", sub)
		}
	}
	if code != 0 {
		t.Errorf("--help exit %d", code)
	}
	_, _, code = runCLI(t, "", "parse", "--no-such-flag")
	if code != 2 {
		t.Errorf("bad flag exit %d, want 2", code)
	}
}

func TestParseToolsTypeAliases(t *testing.T) {
	path := t.TempDir() + "/tools.json"
	tools := `[{"type":"function","function":{"name":"scale","parameters":{"type":"object","properties":{"factor":{"type":"float"},"times":{"type":"int"}}}}}]`
	if err := os.WriteFile(path, []byte(tools), 0o600); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runCLI(t, `<tool_call>{"name": "scale", "arguments": {"factor": 1.5, "times": 2}}</tool_call>`, "parse", "--tools", path)
	if code != 0 || !strings.Contains(stdout, `scale {"factor":1.5,"times":2}`) {
		t.Errorf("exit %d:\n%s\nstderr: %s", code, stdout, stderr)
	}
	if strings.Count(stderr, "warning") != 2 || !strings.Contains(stderr, `/properties/factor: type "float" read as "number"`) {
		t.Errorf("stderr = %q, want one warning per alias", stderr)
	}
}

// TestParseJSONLEvents: a line with chunks and "events": true carries the
// streamed events, in order, as parse --stream prints them; without it, or
// without chunks, there is no "events" key; under detection, the detected
// event comes before the first call.
func TestParseJSONLEvents(t *testing.T) {
	chunks := `["Let me check.\n<tool", "_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>", "\nDone."]`
	in := strings.Join([]string{
		`{"id": 1, "dialect": "hermes", "chunks": ` + chunks + `, "events": true}`,
		`{"id": 2, "dialect": "hermes", "chunks": ` + chunks + `}`,
		`{"id": 3, "dialect": "hermes", "text": "hi", "events": true}`,
		`{"id": 4, "dialect": "hermes", "chunks": [], "events": true}`,
		`{"id": 5, "chunks": ` + chunks + `, "events": true}`,
	}, "\n")
	stdout, stderr, code := runCLI(t, in, "parse", "--jsonl", "--reasoning-closed")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := jsonLines(t, stdout)
	if len(lines) != 5 {
		t.Fatalf("got %d lines:\n%s", len(lines), stdout)
	}
	evs, ok := lines[0]["events"].([]any)
	if !ok {
		t.Fatalf("line 1 has no events: %v", lines[0])
	}
	var kinds []string
	for _, e := range evs {
		kinds = append(kinds, e.(map[string]any)["event"].(string))
	}
	want := []string{"content", "call_start", "call", "content", "done"}
	if strings.Join(kinds, ",") != strings.Join(want, ",") {
		t.Errorf("events %v, want %v", kinds, want)
	}
	if first := evs[0].(map[string]any); first["text"] != "Let me check." {
		t.Errorf("first event %v", first)
	}
	call := evs[2].(map[string]any)["call"].(map[string]any)
	final := lines[0]["calls"].([]any)[0].(map[string]any)
	if call["id"] != final["id"] || call["name"] != "get_weather" {
		t.Errorf("call event %v, final call %v", call, final)
	}
	for i := 1; i < 3; i++ {
		if _, has := lines[i]["events"]; has {
			t.Errorf("line %d has events: %v", i+1, lines[i])
		}
	}
	if evs, ok := lines[3]["events"].([]any); !ok || len(evs) != 1 {
		t.Errorf("empty chunks: events %v", lines[3]["events"])
	}
	// Under detection the dialect is announced once the first call decides
	// it, with the call right after. The stream reads the chunk up to each
	// place the output may decide its dialect (the end of the call's
	// value, then its closing tag), so the Reader reads the call in two
	// parts and sends its arguments between.
	kinds = nil
	evs, _ = lines[4]["events"].([]any)
	for _, e := range evs {
		kinds = append(kinds, e.(map[string]any)["event"].(string))
	}
	want = []string{"content", "detected", "call_start", "call_arguments", "call", "content", "done"}
	if strings.Join(kinds, ",") != strings.Join(want, ",") {
		t.Errorf("detected: events %v, want %v", kinds, want)
	}
}
