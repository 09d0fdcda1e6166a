package markers_test

import (
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects/markers"
)

const (
	errRepair    = toolcall.CodeRepairFailed
	errMalformed = toolcall.CodeMalformedCall
	errTruncated = toolcall.CodeTruncated
)

var mistralRows = []row{
	{name: "a call list in a tilde fence", text: "[TOOL_CALLS]\n~~~json\n[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}]\n~~~\nDone.",
		calls: []want{c("get_weather", `{"city":"Paris"}`)}, content: "Done."},
	{name: "call list closed twice", text: `[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}}]]`,
		calls: []want{c("get_weather", `{"city":"Paris"}`)}, repairs: []toolcall.RepairKind{toolcall.RepairExtraClosing},
		chunks: []string{`[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}}]`, `]`}},
	{name: "v11 arguments closed twice", text: `[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}}`,
		calls: []want{c("get_weather", `{"city":"Paris"}`)}, repairs: []toolcall.RepairKind{toolcall.RepairExtraClosing}},
	{name: "a brace too many before prose is punctuation", text: `[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}} and then`,
		calls: []want{c("get_weather", `{"city":"Paris"}`)}, content: "and then", repairs: []toolcall.RepairKind{toolcall.RepairExtraClosing}},
	{name: "a call shown in inline code is content", text: "The syntax is `[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\"}`, but I won't call it now.", content: "The syntax is `[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\"}`, but I won't call it now."},
	{name: "a call quoted in a sentence is content", text: "The model answers \u201C[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\"}\u201D here.", content: "The model answers \u201C[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\"}\u201D here.",
		chunks: []string{"The model answers \u201C[TOOL_", "CALLS]get_weather[ARGS]{\"city\": \"Paris\"}\u201D", " here."}},
	{name: "a call in ASCII quotes in a sentence is content", text: "Write \"[TOOL_CALLS][{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"n\": 1}}]\" to call it.", content: "Write \"[TOOL_CALLS][{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"n\": 1}}]\" to call it.",
		chunks: []string{"Write \"[TOOL_CALLS][{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Par", "is\", \"n\": 1}}]\" to call it."}},
	{name: "a call on its own line after a quoted phrase is a call", text: "I will look up \"Paris\" now.\n[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\"}",
		calls: []want{c("get_weather", `{"city":"Paris"}`)}, content: "I will look up \"Paris\" now.",
		chunks: []string{"I will look up \"Par", "is\" now.\n[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\"}"}},
	{name: "quotes in a value are argument text", text: "[TOOL_CALLS]get_weather[ARGS]{\"city\": \"say \u201C[TOOL_CALLS]x[ARGS]{}\u201D and go\"}",
		calls:  []want{c("get_weather", `{"city":"say “[TOOL_CALLS]x[ARGS]{}” and go"}`)},
		chunks: []string{"[TOOL_CALLS]get_weather[ARGS]{\"city\": \"say \u201C[TOOL_", "CALLS]x[ARGS]{}\u201D and go\"}"}},
	{name: "a call shown in an example fence is content", text: "For example:\n```\n[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\"}\n```\nbut I won't call it.", content: "For example:\n```\n[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\"}\n```\nbut I won't call it."},
	{name: "single v11", text: `[TOOL_CALLS]get_weather[ARGS]{"city": "Tokyo"}`,
		calls: []want{c("get_weather", `{"city":"Tokyo"}`)}},
	{name: "single pre-v11 with id", text: `[TOOL_CALLS] [{"name": "add", "arguments": {"a": 3.5, "b": 4}, "id": "a1B2c3D4e"}]`,
		calls: []want{cid("add", `{"a":3.5,"b":4}`, "a1B2c3D4e")}},
	{name: "parallel array", text: `[TOOL_CALLS] [{"name": "add", "arguments": {"a": 1}}, {"name": "mul", "arguments": {"b": 2}}]`,
		calls: []want{c("add", `{"a":1}`), c("mul", `{"b":2}`)}},
	{name: "parallel v11", text: `[TOOL_CALLS]add[ARGS]{"a": 1}[TOOL_CALLS]mul[ARGS]{"b": 2}`,
		calls:  []want{c("add", `{"a":1}`), c("mul", `{"b":2}`)},
		chunks: []string{`[TOOL_CALLS]add[AR`, `GS]{"a": 1}[TOOL_`, `CALLS]mul[ARGS]{"b": 2}`}},
	{name: "arguments encoded twice", text: `[TOOL_CALLS]add[ARGS]"{\"a\": 3.5, \"b\": 4}"`,
		calls: []want{c("add", `{"a":3.5,"b":4}`)}, repairs: []toolcall.RepairKind{toolcall.RepairDoubleEncoded},
		chunks: []string{`[TOOL_CALLS]add[ARGS]"{\"a`, `\": 3.5, \"b\": 4}`, `"`}},
	{name: "a quoted string that is not an object is not arguments", text: `[TOOL_CALLS]add[ARGS]"three and four"`,
		errs: []toolcall.Code{errMalformed}},
	{name: "ARGS stripped", text: `[TOOL_CALLS]add{"a": 3.5, "b": 4}`,
		calls: []want{c("add", `{"a":3.5,"b":4}`)}},
	{name: "call id", text: `[TOOL_CALLS]get_weather[CALL_ID]a1B2c3D4e[ARGS]{"city": "Paris"}`,
		calls: []want{cid("get_weather", `{"city":"Paris"}`, "a1B2c3D4e")}},
	{name: "closing tag", text: `[TOOL_CALLS] [{"name": "f", "arguments": {}}][/TOOL_CALLS]`,
		calls: []want{c("f", `{}`)}},
	{name: "no call", text: "The capital of France is Paris.", content: "The capital of France is Paris."},
	{name: "markers named in a sentence are words, not a failed call", text: "Put the name between [TOOL_CALLS] and [ARGS], then the JSON.",
		content: "Put the name between [TOOL_CALLS] and [ARGS], then the JSON.",
		chunks:  []string{"Put the name between [TOOL_", "CALLS] and [AR", "GS], then the JSON."}},
	{name: "a marker opening the output that reads no call is still an error", text: "[TOOL_CALLS] and [ARGS], then the JSON.",
		errs: []toolcall.Code{errMalformed}},
	{name: "a call beyond repair after a word keeps its error", text: "I will check the weather [TOOL_CALLS]get_weather[ARGS]{:::}",
		content: "I will check the weather", errs: []toolcall.Code{errRepair}},
	{name: "a call in a closed think block is reasoning", text: "<think>Maybe [TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\"} later.</think>It is sunny.",
		reasoning: "Maybe [TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\"} later.", content: "It is sunny.",
		chunks: []string{"<think>Maybe [TOOL_", "CALLS]get_weather[ARGS]{\"city\": \"Paris\"} later.</th", "ink>It is sunny."}},
	{name: "a think block then a call", text: "<think>\nWeather first.\n</think>\n\n[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\"}",
		reasoning: "Weather first.", calls: []want{c("get_weather", `{"city":"Paris"}`)}},
	{name: "bracket that is not a marker", text: "abc[TOOL not a tag", content: "abc[TOOL not a tag",
		chunks: []string{"abc[TOOL", " not a tag"}},
	{name: "surrounding text", text: "Let me check.\n[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Tokyo\"}\nI will report back.",
		calls: []want{c("get_weather", `{"city":"Tokyo"}`)}, content: "Let me check.\nI will report back."},
	{name: "single quotes repaired", text: `[TOOL_CALLS] [{'name': 'search', 'arguments': {'query': 'AI'}}]`,
		calls: []want{c("search", `{"query":"AI"}`)}, repairs: []toolcall.RepairKind{toolcall.RepairSingleQuotes}},
	{name: "truncated arguments", text: `[TOOL_CALLS]get_weather[ARGS]{"city": "Tok`,
		errs: []toolcall.Code{toolcall.CodeTruncated}},
	{name: "truncated array", text: `[TOOL_CALLS] [{"name": "a", "arguments": {"x": 1}}, {"name": "b", "arguments": {"y": [1, 2`,
		calls: []want{c("a", `{"x":1}`)}, errs: []toolcall.Code{toolcall.CodeTruncated}},
	{name: "array cut after a complete call", text: `[TOOL_CALLS] [{"name": "a", "arguments": {"x": 1}}`,
		calls: []want{c("a", `{"x":1}`)}},
	{name: "cut after the name", text: `[TOOL_CALLS]get_wea`, errs: []toolcall.Code{toolcall.CodeTruncated}},
	{name: "beyond repair beside a good call", text: `[TOOL_CALLS] [{"name": "a", "arguments": {:::}}, {"name": "b", "arguments": {"x": 1}}]`,
		calls: []want{c("b", `{"x":1}`)}, errs: []toolcall.Code{errRepair}},
	{name: "beyond repair v11", text: `[TOOL_CALLS]a[ARGS]{:::}[TOOL_CALLS]b[ARGS]{"x": 1}`,
		calls: []want{c("b", `{"x":1}`)}, errs: []toolcall.Code{errRepair}},
	{name: "escaped strings", text: `[TOOL_CALLS]write[ARGS]{"text": "say \"hi\" C:\\dir\nnext \u00e9 ü 🌍"}`,
		calls: []want{c("write", `{"text":"say \"hi\" C:\\dir\nnext \u00e9 ü 🌍"}`)}},
	{name: "magistral reasoning", text: `[THINK]The user wants weather.[/THINK][TOOL_CALLS]get_weather[ARGS]{"city": "Oslo"}`,
		calls: []want{c("get_weather", `{"city":"Oslo"}`)}, reasoning: "The user wants weather."},
	{name: "reasoning opened by the template", text: "let me think[/THINK][TOOL_CALLS]test[ARGS]{}",
		calls: []want{c("test", `{}`)}, reasoning: "let me think"},
	{name: "ReasoningOpen without close", text: "still thinking", open: true, reasoning: "still thinking"},
	{name: "marker then prose", text: "[TOOL_CALLS] sure, here you go", errs: []toolcall.Code{errMalformed}},
	{name: "marker at the end", text: "Calling now [TOOL_CALLS]", content: "Calling now", errs: []toolcall.Code{errTruncated}},
	{name: "text after the array", text: `[TOOL_CALLS] [{"name": "calc", "arguments": {"a": 1}}][TOOL_RESULTS] placeholder`,
		calls: []want{c("calc", `{"a":1}`)}, content: "[TOOL_RESULTS] placeholder"},
	{name: "pre-v11: junk before the array is not a v11 name", text: "[TOOL_CALLS]functions: [{\"name\": \"add\", \"arguments\": {\"a\": 3.5}}]",
		calls: []want{c("add", `{"a":3.5}`)}, content: "functions:",
		chunks: []string{"[TOOL_CALLS]func", "tions: [{\"name\": \"add\", ", "\"arguments\": {\"a\": 3.5}}]"}},
	{name: "pre-v11: a fence's language word on its own line", text: "[TOOL_CALLS]json\n[{\"name\": \"add\", \"arguments\": {\"a\": 1}}, {\"name\": \"mul\", \"arguments\": {\"b\": 2}}]",
		calls: []want{c("add", `{"a":1}`), c("mul", `{"b":2}`)}, content: "json"},
	{name: "pre-v11: a stripped token before the array", text: `[TOOL_CALLS] </s>[{"name": "add", "arguments": {"a": 1}}]`,
		calls: []want{c("add", `{"a":1}`)}},
	{name: "pre-v11: prose before a call object", text: `Sure. [TOOL_CALLS]Calling now: {"name": "add", "arguments": {"a": 1}}`,
		calls: []want{c("add", `{"a":1}`)}, content: "Sure. Calling now:"},
	{name: "v11 with [ARGS] keeps an array argument", text: `[TOOL_CALLS]add[ARGS]{"a": [{"b": 1}]}`,
		calls: []want{c("add", `{"a":[{"b":1}]}`)}},
	// A call is decided by its own value: a later element whose string
	// runs over the next marker fails alone, as it would have when the
	// first element closed and streamed.
	{name: "pre-v11: a later element's string runs over the next marker", text: `[TOOL_CALLS] [{"name": "add", "arguments": {"a": 1}}, {"name": "mul", "arguments": {"b": "x}}][TOOL_CALLS]`,
		calls: []want{c("add", `{"a":1}`)}, errs: []toolcall.Code{errMalformed}},
	{name: "pre-v11: a string that runs over the next marker in the first element", text: `[TOOL_CALLS] [{"name": "add", "arguments": {"a": "x}}][TOOL_CALLS]`,
		errs: []toolcall.Code{errMalformed}},
}

