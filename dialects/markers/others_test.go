package markers_test

import (
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects/markers"
)

var graniteRows = []row{
	{name: "granite 3.0", text: `<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]`,
		calls: []want{c("get_weather", `{"city":"Tokyo"}`)}},
	{name: "granite 3.1 literal tag", text: `<tool_call> [{"name": "get_weather", "arguments": {"city": "Tokyo"}}]`,
		calls:  []want{c("get_weather", `{"city":"Tokyo"}`)},
		chunks: []string{"<tool_", "call> [{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tokyo\"}}]"}},
	{name: "parallel", text: `<|tool_call|>[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"x": 1}}]<|end_of_text|>`,
		calls: []want{c("a", `{}`), c("b", `{"x":1}`)}},
	{name: "an envelope on its own line between another dialect's tags", text: "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {}}\n</tool_call>",
		calls: []want{c("get_weather", `{}`)}, content: "<tool_call>\n</tool_call>", unmarked: true},
	{name: "no call", text: "Sure, here is the answer.", content: "Sure, here is the answer.",
		chunks: []string{"Sure, here", " is the answer."}},
	{name: "surrounding text", text: `Let me check.<|tool_call|>[{"name": "f", "arguments": {}}]`,
		calls: []want{c("f", `{}`)}, content: "Let me check."},
	{name: "single quotes repaired", text: `<|tool_call|>[{'name': 'f', 'arguments': {'a': 'b'}}]`,
		calls: []want{c("f", `{"a":"b"}`)}, repairs: []toolcall.RepairKind{toolcall.RepairSingleQuotes}},
	{name: "beyond repair beside a good call", text: `<|tool_call|>[{"name": "a", "arguments": {:::}}, {"name": "b", "arguments": {}}]`,
		calls: []want{c("b", `{}`)}, errs: []toolcall.Code{errRepair}},
	{name: "truncated", text: `<|tool_call|>[{"name": "f", "arguments": {"q": "abc`,
		errs: []toolcall.Code{toolcall.CodeTruncated}},
	{name: "bare array", text: `[{"name": "f", "arguments": {"a": 1}}]`, calls: []want{c("f", `{"a":1}`)}, unmarked: true},
	{name: "thinking and response", text: "<think>I'm\nthinking</think><response>Hello, world!</response>",
		reasoning: "I'm\nthinking", content: "Hello, world!"},
	{name: "escaped strings", text: `<|tool_call|>[{"name": "f", "arguments": {"s": "\"x\" \\ \n ü"}}]`,
		calls: []want{c("f", `{"s":"\"x\" \\ \n ü"}`)}},
}

func TestGranite(t *testing.T) {
	runTable(t, markers.Granite, graniteRows)
	checkChunks(t, graniteRows)
}

var granite20bRows = []row{
	{name: "single", text: `<function_call> {"name": "get_weather", "arguments": {"city": "Tokyo"}}`,
		calls: []want{c("get_weather", `{"city":"Tokyo"}`)}},
	{name: "repeated marker", text: "<function_call> {\"name\": \"a\", \"arguments\": {}}\n<function_call> {\"name\": \"b\", \"arguments\": {\"x\": 1}}",
		calls:  []want{c("a", `{}`), c("b", `{"x":1}`)},
		chunks: []string{"<function_call> {\"name\": \"a\", \"arguments\": {}}\n<func", "tion_call> {\"name\": \"b\", \"arguments\": {\"x\": 1}}"}},
	{name: "closing tag", text: `<function_call>{"name": "get_product_details", "arguments": {"product_id": "1234"}}</function_call>`,
		calls: []want{c("get_product_details", `{"product_id":"1234"}`)}},
	{name: "no call", text: "No function needed.", content: "No function needed.", chunks: []string{"No func", "tion needed."}},
	{name: "surrounding text", text: "Let me call the function.\n<function_call>{\"name\": \"mcp___read_file\", \"arguments\": {\"path\": \"/tmp/t\"}}</function_call>\nDone.",
		calls: []want{c("mcp___read_file", `{"path":"/tmp/t"}`)}, content: "Let me call the function.\nDone."},
	{name: "single quotes repaired", text: `<function_call> {'name': 'f', 'arguments': {'a': 'b'}}`,
		calls: []want{c("f", `{"a":"b"}`)}, repairs: []toolcall.RepairKind{toolcall.RepairSingleQuotes}},
	{name: "beyond repair beside a good call", text: `<function_call> {"name": "a", "arguments": {:::}} <function_call> {"name": "b", "arguments": {}}`,
		calls: []want{c("b", `{}`)}, errs: []toolcall.Code{errRepair}},
	{name: "escaped strings", text: `<function_call> {"name": "f", "arguments": {"s": "q\"q \\ \t é"}}`,
		calls: []want{c("f", `{"s":"q\"q \\ \t é"}`)}},
}

func TestGranite20bFC(t *testing.T) {
	runTable(t, markers.Granite20bFC, granite20bRows)
	checkChunks(t, granite20bRows)
}

