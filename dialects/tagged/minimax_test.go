package tagged_test

import (
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects/tagged"
)

const m2Weather = "<minimax:tool_call>\n<invoke name=\"get_weather\">\n<parameter name=\"city\">Tokyo</parameter>\n</invoke>\n</minimax:tool_call>"

var m2Rows = []row{
	{
		name:   "the call's closing tag inside a raw value is value text",
		text:   "<minimax:tool_call>\n<invoke name=\"note\">\n<parameter name=\"text\">end it with </invoke> here</parameter>\n</invoke>\n</minimax:tool_call>",
		chunks: []string{"<minimax:tool_call>\n<invoke name=\"note\">\n<parameter name=\"text\">end it with </invoke>", " here</parameter>\n</invoke>\n</minimax:tool_call>"},
		calls:  []want{call("note", `{"text":"end it with </invoke> here"}`)},
	},
	{
		name:   "single call",
		text:   m2Weather,
		chunks: []string{"<minimax:tool", "_call>\n<invoke name=\"get_", "weather\">\n<parameter name=\"city\">Tokyo</parameter>\n</invoke>\n</minimax:tool_call>"},
		calls:  []want{call("get_weather", `{"city":"Tokyo"}`)},
	},
	{
		name:  "parallel invokes in one section",
		text:  "<minimax:tool_call>\n<invoke name=\"w\">\n<parameter name=\"city\">Beijing</parameter>\n</invoke>\n<invoke name='w'>\n<parameter name='city'>Shanghai</parameter>\n</invoke>\n</minimax:tool_call>",
		calls: []want{call("w", `{"city":"Beijing"}`), call("w", `{"city":"Shanghai"}`)},
	},
	{name: "no call", text: "Plain.", content: "Plain."},
	{
		name:      "reasoning and surrounding text",
		text:      "<think>\nlook it up\n</think>\nLet me search.\n" + m2Weather + "\nResults soon.",
		chunks:    []string{"<think>\nlook it up\n</think>\nLet me search.\n", m2Weather + "\nResults soon."},
		calls:     []want{call("get_weather", `{"city":"Tokyo"}`)},
		reasoning: "look it up", content: "Let me search.\nResults soon.",
	},
	{
		name:  "escaped strings",
		text:  "<minimax:tool_call><invoke name=\"echo\"><parameter name=\"s\">\"x\" & <y> \\ 日本</parameter></invoke></minimax:tool_call>",
		calls: []want{call("echo", `{"s":"\"x\" & <y> \\ 日本"}`)},
	},
	{
		name:    "malformed value repaired by schema",
		tools:   weatherTool,
		text:    "<minimax:tool_call><invoke name=\"get_weather\"><parameter name=\"city\">Lima</parameter><parameter name=\"metric\">True</parameter><parameter name=\"options\">{'a': 1}</parameter></invoke></minimax:tool_call>",
		calls:   []want{call("get_weather", `{"city":"Lima","metric":true,"options":{"a":1}}`)},
		repairs: []toolcall.RepairKind{toolcall.RepairCoercion},
	},
	{
		name:  "an invoke without a name beside a good one",
		text:  "<minimax:tool_call>\n<invoke>\n<parameter name=\"city\">Miami</parameter>\n</invoke>\n<invoke name=\"b\"></invoke>\n</minimax:tool_call>",
		calls: []want{call("b", `{}`)},
		errs:  []toolcall.Code{toolcall.CodeMissingFunction},
	},
	{
		name: "output ends inside a call",
		text: "<minimax:tool_call>\n<invoke name=\"get_weather\">\n<parameter name=\"city\">Chicago</parameter>",
		errs: []toolcall.Code{toolcall.CodeTruncated},
	},
}

func TestMiniMaxM2(t *testing.T) {
	runTable(t, tagged.MiniMaxM2, m2Rows)
	testChunks(t, m2Rows)
}

// m3 writes MiniMax-M3 markup: every "‹" becomes the namespace marker
// followed by "<", so rows stay readable.
func m3(s string) string { return strings.ReplaceAll(s, "‹", "]<]minimax[>[<") }

var m3Weather = m3("‹tool_call>‹invoke name=\"get_weather\">‹city>Beijing‹/city>‹/invoke>‹/tool_call>")

