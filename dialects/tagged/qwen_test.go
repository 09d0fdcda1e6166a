package tagged_test

import (
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects/tagged"
)

const qwenWeather = "<tool_call>\n<function=get_weather>\n<parameter=city>\nTokyo\n</parameter>\n</function>\n</tool_call>"

var qwenRows = []row{
	{
		name:    "a call in a fence labelled with a programming language is code",
		text:    "Here is a script you can run later:\n```python\n" + qwenWeather + "\n```\nDone.",
		chunks:  []string{"Here is a script you can run later:\n```py", "thon\n<tool_", "call>\n<function=get_weather>\n<parameter=city>\nTokyo\n</parameter>\n</function>\n</tool_call>\n```\nDone."},
		content: "Here is a script you can run later:\n```python\n" + qwenWeather + "\n```\nDone.",
	},
	{
		name:    "a call quoted inside a sentence is content",
		text:    `Write "<tool_call><function=get_weather><parameter=city>Tokyo</parameter></function></tool_call>" to call it.`,
		chunks:  []string{`Write "<tool_call><function=get_`, `weather><parameter=city>Tokyo</parameter></function></tool_call>" to call it.`},
		content: `Write "<tool_call><function=get_weather><parameter=city>Tokyo</parameter></function></tool_call>" to call it.`,
	},
	{
		name:    "a call after inline code closed before it is a call",
		text:    "Use `get_weather` for that.\n" + qwenWeather,
		chunks:  []string{"Use `get_", "weather` for that.\n<tool_call>\n<function=get_weather>\n<parameter=city>\nTokyo\n</par", "ameter>\n</function>\n</tool_call>"},
		calls:   []want{call("get_weather", `{"city":"Tokyo"}`)},
		content: "Use `get_weather` for that.",
	},
	{
		name:    "a call in a fence that nothing before it presents is a call, whatever follows",
		text:    "```\n" + qwenWeather + "\n```\nI won't call it yet.",
		chunks:  []string{"```\n<tool_call>\n<function=get_weather>\n<parameter=city>\nTokyo\n</parameter>\n</function>\n</tool_call>", "\n```\nI won't call it yet."},
		calls:   []want{call("get_weather", `{"city":"Tokyo"}`)},
		content: "```\n```\nI won't call it yet.",
	},
	{
		name:    "the output ending in a section it opened is cut off",
		text:    "Let me check.\n<tool_call>\n",
		content: "Let me check.",
		errs:    []toolcall.Code{toolcall.CodeTruncated},
	},
	{
		name:   "the call's and the section's closing tags inside a raw value are value text",
		text:   "<tool_call>\n<function=note>\n<parameter=text>\nend it with </function> and </tool_call>\n</parameter>\n</function>\n</tool_call>",
		chunks: []string{"<tool_call>\n<function=note>\n<parameter=text>\nend it with </function>", " and </tool_call>\n</parameter>\n</function>\n</tool_call>"},
		calls:  []want{call("note", `{"text":"end it with </function> and </tool_call>"}`)},
	},
	{
		name:   "a JSON object in place of the parameters is the arguments",
		text:   "<tool_call>\n<function=get_weather>\n{\"city\": \"Paris\", \"days\": 2}\n</function>\n</tool_call>",
		chunks: []string{"<tool_call>\n<function=get_we", "ather>\n{\"city\": \"Par", "is\", \"days\": 2}\n</function>\n</tool_call>"},
		calls:  []want{call("get_weather", `{"city":"Paris","days":2}`)},
	},
	{
		name:   "closing tags inside a string of the JSON arguments are argument text",
		text:   "<tool_call>\n<function=note>\n{\"text\": \"end it with </function> and </tool_call>\"}\n</function>\n</tool_call>",
		chunks: []string{"<tool_call>\n<function=note>\n{\"text\": \"end it with </func", "tion> and </tool_call>\"}\n</function>\n</tool_call>"},
		calls:  []want{call("note", `{"text":"end it with </function> and </tool_call>"}`)},
	},
	{
		name: "JSON arguments broken off inside a string at the call's end are cut off",
		text: "<tool_call>\n<function=note>\n{\"text\": \"end it with </function>\n</tool_call>",
		errs: []toolcall.Code{toolcall.CodeTruncated},
	},
	{
		name:   "single call",
		text:   qwenWeather,
		chunks: []string{"<tool_", "call>\n<function=get_", "weather>\n<parameter=city>\nTok", "yo\n</parameter>\n</function>\n</tool_call>"},
		calls:  []want{call("get_weather", `{"city":"Tokyo"}`)},
	},
	{
		name:  "without the tool_call wrapper",
		text:  "<function=get_weather>\n<parameter=city>\nTokyo\n</parameter>\n</function>",
		calls: []want{call("get_weather", `{"city":"Tokyo"}`)},
	},
	{
		name:  "wrapper closed but never opened",
		text:  "<function=get_weather>\n<parameter=city>Tokyo</parameter>\n</function>\n</tool_call>\nDone.",
		calls: []want{call("get_weather", `{"city":"Tokyo"}`)}, content: "Done.",
	},
	{
		name:  "parallel calls",
		text:  qwenWeather + "\n" + "<tool_call>\n<function=get_time>\n<parameter=zone>\nJST\n</parameter>\n</function>\n</tool_call>",
		calls: []want{call("get_weather", `{"city":"Tokyo"}`), call("get_time", `{"zone":"JST"}`)},
	},
	{
		name:  "two functions in one wrapper",
		text:  "<tool_call><function=a><parameter=x>1</parameter></function><function=b></function></tool_call>",
		calls: []want{call("a", `{"x":1}`), call("b", `{}`)},
	},
	{
		name:    "no call",
		text:    "The weather in Tokyo is sunny.",
		content: "The weather in Tokyo is sunny.",
	},
	{
		name:    "look-alike tags are prose",
		text:    "abc\n<tool_call fakeout <functions> <function_calls>",
		content: "abc\n<tool_call fakeout <functions> <function_calls>",
	},
	{
		name:    "surrounding text",
		text:    "Let me check.\n\n" + qwenWeather + "\nIt should be sunny.",
		chunks:  []string{"Let me check.\n\n<tool", "_call>", qwenWeather[len("<tool_call>"):] + "\nIt should", " be sunny."},
		calls:   []want{call("get_weather", `{"city":"Tokyo"}`)},
		content: "Let me check.\nIt should be sunny.",
	},
	{
		name:  "raw values keep <, &, newlines and closing-tag look-alikes",
		text:  "<tool_call>\n<function=run>\n<parameter=code>\nif a < b && c > d:\n    print(\"</parameters>\")\n</param>\n\n</parameter>\n</function>\n</tool_call>",
		calls: []want{call("run", `{"code":"if a < b && c > d:\n    print(\"</parameters>\")\n</param>\n"}`)},
	},
	{
		name:  "escaped strings",
		text:  "<function=write>\n<parameter=text>\nHe said \"hi\" \\ C:\\temp\\new\tTab é 東京 🌍\n</parameter>\n</function>",
		calls: []want{call("write", `{"text":"He said \"hi\" \\ C:\\temp\\new\tTab é 東京 🌍"}`)},
	},
	{
		name:    "missing </parameter>: the value ends at the next parameter",
		text:    "<tool_call>\n<function=get_weather>\n<parameter=city>\nTokyo\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>",
		calls:   []want{call("get_weather", `{"city":"Tokyo","days":3}`)},
		repairs: []toolcall.RepairKind{toolcall.RepairUnclosedTag},
	},
	{
		name:    "missing </parameter> and </function>",
		text:    "<tool_call>\n<function=get_weather>\n<parameter=city>Tokyo\n</tool_call>",
		calls:   []want{call("get_weather", `{"city":"Tokyo"}`)},
		repairs: []toolcall.RepairKind{toolcall.RepairUnclosedTag},
	},
	{
		name:    "output ends inside a call",
		text:    "Checking.\n<tool_call>\n<function=get_weather>\n<parameter=city>Chicago</parameter>",
		errs:    []toolcall.Code{toolcall.CodeTruncated},
		content: "Checking.",
	},
	{
		name:    "typed by the declared schema",
		tools:   weatherTool,
		text:    "<function=get_weather>\n<parameter=city>\n00123\n</parameter>\n<parameter=zip>\n00123\n</parameter>\n<parameter=days>\n3\n</parameter>\n<parameter=metric>\ntrue\n</parameter>\n<parameter=tags>\n[\"a\", \"b\"]\n</parameter>\n</function>",
		calls:   []want{call("get_weather", `{"city":"00123","zip":"00123","days":3,"metric":true,"tags":["a","b"]}`)},
		repairs: []toolcall.RepairKind{toolcall.RepairCoercion},
	},
	{
		name:    "malformed object value is repaired",
		tools:   weatherTool,
		text:    "<function=get_weather>\n<parameter=city>Paris</parameter>\n<parameter=options>{'units': 'c', 'detail': True,}</parameter>\n</function>",
		calls:   []want{call("get_weather", `{"city":"Paris","options":{"units":"c","detail":true}}`)},
		repairs: []toolcall.RepairKind{toolcall.RepairCoercion},
	},
	{
		name:  "a call beyond repair is an error, its sibling still parses",
		text:  "<tool_call>\n<function=get_weather>\nTokyo please\n</function>\n</tool_call>\n<tool_call>\n<function=get_time>\n</function>\n</tool_call>",
		calls: []want{call("get_time", `{}`)},
		errs:  []toolcall.Code{toolcall.CodeMalformedCall},
	},
	{
		name: "function without a name",
		text: "<tool_call>\n<function>\n<parameter=city>Miami</parameter>\n</function>\n</tool_call>",
		errs: []toolcall.Code{toolcall.CodeMissingFunction},
	},
	{
		name:  "a call interrupted by the next is an error",
		text:  "<function=a>\n<parameter=x>1</parameter>\n<function=b>\n<parameter=y>2</parameter>\n</function>",
		calls: []want{call("b", `{"y":2}`)},
		errs:  []toolcall.Code{toolcall.CodeMalformedCall},
	},
	{
		name:  "repeated key: the last value wins",
		text:  "<function=f>\n<parameter=a>1</parameter>\n<parameter=b>x</parameter>\n<parameter=a>2</parameter>\n</function>",
		calls: []want{call("f", `{"a":2,"b":"x"}`)},
	},
	{
		name:  "unicode names",
		tools: `[{"name":"获取天气","parameters":{"type":"object","properties":{"城市":{"type":"string"}}}}]`,
		text:  "<tool_call>\n<function=获取天气>\n<parameter=城市>北京</parameter>\n</function>\n</tool_call>",
		calls: []want{call("获取天气", `{"城市":"北京"}`)},
	},
	{
		name:      "reasoning opened by the template",
		open:      true,
		text:      "I should check the weather.\n</think>\n\n" + qwenWeather,
		chunks:    []string{"I should check the weather.\n</th", "ink>\n\n", qwenWeather},
		calls:     []want{call("get_weather", `{"city":"Tokyo"}`)},
		reasoning: "I should check the weather.",
	},
	{
		name:      "reasoning block and answer",
		text:      "<think>\nplan\n</think>\n\nThe answer.",
		reasoning: "plan", content: "The answer.",
	},
	{
		name:      "a call inside a closed reasoning block stays reasoning",
		text:      "<think>Need weather lookup" + qwenWeather + "</think>Done.",
		reasoning: "Need weather lookup" + qwenWeather, content: "Done.",
	},
	{
		name:      "a call in reasoning never closed is a call",
		text:      "<think>Need weather lookup" + qwenWeather,
		calls:     []want{call("get_weather", `{"city":"Tokyo"}`)},
		reasoning: "Need weather lookup",
	},
	{
		name: "hermes JSON in <tool_call> is not a qwen call",
		text: "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tokyo\"}}\n</tool_call>",
		errs: []toolcall.Code{toolcall.CodeMalformedCall},
	},
	{
		name: "glm syntax is not a qwen call",
		text: "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Tokyo</arg_value>\n</tool_call>",
		errs: []toolcall.Code{toolcall.CodeMalformedCall},
	},
}