var functoolsRows = []row{
	{name: "phi-4-mini", text: `functools[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]`,
		calls: []want{c("get_weather", `{"city":"Tokyo"}`)}},
	{name: "firefunction parallel", text: ` functools[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"x": 1}}]`,
		calls:  []want{c("a", `{}`), c("b", `{"x":1}`)},
		chunks: []string{" functo", "ols[{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\", \"arguments\": {\"x\": 1}}]"}},
	{name: "the word in prose", text: "Python's functools module has lru_cache.", content: "Python's functools module has lru_cache.",
		chunks: []string{"Python's functools", " module has lru_cache."}},
	{name: "surrounding text", text: `I'll look it up. functools[{"name": "f", "arguments": {}}]`,
		calls: []want{c("f", `{}`)}, content: "I'll look it up."},
	{name: "single quotes repaired", text: `functools[{'name': 'f', 'arguments': {'a': 'b'}}]`,
		calls: []want{c("f", `{"a":"b"}`)}, repairs: []toolcall.RepairKind{toolcall.RepairSingleQuotes}},
	{name: "beyond repair beside a good call", text: `functools[{"name": "a", "arguments": {:::}}, {"name": "b", "arguments": {}}]`,
		calls: []want{c("b", `{}`)}, errs: []toolcall.Code{errRepair}},
	{name: "escaped strings", text: `functools[{"name": "f", "arguments": {"s": "\\n is \"newline\"\n"}}]`,
		calls: []want{c("f", `{"s":"\\n is \"newline\"\n"}`)}},
}

func TestFunctools(t *testing.T) {
	runTable(t, markers.Functools, functoolsRows)
	checkChunks(t, functoolsRows)
}

var toolCallsArrayRows = []row{
	{name: "list closed twice", text: `<tool_calls>[{"name": "get_weather", "arguments": {"city": "Paris"}}]]</tool_calls>`,
		calls: []want{c("get_weather", `{"city":"Paris"}`)}, repairs: []toolcall.RepairKind{toolcall.RepairExtraClosing}},
	{name: "single", text: `<tool_calls>[{"name": "get_weather", "arguments": {"city": "Boston"}}]</tool_calls>`,
		calls: []want{c("get_weather", `{"city":"Boston"}`)}},
	{name: "parallel", text: `<tool_calls>[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"x": 1}}]</tool_calls>`,
		calls:  []want{c("a", `{}`), c("b", `{"x":1}`)},
		chunks: []string{"<tool_ca", "lls>[{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\", \"arguments\": {\"x\": 1}}]</tool_", "calls>"}},
	{name: "no call", text: "The weather is fine.", content: "The weather is fine.", chunks: []string{"The weather", " is fine."}},
	{name: "answer framing", text: "<think>Plan.</think>\n<answer>\n<tool_calls>[{\"name\": \"w\", \"arguments\": {}}]</tool_calls>\n</answer>",
		calls: []want{c("w", `{}`)}, reasoning: "Plan."},
	{name: "reasoning and surrounding text", text: "<think>Check Boston.</think>Checking.\n<tool_calls>[{\"name\": \"w\", \"arguments\": {}}]</tool_calls>\nOne moment.",
		calls: []want{c("w", `{}`)}, reasoning: "Check Boston.", content: "Checking.\nOne moment."},
	{name: "single quotes repaired", text: `<tool_calls>[{'name': 'f', 'arguments': {'a': 'b'}}]</tool_calls>`,
		calls: []want{c("f", `{"a":"b"}`)}, repairs: []toolcall.RepairKind{toolcall.RepairSingleQuotes}},
	{name: "beyond repair beside a good call", text: `<tool_calls>[{"name": "a", "arguments": {:::}}, {"name": "b", "arguments": {}}]</tool_calls>`,
		calls: []want{c("b", `{}`)}, errs: []toolcall.Code{errRepair}},
	{name: "missing close tag and bracket", text: `<tool_calls>[{"name": "f", "arguments": {"n": 1}}`,
		calls: []want{c("f", `{"n":1}`)}},
	{name: "escaped strings", text: `<tool_calls>[{"name": "f", "arguments": {"s": "</tool_calls> \"in\" a string"}}]</tool_calls>`,
		calls: []want{c("f", `{"s":"</tool_calls> \"in\" a string"}`)}},
}

func TestToolCallsArray(t *testing.T) {
	runTable(t, markers.ToolCallsArray, toolCallsArrayRows)
	checkChunks(t, toolCallsArrayRows)
}

