package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestDialectsMarkersAsWritten checks that the list shows markers as a
// model writes them, in the table and in --json, with no HTML escaping.
func TestDialectsMarkersAsWritten(t *testing.T) {
	stdout, _, code := runCLI(t, "", "dialects")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if strings.Contains(stdout, `\u00`) {
		t.Errorf("markers are escaped:\n%s", stdout)
	}
	for _, want := range []string{"hermes            <tool_call>  </tool_call>\n", "`functools [`", " <｜tool▁calls▁begin｜> "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in:\n%s", want, stdout)
		}
	}
	stdout, _, _ = runCLI(t, "", "dialects", "--json")
	if strings.Contains(stdout, `\u00`) || !strings.Contains(stdout, `"<tool_call>"`) {
		t.Errorf("--json escapes markers:\n%s", stdout)
	}
}

// TestJSONOutputsNotHTMLEscaped runs every command that prints JSON on
// input full of <, > and & and checks that none of them is escaped.
func TestJSONOutputsNotHTMLEscaped(t *testing.T) {
	text := `<tool_call>{"name": "f", "arguments": {"a": "<b> & </b>",}}</tool_call>`
	line := jsonLine(t, map[string]string{"id": "<1>", "text": text})
	rline := jsonLine(t, map[string]string{"id": "<&>", "input": `{'a': '<b>&',}`})
	cases := []struct {
		stdin string
		args  []string
	}{
		{text, []string{"parse", "--json"}},
		{line, []string{"parse", "--jsonl"}},
		{text, []string{"parse", "--stream"}},
		{`{'a': '<b>&',}`, []string{"repair", "--json"}},
		{rline, []string{"repair", "--jsonl"}},
	}
	for _, c := range cases {
		stdout, stderr, _ := runCLI(t, c.stdin, c.args...)
		for _, esc := range []string{`\u003c`, `\u003e`, `\u0026`} {
			if strings.Contains(stdout, esc) {
				t.Errorf("%v: output has %s:\n%s%s", c.args, esc, stdout, stderr)
			}
		}
		if !strings.Contains(stdout, "<b>") || !strings.Contains(stdout, "&") {
			t.Errorf("%v: output lost the text:\n%s%s", c.args, stdout, stderr)
		}
	}
}

// jsonLine encodes v as one JSON line, without HTML escaping.
func jsonLine(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
