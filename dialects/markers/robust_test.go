package markers_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/markers"
	"github.com/dialectkit/toolcall/internal/longtest"
)

// hostile are inputs every dialect must survive: a coded error or plain
// content, never a panic or a hang. Scanning is linear, so each finishes
// quickly even at these sizes.
func hostile(d dialects.Dialect) map[string]string {
	rng := rand.New(rand.NewPCG(1, 2))
	binary := make([]byte, 1<<16)
	for i := range binary {
		binary[i] = byte(rng.UintN(256))
	}
	marks := allMarkers(d)
	// Full sizes in the long suites (DIALECTKIT_LONG=1), a tenth by default.
	n := longtest.Scaled
	in := map[string]string{
		"empty":              "",
		"binary":             string(binary),
		"nul and invalid":    "a\x00b\xff\xfe{\"name\": \"x\x00\", \"arguments\": {\"\xff\": 1}}",
		"huge prose":         strings.Repeat("lorem ipsum dolor ", n(100_000)),
		"deep nesting":       marks + strings.Repeat(`{"a":`, 10_000),
		"deep arrays":        marks + strings.Repeat("[", 10_000) + strings.Repeat("]", 10_000),
		"markers repeated":   strings.Repeat(marks, n(100_000)/max(1, len(marks))+1),
		"unclosed markers":   marks + marks + "{" + marks,
		"open strings":       strings.Repeat(marks+`{"a":"\"`, n(20_000)),
		"open objects":       strings.Repeat(marks+`{"name": "f", "arguments": {"a": [`, n(20_000)),
		"huge argument":      marks + `{"name": "f", "arguments": {"s": "` + strings.Repeat("x", n(2<<20)) + `"}}`,
		"many calls":         strings.Repeat(marks+`{"name": "f", "arguments": {}}`, n(20_000)),
		"many bare values":   strings.Repeat(`{"name": "f", "arguments": {}}`, n(20_000)),
		"brackets in prose":  strings.Repeat("[see {note} here] ", n(50_000)),
		"unclosed fence":     "```json\n" + strings.Repeat("[", 5_000),
		"blank runs":         marks + strings.Repeat(" \n\t", n(300_000)),
		"multibyte markers":  strings.Repeat("<｜tool▁call▁begin｜>", n(50_000)),
		"header without end": strings.Repeat(marks+strings.Repeat("n", 300), n(5_000)),
	}
	return in
}

// allMarkers joins the dialect's markers, so hostile inputs exercise them.
func allMarkers(d dialects.Dialect) string {
	m, ok := d.(dialects.Marked)
	if !ok {
		return ""
	}
	return strings.Join(m.Markers(), "")
}

func TestHostileInput(t *testing.T) {
	for _, d := range markers.All() {
		for name, text := range hostile(d) {
			t.Run(d.Name()+"/"+name, func(t *testing.T) {
				res := dialects.Parse(d, text, &dialects.Options{})
				for _, e := range res.Errors {
					if e.Code == "" || toolcall.Code(e.Code).Summary() == "" {
						t.Errorf("uncoded error %v", e)
					}
				}
				for _, c := range res.Calls {
					if c.Name == "" {
						t.Errorf("call without a name")
					}
				}
			})
		}
	}
}

// TestNoInventedCalls feeds prose and JSON examples that are not calls to
// every dialect: none may report a call.
func TestNoInventedCalls(t *testing.T) {
	negatives := []string{
		"Hello! How can I help you today?",
		"Here is an example of the format:\n```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```\nUse it like that.",
		`The API returns {"name": "Ada", "age": 36} for each user.`,
		`Use [{"name": "f", "arguments": {}}] to call f, as explained above.`,
		"In Python, functools.partial and functools.reduce are handy.",
		"Type >>> at the prompt, then press enter.",
		"all\nthe best",
		`The tool_call field looks like {"tool_call": …} in the docs.`,
		"I would write <tool_call>\n{\"name\": \"x\"}\n</tool_call> in Hermes.",
		"<think>Should I call a tool? No.</think>The answer is 4.",
	}
	for _, d := range markers.All() {
		for i, text := range negatives {
			res := dialects.Parse(d, text, &dialects.Options{})
			if len(res.Calls) > 0 {
				t.Errorf("%s: negative %d gave calls %v", d.Name(), i, res.Calls)
			}
		}
	}
}