var minimaxM1Rows = []row{
	{name: "single", text: "<tool_calls>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Shanghai\"}}\n</tool_calls>",
		calls: []want{c("get_weather", `{"city":"Shanghai"}`)}},
	{name: "one object per line", text: "<tool_calls>\n{\"name\": \"a\", \"arguments\": {\"x\": 1}}\n{\"name\": \"b\", \"arguments\": {}}\n</tool_calls>",
		calls:  []want{c("a", `{"x":1}`), c("b", `{}`)},
		chunks: []string{"<tool_calls>\n{\"name\": \"a\", \"arguments\": {\"x\": 1}}\n", "{\"name\": \"b\", \"arguments\": {}}\n</tool", "_calls>"}},
	{name: "no call", text: "Nothing to call.", content: "Nothing to call.", chunks: []string{"Nothing", " to call."}},
	{name: "thinking and surrounding text", text: "<think>Two lookups.</think>\nOn it.\n<tool_calls>\n{\"name\": \"a\", \"arguments\": {}}\n</tool_calls>",
		calls: []want{c("a", `{}`)}, reasoning: "Two lookups.", content: "On it."},
	{name: "calls inside finished thinking are reasoning", text: "<think>I could use <tool_calls>\n{\"name\": \"x\", \"arguments\": {}}\n</tool_calls> here.</think>\n<tool_calls>\n{\"name\": \"y\", \"arguments\": {}}\n</tool_calls>",
		calls: []want{c("y", `{}`)}, reasoning: "I could use <tool_calls>\n{\"name\": \"x\", \"arguments\": {}}\n</tool_calls> here."},
	{name: "single quotes repaired", text: "<tool_calls>\n{'name': 'f', 'arguments': {'a': 'b'}}\n</tool_calls>",
		calls: []want{c("f", `{"a":"b"}`)}, repairs: []toolcall.RepairKind{toolcall.RepairSingleQuotes}},
	{name: "beyond repair beside a good call", text: "<tool_calls>\n{\"name\": \"a\", \"arguments\": {:::}}\n{\"name\": \"b\", \"arguments\": {}}\n</tool_calls>",
		calls: []want{c("b", `{}`)}, errs: []toolcall.Code{errRepair}},
	{name: "escaped strings", text: "<tool_calls>\n{\"name\": \"f\", \"arguments\": {\"s\": \"a\\nb \\\"c\\\" 中文\"}}\n</tool_calls>",
		calls: []want{c("f", `{"s":"a\nb \"c\" 中文"}`)}},
}

func TestMiniMaxM1(t *testing.T) {
	runTable(t, markers.MiniMaxM1, minimaxM1Rows)
	checkChunks(t, minimaxM1Rows)
}

var nemotronRows = []row{
	{name: "single", text: `<TOOLCALL>[{"name": "special_function", "arguments": {"arg1": 1}}]</TOOLCALL>`,
		calls: []want{c("special_function", `{"arg1":1}`)}},
	{name: "parallel", text: `<TOOLCALL>[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"x": 1}}]</TOOLCALL>`,
		calls:  []want{c("a", `{}`), c("b", `{"x":1}`)},
		chunks: []string{"<TOOL", "CALL>[{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\", \"arguments\": {\"x\": 1}}]</TOOLCALL>"}},
	{name: "no call", text: "All done.", content: "All done.", chunks: []string{"All", " done."}},
	{name: "reasoning and surrounding text", text: "<think>Use the function.</think>Calling.<TOOLCALL>[{\"name\": \"f\", \"arguments\": {}}]</TOOLCALL>",
		calls: []want{c("f", `{}`)}, reasoning: "Use the function.", content: "Calling."},
	{name: "single quotes repaired", text: `<TOOLCALL>[{'name': 'f', 'arguments': {'a': 'b'}}]</TOOLCALL>`,
		calls: []want{c("f", `{"a":"b"}`)}, repairs: []toolcall.RepairKind{toolcall.RepairSingleQuotes}},
	{name: "beyond repair beside a good call", text: `<TOOLCALL>[{"name": "a", "arguments": {:::}}, {"name": "b", "arguments": {}}]</TOOLCALL>`,
		calls: []want{c("b", `{}`)}, errs: []toolcall.Code{errRepair}},
	{name: "escaped strings", text: `<TOOLCALL>[{"name": "f", "arguments": {"s": "x\\y \"z\""}}]</TOOLCALL>`,
		calls: []want{c("f", `{"s":"x\\y \"z\""}`)}},
}

func TestNemotronV2(t *testing.T) {
	runTable(t, markers.NemotronV2, nemotronRows)
	checkChunks(t, nemotronRows)
}

