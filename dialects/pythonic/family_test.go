package pythonic_test

import (
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects/pythonic"
)

var olmo3Rows = []row{
	{
		name:    "the output ending right after the opener is cut off",
		text:    "Let me check.\n<function_calls>\n",
		content: "Let me check.",
		errs:    codes(toolcall.CodeTruncated),
		marked:  true,
	},
	{
		name:    "a call closed twice",
		text:    `<function_calls>get_weather(city="Paris"))</function_calls>`,
		calls:   calls("get_weather", `{"city":"Paris"}`),
		repairs: []toolcall.RepairKind{toolcall.RepairExtraClosing},
		marked:  true,
	},
	{
		name:   "single call",
		text:   `<function_calls>get_weather(location="San Francisco")</function_calls>`,
		calls:  calls("get_weather", `{"location":"San Francisco"}`),
		marked: true,
		chunks: []string{"<function_", "calls>get_weather", `(location="San Francisco")`, "</function_calls>"},
	},
	{
		name:   "parallel calls, one per line",
		text:   "<function_calls>get_weather(location=\"San Francisco\")\nget_time()</function_calls>",
		calls:  calls("get_weather", `{"location":"San Francisco"}`, "get_time", `{}`),
		marked: true,
		chunks: []string{"<function_calls>get_weather(location=\"San Fran", "cisco\")\nget_time()</function", "_calls>"},
	},
	{
		name:   "a bracketed list inside the block",
		text:   "<function_calls>[get_time(), get_time(zone='UTC')]</function_calls>",
		calls:  calls("get_time", `{}`, "get_time", `{"zone":"UTC"}`),
		marked: true,
	},
	{
		name:    "no call",
		text:    "Hello, how can I help you?",
		content: "Hello, how can I help you?",
	},
	{
		name:    "surrounding text",
		text:    "Let me check.\n<function_calls>get_time()</function_calls>\nBack in a moment.",
		calls:   calls("get_time", `{}`),
		content: "Let me check.\nBack in a moment.",
		marked:  true,
	},
	{
		name:   "JSON literals",
		text:   `<function_calls>set(enabled=true, value=null, ratio=19.99)</function_calls>`,
		calls:  calls("set", `{"enabled":true,"value":null,"ratio":19.99}`),
		marked: true,
	},
	{
		name:    "malformed: unquoted value",
		text:    `<function_calls>get_weather(location=Boston)</function_calls>`,
		calls:   calls("get_weather", `{"location":"Boston"}`),
		repairs: kinds(toolcall.RepairUnquotedString),
		marked:  true,
	},
	{
		name:   "beyond repair: sibling still parses",
		text:   "<function_calls>get_time()\nget_weather(location=\"Boston\" \"MA\")</function_calls>",
		calls:  calls("get_time", `{}`),
		errs:   codes(toolcall.CodeMalformedCall),
		marked: true,
	},
	{
		name:   "truncated",
		text:   "<function_calls>get_time()\nget_weather(location=\"Bos",
		calls:  calls("get_time", `{}`),
		errs:   codes(toolcall.CodeTruncated),
		marked: true,
	},
	{
		name:   "escaped strings",
		text:   `<function_calls>search(query="say \"hello\" \\ \u00fcber\nnext")</function_calls>`,
		calls:  calls("search", `{"query":"say \"hello\" \\ über\nnext"}`),
		marked: true,
	},
	{
		name:      "reasoning opened by the template",
		text:      "I should look it up.</think><function_calls>get_time()</function_calls>",
		calls:     calls("get_time", `{}`),
		reasoning: "I should look it up.",
		marked:    true,
	},
	{
		name:      "reasoning still open",
		text:      "Still weighing it up",
		open:      true,
		reasoning: "Still weighing it up",
	},
	{
		name:      "a think tag inside template-opened reasoning",
		text:      "I'm thinking <think>nested</think> more</think>Final.",
		reasoning: "I'm thinking <think>nested",
		content:   "more</think>Final.",
	},
	{
		name:      "reasoning the model opened itself",
		text:      "<think>plan</think>Answer.",
		reasoning: "plan",
		content:   "Answer.",
	},
	{
		name:  "without markers only declared tools count",
		text:  "get_weather(location=\"Oslo\")",
		tools: `[{"name": "get_weather", "parameters": {"type": "object", "properties": {"location": {"type": "string"}}}}]`,
		calls: calls("get_weather", `{"location":"Oslo"}`),
	},
	{
		name:    "without markers an undeclared call is content",
		text:    "get_weather(location=\"Oslo\")",
		content: "get_weather(location=\"Oslo\")",
	},
}