func TestQwen3Coder(t *testing.T) {
	runTable(t, tagged.Qwen3Coder, qwenRows)
	testChunks(t, qwenRows)
}

var seedRows = []row{
	{
		name:   "single call",
		text:   "<seed:tool_call>\n<function=get_weather>\n<parameter=city>Tokyo</parameter>\n</function>\n</seed:tool_call>",
		chunks: []string{"<seed:tool", "_call>\n<function=get_weather>\n<parameter=city>Tokyo</parameter>\n</function>\n</seed:tool_call>"},
		calls:  []want{call("get_weather", `{"city":"Tokyo"}`)},
	},
	{
		name:  "parallel calls in one section",
		text:  "<seed:tool_call>\n<function=a>\n<parameter=x>1</parameter>\n</function>\n<function=b>\n<parameter=y>two</parameter>\n</function>\n</seed:tool_call>",
		calls: []want{call("a", `{"x":1}`), call("b", `{"y":"two"}`)},
	},
	{name: "no call", text: "Just text.", content: "Just text."},
	{
		name:      "reasoning and surrounding text",
		text:      "<seed:think>\nThe user wants weather.\n</seed:think>\nChecking now.\n<seed:tool_call>\n<function=get_weather>\n<parameter=city>Tokyo</parameter>\n</function>\n</seed:tool_call>",
		chunks:    []string{"<seed:th", "ink>\nThe user wants weather.\n</seed:think>\nChecking now.\n<seed:tool_call>\n<function=get_weather>\n<parameter=city>Tokyo</parameter>\n</function>\n</seed:tool_call>"},
		calls:     []want{call("get_weather", `{"city":"Tokyo"}`)},
		reasoning: "The user wants weather.", content: "Checking now.",
	},
	{
		name:  "escaped strings",
		text:  "<seed:tool_call><function=echo><parameter=s>a \"q\" \\ \n é</parameter></function></seed:tool_call>",
		calls: []want{call("echo", `{"s":"a \"q\" \\ \n é"}`)},
	},
	{
		name:    "malformed value repaired by schema",
		tools:   weatherTool,
		text:    "<seed:tool_call><function=get_weather><parameter=city>Oslo</parameter><parameter=tags>['a', 'b',]</parameter></function></seed:tool_call>",
		calls:   []want{call("get_weather", `{"city":"Oslo","tags":["a","b"]}`)},
		repairs: []toolcall.RepairKind{toolcall.RepairCoercion},
	},
	{
		name:  "a broken call beside a good one",
		text:  "<seed:tool_call><function=a>oops</function><function=b><parameter=y>2</parameter></function></seed:tool_call>",
		calls: []want{call("b", `{"y":2}`)},
		errs:  []toolcall.Code{toolcall.CodeMalformedCall},
	},
	{
		name:    "qwen's wrapper is not seed's",
		text:    qwenWeather,
		content: qwenWeather,
	},
	{
		name:    "tags named in a sentence are words, not a failed call",
		text:    "The tags <seed:tool_call> and </seed:tool_call> wrap Seed calls.",
		content: "The tags <seed:tool_call> and </seed:tool_call> wrap Seed calls.",
		chunks:  []string{"The tags <seed:tool", "_call> and </seed:tool_call> wrap Seed calls."},
	},
	{
		name:      "a call in a closed think block is reasoning",
		text:      "<think>I could send <seed:tool_call>\n<function=get_weather>\n<parameter=city>Tokyo</parameter>\n</function>\n</seed:tool_call> but no.</think>It is sunny.",
		chunks:    []string{"<think>I could send <seed:tool", "_call>\n<function=get_weather>\n<parameter=city>Tokyo</parameter>\n</function>\n</seed:tool_call> but no.</thi", "nk>It is sunny."},
		reasoning: "I could send <seed:tool_call>\n<function=get_weather>\n<parameter=city>Tokyo</parameter>\n</function>\n</seed:tool_call> but no.",
		content:   "It is sunny.",
	},
	{
		name:      "seed's reasoning and a think block",
		text:      "<seed:think>plan</seed:think><think>more</think>\n<seed:tool_call>\n<function=get_weather>\n<parameter=city>Tokyo</parameter>\n</function>\n</seed:tool_call>",
		calls:     []want{call("get_weather", `{"city":"Tokyo"}`)},
		reasoning: "planmore",
	},
}

func TestSeedOSS(t *testing.T) {
	runTable(t, tagged.SeedOSS, seedRows)
	testChunks(t, seedRows)
}