func TestMistral(t *testing.T) {
	runTable(t, markers.Mistral, mistralRows)
	checkChunks(t, mistralRows)
}

const (
	dsCalls    = "<｜tool▁calls▁begin｜>"
	dsCallsEnd = "<｜tool▁calls▁end｜>"
	dsCall     = "<｜tool▁call▁begin｜>"
	dsCallEnd  = "<｜tool▁call▁end｜>"
	dsSep      = "<｜tool▁sep｜>"
)

// dsV3 writes one deepseek_v3 call block.
func dsV3(name, args string) string {
	return dsCall + "function" + dsSep + name + "\n```json\n" + args + "\n```" + dsCallEnd
}

// dsV31 writes one deepseek_v31 call block.
func dsV31(name, args string) string { return dsCall + name + dsSep + args + dsCallEnd }

var deepseekV3Rows = []row{
	{name: "the output ending in a section it opened is cut off", text: "Let me check. <｜tool▁calls▁begin｜>",
		content: "Let me check.", errs: []toolcall.Code{toolcall.CodeTruncated}},
	{name: "arguments closed twice in their fence", text: "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"city\": \"Paris\"}}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
		calls: []want{c("get_weather", `{"city":"Paris"}`)}, repairs: []toolcall.RepairKind{toolcall.RepairExtraClosing}},
	{name: "single", text: dsCalls + dsV3("get_weather", `{"city": "Tokyo"}`) + dsCallsEnd,
		calls:  []want{c("get_weather", `{"city":"Tokyo"}`)},
		chunks: cut(dsCalls+dsV3("get_weather", `{"city": "Tokyo"}`)+dsCallsEnd, 5, 40, 70)},
	{name: "parallel", text: dsCalls + "\n" + dsV3("search", `{"q": "rust"}`) + "\n" + dsV3("translate", `{"to": "ja"}`) + "\n" + dsCallsEnd,
		calls: []want{c("search", `{"q":"rust"}`), c("translate", `{"to":"ja"}`)}},
	{name: "no call", text: "This is a simple response.", content: "This is a simple response."},
	{name: "surrounding text", text: "Let me look.\n" + dsCalls + dsV3("f", `{}`) + dsCallsEnd + "\nDone.",
		calls: []want{c("f", `{}`)}, content: "Let me look.\nDone."},
	{name: "single quotes repaired", text: dsCalls + dsV3("get_weather", `{'city': 'Tokyo'}`) + dsCallsEnd,
		calls: []want{c("get_weather", `{"city":"Tokyo"}`)}, repairs: []toolcall.RepairKind{toolcall.RepairSingleQuotes}},
	{name: "beyond repair beside a good call", text: dsCalls + dsV3("broken", `{:::}`) + dsV3("valid", `{"key": "value"}`) + dsCallsEnd,
		calls: []want{c("valid", `{"key":"value"}`)}, errs: []toolcall.Code{errRepair}},
	{name: "escaped strings", text: dsCalls + dsV3("run", `{"cmd": "echo \"a\\b\"\n", "city": "東京"}`) + dsCallsEnd,
		calls: []want{c("run", `{"cmd":"echo \"a\\b\"\n","city":"東京"}`)}},
	{name: "reasoning", text: "<think>Weather needed.</think>" + dsCalls + dsV3("f", `{}`) + dsCallsEnd,
		calls: []want{c("f", `{}`)}, reasoning: "Weather needed."},
	{name: "reasoning opened by the template", text: "Weather needed.</think>Sure." + dsCalls + dsV3("f", `{}`) + dsCallsEnd,
		calls: []want{c("f", `{}`)}, reasoning: "Weather needed.", content: "Sure."},
	{name: "deepseek_v31 syntax is an error", text: dsCalls + dsV31("get_weather", `{"city": "Tokyo"}`) + dsCallsEnd,
		errs: []toolcall.Code{errMalformed}},
	{name: "ASCII bars", text: "<|tool▁calls▁begin|><|tool▁call▁begin|>function<|tool▁sep|>f\n```json\n{\"a\": 1}\n```<|tool▁call▁end|><|tool▁calls▁end|><|end▁of▁sentence|>",
		calls: []want{c("f", `{"a":1}`)}},
	{name: "truncated", text: dsCalls + dsCall + "function" + dsSep + "get_weather\n```json\n{\"city\": \"Tok",
		errs: []toolcall.Code{toolcall.CodeTruncated}},
	{name: "arguments in a tilde fence", text: dsCalls + dsCall + "function" + dsSep + "f\n~~~json\n{\"a\": 1}\n~~~" + dsCallEnd + dsCallsEnd,
		calls: []want{c("f", `{"a":1}`)}},
	{name: "cut inside the closing tilde run", text: dsCalls + dsCall + "function" + dsSep + "f\n~~~json\n{\"a\": 1}\n~~",
		calls: []want{c("f", `{"a":1}`)}},
	{name: "closing fence and markers missing", text: dsCalls + dsCall + "function" + dsSep + "get_weather\n```json\n{\"city\": \"Tokyo\"}",
		calls: []want{c("get_weather", `{"city":"Tokyo"}`)}},
	{name: "per-call marker missing in the section", text: dsCalls + "function" + dsSep + "f\n```json\n{\"a\": 1}\n```" + dsCallEnd + dsCallsEnd,
		calls: []want{c("f", `{"a":1}`)}},
	{name: "section marker variant", text: "<｜tool▁calls｜>" + dsV3("f", `{}`) + dsCallsEnd, calls: []want{c("f", `{}`)}},
	{name: "deepseek_v31 syntax without per-call marker", text: dsCalls + "f" + dsSep + `{"a": 1}` + dsCallEnd + dsCallsEnd,
		errs: []toolcall.Code{errMalformed}},
	{name: "echoed tool output", text: "Result: <｜tool▁output▁begin｜>22°C<｜tool▁output▁end｜> today.",
		content: "Result: 22°C today.", chunks: cut("Result: <｜tool▁output▁begin｜>22°C<｜tool▁output▁end｜> today.", 10, 12)},
}