var xlamRows = []row{
	{name: "array closed twice in a fence", text: "```json\n[{\"name\": \"f\", \"arguments\": {\"a\": 1}}]]\n```",
		calls: []want{c("f", `{"a":1}`)}, unmarked: true, repairs: []toolcall.RepairKind{toolcall.RepairExtraClosing}},
	{name: "bare array", text: `[{"name": "get_current_weather", "arguments": {"city": "Seattle"}}]`,
		calls: []want{c("get_current_weather", `{"city":"Seattle"}`)}, unmarked: true},
	{name: "parallel", text: `[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"x": 1}}]`,
		calls: []want{c("a", `{}`), c("b", `{"x":1}`)}, unmarked: true,
		chunks: []string{"[{\"name\": \"a\", \"argu", "ments\": {}}, {\"name\": \"b\", \"arguments\": {\"x\": 1}}]"}},
	{name: "fenced", text: "```json\n[{\"name\": \"f\", \"arguments\": {\"a\": 1}}]\n```",
		calls: []want{c("f", `{"a":1}`)}, unmarked: true},
	{name: "fenced by tildes", text: "~~~json\n[{\"name\": \"f\", \"arguments\": {\"a\": 1}}]\n~~~",
		calls: []want{c("f", `{"a":1}`)}, unmarked: true, chunks: []string{"~", "~~json\n[{\"name\": \"f\", \"arguments\": {\"a\": 1}}]\n~~", "~"}},
	{name: "after prose, in a tilde fence", text: "I'll check the weather for you.\n~~~json\n[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Seattle\"}}]\n~~~",
		calls: []want{c("get_weather", `{"city":"Seattle"}`)}, content: "I'll check the weather for you.", unmarked: true},
	{name: "a run of tildes inside a line frames nothing", text: "I'll check the weather for you.~~~json\n[{\"name\": \"get_weather\", \"arguments\": {}}]\n~~~",
		content: "I'll check the weather for you.~~~json\n[{\"name\": \"get_weather\", \"arguments\": {}}]\n~~~"},
	{name: "after reasoning", text: "<think>Pick the tool.</think>\n[{\"name\": \"f\", \"arguments\": {}}]",
		calls: []want{c("f", `{}`)}, reasoning: "Pick the tool.", unmarked: true},
	{name: "after [TOOL_CALLS]", text: `[TOOL_CALLS][{"name": "f", "arguments": {}}]`,
		calls: []want{c("f", `{}`)}, unmarked: true},
	{name: "single object", text: `{"name": "f", "arguments": {"q": "x"}}`,
		calls: []want{c("f", `{"q":"x"}`)}, unmarked: true},
	{name: "no call", text: "I can't help with that.", content: "I can't help with that.", chunks: []string{"I can't", " help with that."}},
	{name: "JSON example in prose is not a call", text: `The format is [{"name": "f", "arguments": {}}] as shown.`,
		content: `The format is [{"name": "f", "arguments": {}}] as shown.`},
	{name: "fenced JSON in prose naming a declared tool", text: "Here you go:\n```json\n[{\"name\": \"search\", \"arguments\": {\"q\": \"go\"}}]\n```\nDone.",
		tools: []string{"search"}, calls: []want{c("search", `{"q":"go"}`)}, content: "Here you go:\nDone.", unmarked: true},
	{name: "single quotes repaired", text: `[{'name': 'f', 'arguments': {'a': 'b'}}]`,
		calls: []want{c("f", `{"a":"b"}`)}, unmarked: true, repairs: []toolcall.RepairKind{toolcall.RepairSingleQuotes}},
	{name: "beyond repair beside a good call", text: `[{"name": "a", "arguments": {:::}}, {"name": "b", "arguments": {}}]`,
		calls: []want{c("b", `{}`)}, errs: []toolcall.Code{errRepair}, unmarked: true},
	{name: "xLAM tool_calls object", text: `{"thought": "I need the weather.", "tool_calls": [{"name": "w", "arguments": {"city": "Paris"}}]}`,
		calls: []want{c("w", `{"city":"Paris"}`)}, content: "I need the weather.", unmarked: true},
	{name: "array of non-calls", text: `[{"id": 1, "title": "x"}]`, content: `[{"id": 1, "title": "x"}]`},
	{name: "after prose, in a json fence", text: "I'll check the weather for you.```json\n[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Seattle\"}}]\n```",
		calls: []want{c("get_weather", `{"city":"Seattle"}`)}, content: "I'll check the weather for you.", unmarked: true,
		chunks: []string{"I'll check the weather for you.``", "`json\n[{\"name\": \"get_weather\", ", "\"arguments\": {\"city\": \"Seattle\"}}]\n``", "`"}},
	{name: "after prose, after [TOOL_CALLS]", text: `I'll help you check the weather.[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Seattle"}}]`,
		calls: []want{c("get_weather", `{"city":"Seattle"}`)}, content: "I'll help you check the weather.", unmarked: true,
		chunks: []string{"I'll help you check the weather.[TOOL_", "CALLS][{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Seattle\"}}]"}},
	{name: "after prose, in <tool_call>", text: "Sure.\n<tool_call>[{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\", \"arguments\": {\"x\": 1}}]</tool_call>\nDone.",
		calls: []want{c("a", `{}`), c("b", `{"x":1}`)}, content: "Sure.\nDone.", unmarked: true,
		chunks: []string{"Sure.\n<tool_", "call>[{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\", \"arguments\": {\"x\": 1}}]</tool_call>\nDone."}},
	{name: "a whole <tool_call> frame", text: `<tool_call>[{"name": "f", "arguments": {"a": 1}}]</tool_call>`,
		calls: []want{c("f", `{"a":1}`)}, unmarked: true},
	{name: "a single object framed after prose is an example, not a call list", text: "For example:\n```json\n{\"name\": \"f\", \"arguments\": {}}\n```",
		content: "For example:\n```json\n{\"name\": \"f\", \"arguments\": {}}\n```"},
	{name: "a frame around JSON that is not a call is content", text: "Example:\n```json\n{\"id\": 1}\n```",
		content: "Example:\n```json\n{\"id\": 1}\n```"},
	{name: "bare JSON after prose, unframed, is not a call", text: `Sure: [{"name": "f", "arguments": {}}]`,
		content: `Sure: [{"name": "f", "arguments": {}}]`},
	{name: "escaped strings", text: `[{"name": "f", "arguments": {"s": "\"q\" \\ \n ü"}}]`,
		calls: []want{c("f", `{"s":"\"q\" \\ \n ü"}`)}, unmarked: true},
}

func TestXLAM(t *testing.T) { runTable(t, markers.XLAM, xlamRows); checkChunks(t, xlamRows) }