func TestOlmo3(t *testing.T) { runRows(t, pythonic.Olmo3, olmo3Rows) }

var lfm2Rows = []row{
	{
		name:    "the output ending right after the opener is cut off",
		text:    "Let me check.\n<|tool_call_start|>\n",
		content: "Let me check.",
		errs:    codes(toolcall.CodeTruncated),
		marked:  true,
	},
	{
		name:    "tokens named in a sentence are words, not a failed call",
		text:    "In LFM2 the tokens <|tool_call_start|> and <|tool_call_end|> surround calls.",
		content: "In LFM2 the tokens <|tool_call_start|> and <|tool_call_end|> surround calls.",
		marked:  true,
	},
	{
		name:    "single call",
		text:    `Checking.<|tool_call_start|>[get_weather(city="Paris")]<|tool_call_end|>`,
		calls:   calls("get_weather", `{"city":"Paris"}`),
		content: "Checking.",
		marked:  true,
		chunks:  []string{"Checking.<|tool_", "call_start|>[get_weather(", `city="Paris")]<|tool_call_e`, "nd|>"},
	},
	{
		name:   "JSON call objects",
		text:   `<|tool_call_start|>[{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "get_time", "arguments": {}}]<|tool_call_end|>`,
		calls:  calls("get_weather", `{"city":"Paris"}`, "get_time", `{}`),
		marked: true,
	},
	{
		name:    "parallel calls in repeated blocks",
		text:    `Both.<|tool_call_start|>[get_weather(city="Paris")]<|tool_call_end|><|tool_call_start|>[get_weather(city="London"), get_time()]<|tool_call_end|>`,
		calls:   calls("get_weather", `{"city":"Paris"}`, "get_weather", `{"city":"London"}`, "get_time", `{}`),
		content: "Both.",
		marked:  true,
	},
	{
		name:    "no call",
		text:    "Paris is lovely in spring (and autumn).",
		content: "Paris is lovely in spring (and autumn).",
	},
	{
		name:    "surrounding text",
		text:    "Here.\n<|tool_call_start|>[get_time()]<|tool_call_end|>\nI'll report back.",
		calls:   calls("get_time", `{}`),
		content: "Here.\nI'll report back.",
		marked:  true,
	},
	{
		name:      "reasoning",
		text:      "<think>Need the weather.</think>Sure.<|tool_call_start|>[get_weather(city='Rome')]<|tool_call_end|>",
		calls:     calls("get_weather", `{"city":"Rome"}`),
		content:   "Sure.",
		reasoning: "Need the weather.",
		marked:    true,
	},
	{
		name:      "call inside a closed reasoning block stays reasoning",
		text:      "<think>Calling <|tool_call_start|>[get_time()]<|tool_call_end|> now.</think>Done.",
		content:   "Done.",
		reasoning: "Calling <|tool_call_start|>[get_time()]<|tool_call_end|> now.",
		marked:    true,
	},
	{
		name:      "call in reasoning never closed is a call",
		text:      "<think>Calling <|tool_call_start|>[get_time()]<|tool_call_end|>",
		calls:     calls("get_time", `{}`),
		reasoning: "Calling",
		marked:    true,
	},
	{
		name:    "malformed: unquoted value",
		text:    `<|tool_call_start|>[get_weather(city=Rome)]<|tool_call_end|>`,
		calls:   calls("get_weather", `{"city":"Rome"}`),
		repairs: kinds(toolcall.RepairUnquotedString),
		marked:  true,
	},
	{
		name:    "malformed: list not closed",
		text:    `<|tool_call_start|>[get_weather(city="Rome")<|tool_call_end|>`,
		calls:   calls("get_weather", `{"city":"Rome"}`),
		repairs: kinds(toolcall.RepairMissingClosingBracket),
		marked:  true,
	},
	{
		name:    "unclosed block",
		text:    "<|tool_call_start|>[get_weather(city=\"Rome\")]\nDone.",
		calls:   calls("get_weather", `{"city":"Rome"}`),
		content: "Done.",
		marked:  true,
	},
	{
		name:   "beyond repair: sibling still parses",
		text:   `<|tool_call_start|>[get_time(), get_weather(city=="Rome")]<|tool_call_end|>`,
		calls:  calls("get_time", `{}`),
		errs:   codes(toolcall.CodeMalformedCall),
		marked: true,
	},
	{
		name:   "call object without a name",
		text:   `<|tool_call_start|>[{"name": "get_time", "arguments": {}}, {"arguments": {"city": "Rome"}}]<|tool_call_end|>`,
		calls:  calls("get_time", `{}`),
		errs:   codes(toolcall.CodeMissingFunction),
		marked: true,
	},
	{
		name:   "truncated",
		text:   `<|tool_call_start|>[get_time(), get_weather(city="Ro`,
		calls:  calls("get_time", `{}`),
		errs:   codes(toolcall.CodeTruncated),
		marked: true,
	},
	{
		name:    "a call list closed twice",
		text:    `<|tool_call_start|>[get_weather(city="Paris")]]<|tool_call_end|>`,
		calls:   calls("get_weather", `{"city":"Paris"}`),
		repairs: []toolcall.RepairKind{toolcall.RepairExtraClosing},
		marked:  true,
	},
	{
		name:   "text in the block that is not a call",
		text:   "<|tool_call_start|>I cannot call tools.<|tool_call_end|>",
		errs:   codes(toolcall.CodeMalformedCall),
		marked: true,
	},
	{
		name:   "empty block",
		text:   "<|tool_call_start|><|tool_call_end|>",
		marked: true,
	},
	{
		name:   "escaped strings",
		text:   `<|tool_call_start|>[write(text='a\'b "c"\nd\\e \u4f60\u597d')]<|tool_call_end|>`,
		calls:  calls("write", `{"text":"a'b \"c\"\nd\\e 你好"}`),
		marked: true,
		chunks: []string{"<|tool_call_start|>[write(text='a\\'b \"c\"\\nd\\\\e \\u4f", "60\\u597d')]<|tool_call_end|>"},
	},
	{
		name:  "bare list of a declared tool",
		text:  `[get_weather(city="Paris")]`,
		tools: weatherTools,
		calls: calls("get_weather", `{"city":"Paris"}`),
	},
	{
		name:    "bare list of an undeclared tool is content",
		text:    `[unknown_tool(location="Paris")]`,
		tools:   weatherTools,
		content: `[unknown_tool(location="Paris")]`,
	},
	{
		name:    "bare list without declared tools is content",
		text:    `[get_weather(city="Paris")]`,
		content: `[get_weather(city="Paris")]`,
	},
}

