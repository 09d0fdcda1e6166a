package plainjson_test

import (
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/plainjson"
	"github.com/dialectkit/toolcall/internal/streamtest"
)

// TestCallGoesOutWhenDecided writes an output to the Reader a byte at a
// time up to a point and counts the calls sent by then: a call goes out
// as soon as what decides it has been read (its value closed and what
// follows on its line, or its fence's closing line), not when the output
// ends; and not before, while a later byte can still change it (text
// after it on its line, closing brackets too many, a </think> that would
// make it reasoning). The whole output is then held to the Reader's
// contract (streamtest.CheckReader).
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
		{name: "values on their own lines: the first at its line's end", before: paris + "\n", rest: rome, calls: 1},
		{name: "values after prose, each on its line", before: "Let me check both.\n" + paris + "\n", rest: rome + "\nDone.", calls: 1},
		{name: "a list that opens the output: an element once the next begins", before: "[" + paris + ", {", rest: `"name": "get_weather", "arguments": {"city": "Rome"}}]`, calls: 1},
		{name: "a list after a colon", before: "Checking both: [" + paris + ",\n {", rest: `"name": "get_weather", "arguments": {"city": "Rome"}}]`, calls: 1},
		{name: "a run after a colon", before: "Results: " + paris + "; {", rest: `"name": "get_weather", "arguments": {"city": "Rome"}}`, calls: 1},
		{name: "a fence at its closing line", before: "```json\n" + paris + "\n```\n", rest: "```json\n" + rome + "\n```", calls: 1},
		{name: "the last value of the output waits for what follows it on its line", before: "Sure.\n" + paris, rest: "}", calls: 0},
		{name: "a value text may follow on its line is held", before: "I would use " + paris, rest: " but not now.", calls: 0},
		{name: "a value a later closing tag could make reasoning is held", before: "Checking.\n" + paris + "\n", rest: "</think>\nDone.", unknown: true, calls: 0},
		{name: "a value that opens the output settles the reasoning start", before: paris + "\n", rest: rome, unknown: true, calls: 1},
	}
	for _, tt := range rows {
		t.Run(tt.name, func(t *testing.T) {
			opts := &dialects.Options{ReasoningClosed: !tt.unknown}
			inc := plainjson.Dialect.(dialects.Incremental)
			if _, _, n := streamtest.SentSoFar(inc.NewReader(opts), tt.before); n != tt.calls {
				t.Errorf("%d calls sent after %q, want %d", n, tt.before, tt.calls)
			}
			if err := streamtest.CheckReader(inc, tt.before+tt.rest, opts); err != nil {
				t.Error(err)
			}
		})
	}
}
