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

// TestOneShape: parse and repair give repairs and errors in one shape,
// objects, in --json and --jsonl; repair --jsonl keeps its contract's
// "error" string and "repairs" kinds beside them, saying the same.
func TestOneShape(t *testing.T) {
	broken := `{'city': 'Paris',}`
	call := `<tool_call>{"name": "f", "arguments": ` + broken + `}</tool_call>`
	bad := `<tool_call>{"name": "f", "arguments": {"a": [1, 2}}</tool_call> and {"name":`
	cases := []struct {
		name    string
		stdin   string
		args    []string
		repairs bool // a repair is expected
		errs    bool // an error is expected
	}{
		{"parse --json", call, []string{"parse", "--json"}, true, false},
		{"parse --json, error", bad, []string{"parse", "--json", "--no-repair"}, false, true},
		{"parse --jsonl", jsonLine(t, map[string]string{"id": "p", "text": call}), []string{"parse", "--jsonl"}, true, false},
		{"repair --json", broken, []string{"repair", "--json"}, true, false},
		{"repair --json, error", `]]]`, []string{"repair", "--json"}, false, true},
		{"repair --jsonl", jsonLine(t, map[string]string{"id": "r", "input": broken}), []string{"repair", "--jsonl"}, true, false},
		{"repair --jsonl, error", jsonLine(t, map[string]string{"id": "r", "input": `]]]`}), []string{"repair", "--jsonl"}, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, _ := runCLI(t, c.stdin, c.args...)
			var out map[string]json.RawMessage
			if err := json.Unmarshal([]byte(stdout), &out); err != nil {
				t.Fatalf("not one JSON object: %v\n%s%s", err, stdout, stderr)
			}
			repairsKey := "repairs"
			if c.args[0] == "repair" && c.args[1] == "--jsonl" {
				repairsKey = "repair_details"
			}
			var repairs []struct {
				Kind      *string `json:"kind"`
				Offset    *int    `json:"offset"`
				CallIndex *int    `json:"call_index"`
			}
			if raw, ok := out[repairsKey]; ok {
				if err := json.Unmarshal(raw, &repairs); err != nil {
					t.Fatalf("%s is not a list of objects: %s", repairsKey, raw)
				}
			}
			if c.repairs != (len(repairs) > 0) {
				t.Errorf("%s = %s", repairsKey, out[repairsKey])
			}
			for _, r := range repairs {
				if r.Kind == nil || r.Offset == nil || r.CallIndex == nil {
					t.Errorf("a repair lacks kind, offset or call_index: %s", out[repairsKey])
				}
			}
			var errs []struct {
				Code    *string `json:"code"`
				Message *string `json:"message"`
			}
			if err := json.Unmarshal(out["errors"], &errs); err != nil {
				t.Fatalf("errors is not a list of objects: %s", out["errors"])
			}
			if c.errs != (len(errs) > 0) {
				t.Errorf("errors = %s", out["errors"])
			}
			for _, e := range errs {
				if e.Code == nil || e.Message == nil || !strings.HasPrefix(*e.Message, *e.Code+": ") {
					t.Errorf("an error lacks its code or message: %s", out["errors"])
				}
			}
			if c.args[0] != "repair" || c.args[1] != "--jsonl" {
				return
			}
			// The contract's fields, unchanged, say the same.
			var kinds []string
			if err := json.Unmarshal(out["repairs"], &kinds); err != nil || len(kinds) != len(repairs) {
				t.Errorf("repairs = %s, not the kinds of %s", out["repairs"], out["repair_details"])
			}
			for i := range kinds {
				if kinds[i] != *repairs[i].Kind {
					t.Errorf("repairs[%d] = %q, repair_details[%d].kind = %q", i, kinds[i], i, *repairs[i].Kind)
				}
			}
			var msg *string
			if err := json.Unmarshal(out["error"], &msg); err != nil || (msg != nil) != c.errs || (msg != nil && *msg != *errs[0].Message) {
				t.Errorf("error = %s, errors = %s", out["error"], out["errors"])
			}
		})
	}
}