func TestLFM2(t *testing.T) { runRows(t, pythonic.LFM2, lfm2Rows) }

var sarashinaRows = []row{
	{
		name:   "single call",
		text:   "<|tool_calls|>[{'name': 'get_weather', 'arguments': {'city': 'Tokyo'}}]",
		calls:  calls("get_weather", `{"city":"Tokyo"}`),
		marked: true,
		chunks: []string{"<|tool_ca", "lls|>[{'name': 'get_weather', 'arguments': {'city': '", "Tokyo'}}]"},
	},
	{
		name:   "parallel calls, JSON and Python dicts",
		text:   `<|tool_calls|>[{"name": "get_weather", "arguments": {"city": "Tokyo"}}, {'name': 'set_alarm', 'arguments': {'on': True, 'at': None}}]`,
		calls:  calls("get_weather", `{"city":"Tokyo"}`, "set_alarm", `{"on":true,"at":null}`),
		marked: true,
	},
	{
		name:    "no call",
		text:    "東京は晴れです。",
		content: "東京は晴れです。",
		chunks:  []string{"東\xe4\xba", "\xacは晴れです。"}, // 京 split mid-character
	},
	{
		name:    "surrounding text",
		text:    "Let me look.\n<|tool_calls|>[{'name': 'get_time', 'arguments': {}}]\nOK.",
		calls:   calls("get_time", `{}`),
		content: "Let me look.\nOK.",
		marked:  true,
	},
	{
		name:    "arguments as a JSON string",
		text:    `<|tool_calls|>[{"name": "get_weather", "arguments": "{\"city\": \"Osaka\"}"}]`,
		calls:   calls("get_weather", `{"city":"Osaka"}`),
		repairs: kinds(toolcall.RepairDoubleEncoded),
		marked:  true,
	},
	{
		name:    "malformed: list not closed",
		text:    "<|tool_calls|>[{'name': 'get_time', 'arguments': {}}",
		calls:   calls("get_time", `{}`),
		repairs: kinds(toolcall.RepairMissingClosingBracket),
		marked:  true,
	},
	{
		name:   "beyond repair: sibling still parses",
		text:   "<|tool_calls|>[{'name': 'get_time', 'arguments': {}}, {'arguments': {'city': 'Tokyo'}}]",
		calls:  calls("get_time", `{}`),
		errs:   codes(toolcall.CodeMissingFunction),
		marked: true,
	},
	{
		name:   "truncated",
		text:   "<|tool_calls|>[{'name': 'get_time', 'arguments': {}}, {'name': 'get_weather', 'arguments': {'city': 'To",
		calls:  calls("get_time", `{}`),
		errs:   codes(toolcall.CodeTruncated),
		marked: true,
	},
	{
		name:   "escaped strings",
		text:   `<|tool_calls|>[{'name': 'echo', 'arguments': {'text': 'it\'s "x" \\ \n \u00e9'}}]`,
		calls:  calls("echo", `{"text":"it's \"x\" \\ \n é"}`),
		marked: true,
	},
	{
		name:      "reasoning",
		text:      "<think>Tokyo weather.</think><|tool_calls|>[{'name': 'get_weather', 'arguments': {'city': 'Tokyo'}}]",
		calls:     calls("get_weather", `{"city":"Tokyo"}`),
		reasoning: "Tokyo weather.",
		marked:    true,
	},
	{
		name:   "text after the marker that is not a call",
		text:   "<|tool_calls|>no tools needed",
		errs:   codes(toolcall.CodeMalformedCall),
		marked: true,
	},
}