func TestDeepSeekV3(t *testing.T) {
	runTable(t, markers.DeepSeekV3, deepseekV3Rows)
	checkChunks(t, deepseekV3Rows)
}

var deepseekV31Rows = []row{
	{name: "arguments closed twice", text: "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{\"city\": \"Paris\"}}<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
		calls: []want{c("get_weather", `{"city":"Paris"}`)}, repairs: []toolcall.RepairKind{toolcall.RepairExtraClosing}},
	{name: "single", text: dsCalls + dsV31("get_weather", `{"city": "Tokyo"}`) + dsCallsEnd,
		calls:  []want{c("get_weather", `{"city":"Tokyo"}`)},
		chunks: cut(dsCalls+dsV31("get_weather", `{"city": "Tokyo"}`)+dsCallsEnd, 3, 30, 60)},
	{name: "parallel", text: "Both cities." + dsCalls + dsV31("get_weather", `{"location":"Paris"}`) + dsV31("get_weather", `{"location":"London"}`) + dsCallsEnd,
		calls: []want{c("get_weather", `{"location":"Paris"}`), c("get_weather", `{"location":"London"}`)}, content: "Both cities."},
	{name: "no call", text: "Just a normal response.", content: "Just a normal response."},
	{name: "surrounding text", text: "I'll help you. " + dsCalls + dsV31("f", `{}`) + dsCallsEnd + " 完成 ✅",
		calls: []want{c("f", `{}`)}, content: "I'll help you. 完成 ✅"},
	{name: "single quotes repaired", text: dsCalls + dsV31("f", `{'a': 'b'}`) + dsCallsEnd,
		calls: []want{c("f", `{"a":"b"}`)}, repairs: []toolcall.RepairKind{toolcall.RepairSingleQuotes}},
	{name: "beyond repair beside a good call", text: dsCalls + dsV31("broken", `{:::}`) + dsV31("ok", `{"x": 1}`) + dsCallsEnd,
		calls: []want{c("ok", `{"x":1}`)}, errs: []toolcall.Code{errRepair}},
	{name: "escaped strings", text: dsCalls + dsV31("execute", `{"command": "ls && echo \"done\"", "path": "C:\\tmp\n", "q": "北京天气"}`) + dsCallsEnd,
		calls: []want{c("execute", `{"command":"ls && echo \"done\"","path":"C:\\tmp\n","q":"北京天气"}`)}},
	{name: "reasoning opened by the template", text: "I should check.</think>On it." + dsCalls + dsV31("f", `{}`) + dsCallsEnd,
		calls: []want{c("f", `{}`)}, reasoning: "I should check.", content: "On it."},
	{name: "call inside open reasoning", text: "planning the call" + dsCalls + dsV31("f", `{}`) + dsCallsEnd, open: true,
		calls: []want{c("f", `{}`)}, reasoning: "planning the call"},
	{name: "deepseek_v3 syntax is an error", text: dsCalls + dsV3("get_weather", `{"city": "Tokyo"}`) + dsCallsEnd,
		errs: []toolcall.Code{errMalformed}},
	{name: "truncated", text: dsCalls + dsCall + "get_weather" + dsSep + `{"city": "Tok`,
		errs: []toolcall.Code{toolcall.CodeTruncated}},
	{name: "per-call marker missing in the section", text: dsCalls + "f" + dsSep + `{"a": 1}` + dsCallEnd + dsCallsEnd,
		calls: []want{c("f", `{"a":1}`)}},
	{name: "call without its section", text: dsV31("ping", "{}"), calls: []want{c("ping", `{}`)},
		chunks: cut(dsV31("ping", "{}"), 1, 2, 4)},
	{name: "end marker inside an argument", text: dsCalls + dsV31("echo", `{"text": "a `+dsCallEnd+` b"}`) + dsCallsEnd,
		calls: []want{c("echo", `{"text":"a `+dsCallEnd+` b"}`)}},
}