var apertusRows = []row{
	{name: "single", text: `<|tools_prefix|>[{"get_weather": {"location": "London"}}]<|tools_suffix|>`,
		calls: []want{c("get_weather", `{"location":"London"}`)}},
	{name: "parallel", text: `<|tools_prefix|>[{"a": {}}, {"b": {"x": 1}}]<|tools_suffix|>`,
		calls:  []want{c("a", `{}`), c("b", `{"x":1}`)},
		chunks: []string{"<|tools_pre", "fix|>[{\"a\": {}}, {\"b\": {\"x\": 1}}]<|tools_", "suffix|>"}},
	{name: "name and arguments fields", text: `<|tools_prefix|>[{"name": "f", "arguments": {"q": 1}}]<|tools_suffix|>`,
		calls: []want{c("f", `{"q":1}`)}},
	{name: "no call", text: "London is rainy.", content: "London is rainy.", chunks: []string{"London", " is rainy."}},
	{name: "reasoning and surrounding text", text: "<|inner_prefix|>Need weather.<|inner_suffix|>Checking.<|tools_prefix|>[{\"w\": {}}]<|tools_suffix|>",
		calls: []want{c("w", `{}`)}, reasoning: "Need weather.", content: "Checking."},
	{name: "single quotes repaired", text: `<|tools_prefix|>[{'f': {'a': 'b'}}]<|tools_suffix|>`,
		calls: []want{c("f", `{"a":"b"}`)}, repairs: []toolcall.RepairKind{toolcall.RepairSingleQuotes}},
	{name: "beyond repair beside a good call", text: `<|tools_prefix|>[{"a": {:::}}, {"b": {}}]<|tools_suffix|>`,
		calls: []want{c("b", `{}`)}, errs: []toolcall.Code{errRepair}},
	{name: "escaped strings", text: `<|tools_prefix|>[{"f": {"s": "a\"b\\c\nd"}}]<|tools_suffix|>`,
		calls: []want{c("f", `{"s":"a\"b\\c\nd"}`)}},
}

func TestApertus(t *testing.T) {
	runTable(t, markers.Apertus, apertusRows)
	checkChunks(t, apertusRows)
}

var internlmRows = []row{
	{name: "single", text: "<|action_start|><|plugin|>\n{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Tokyo\"}}<|action_end|>",
		calls: []want{c("get_weather", `{"city":"Tokyo"}`)}},
	{name: "space between the tokens", text: "<|action_start|> <|plugin|>\n{\"name\": \"f\", \"parameters\": {}}<|action_end|>",
		calls:  []want{c("f", `{}`)},
		chunks: []string{"<|action_start|> <|plu", "gin|>\n{\"name\": \"f\", \"parameters\": {}}<|action_end|>"}},
	{name: "two blocks", text: "<|action_start|><|plugin|>\n{\"name\": \"a\", \"parameters\": {}}<|action_end|>\n<|action_start|><|plugin|>\n{\"name\": \"b\", \"parameters\": {\"x\": 1}}<|action_end|>",
		calls: []want{c("a", `{}`), c("b", `{"x":1}`)}},
	{name: "no call", text: "Hello!", content: "Hello!", chunks: []string{"Hel", "lo!"}},
	{name: "surrounding text", text: "Let me check.<|action_start|><|plugin|>\n{\"name\": \"f\", \"parameters\": {}}<|action_end|><|im_end|>",
		calls: []want{c("f", `{}`)}, content: "Let me check."},
	{name: "single quotes repaired", text: "<|action_start|><|plugin|>\n{'name': 'f', 'parameters': {'a': 'b'}}<|action_end|>",
		calls: []want{c("f", `{"a":"b"}`)}, repairs: []toolcall.RepairKind{toolcall.RepairSingleQuotes}},
	{name: "beyond repair beside a good call", text: "<|action_start|><|plugin|>\n{\"name\": \"a\", \"parameters\": {:::}}<|action_end|><|action_start|><|plugin|>\n{\"name\": \"b\", \"parameters\": {}}<|action_end|>",
		calls: []want{c("b", `{}`)}, errs: []toolcall.Code{errRepair}},
	{name: "escaped strings", text: "<|action_start|><|plugin|>\n{\"name\": \"f\", \"parameters\": {\"s\": \"\\\"x\\\" \\\\ 你好\"}}<|action_end|>",
		calls: []want{c("f", `{"s":"\"x\" \\ 你好"}`)}},
}

func TestInternLM2(t *testing.T) {
	runTable(t, markers.InternLM2, internlmRows)
	checkChunks(t, internlmRows)
}