func TestSarashina(t *testing.T) { runRows(t, pythonic.Sarashina, sarashinaRows) }

var builtinRows = []row{
	{
		name:    "the output ending right after the opener is cut off",
		text:    "Let me check.\n<|python_tag|>\n",
		content: "Let me check.",
		errs:    codes(toolcall.CodeTruncated),
		marked:  true,
	},
	{
		name:   "python tool",
		text:   `<|python_tag|>python.call(code="print('hey')")`,
		calls:  calls("python", `{"code":"print('hey')"}`),
		marked: true,
	},
	{
		name:   "brave_search ended by eom",
		text:   `<|python_tag|>brave_search.call(query="weather in Menlo Park")<|eom_id|>`,
		calls:  calls("brave_search", `{"query":"weather in Menlo Park"}`),
		marked: true,
		chunks: []string{"<|python_", "tag|>brave_search.call(query=\"weather in Menlo Park\")<|eom", "_id|>"},
	},
	{
		name:   "positional argument of a built-in tool",
		text:   `<|python_tag|>wolfram_alpha.call("solve x^2 = 4")`,
		calls:  calls("wolfram_alpha", `{"query":"solve x^2 = 4"}`),
		marked: true,
	},
	{
		name:   "parallel calls",
		text:   "<|python_tag|>brave_search.call(query=\"a\")\n<|python_tag|>wolfram_alpha.call(query=\"b\")",
		calls:  calls("brave_search", `{"query":"a"}`, "wolfram_alpha", `{"query":"b"}`),
		marked: true,
	},
	{
		name:   "code for the code interpreter",
		text:   "<|python_tag|>import math\nprint(math.sqrt(2))<|eom_id|>",
		calls:  calls("code_interpreter", `{"code":"import math\nprint(math.sqrt(2))"}`),
		marked: true,
		chunks: []string{"<|python_tag|>import ma", "th\nprint(math.sqrt(2))<|eom_", "id|>"},
	},
	{
		name:   "code cut off by the end of the output inside a string is no call",
		text:   "<|python_tag|>import math\nprint('the root is', math.sq",
		errs:   codes(toolcall.CodeTruncated),
		marked: true,
	},
	{
		name:   "text that is not a Python program is never code to run",
		text:   "<|python_tag|>print(math.sqrt(2)<|eom_id|>",
		errs:   codes(toolcall.CodeMalformedCall),
		marked: true,
	},
	{
		name:    "a built-in call followed by prose: the call, then content",
		text:    "<|python_tag|>brave_search.call(query=\"weather Paris\")\nI will tell you the result soon.",
		calls:   calls("brave_search", `{"query":"weather Paris"}`),
		content: "I will tell you the result soon.",
		marked:  true,
		chunks:  []string{"<|python_tag|>brave_search.call(query=\"weather Pa", "ris\")\nI will", " tell you the result soon."},
	},
	{
		name:   "a built-in call followed by prose inside a closed block: the prose is an error",
		text:   "<|python_tag|>brave_search.call(query=\"weather Paris\")\nI will tell you the result soon.<|eom_id|>",
		calls:  calls("brave_search", `{"query":"weather Paris"}`),
		errs:   codes(toolcall.CodeMalformedCall),
		marked: true,
	},
	{
		name:   "prose after the tag is not code",
		text:   "<|python_tag|>x = 1\nThen I will print the result for you.",
		errs:   codes(toolcall.CodeMalformedCall),
		marked: true,
		chunks: []string{"<|python_tag|>x = ", "1\nThen I will print", " the result for you."},
	},
	{
		name:   "code is a call to the declared python tool",
		text:   "<|python_tag|>print(1 + 1)",
		tools:  `[{"name": "python", "parameters": {"type": "object", "properties": {"code": {"type": "string"}}}}]`,
		calls:  calls("python", `{"code":"print(1 + 1)"}`),
		marked: true,
	},
	{
		name:   "JSON calls after the tag",
		text:   `<|python_tag|>{"name": "get_weather", "parameters": {"city": "SF"}}; {"name": "get_time", "parameters": {}}`,
		calls:  calls("get_weather", `{"city":"SF"}`, "get_time", `{}`),
		marked: true,
	},
	{
		name:   "pythonic call after the tag",
		text:   `<|python_tag|>get_weather(city="SF")`,
		calls:  calls("get_weather", `{"city":"SF"}`),
		marked: true,
	},
	{
		name:    "no call",
		text:    "Menlo Park is sunny today.",
		content: "Menlo Park is sunny today.",
	},
	{
		name:    "surrounding text",
		text:    "Searching.\n<|python_tag|>brave_search.call(query=\"news\")<|eom_id|>",
		calls:   calls("brave_search", `{"query":"news"}`),
		content: "Searching.",
		marked:  true,
	},
	{
		name:  "without the tag, a whole output of built-in calls",
		text:  `brave_search.call(query="x")`,
		calls: calls("brave_search", `{"query":"x"}`),
	},
	{
		name:    "without the tag, a mention is content",
		text:    `You could run brave_search.call(query="x") yourself.`,
		content: `You could run brave_search.call(query="x") yourself.`,
	},
	{
		name:    "malformed: unquoted value",
		text:    `<|python_tag|>brave_search.call(query=weather)`,
		calls:   calls("brave_search", `{"query":"weather"}`),
		repairs: kinds(toolcall.RepairUnquotedString),
		marked:  true,
	},
	{
		name:   "beyond repair: sibling still parses",
		text:   "<|python_tag|>brave_search.call(query=\"a\")\n<|python_tag|>wolfram_alpha.call(query=)",
		calls:  calls("brave_search", `{"query":"a"}`),
		errs:   codes(toolcall.CodeMalformedCall),
		marked: true,
	},
	{
		name:   "truncated",
		text:   `<|python_tag|>brave_search.call(query="wea`,
		errs:   codes(toolcall.CodeTruncated),
		marked: true,
	},
	{
		name:   "escaped strings",
		text:   `<|python_tag|>python.call(code="print(\"a\\tb\")\nx = '\u00e9'")`,
		calls:  calls("python", `{"code":"print(\"a\\tb\")\nx = 'é'"}`),
		marked: true,
	},
}

func TestLlama3Builtin(t *testing.T) { runRows(t, pythonic.Llama3Builtin, builtinRows) }