func TestDeepSeekV31(t *testing.T) {
	runTable(t, markers.DeepSeekV31, deepseekV31Rows)
	checkChunks(t, deepseekV31Rows)
}

const (
	kimiSection    = "<|tool_calls_section_begin|>"
	kimiSectionEnd = "<|tool_calls_section_end|>"
)

func kimi(id, args string) string {
	return "<|tool_call_begin|>" + id + "<|tool_call_argument_begin|>" + args + "<|tool_call_end|>"
}

var kimiRows = []row{
	{name: "the output ending in a section it opened is cut off", text: "Let me check.\n<|tool_calls_section_begin|>\n",
		content: "Let me check.", errs: []toolcall.Code{toolcall.CodeTruncated}},
	{name: "single", text: kimiSection + kimi("functions.get_weather:0", `{"city": "Beijing"}`) + kimiSectionEnd,
		calls:  []want{cid("get_weather", `{"city":"Beijing"}`, "functions.get_weather:0")},
		chunks: cut(kimiSection+kimi("functions.get_weather:0", `{"city": "Beijing"}`)+kimiSectionEnd, 10, 45, 80)},
	{name: "parallel", text: kimiSection + "\n" + kimi("functions.search:0", `{"q": "rust"}`) + "\n" + kimi("functions.translate:1", `{"to": "ja"}`) + "\n" + kimiSectionEnd,
		calls: []want{cid("search", `{"q":"rust"}`, "functions.search:0"), cid("translate", `{"to":"ja"}`, "functions.translate:1")}},
	{name: "no call", text: "Hello there.", content: "Hello there."},
	{name: "surrounding text", text: "Sure.\n" + kimiSection + kimi("functions.f:0", `{}`) + kimiSectionEnd + "\nDone.",
		calls: []want{c("f", `{}`)}, content: "Sure.\nDone."},
	{name: "single quotes repaired", text: kimiSection + kimi("functions.f:0", `{'a': 'b'}`) + kimiSectionEnd,
		calls: []want{c("f", `{"a":"b"}`)}, repairs: []toolcall.RepairKind{toolcall.RepairSingleQuotes}},
	{name: "beyond repair beside a good call", text: kimiSection + kimi("functions.a:0", `{:::}`) + kimi("functions.b:1", `{"x": 1}`) + kimiSectionEnd,
		calls: []want{c("b", `{"x":1}`)}, errs: []toolcall.Code{errRepair}},
	{name: "escaped strings", text: kimiSection + kimi("functions.note:0", `{"note": "line one\nline \"two\" \\ 三"}`) + kimiSectionEnd,
		calls: []want{c("note", `{"note":"line one\nline \"two\" \\ 三"}`)}},
	{name: "reasoning", text: "<think>Need a search.</think>" + kimiSection + kimi("functions.search:0", `{}`) + kimiSectionEnd,
		calls: []want{c("search", `{}`)}, reasoning: "Need a search."},
	{name: "dotted name", text: kimiSection + kimi("api.tools.search:0", `{}`) + kimiSectionEnd,
		calls:  []want{cid("api.tools.search", `{}`, "api.tools.search:0")},
		chunks: []string{"<|tool_calls_section_begin|><|tool_call_begin|>api.tools.", "search:0<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_", "section_end|>"}},
	{name: "blanks around the id", text: kimiSection + "<|tool_call_begin|> functions.test:0 <|tool_call_argument_begin|> {\"k\": 42} <|tool_call_end|>" + kimiSectionEnd,
		calls: []want{c("test", `{"k":42}`)}},
	{name: "truncated", text: kimiSection + "<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{\"a\": [1, 2",
		errs: []toolcall.Code{toolcall.CodeTruncated}},
	{name: "arguments encoded twice", text: kimiSection + kimi("functions.get_weather:0", `"{\"city\": \"Beijing\"}"`) + kimiSectionEnd,
		calls: []want{c("get_weather", `{"city":"Beijing"}`)}, repairs: []toolcall.RepairKind{toolcall.RepairDoubleEncoded}},
	{name: "an id without its index is not a call, the next one is", text: "I'll check. " + kimiSection + "<|tool_call_begin|>functions.get_weather.0 <|tool_call_argument_begin|> {\"city\": \"Beijing\"} <|tool_call_end|> " + kimi("functions.get_weather:1", `{"city": "Shanghai"}`) + kimiSectionEnd,
		calls: []want{cid("get_weather", `{"city":"Shanghai"}`, "functions.get_weather:1")}, errs: []toolcall.Code{errMalformed}, content: "I'll check.",
		chunks: []string{"I'll check. <|tool_calls_section_begin|><|tool_call_begin|>functions.get_wea", "ther.0 <|tool_call_argument_begin|> {\"city\": \"Beijing\"} <|tool_call_end|> <|tool_call_begin|>functions.get", "_weather:1<|tool_call_argument_begin|>{\"city\": \"Shanghai\"}<|tool_call_end|><|tool_calls_section_end|>"}},
}

