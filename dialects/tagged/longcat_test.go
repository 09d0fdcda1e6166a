package tagged_test

import (
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects/tagged"
)

// longcatWeather is LongCat's tagged-argument form as its newer templates
// write it.
const longcatWeather = "<longcat_tool_call>get_weather\n<longcat_arg_key>city</longcat_arg_key>\n<longcat_arg_value>Tokyo</longcat_arg_value>\n</longcat_tool_call>"

var longcatRows = []row{
	{
		name:   "tagged arguments",
		text:   longcatWeather,
		chunks: []string{"<longcat_tool_call>get_", "weather\n<longcat_arg", "_key>city</longcat_arg_key>\n<longcat_arg_value>To", "kyo</longcat_arg_value>\n</longcat_tool_call>"},
		calls:  []want{call("get_weather", `{"city":"Tokyo"}`)},
	},
	{
		name:  "tagged arguments without newlines, typed by schema",
		tools: weatherTool,
		text:  "<longcat_tool_call>get_weather<longcat_arg_key>city</longcat_arg_key><longcat_arg_value>Tokyo</longcat_arg_value><longcat_arg_key>days</longcat_arg_key><longcat_arg_value>3</longcat_arg_value><longcat_arg_key>zip</longcat_arg_key><longcat_arg_value>00123</longcat_arg_value></longcat_tool_call>",
		calls: []want{call("get_weather", `{"city":"Tokyo","days":3,"zip":"00123"}`)},
	},
	{
		name:   "a JSON call object inside the tags (LongCat-Flash-Chat)",
		text:   `<longcat_tool_call>{"name": "get_weather", "arguments": {"city": "Tokyo"}}</longcat_tool_call>`,
		chunks: []string{`<longcat_tool_call>{"name": "get_`, `weather", "arguments": {"city": "Tok`, `yo"}}</longcat_tool_call>`},
		calls:  []want{call("get_weather", `{"city":"Tokyo"}`)},
	},
	{
		name:  "JSON arguments after the name",
		text:  "<longcat_tool_call>get_weather\n{\"city\": \"Tokyo\"}\n</longcat_tool_call>",
		calls: []want{call("get_weather", `{"city":"Tokyo"}`)},
	},
	{
		name:   "repeated calls of both forms",
		text:   "<longcat_tool_call>{\"name\": \"a\", \"arguments\": {}}</longcat_tool_call>\n<longcat_tool_call>b\n<longcat_arg_key>x</longcat_arg_key>\n<longcat_arg_value>1</longcat_arg_value>\n</longcat_tool_call>",
		chunks: []string{"<longcat_tool_call>{\"name\": \"a\", \"arguments\": {}}</longcat_tool_call>\n<longcat_to", "ol_call>b\n<longcat_arg_key>x</longcat_arg_key>\n<longcat_arg_value>1</longcat_arg_value>\n</longcat_tool_call>"},
		calls:  []want{call("a", `{}`), call("b", `{"x":1}`)},
	},
	{
		name:  "a call without arguments",
		text:  "<longcat_tool_call>get_time</longcat_tool_call>",
		calls: []want{call("get_time", `{}`)},
	},
	{
		name:    "surrounding text",
		text:    "Checking.\n" + longcatWeather + "\nWait.",
		calls:   []want{call("get_weather", `{"city":"Tokyo"}`)},
		content: "Checking.\nWait.",
	},
	{
		name:      "reasoning in <longcat_think>",
		text:      "<longcat_think>\nThe user wants the weather.\n</longcat_think>\n" + longcatWeather,
		chunks:    []string{"<longcat_th", "ink>\nThe user wants the weather.\n</longcat_", "think>\n" + longcatWeather},
		calls:     []want{call("get_weather", `{"city":"Tokyo"}`)},
		reasoning: "The user wants the weather.",
	},
	{
		name:      "reasoning opened by the template",
		open:      true,
		text:      "plan</longcat_think>\nSure.",
		chunks:    []string{"plan</longcat", "_think>\nSure."},
		reasoning: "plan", content: "Sure.",
	},
	{
		name:      "a call written inside reasoning is reasoning",
		text:      "<longcat_think>I could write " + longcatWeather + " here.</longcat_think>No call needed.",
		reasoning: "I could write " + longcatWeather + " here.",
		content:   "No call needed.",
	},
	{
		name:  "the call's closing tag inside a value is value text",
		text:  "<longcat_tool_call>note\n<longcat_arg_key>text</longcat_arg_key>\n<longcat_arg_value>end with </longcat_tool_call> here</longcat_arg_value>\n</longcat_tool_call>",
		calls: []want{call("note", `{"text":"end with </longcat_tool_call> here"}`)},
	},
	{
		name:  "escaped strings in the JSON form",
		text:  `<longcat_tool_call>{"name": "f", "arguments": {"s": "\u4e2d \"x\""}}</longcat_tool_call>`,
		calls: []want{call("f", `{"s":"\u4e2d \"x\""}`)},
	},
	{
		name:    "single quotes repaired in the JSON form",
		text:    `<longcat_tool_call>{'name': 'f', 'arguments': {'a': 'b'}}</longcat_tool_call>`,
		calls:   []want{call("f", `{"a":"b"}`)},
		repairs: []toolcall.RepairKind{toolcall.RepairSingleQuotes},
	},
	{
		name:  "a JSON call beyond repair beside a good call",
		text:  `<longcat_tool_call>{"name": "a", "arguments": {:::}}</longcat_tool_call><longcat_tool_call>{"name": "b", "arguments": {}}</longcat_tool_call>`,
		calls: []want{call("b", `{}`)},
		errs:  []toolcall.Code{toolcall.CodeMalformedCall},
	},
	{
		name: "output ends inside a value",
		text: "<longcat_tool_call>get_weather\n<longcat_arg_key>city</longcat_arg_key>\n<longcat_arg_value>Tok",
		errs: []toolcall.Code{toolcall.CodeTruncated},
	},
	{
		name:    "the tag named in prose is not a call",
		text:    "Wrap a call in <longcat_tool_call> and </longcat_tool_call> tags.",
		chunks:  []string{"Wrap a call in <longcat_", "tool_call> and </longcat", "_tool_call> tags."},
		content: "Wrap a call in <longcat_tool_call> and </longcat_tool_call> tags.",
	},
	{
		name:    "GLM's tags are not LongCat's",
		text:    glmWeather,
		content: glmWeather,
	},
	{name: "no call", text: "No tools needed.", content: "No tools needed.", chunks: []string{"No tools", " needed."}},
}

func TestLongCat(t *testing.T) {
	runTable(t, tagged.LongCat, longcatRows)
	testChunks(t, longcatRows)
}
