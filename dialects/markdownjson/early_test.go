package markdownjson_test

import (
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/markdownjson"
	"github.com/dialectkit/toolcall/internal/streamtest"
)

// TestCallGoesOutWhenDecided writes an output to the Reader a byte at a
// time up to a point and counts the calls sent by then: the calls of a
// fence go out once its closing line has been read, not when the output
// ends; and not before, while a later byte of the fence can still make it
// text (a fence is claimed only when it holds nothing but calls), or a
// later </think> could make it reasoning. The whole output is then held
// to the Reader's contract (streamtest.CheckReader).
func TestCallGoesOutWhenDecided(t *testing.T) {
	const (
		paris = `{"name": "get_weather", "arguments": {"city": "Paris"}}`
		rome  = `{"name": "get_weather", "arguments": {"city": "Rome"}}`
	)
	rows := []struct {
		name         string
		before, rest string
		unknown      bool // the reasoning start is not given
		calls        int  // sent once before is written
	}{
		{name: "two fences: the first at its closing line", before: "I'll check both.\n```json\n" + paris + "\n```\n", rest: "```json\n" + rome + "\n```", calls: 1},
		{name: "prose between fences", before: "First Paris:\n```json\n" + paris + "\n```\n", rest: "Then Rome:\n```json\n" + rome + "\n```\nDone.", calls: 1},
		{name: "a fence whose closing run may yet be a longer one or text", before: "```json\n" + paris + "\n```", rest: "\nDone.", calls: 0},
		{name: "the calls of one fence wait for it to close", before: "```json\n[" + paris + ", " + rome + "]\n", rest: "```", calls: 0},
		{name: "a fence a later closing tag could make reasoning is held", before: "Checking.\n```json\n" + paris + "\n```\n", rest: "</think>\nDone.", unknown: true, calls: 0},
		{name: "a fence that opens the output settles the reasoning start", before: "```json\n" + paris + "\n```\n", rest: "Done.", unknown: true, calls: 1},
	}
	for _, tt := range rows {
		t.Run(tt.name, func(t *testing.T) {
			opts := &dialects.Options{ReasoningClosed: !tt.unknown}
			inc := markdownjson.Dialect.(dialects.Incremental)
			if _, _, n := streamtest.SentSoFar(inc.NewReader(opts), tt.before); n != tt.calls {
				t.Errorf("%d calls sent after %q, want %d", n, tt.before, tt.calls)
			}
			if err := streamtest.CheckReader(inc, tt.before+tt.rest, opts); err != nil {
				t.Error(err)
			}
		})
	}
}