var gigachatRows = []row{
	{name: "a marker named in a sentence is a word", text: "The answer uses <|function_call|> and then JSON.",
		content: "The answer uses <|function_call|> and then JSON.", chunks: []string{"The answer uses <|function_", "call|> and then JSON."}},
	{name: "gigachat 3.0", text: `<|function_call|>{"name": "manage_user_memory", "arguments": {}}`,
		calls: []want{c("manage_user_memory", `{}`)}},
	{name: "gigachat 3.1", text: "<|message_sep|>\n\nfunction call<|role_sep|>\n{\"name\": \"f\", \"arguments\": {\"a\": 1}}",
		calls:  []want{c("f", `{"a":1}`)},
		chunks: []string{"<|message_sep|>\n\nfunction ", "call<|role_sep|>\n{\"name\": \"f\", \"arguments\": {\"a\": 1}}"}},
	{name: "gigachat 3.1 opening the answer, without the message separator", text: "function call<|role_sep|>\n{\"name\": \"f\", \"arguments\": {\"a\": 1}}",
		calls:  []want{c("f", `{"a":1}`)},
		chunks: []string{"function ca", "ll<|role_", "sep|>\n{\"name\": \"f\", \"arguments\": {\"a\": 1}}"}},
	{name: "the words function call in prose are not a marker", text: "I will make a function call to check.", content: "I will make a function call to check."},
	{name: "two calls", text: `<|function_call|>{"name": "a", "arguments": {}}<|function_call|>{"name": "b", "arguments": {"x": 1}}`,
		calls: []want{c("a", `{}`), c("b", `{"x":1}`)}},
	{name: "no call", text: "Привет! Чем помочь?", content: "Привет! Чем помочь?", chunks: []string{"Прив", "ет! Чем помочь?"}},
	{name: "surrounding text", text: `Let me remember that.<|function_call|>{"name": "m", "arguments": {"k": "v"}}`,
		calls: []want{c("m", `{"k":"v"}`)}, content: "Let me remember that."},
	{name: "single quotes repaired", text: `<|function_call|>{'name': 'f', 'arguments': {'a': 'b'}}`,
		calls: []want{c("f", `{"a":"b"}`)}, repairs: []toolcall.RepairKind{toolcall.RepairSingleQuotes}},
	{name: "beyond repair beside a good call", text: `<|function_call|>{"name": "a", "arguments": {:::}}<|function_call|>{"name": "b", "arguments": {}}`,
		calls: []want{c("b", `{}`)}, errs: []toolcall.Code{errRepair}},
	{name: "escaped strings", text: `<|function_call|>{"name": "f", "arguments": {"s": "строка \"q\" \\"}}`,
		calls: []want{c("f", `{"s":"строка \"q\" \\"}`)}},
}

func TestGigaChat3(t *testing.T) {
	runTable(t, markers.GigaChat3, gigachatRows)
	checkChunks(t, gigachatRows)
}

var genericRows = []row{
	{name: "tool_call", text: `{"tool_call": {"name": "special_function", "arguments": {"arg1": 1}}}`,
		calls: []want{c("special_function", `{"arg1":1}`)}},
	{name: "tool_calls with ids", text: `{"tool_calls": [{"name": "a", "arguments": {}, "id": "123456789"}, {"name": "b", "arguments": {"x": 1}, "id": "987654321"}]}`,
		calls:  []want{cid("a", `{}`, "123456789"), cid("b", `{"x":1}`, "987654321")},
		chunks: []string{"{\"tool_calls\": [{\"name\": \"a\", \"argu", "ments\": {}, \"id\": \"123456789\"}, {\"name\": \"b\", \"arguments\": {\"x\": 1}, \"id\": \"987654321\"}]}"}},
	{name: "response", text: `{"response": "Hello"}`, content: "Hello"},
	{name: "no call", text: "Plain answer.", content: "Plain answer.", chunks: []string{"Plain", " answer."}},
	{name: "envelope in prose is not a call", text: `Reply like {"tool_call": {"name": "f", "arguments": {}}} next time.`,
		content: `Reply like {"tool_call": {"name": "f", "arguments": {}}} next time.`, marked: true},
	{name: "fenced", text: "```json\n{\"tool_call\": {\"name\": \"f\", \"arguments\": {}}}\n```", calls: []want{c("f", `{}`)}},
	{name: "fenced by tildes", text: "~~~~json\n{\"tool_call\": {\"name\": \"f\", \"arguments\": {}}}\n~~~~", calls: []want{c("f", `{}`)}},
	{name: "single quotes repaired", text: `{'tool_call': {'name': 'f', 'arguments': {'a': 'b'}}}`,
		calls: []want{c("f", `{"a":"b"}`)}, repairs: []toolcall.RepairKind{toolcall.RepairSingleQuotes}, unmarked: true},
	{name: "beyond repair beside a good call", text: `{"tool_calls": [{"name": "a", "arguments": {:::}}, {"name": "b", "arguments": {}}]}`,
		calls: []want{c("b", `{}`)}, errs: []toolcall.Code{errRepair}},
	{name: "escaped strings", text: `{"tool_call": {"name": "f", "arguments": {"s": "\"q\" \\ \n é"}}}`,
		calls: []want{c("f", `{"s":"\"q\" \\ \n é"}`)}},
}

func TestGenericJSON(t *testing.T) {
	runTable(t, markers.GenericJSON, genericRows)
	checkChunks(t, genericRows)
}

