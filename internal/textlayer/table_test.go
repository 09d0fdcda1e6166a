package textlayer_test

import (
	"os"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/internal/textlayer"
)

// TestDocTable: the table in docs/dialects.md ("What is never a call") is
// the one the code reads, rendered.
func TestDocTable(t *testing.T) {
	b, err := os.ReadFile("../../docs/dialects.md")
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- calltable:begin -->\n", "<!-- calltable:end -->"
	doc := string(b)
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("docs/dialects.md holds no %q … %q block", begin, end)
	}
	if got, want := doc[i+len(begin):j], textlayer.Markdown(); got != want {
		t.Errorf("docs/dialects.md's table differs from textlayer.Table; render it again:\n%s", want)
	}
}

// TestPlaceOf: where a candidate stands, by structure alone.
func TestPlaceOf(t *testing.T) {
	const v = `{"name": "f", "arguments": {}}`
	for _, tc := range []struct {
		text string
		want textlayer.Place
	}{
		{v, textlayer.Opens},
		{"  " + v + " ;", textlayer.Opens},
		{v + " then text", textlayer.LeadsProse},
		{"Sure.\n" + v, textlayer.OwnLine},
		{"Sure.\n" + v + "; " + v, textlayer.OwnLine},
		{"Sure.\n```json\n" + v + "\n```", textlayer.OwnLine},
		{"Sure: " + v, textlayer.AfterColon},
		{"Sure: " + v + " coming up.", textlayer.AfterColon},
		{"I will check " + v, textlayer.AfterText},
		{"I will check " + v + ".", textlayer.InProse},
		{"Use " + v + " to call f", textlayer.InProse},
		{"x\n" + v + " to call f", textlayer.InProse},
		{"[" + v + ", " + v + "]", textlayer.Opens},
		{"Sure.\n[" + v + ", " + v, textlayer.OwnLine},
	} {
		at := strings.Index(tc.text, "{")
		if got := textlayer.PlaceOf(tc.text, 0, at, at+len(v)); got != tc.want {
			t.Errorf("%q: %v, want %v", tc.text, got, tc.want)
		}
	}
}

// TestLabelOf: a fence labelled with a programming language is code.
func TestLabelOf(t *testing.T) {
	for info, want := range map[string]textlayer.Label{
		"": textlayer.Unlabelled, "json": textlayer.JSON, "JSONC": textlayer.JSON, "tool_code": textlayer.CallLabel,
		"plaintext": textlayer.Plain, "xml": textlayer.Markup, "python": textlayer.Code, "bash": textlayer.Code,
		"js": textlayer.Code, "javascript": textlayer.Code, "sh": textlayer.Code, "unknown-lang": textlayer.Code,
	} {
		if got := textlayer.LabelOf(info); got != want {
			t.Errorf("%q: %v, want %v", info, got, want)
		}
	}
	for line, want := range map[string]string{"```python": "python", "``` but not that one.": "", "```json {\"a\": 1}": "json", "~~~bash": "bash"} {
		_, _, _, info, ok := textlayer.OpenLine(line, 0, len(line), textlayer.MaxFenceIndent)
		if !ok || info != want {
			t.Errorf("%q: info %q ok %v, want %q", line, info, ok, want)
		}
	}
	if _, _, _, _, ok := textlayer.OpenLine("```x``` inline", 0, 14, 3); ok {
		t.Error("a line of inline code opened a fence")
	}
}
