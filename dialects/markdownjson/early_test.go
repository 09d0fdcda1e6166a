package markdownjson_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/markdownjson"
	"github.com/dialectkit/toolcall/dialects/plainjson"
	"github.com/dialectkit/toolcall/internal/streamtest"
)

// TestCallGoesOutWhenDecided writes an output to the Reader a byte at a
// time up to a point and counts the calls sent by then: a call of a fence
// the table reads calls in goes out once its value's line says it holds
// no closing brackets too many (an element of a list, once the byte after
// it is read), before the fence closes and before the next call is
// written; and not before, while its label is not read whole, while a
// later byte can still make it text (a fence of a program, or one the
// prose before it presents as an example, is read when it closes, and so
// is one whose body begins with something that is not a call), or while a
// later </think> could make it reasoning. The whole output is then held
// to the Reader's contract (streamtest.CheckReader).
func TestCallGoesOutWhenDecided(t *testing.T) {
	const (
		paris = `{"name": "get_weather", "arguments": {"city": "Paris"}}`
		rome  = `{"name": "get_weather", "arguments": {"city": "Rome"}}`
	)
	streamtest.CheckSent(t, markdownjson.Dialect.(dialects.Incremental), []streamtest.Sent{
		{Name: "two fences: the first at its closing line", Before: "I'll check both.\n```json\n" + paris + "\n```\n", Rest: "```json\n" + rome + "\n```", Calls: 1},
		{Name: "prose between fences", Before: "First Paris:\n```json\n" + paris + "\n```\n", Rest: "Then Rome:\n```json\n" + rome + "\n```\nDone.", Calls: 1},
		{Name: "a fenced call at its line's end, before the fence's closing run", Before: "```json\n" + paris + "\n", Rest: "```\nDone.", Calls: 1},
		{Name: "a fenced call whose line may yet hold closing brackets too many", Before: "```json\n" + paris, Rest: "}\n```", Calls: 0},
		{Name: "a fenced list: an element once the next begins", Before: "```json\n[" + paris + ", {", Rest: `"name": "get_weather", "arguments": {"city": "Rome"}}]` + "\n```", Calls: 1},
		{Name: "a fenced list: the last element once the byte after the list's close is read", Before: "```json\n[" + paris + ", " + rome + "]\n", Rest: "```", Calls: 2},
		{Name: "a fenced list: the last element waits for brackets too many after the list", Before: "```json\n[" + paris + ", " + rome + "]", Rest: "]\n```", Calls: 1},
		{Name: "values of one fence, each at its line's end", Before: "```json\n" + paris + "\n" + rome + "\n", Rest: "```", Calls: 2},
		{Name: "a call in a tilde fence", Before: "~~~json\n" + paris + "\n", Rest: "~~~", Calls: 1},
		{Name: "an unlabelled fence", Before: "```\n" + paris + "\n", Rest: "```", Calls: 1},
		{Name: "a fence whose label is not read whole yet", Before: "```js", Rest: "on\n" + paris + "\n```", Calls: 0},
		{Name: "a fence of a program waits for its close and is text", Before: "```python\n" + paris + "\n", Rest: "```", Calls: 0},
		{Name: "a fence presented as an example waits for its close and is text", Before: "For example:\n```json\n" + paris + "\n", Rest: "```", Calls: 0},
		{Name: "a fence whose body begins with text is read when it closes", Before: "```json\nHere:\n" + paris + "\n", Rest: "```", Calls: 0},
		{Name: "a fence whose first value is no call is read when it closes", Before: "```json\n{\"name\": \"Ada\", \"born\": 1815}\n" + paris + "\n", Rest: "```", Calls: 0},
		{Name: "a fence a later closing tag could make reasoning is held", Before: "Checking.\n```json\n" + paris + "\n```\n", Rest: "</think>\nDone.", Unknown: true, Calls: 0},
		{Name: "a fence that opens the output settles the reasoning start", Before: "```json\n" + paris + "\n```\n", Rest: "Done.", Unknown: true, Calls: 1},
	})
}

// TestFencedListBrackets reads fenced lists in json and markdown_json,
// whole and cut at every byte: the list's closing bracket is its own, no
// repair; brackets too many after it are noted on its last call
// (extra_closing), which therefore waits for the byte after them; and
// none of the brackets is content.
func TestFencedListBrackets(t *testing.T) {
	const (
		paris = `{"name": "get_weather", "arguments": {"city": "Paris"}}`
		rome  = `{"name": "get_weather", "arguments": {"city": "Rome"}}`
	)
	rows := []struct {
		name, text string
		extra      bool
	}{
		{"a list closed once", "```json\n[" + paris + ",\n " + rome + "\n]\n```", false},
		{"a list closed twice", "```json\n[" + paris + ", " + rome + "]]\n```", true},
		{"a list closed twice, blanks between", "```json\n[" + paris + ", " + rome + "] ]\n```\nDone.", true},
		{"a value closed twice, then another", "```json\n" + paris + "}\n" + rome + "\n```", true},
	}
	for _, d := range []dialects.Incremental{markdownjson.Dialect.(dialects.Incremental), plainjson.Dialect.(dialects.Incremental)} {
		for _, tt := range rows {
			t.Run(d.Name()+"/"+tt.name, func(t *testing.T) {
				opts := &dialects.Options{ReasoningClosed: true}
				res := dialects.Parse(d, tt.text, opts)
				if len(res.Calls) != 2 {
					t.Fatalf("%d calls, want 2 (errors %v)", len(res.Calls), res.Errors)
				}
				if want := strings.HasSuffix(tt.text, "Done."); res.Content != map[bool]string{true: "Done.", false: ""}[want] {
					t.Errorf("content %q", res.Content)
				}
				extra := slices.ContainsFunc(res.Repairs, func(rp toolcall.Repair) bool { return rp.Kind == toolcall.RepairExtraClosing })
				if extra != tt.extra {
					t.Errorf("extra_closing recorded %v, want %v (repairs %v)", extra, tt.extra, res.Repairs)
				}
				if err := streamtest.CheckReader(d, tt.text, opts); err != nil {
					t.Error(err)
				}
			})
		}
	}
}
