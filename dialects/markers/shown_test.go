package markers_test

import (
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/markers"
)

// TestShownByWhatPrecedes: a marker (or a bare dialect's value) is shown
// rather than made by what precedes it in the output (inline code or a
// quotation open before it, a fence before it labelled with a programming
// language or presented as an example), and what follows it has no say:
// a fenced call followed by a line that disowns it is a call. The unit
// the Reader reads after a sent call goes on from the same reading of the
// output (a fence closed after a call, inline code opened after it), and
// a backtick inside a call region opens no code. Every row is also read
// in every cutting and streamed (runTable).
func TestShownByWhatPrecedes(t *testing.T) {
	mi := func(name, args string) string { return "[TOOL_CALLS]" + name + "[ARGS]" + args }
	ds := func(name, args string) string { return dsCalls + dsV3(name, args) + dsCallsEnd }
	t.Run("mistral", func(t *testing.T) {
		runTable(t, markers.Mistral, []row{
			{name: "inline code", text: "The syntax is `" + mi("f", "{}") + "` here.",
				content: "The syntax is `" + mi("f", "{}") + "` here."},
			{name: "inline code not closed before the marker", text: "a `b`c `d " + mi("f", "{}") + " and more",
				content: "a `b`c `d " + mi("f", "{}") + " and more"},
			{name: "inline code closed before the marker", text: "a `b`c " + mi("f", "{}"),
				calls: []want{c("f", `{}`)}, content: "a `b`c"},
			{name: "quotation in a sentence", text: `Write "` + mi("f", "{}") + `" to call f.`,
				content: `Write "` + mi("f", "{}") + `" to call f.`},
			{name: "example fence", text: "For example:\n```\n" + mi("f", "{}") + "\n```\nThat is all.",
				content: "For example:\n```\n" + mi("f", "{}") + "\n```\nThat is all."},
			{name: "python fence", text: "Run this:\n```python\n" + mi("f", "{}") + "\n```",
				content: "Run this:\n```python\n" + mi("f", "{}") + "\n```"},
			{name: "a fence the next line disowns is a call", text: "Here:\n```\n" + mi("f", "{}") + "\n```\nI will not execute this.",
				calls: []want{c("f", "{}")}, content: "Here:\n```\n```\nI will not execute this."},
			{name: "code after a call shows the next", text: "```\n" + mi("f", "{}") + "\n```\nThe syntax is `" + mi("g", "{}") + "` here.",
				calls: []want{c("f", "{}")}, content: "```\n```\nThe syntax is `" + mi("g", "{}") + "` here."},
			{name: "an example fence after a call", text: mi("f", "{}") + "\nFor example:\n```\n" + mi("g", "{}") + "\n```",
				calls: []want{c("f", "{}")}, content: "For example:\n```\n" + mi("g", "{}") + "\n```"},
			{name: "a backtick in a call opens no code", text: mi("f", "{\"a\": \"use `ls\"}") + "\n" + mi("g", "{}") + "\nDone `x`.",
				calls: []want{c("f", "{\"a\": \"use `ls\"}"), c("g", "{}")}, content: "Done `x`."},
		})
	})
	t.Run("deepseek_v3", func(t *testing.T) {
		call := ds("f", `{"a": 1}`)
		runTable(t, markers.DeepSeekV3, []row{
			{name: "inline code holding the call's fence", text: "Write `" + call + "` here.",
				content: "Write `" + call + "` here."},
			{name: "inline code not closed before the marker", text: "Write `" + call + "\nDone.",
				content: "Write `" + call + "\nDone."},
			{name: "a call, then inline code", text: call + "\nThe syntax is `" + ds("g", "{}") + "` here.",
				calls: []want{c("f", `{"a":1}`)}, content: "The syntax is `" + ds("g", "{}") + "` here."},
		})
	})
	t.Run("llama3_json", func(t *testing.T) {
		obj := `{"name": "f", "parameters": {}}`
		runTable(t, markers.Llama3JSON, []row{
			{name: "bare, in a python fence", text: "```python\n" + obj + "\n```", content: "```python\n" + obj + "\n```"},
			{name: "bare, in a plain fence", text: "```\n" + obj + "\n```", calls: []want{c("f", "{}")}, unmarked: true},
			{name: "in prose, in inline code", text: "Use `" + obj + "` to call it.", tools: []string{"f"},
				content: "Use `" + obj + "` to call it."},
		})
	})
	t.Run("xlam", func(t *testing.T) {
		list := `[{"name": "f", "arguments": {}}]`
		runTable(t, markers.XLAM, []row{
			{name: "framed in a python fence", text: "Sure:\n```python\n" + list + "\n```", content: "Sure:\n```python\n" + list + "\n```"},
			{name: "framed in a plain fence", text: "Sure:\n```\n" + list + "\n```", calls: []want{c("f", "{}")}, content: "Sure:", unmarked: true},
		})
	})
}

// TestShownCallGoesOutEarly: a fenced call is decided by what precedes
// it, so the Reader sends it once its region is settled, before the
// line after the fence (which no longer disowns it) has ended.
func TestShownCallGoesOutEarly(t *testing.T) {
	head := "Here:\n```\n[TOOL_CALLS]f[ARGS]{}\n```\n"
	text := head + "I will not execute this, and here is a longer line of prose after it."
	r := markers.Mistral.NewReader(&dialects.Options{ReasoningClosed: true})
	sent := -1
	for at := 0; at < len(text) && sent < 0; at += 3 {
		for _, p := range r.Write(text[at:min(at+3, len(text))]) {
			if p.Kind == dialects.PieceCall && p.Index == 0 {
				sent = min(at+3, len(text))
			}
		}
	}
	if sent < 0 || sent >= len(text) || strings.Contains(text[:sent], "prose") {
		t.Fatalf("the call went out after %d of %d bytes; want it before the line after the fence ends", sent, len(text))
	}
}