func TestKimiK2(t *testing.T) { runTable(t, markers.KimiK2, kimiRows); checkChunks(t, kimiRows) }

var cohereRows = []row{
	{name: "single", text: `<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Tokyo"}}]<|END_ACTION|>`,
		calls: []want{cid("get_weather", `{"city":"Tokyo"}`, "0")}},
	{name: "parallel", text: "<|START_ACTION|>[\n    {\"tool_call_id\": \"0\", \"tool_name\": \"a\", \"parameters\": {}},\n    {\"tool_call_id\": \"1\", \"tool_name\": \"b\", \"parameters\": {\"x\": 1}}\n]<|END_ACTION|>",
		calls:  []want{cid("a", `{}`, "0"), cid("b", `{"x":1}`, "1")},
		chunks: []string{"<|START_AC", "TION|>[\n    {\"tool_call_id\": \"0\", \"tool_name\": \"a\", \"parameters\": {}},\n    {\"tool_call_id\": \"1\", \"tool_name\": \"b\", \"parameters\": {\"x\": 1}}\n]<|END_", "ACTION|>"}},
	{name: "one object per block", text: "<|START_ACTION|>{\"tool_name\": \"t1\", \"parameters\": {\"id\": 1}}<|END_ACTION|>\n<|START_ACTION|>{\"tool_name\": \"t2\", \"parameters\": {\"id\": 2}}<|END_ACTION|>",
		calls: []want{c("t1", `{"id":1}`), c("t2", `{"id":2}`)}},
	{name: "no call", text: "<|START_RESPONSE|>Hello, how can I help?<|END_RESPONSE|>", content: "Hello, how can I help?"},
	{name: "surrounding text", text: "<|START_RESPONSE|>Let me search.<|END_RESPONSE|>\n<|START_ACTION|>{\"tool_name\": \"search\", \"parameters\": {\"q\": \"x\"}}<|END_ACTION|>\n<|START_TEXT|>Searching now.<|END_TEXT|>",
		calls: []want{c("search", `{"q":"x"}`)}, content: "Let me search.\nSearching now."},
	{name: "thinking", text: "<|START_THINKING|>I need the weather.<|END_THINKING|><|START_ACTION|>[{\"tool_name\": \"w\", \"parameters\": {}}]<|END_ACTION|>",
		calls: []want{c("w", `{}`)}, reasoning: "I need the weather.",
		chunks: []string{"<|START_THINKING|>I need", " the weather.<|END_THINK", "ING|><|START_ACTION|>[{\"tool_name\": \"w\", \"parameters\": {}}]<|END_ACTION|>"}},
	{name: "single quotes repaired", text: `<|START_ACTION|>[{'tool_name': 'f', 'parameters': {'a': 'b'}}]<|END_ACTION|>`,
		calls: []want{c("f", `{"a":"b"}`)}, repairs: []toolcall.RepairKind{toolcall.RepairSingleQuotes}},
	{name: "beyond repair beside a good call", text: `<|START_ACTION|>[{"tool_name": "a", "parameters": {:::}}, {"tool_name": "b", "parameters": {}}]<|END_ACTION|>`,
		calls: []want{c("b", `{}`)}, errs: []toolcall.Code{errRepair}},
	{name: "end marker inside a string", text: `<|START_ACTION|>{"tool_name": "echo", "parameters": {"text": "say <|END_ACTION|> please"}}<|END_ACTION|>`,
		calls: []want{c("echo", `{"text":"say <|END_ACTION|> please"}`)}},
	{name: "unterminated string over the end marker", text: `<|START_ACTION|>{"tool_name": "echo", "parameters": {"text": "say <|END_ACTION|> please}<|END_ACTION|>`,
		errs: []toolcall.Code{errMalformed}},
	{name: "missing brace before the end marker", text: `<|START_ACTION|>{"tool_name": "f", "parameters": {"a": 1}<|END_ACTION|>`,
		calls: []want{c("f", `{"a":1}`)}, repairs: []toolcall.RepairKind{toolcall.RepairTruncatedValue}},
	{name: "command r action", text: "Action: ```json\n[\n    {\n        \"tool_name\": \"get_temperature\",\n        \"parameters\": {\"city\": \"London\"}\n    }\n]\n```",
		calls: []want{c("get_temperature", `{"city":"London"}`)}},
	{name: "the word Action in prose", text: "Action: none needed.", content: "Action: none needed."},
	{name: "escaped strings", text: `<|START_ACTION|>{"tool_name": "w", "parameters": {"s": "tab\there \"q\" \\ ñ"}}<|END_ACTION|>`,
		calls: []want{c("w", `{"s":"tab\there \"q\" \\ ñ"}`)}},
}