var geminiRows = []row{
	{name: "single", text: `{"function_call": {"name": "get_weather", "args": {"location": "Tokyo"}}}`,
		calls: []want{c("get_weather", `{"location":"Tokyo"}`)}},
	{name: "camel case", text: `{"functionCall": {"name": "f", "args": {"a": 1}}}`,
		calls:  []want{c("f", `{"a":1}`)},
		chunks: []string{"{\"functionCa", "ll\": {\"name\": \"f\", \"args\": {\"a\": 1}}}"}},
	{name: "no call", text: "It is sunny in Tokyo.", content: "It is sunny in Tokyo.", chunks: []string{"It is", " sunny in Tokyo."}},
	{name: "fenced with surrounding blank lines", text: "\n```json\n{\"function_call\": {\"name\": \"f\", \"args\": {}}}\n```\n",
		calls: []want{c("f", `{}`)}},
	{name: "on its own line after prose naming a declared tool", text: "Calling:\n{\"function_call\": {\"name\": \"search\", \"args\": {\"q\": \"x\"}}}",
		tools: []string{"search"}, calls: []want{c("search", `{"q":"x"}`)}, content: "Calling:"},
	{name: "with prose on its line it is mentioned, not called", text: `Calling: {"function_call": {"name": "search", "args": {"q": "x"}}}`,
		tools: []string{"search"}, content: `Calling: {"function_call": {"name": "search", "args": {"q": "x"}}}`, marked: true},
	{name: "single quotes repaired", text: `{'function_call': {'name': 'f', 'args': {'a': 'b'}}}`,
		calls: []want{c("f", `{"a":"b"}`)}, repairs: []toolcall.RepairKind{toolcall.RepairSingleQuotes}, unmarked: true},
	{name: "escaped strings", text: `{"function_call": {"name": "f", "args": {"s": "\"q\" \\ \t ü"}}}`,
		calls: []want{c("f", `{"s":"\"q\" \\ \t ü"}`)}},
}

func TestGemini(t *testing.T) { runTable(t, markers.Gemini, geminiRows); checkChunks(t, geminiRows) }

var functionaryV31Rows = []row{
	{name: "arguments closed twice", text: `<function=get_weather>{"city": "Paris"}}</function>`,
		calls: []want{c("get_weather", `{"city":"Paris"}`)}, repairs: []toolcall.RepairKind{toolcall.RepairExtraClosing}},
	{name: "single", text: `<function=get_weather>{"city": "Tokyo"}</function>`,
		calls: []want{c("get_weather", `{"city":"Tokyo"}`)}},
	{name: "parallel", text: `<function=a>{}</function><function=b>{"x": 1}</function>`,
		calls:  []want{c("a", `{}`), c("b", `{"x":1}`)},
		chunks: []string{"<function=a>{}</func", "tion><function=b>{\"x\": 1}</function>"}},
	{name: "python code", text: "<|python_tag|>print(\"hi\")\nx = 1<|eom_id|>",
		calls: []want{c("python", `{"code":"print(\"hi\")\nx = 1"}`)}},
	{name: "no call", text: "The weather is nice.", content: "The weather is nice.", chunks: []string{"The weather", " is nice."}},
	{name: "broken JSON after the python tag is not code", text: `<|python_tag|>{"name": invalid}`, errs: []toolcall.Code{errMalformed}},
	{name: "JSON arguments after the python tag", text: `<|python_tag|>{"code": "print(1)"}`, calls: []want{c("python", `{"code":"print(1)"}`)}},
	{name: "code cut off inside a string is no call", text: "<|python_tag|>import os\nprint('he", errs: []toolcall.Code{errTruncated}},
	{name: "code cut off inside brackets is no call", text: "<|python_tag|>shutil.rmtree(os.path.join(base,", errs: []toolcall.Code{errTruncated}},
	{name: "code whose brackets close at the end is a call", text: "<|python_tag|>print(\"(\")  # (", calls: []want{c("python", `{"code":"print(\"(\")  # ("}`)}},
	{name: "text that is not a Python program is never code to run", text: "<|python_tag|>print(1<|eom_id|>", errs: []toolcall.Code{errMalformed}},
	{name: "prose after the python tag is not code", text: "<|python_tag|>import math\nI will tell you the result soon.",
		errs: []toolcall.Code{errMalformed}, chunks: []string{"<|python_tag|>import ma", "th\nI will tell", " you the result soon."}},
	{name: "surrounding text", text: "Let me check the weather.\n<function=get_weather>{\"location\": \"Tokyo, JP\"}</function>\nThe weather is...",
		calls: []want{c("get_weather", `{"location":"Tokyo, JP"}`)}, content: "Let me check the weather.\nThe weather is..."},
	{name: "single quotes repaired", text: `<function=f>{'a': 'b'}</function>`,
		calls: []want{c("f", `{"a":"b"}`)}, repairs: []toolcall.RepairKind{toolcall.RepairSingleQuotes}},
	{name: "beyond repair beside a good call", text: `<function=a>{:::}</function><function=b>{}</function>`,
		calls: []want{c("b", `{}`)}, errs: []toolcall.Code{errRepair}},
	{name: "not JSON", text: `<function=a>city Tokyo</function><function=b>{}</function>`,
		calls: []want{c("b", `{}`)}, errs: []toolcall.Code{errMalformed}},
	{name: "escaped strings", text: `<function=f>{"s": "</function> \"q\" \\"}</function>`,
		calls: []want{c("f", `{"s":"</function> \"q\" \\"}`)}},
}

func TestFunctionaryV31(t *testing.T) {
	runTable(t, markers.FunctionaryV31, functionaryV31Rows)
	checkChunks(t, functionaryV31Rows)
}

