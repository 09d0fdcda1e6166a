package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestParseCode(t *testing.T) {
	answer := "Run this:\n```python\nimport os\nprint(os.getcwd())\n```\n[get_weather(city='Paris')]\n"
	tools := `[{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}]`

	// --json: the code block is reported, the pythonic call is a call.
	stdout, stderr, code := runCLI(t, answer, "parse", "--json", "--code")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out struct {
		Calls []struct{ Name string }
		Code  []struct {
			Start, End int
			Code       string
			Language   string
			Confidence float64
		}
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Calls) != 1 || out.Calls[0].Name != "get_weather" {
		t.Errorf("calls = %+v", out.Calls)
	}
	if len(out.Code) != 1 || out.Code[0].Code != "import os\nprint(os.getcwd())\n" || answer[out.Code[0].Start:out.Code[0].End] != out.Code[0].Code {
		t.Errorf("code = %+v", out.Code)
	}

	// Without --code there is no "code" key.
	stdout, _, _ = runCLI(t, answer, "parse", "--json")
	if strings.Contains(stdout, `"code":`) {
		t.Errorf("code reported without --code:\n%s", stdout)
	}

	// --jsonl: every line gets "code", empty when there is none.
	line1, _ := json.Marshal(map[string]any{"id": 1, "text": answer, "tools": json.RawMessage(tools)})
	line2, _ := json.Marshal(map[string]any{"id": 2, "text": "Just prose about print()."})
	line3, _ := json.Marshal(map[string]any{"id": 3, "chunks": []string{"```\nx = 1\n", "y = x + 1\n```"}})
	stdout, stderr, code = runCLI(t, string(line1)+"\n"+string(line2)+"\n"+string(line3)+"\n", "parse", "--jsonl", "--code")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := jsonLines(t, stdout)
	want := []int{1, 0, 1}
	for i, n := range want {
		blocks, ok := lines[i]["code"].([]any)
		if !ok || len(blocks) != n {
			t.Errorf("line %d: code = %v, want %d block(s)", i, lines[i]["code"], n)
		}
	}

	// The human form lists the blocks.
	stdout, _, _ = runCLI(t, answer, "parse", "--code")
	if !strings.Contains(stdout, "code blocks: 1") || !strings.Contains(stdout, "fenced python") {
		t.Errorf("human output:\n%s", stdout)
	}
}