// cohere2MoERows are Cohere2MoE's outputs: its template opens the reasoning
// block, and the turn's framing (the chatbot token, the "Action:" label,
// the end of sequence) is never content.
var cohere2MoERows = []row{
	{name: "reasoning the template opened, then an action block", text: "I need the weather.<|END_THINKING|><|START_ACTION|>[{\"tool_call_id\": \"0\", \"tool_name\": \"get_weather\", \"parameters\": {\"city\": \"Tokyo\"}}]<|END_ACTION|>",
		calls: []want{cid("get_weather", `{"city":"Tokyo"}`, "0")}, reasoning: "I need the weather.",
		chunks: []string{"I need the wea", "ther.<|END_THI", "NKING|><|START_ACTION|>[{\"tool_call_id\": \"0\", \"tool_name\": \"get_weather\", \"parameters\": {\"city\": \"Tokyo\"}}]<|END_ACTION|>"}},
	{name: "the chatbot token, the Action label before the block and the end of sequence are framing", text: "<|CHATBOT_TOKEN|>Let me check.<|END_THINKING|>Action: <|START_ACTION|>[{\"tool_call_id\": \"0\", \"tool_name\": \"get_weather\", \"parameters\": {\"city\": \"Tokyo\"}}]<|END_ACTION|></s>",
		calls: []want{cid("get_weather", `{"city":"Tokyo"}`, "0")}, reasoning: "Let me check.",
		chunks: []string{"<|CHATBOT_TO", "KEN|>Let me check.<|END_THINKING|>Act", "ion: <|START_ACTION|>[{\"tool_call_id\": \"0\", \"tool_name\": \"get_weather\", \"parameters\": {\"city\": \"Tokyo\"}}]<|END_ACTION|><", "/s>"}},
	{name: "the Action label opening the block", text: "<|START_ACTION|>\nAction: ```json\n[{\"tool_name\": \"f\", \"parameters\": {\"a\": 1}}]\n```\n<|END_ACTION|>",
		calls: []want{c("f", `{"a":1}`)}},
	{name: "an answer after reasoning, framed", text: "Nothing to look up.<|END_THINKING|><|START_RESPONSE|>Hello!<|END_RESPONSE|><|END_OF_TURN_TOKEN|></s>",
		reasoning: "Nothing to look up.", content: "Hello!",
		chunks: []string{"Nothing to look up.<|END_THINKING|><|START_RESP", "ONSE|>Hello!<|END_RESPONSE|><|END_OF_TURN_TOKEN|></", "s>"}},
	{name: "an answer opening the output did not open in reasoning", text: "<|START_RESPONSE|>Use <|END_THINKING|> to close a block.<|END_RESPONSE|>",
		content: "Use <|END_THINKING|> to close a block.",
		chunks:  []string{"<|START_RESPONSE|>Use <|END_", "THINKING|> to close a block.<|END_RESPONSE|>"}},
	{name: "with ReasoningOpen, text without the closing tag is reasoning", open: true, text: "Still thinking",
		reasoning: "Still thinking"},
	{name: "a call drafted in reasoning the template opened is reasoning", text: "Maybe <|START_ACTION|>[{\"tool_name\": \"f\", \"parameters\": {}}]<|END_ACTION|> later.<|END_THINKING|><|START_RESPONSE|>No call.<|END_RESPONSE|>",
		reasoning: "Maybe <|START_ACTION|>[{\"tool_name\": \"f\", \"parameters\": {}}]<|END_ACTION|> later.", content: "No call.", unmarked: true},
}

