package hermes_test

import (
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/hermes"
	"github.com/dialectkit/toolcall/internal/streamtest"
)

// TestCallsSent holds when a call goes out: as soon as its block's end is
// decided, by its closing tag or, for a block that never closes, by the
// next opening tag of its family on a line of its own after the block's
// value; never while that tag may stand in a string of the value.
func TestCallsSent(t *testing.T) {
	streamtest.CheckSent(t, hermes.Dialect.(dialects.Incremental), []streamtest.Sent{
		{Name: "a closed block goes out at its closing tag",
			Before: `<tool_call>{"name": "a", "arguments": {}}</tool_call>`, Rest: "\nDone.", Calls: 1},
		{Name: "an unclosed block goes out when the next block opens",
			Before: "<tool_call>{\"name\": \"a\", \"arguments\": {\"x\": 1}}\n<tool_call>",
			Rest:   `{"name": "b", "arguments": {}}`, Calls: 1},
		{Name: "an unclosed block with a brace too many goes out when the next block opens",
			Before: "<tool_call>{\"name\": \"a\", \"arguments\": {\"x\": 1}}}\n  <tool_call>",
			Rest:   `{"name": "b", "arguments": {}}}`, Calls: 1},
		{Name: "three unclosed blocks, each out when the next opens",
			Before: "<tool_call>{\"name\": \"a\", \"arguments\": {}}\n<tool_call>{\"name\": \"b\", \"arguments\": {}}\n\n<tool_call>",
			Rest:   `{"name": "c", "arguments": {}}`, Calls: 2},
		{Name: "an opening tag inside a string of the value is its text",
			Before: "<tool_call>{\"name\": \"a\", \"arguments\": {\"s\": \"wrap it:\n<tool_call>",
			Rest:   "\"}}\n<tool_call>{\"name\": \"b\", \"arguments\": {}}", Calls: 0},
		{Name: "an unclosed block whose value is still open waits",
			Before: "<tool_call>{\"name\": \"a\", \"arguments\": {\"x\": [1,\n<tool_call>",
			Rest:   "2]}}", Calls: 0},
		{Name: "an unclosed block with no value waits",
			Before: "<tool_call>\n<tool_call>", Rest: `{"name": "b", "arguments": {}}`, Calls: 0},
		{Name: "function elements in a block",
			Before: `<tool_call><function=a>{"x": 1}</function><function=b>{}</function></tool_call>`, Rest: " ok", Calls: 2},
		{Name: "a function element in an unclosed block",
			Before: `<tool_call><function=a>{"x": 1}</function>`, Rest: "", Calls: 0},
		{Name: "a block in reasoning that never closes",
			Before: `<think>hm <tool_call>{"name": "a", "arguments": {}}</tool_call>`, Rest: " then", Unknown: true, Calls: 0},
	})
}
