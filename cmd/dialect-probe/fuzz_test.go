package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/fuzzcheck"
)

// jsonlSeeds are input streams for both JSONL readers: records of either
// command, broken records, blank and CRLF lines, and a long line.
var jsonlSeeds = []string{
	`{"id": "a", "text": "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\",}}</tool_call>"}`,
	`{"id": 7, "dialect": "json", "chunks": ["[{\"name\": \"x\", ", "\"arguments\": {}}]"]}` + "\n" + `not json` + "\n\n" + `{"id": "c"}`,
	`{"id": "e", "text": "{\"name\": \"get_wether\", \"arguments\": {}}", "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {}}}}]}`,
	`{"id": "f", "text": "hello", "tools": [{"function": {"parameters": {}}}]}` + "\r\n" + `{"id": "g", "text": "x", "dialect": "nope"}`,
	`{"id": "r1", "input": "{'a': 1,}"}` + "\n" + `{"id": "r2", "input": "{\"a\": \"b"}` + "\n" + `{"id": "r3"}`,
	`{"id": "long", "text": "` + strings.Repeat("x", 300) + `"}`,
	`{"id": {"nested": true}, "text": null, "chunks": null}`,
	`[1, 2]` + "\n" + `"string"` + "\n" + `{"id": "x", "input": 5}`,
	"\xff\xfe\x00\n{\"id\": \"\xff\", \"text\": \"\x00\"}",
}

// FuzzParseJSONL feeds any byte stream to `dialect-probe parse --jsonl`,
// with a small --max-line when the fuzzer asks. The contract must hold on
// every input: exit status 0, one output line per non-blank input line, in
// order, each a JSON object with the input's id, calls whose arguments are
// JSON objects, and errors with catalogued codes.
func FuzzParseJSONL(f *testing.F) {
	for _, s := range jsonlSeeds {
		f.Add([]byte(s), false)
	}
	f.Add([]byte(jsonlSeeds[5]), true)
	f.Fuzz(func(t *testing.T, data []byte, shortLines bool) {
		out := runJSONL(t, "parse", data, shortLines)
		for i, line := range out {
			for _, c := range line.Get("calls").Array() {
				if !c.Get("arguments").IsObject() || c.Get("name").String() == "" {
					t.Fatalf("line %d: call %s", i, c.Raw)
				}
			}
			if !line.Get("errors").IsArray() || !line.Get("calls").IsArray() {
				t.Fatalf("line %d lacks calls or errors: %s", i, line.Raw)
			}
			for _, e := range line.Get("errors").Array() {
				if !fuzzcheck.KnownCode(toolcall.Code(e.Get("code").String())) {
					t.Fatalf("line %d: uncoded error %s", i, e.Raw)
				}
			}
		}
	})
}

// FuzzRepairJSONL feeds any byte stream to `dialect-probe repair --jsonl`:
// exit status 0, one output line per non-blank input line with the input's
// id, and in each exactly one of output (strict JSON) and error (a
// catalogued code first).
func FuzzRepairJSONL(f *testing.F) {
	for _, s := range jsonlSeeds {
		f.Add([]byte(s), false)
	}
	f.Add([]byte(jsonlSeeds[4]), true)
	f.Fuzz(func(t *testing.T, data []byte, shortLines bool) {
		out := runJSONL(t, "repair", data, shortLines)
		for i, line := range out {
			output, errText := line.Get("output"), line.Get("error")
			switch {
			case output.Type == gjson.String && errText.Type == gjson.Null:
				if !json.Valid([]byte(output.Str)) {
					t.Fatalf("line %d: output %q is not JSON", i, output.Str)
				}
			case output.Type == gjson.Null && errText.Type == gjson.String:
				code, _, _ := strings.Cut(errText.Str, ":")
				if !fuzzcheck.KnownCode(toolcall.Code(code)) {
					t.Fatalf("line %d: error %q has no catalogued code", i, errText.Str)
				}
			default:
				t.Fatalf("line %d: want exactly one of output and error: %s", i, line.Raw)
			}
			if !line.Get("repairs").IsArray() {
				t.Fatalf("line %d: repairs missing: %s", i, line.Raw)
			}
		}
	})
}

// runJSONL runs the command in JSONL mode on data and checks what both
// readers promise: exit status 0, nothing on stderr, one output object per
// non-blank input line, each carrying that line's id. It returns the
// output lines.
func runJSONL(t *testing.T, command string, data []byte, shortLines bool) []gjson.Result {
	t.Helper()
	args := []string{command, "--jsonl"}
	if shortLines {
		args = append(args, "--max-line", "200")
	}
	var stdout, stderr bytes.Buffer
	if code := run(args, bytes.NewReader(data), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	inputs := inputLines(data)
	outputs := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	if stdout.Len() == 0 {
		outputs = nil
	}
	if len(outputs) != len(inputs) {
		t.Fatalf("%d output lines for %d input lines:\n%s", len(outputs), len(inputs), stdout.String())
	}
	var out []gjson.Result
	for i, o := range outputs {
		line := gjson.Parse(o)
		if !gjson.Valid(o) || !line.IsObject() {
			t.Fatalf("output line %d is not a JSON object: %q", i, o)
		}
		if want := wantID(inputs[i], shortLines); want != "" && line.Get("id").Raw != want {
			t.Fatalf("line %d: id %s, want %s", i, line.Get("id").Raw, want)
		}
		out = append(out, line)
	}
	return out
}

// inputLines splits data the way the JSONL reader does: on "\n", without a
// trailing "\r", skipping blank lines.
func inputLines(data []byte) []string {
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSuffix(l, "\r")
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// wantID is the id an output line must carry for an input line: the
// line's string or number id when the line is a JSON object read whole,
// or "" when the line gives no id to check.
func wantID(line string, shortLines bool) string {
	if shortLines && len(line) > 200 || !json.Valid([]byte(line)) {
		return ""
	}
	var rec struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal([]byte(line), &rec) != nil || len(rec.ID) == 0 {
		return ""
	}
	id := gjson.ParseBytes(rec.ID)
	if id.Type != gjson.String && id.Type != gjson.Number {
		return ""
	}
	var buf bytes.Buffer
	if json.Compact(&buf, rec.ID) != nil {
		return ""
	}
	return buf.String()
}