func TestCohere(t *testing.T) {
	runTable(t, markers.Cohere, append(cohereRows, cohere2MoERows...))
	checkChunks(t, append(cohereRows, cohere2MoERows...))
}

var llama3Rows = []row{
	{name: "bare object closed twice", text: `{"name": "get_weather", "parameters": {"city": "Tokyo"}}}`,
		calls: []want{c("get_weather", `{"city":"Tokyo"}`)}, unmarked: true, repairs: []toolcall.RepairKind{toolcall.RepairExtraClosing},
		chunks: []string{`{"name": "get_weather", "parameters": {"city": "Tokyo"}}`, `}`}},
	{name: "bare object closed twice, then prose", text: `{"name": "get_weather", "parameters": {"city": "Tokyo"}}} Sure.`,
		content: `{"name": "get_weather", "parameters": {"city": "Tokyo"}}} Sure.`},
	{name: "bare object", text: `{"name": "get_weather", "parameters": {"city": "Tokyo"}}`,
		calls: []want{c("get_weather", `{"city":"Tokyo"}`)}, unmarked: true},
	{name: "python tag", text: `<|python_tag|>{"name": "search", "parameters": {"query": "weather"}}`,
		calls: []want{c("search", `{"query":"weather"}`)}},
	{name: "semicolons", text: `<|python_tag|>{"name": "a", "parameters": {}}; {"name": "b", "parameters": {"y": 2}}`,
		calls:  []want{c("a", `{}`), c("b", `{"y":2}`)},
		chunks: []string{"<|python", "_tag|>{\"name\": \"a\", \"parameters\": {}};", " {\"name\": \"b\", \"parameters\": {\"y\": 2}}"}},
	{name: "repeated python tag", text: `<|python_tag|>{"name": "a", "parameters": {}}; <|python_tag|>{"name": "b", "parameters": {}}`,
		calls: []want{c("a", `{}`), c("b", `{}`)}},
	{name: "arguments field", text: `<|python_tag|>{"name": "f", "arguments": {"x": 1}}<|eom_id|>`,
		calls: []want{c("f", `{"x":1}`)}},
	{name: "bare with end token", text: `{"name": "f", "parameters": {}}<|eot_id|>`,
		calls: []want{c("f", `{}`)}, unmarked: true},
	{name: "no call", text: "This is just plain text.", content: "This is just plain text.",
		chunks: []string{"This is ", "just plain", " text."}},
	{name: "surrounding text", text: `Let me help you with that. <|python_tag|>{"name": "get_time", "parameters": {"tz": "UTC"}}`,
		calls: []want{c("get_time", `{"tz":"UTC"}`)}, content: "Let me help you with that."},
	{name: "JSON example in prose is not a call", text: `For example, {"name": "get_weather", "parameters": {"city": "Paris"}} calls the tool.`,
		content: `For example, {"name": "get_weather", "parameters": {"city": "Paris"}} calls the tool.`},
	{name: "JSON with prose on its line is mentioned, not called", text: `Calling it now: {"name": "get_weather", "parameters": {"city": "Paris"}}`,
		tools: []string{"get_weather"}, content: `Calling it now: {"name": "get_weather", "parameters": {"city": "Paris"}}`},
	{name: "JSON on its own line after prose naming a declared tool", text: "Calling it now:\n{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\"}}",
		tools: []string{"get_weather"}, calls: []want{c("get_weather", `{"city":"Paris"}`)}, content: "Calling it now:", unmarked: true},
	{name: "JSON prose presents as an example", text: "The format looks like this:\n{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\"}}",
		tools: []string{"get_weather"}, content: "The format looks like this:\n{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\"}}"},
	{name: "calls separated by semicolons after a sentence", text: `Here are the results: {"name": "search", "parameters": {"q": "a"}}; {"name": "list", "parameters": {}} ; {"name": "search", "parameters": {"q": "b"}} Would you like more?`,
		calls:   []want{c("search", `{"q":"a"}`), c("list", `{}`), c("search", `{"q":"b"}`)},
		content: "Here are the results: Would you like more?", unmarked: true,
		chunks: []string{`Here are the results: {"name": "search", "param`, `eters": {"q": "a"}}; {"name": "li`, `st", "parameters": {}} ; {"name": "search", "parameters": {"q": "b"}} Would you like more?`}},
	{name: "an object after a call with prose between is not in its run", text: `Here is the result: {"name": "search", "parameters": {"q": "a"}} and then {"name": "list", "parameters": {}} maybe.`,
		calls: []want{c("search", `{"q":"a"}`)}, content: `Here is the result: and then {"name": "list", "parameters": {}} maybe.`, unmarked: true},
	{name: "JSON followed by prose", text: `{"name": "get_weather", "parameters": {}} Some follow-up text`,
		content: `{"name": "get_weather", "parameters": {}} Some follow-up text`},
	{name: "object that is not a call", text: `{"name": "Ada", "age": 36}`, content: `{"name": "Ada", "age": 36}`},
	{name: "unquoted name after the tag", text: `<|python_tag|>{"name": invalid}`, errs: []toolcall.Code{errMalformed}},
	{name: "single quotes repaired", text: `<|python_tag|>{'name': 'f', 'parameters': {'a': 'b'}}`,
		calls: []want{c("f", `{"a":"b"}`)}, repairs: []toolcall.RepairKind{toolcall.RepairSingleQuotes}},
	{name: "beyond repair beside a good call", text: `<|python_tag|>{"name": "a", "parameters": {:::}}; {"name": "b", "parameters": {}}`,
		calls: []want{c("b", `{}`)}, errs: []toolcall.Code{errRepair}},
	{name: "truncated bare", text: `{"name": "get_weather", "parameters": {"city": "Par`,
		errs: []toolcall.Code{toolcall.CodeTruncated}, unmarked: true},
	{name: "escaped strings", text: `<|python_tag|>{"name": "w", "parameters": {"s": "a\"b\\c\nd é"}}`,
		calls: []want{c("w", `{"s":"a\"b\\c\nd é"}`)}},
}

func TestLlama3JSON(t *testing.T) {
	runTable(t, markers.Llama3JSON, llama3Rows)
	checkChunks(t, llama3Rows)
}
