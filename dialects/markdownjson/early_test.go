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
	streamtest.CheckSent(t, markdownjson.Dialect.(dialects.Incremental), []streamtest.Sent{
		{Name: "two fences: the first at its closing line", Before: "I'll check both.\n```json\n" + paris + "\n```\n", Rest: "```json\n" + rome + "\n```", Calls: 1},
		{Name: "prose between fences", Before: "First Paris:\n```json\n" + paris + "\n```\n", Rest: "Then Rome:\n```json\n" + rome + "\n```\nDone.", Calls: 1},
		{Name: "a fence whose closing run may yet be a longer one or text", Before: "```json\n" + paris + "\n```", Rest: "\nDone.", Calls: 0},
		{Name: "the calls of one fence wait for it to close", Before: "```json\n[" + paris + ", " + rome + "]\n", Rest: "```", Calls: 0},
		{Name: "a fence a later closing tag could make reasoning is held", Before: "Checking.\n```json\n" + paris + "\n```\n", Rest: "</think>\nDone.", Unknown: true, Calls: 0},
		{Name: "a fence that opens the output settles the reasoning start", Before: "```json\n" + paris + "\n```\n", Rest: "Done.", Unknown: true, Calls: 1},
	})
}