var functionaryV32Rows = []row{
	{name: "single", text: ">>>get_weather\n{\"city\": \"Tokyo\"}",
		calls: []want{c("get_weather", `{"city":"Tokyo"}`)}},
	{name: "first marker written by the prompt", text: "get_weather\n{\"city\": \"Tokyo\"}",
		calls: []want{c("get_weather", `{"city":"Tokyo"}`)}, unmarked: true},
	{name: "parallel", text: ">>>get_weather\n{\"city\": \"Tokyo\"}>>>get_time\n{\"tz\": \"JST\"}",
		calls:  []want{c("get_weather", `{"city":"Tokyo"}`), c("get_time", `{"tz":"JST"}`)},
		chunks: []string{">>>get_weather\n{\"city\": \"Tokyo\"}>", ">>get_time\n{\"tz\": \"JST\"}"}},
	{name: "all is content", text: ">>>all\nHello there", content: "Hello there", marked: true},
	{name: "implicit all", text: "all\nHello there", content: "Hello there"},
	{name: "content then a call", text: "all\nLet me check.\n>>>get_weather\n{\"city\": \"Tokyo\"}",
		calls: []want{c("get_weather", `{"city":"Tokyo"}`)}, content: "Let me check."},
	{name: "python code", text: ">>>python\nprint(1 + 1)", calls: []want{c("python", `{"code":"print(1 + 1)"}`)}},
	{name: "python code cut off inside a call", text: ">>>python\n# This is a program:\nprint('hey'", errs: []toolcall.Code{errTruncated}},
	{name: "prose after python is not code", text: ">>>python\nimport os\nI will run it soon for you.", errs: []toolcall.Code{errMalformed},
		chunks: []string{">>>py", "thon\nimport os\nI will", " run it soon for you."}},
	{name: "a sentence after python mentions it", text: ">>>python\nI will run it soon for you.", content: ">>>python\nI will run it soon for you."},
	{name: "a call inside a closed think block is reasoning", text: "<think>I could write >>>f\n{\"a\": 1} but no.</think>I will not.",
		reasoning: "I could write >>>f\n{\"a\": 1} but no.", content: "I will not."},
	{name: "no call", text: "Hello world", content: "Hello world", chunks: []string{"Hello", " world"}},
	{name: "two lines of prose", text: "Hello\nworld", content: "Hello\nworld"},
	{name: "single quotes repaired", text: ">>>f\n{'a': 'b'}",
		calls: []want{c("f", `{"a":"b"}`)}, repairs: []toolcall.RepairKind{toolcall.RepairSingleQuotes}},
	{name: "beyond repair beside a good call", text: ">>>a\n{:::}>>>b\n{}",
		calls: []want{c("b", `{}`)}, errs: []toolcall.Code{errRepair}},
	{name: "escaped strings", text: ">>>f\n{\"s\": \">>> is a prompt \\\"q\\\" \\\\\"}",
		calls: []want{c("f", `{"s":">>> is a prompt \"q\" \\"}`)}},
}

func TestFunctionaryV32(t *testing.T) {
	runTable(t, markers.FunctionaryV32, functionaryV32Rows)
	checkChunks(t, functionaryV32Rows)
}

var inklingRows = []row{
	{name: "single", text: `<|message_model|>search<|content_invoke_tool_json|>{"name":"search","args":{"query":"x"}}<|end_message|>`,
		calls: []want{c("search", `{"query":"x"}`)}},
	{name: "two messages", text: `<|message_model|>a<|content_invoke_tool_json|>{"name":"a","args":{}}<|end_message|><|message_model|>b<|content_invoke_tool_json|>{"name":"b","args":{"x":1}}<|end_message|>`,
		calls:  []want{c("a", `{}`), c("b", `{"x":1}`)},
		chunks: []string{"<|message_model|>a<|content_invoke_", "tool_json|>{\"name\":\"a\",\"args\":{}}<|end_message|><|message_model|>b<|content_invoke_tool_json|>{\"name\":\"b\",\"args\":{\"x\":1}}<|end_message|>"}},
	{name: "arguments only", text: `<|message_model|>search<|content_invoke_tool_json|>{"query":"x"}<|end_message|>`,
		calls: []want{c("search", `{"query":"x"}`)}},
	{name: "plain message", text: "<|message_model|>Hello there<|end_message|>", content: "Hello there",
		chunks: []string{"<|message_mo", "del|>Hello there<|end_message|>"}},
	{name: "surrounding text", text: `<|message_model|>Looking it up.<|end_message|><|message_model|>search<|content_invoke_tool_json|>{"name":"search","args":{}}<|end_message|>`,
		calls: []want{c("search", `{}`)}, content: "Looking it up."},
	{name: "single quotes repaired", text: `<|message_model|>f<|content_invoke_tool_json|>{'name': 'f', 'args': {'a': 'b'}}<|end_message|>`,
		calls: []want{c("f", `{"a":"b"}`)}, repairs: []toolcall.RepairKind{toolcall.RepairSingleQuotes}},
	{name: "beyond repair beside a good call", text: `<|message_model|>a<|content_invoke_tool_json|>{"name":"a","args":{:::}}<|end_message|><|message_model|>b<|content_invoke_tool_json|>{"name":"b","args":{}}<|end_message|>`,
		calls: []want{c("b", `{}`)}, errs: []toolcall.Code{errRepair}},
	{name: "escaped strings", text: `<|message_model|>f<|content_invoke_tool_json|>{"name":"f","args":{"s":"\"q\" \\ é"}}<|end_message|>`,
		calls: []want{c("f", `{"s":"\"q\" \\ é"}`)}},
}

func TestInkling(t *testing.T) {
	runTable(t, markers.Inkling, inklingRows)
	checkChunks(t, inklingRows)
}