var m3Rows = []row{
	{
		name:   "single call",
		text:   m3Weather,
		chunks: []string{"]<]mini", "max[>[<tool_call>]<]minimax[>[<", m3Weather[len(m3("‹tool_call>‹")):]},
		calls:  []want{call("get_weather", `{"city":"Beijing"}`)},
	},
	{
		name:  "parallel invokes",
		text:  m3("‹tool_call>\n‹invoke name=\"a\">\n‹x>1‹/x>\n‹/invoke>\n‹invoke name=\"b\">‹/invoke>\n‹/tool_call>"),
		calls: []want{call("a", `{"x":1}`), call("b", `{}`)},
	},
	{name: "no call", text: "Hello there.", content: "Hello there."},
	{
		name:  "nested objects and arrays",
		text:  m3("‹tool_call>‹invoke name=\"plan\">‹trip>‹from>Paris‹/from>‹stops>‹item>Lyon‹/item>‹item>Nice‹/item>‹/stops>‹/trip>‹days>3‹/days>‹/invoke>‹/tool_call>"),
		calls: []want{call("plan", `{"trip":{"from":"Paris","stops":["Lyon","Nice"]},"days":3}`)},
	},
	{
		name:  "nested leaves typed by schema",
		tools: `[{"name":"plan","parameters":{"type":"object","properties":{"trip":{"type":"object","properties":{"code":{"type":"string"},"n":{"type":"integer"},"ok":{"type":"boolean"},"ids":{"type":"array","items":{"type":"string"}}}}}}}]`,
		text:  m3("‹tool_call>‹invoke name=\"plan\">‹trip>‹code>00123‹/code>‹n>4‹/n>‹ok>True‹/ok>‹ids>‹item>7‹/item>‹/ids>‹/trip>‹/invoke>‹/tool_call>"),
		calls: []want{call("plan", `{"trip":{"code":"00123","n":4,"ok":true,"ids":["7"]}}`)},
	},
	{
		name:      "reasoning and surrounding text",
		text:      "weigh options</mm:think>\nChecking.\n" + m3Weather,
		open:      true,
		chunks:    []string{"weigh options</mm:", "think>\nChecking.\n" + m3Weather},
		calls:     []want{call("get_weather", `{"city":"Beijing"}`)},
		reasoning: "weigh options", content: "Checking.",
	},
	{
		name:      "the namespace marker before the reasoning tag",
		text:      m3("‹mm:think>short‹/mm:think>") + "Answer.",
		reasoning: "short", content: "Answer.",
	},
	{
		name:  "escaped strings and plain < in values",
		text:  m3("‹tool_call>‹invoke name=\"echo\">‹s>a < b \"q\" \\ ✓‹/s>‹/invoke>‹/tool_call>"),
		calls: []want{call("echo", `{"s":"a < b \"q\" \\ ✓"}`)},
	},
	{
		name:    "malformed value repaired by schema",
		tools:   weatherTool,
		text:    m3("‹tool_call>‹invoke name=\"get_weather\">‹city>Oslo‹/city>‹options>{'a': 1,}‹/options>‹/invoke>‹/tool_call>"),
		calls:   []want{call("get_weather", `{"city":"Oslo","options":{"a":1}}`)},
		repairs: []toolcall.RepairKind{toolcall.RepairCoercion},
	},
	{
		name:  "mismatched closing tag is an error, the sibling parses",
		text:  m3("‹tool_call>‹invoke name=\"a\">‹x>1‹/y>‹/invoke>‹invoke name=\"b\">‹z>2‹/z>‹/invoke>‹/tool_call>"),
		calls: []want{call("b", `{"z":2}`)},
		errs:  []toolcall.Code{toolcall.CodeMalformedCall},
	},
}

func TestMiniMaxM3(t *testing.T) {
	runTable(t, tagged.MiniMaxM3, m3Rows)
	testChunks(t, m3Rows)
}

func TestMiniMaxM3DeepNesting(t *testing.T) {
	deep := strings.Repeat("‹a>", 10000) + "x" + strings.Repeat("‹/a>", 10000)
	rows := []row{{
		name: "10 000 levels",
		text: m3("‹tool_call>‹invoke name=\"f\">" + deep + "‹/invoke>‹/tool_call>"),
		errs: []toolcall.Code{toolcall.CodeTooDeep},
	}}
	runTable(t, tagged.MiniMaxM3, rows)
}
