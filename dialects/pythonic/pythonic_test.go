package pythonic_test

import (
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects/pythonic"
)

var pythonicRows = []row{
	{name: "a call shown in inline code is content", text: "The syntax is `[get_weather(city='Paris')]`, but I won't call it now.", content: "The syntax is `[get_weather(city='Paris')]`, but I won't call it now.", chunks: []string{"The syntax is `[ge", "t_weather(city='Paris')]`, but I won't call it now."}},
	{name: "a call shown in an example fence is content", text: "For example:\n```\n[get_weather(city='Paris')]\n```\nbut I won't call it.", content: "For example:\n```\n[get_weather(city='Paris')]\n```\nbut I won't call it.", chunks: []string{"For example:\n```\n[", "get_weather(city='Paris')]\n```\nbut I won't call it."}},
	{
		name:  "single call",
		text:  `[get_weather(city='San Francisco', metric='celsius')]`,
		calls: calls("get_weather", `{"city":"San Francisco","metric":"celsius"}`),
	},
	{
		name:   "parallel calls",
		text:   `[get_weather(city='SF'), get_time()]`,
		calls:  calls("get_weather", `{"city":"SF"}`, "get_time", `{}`),
		chunks: []string{"[get_wea", "ther(city='S", "F'), get_time(", ")]"},
	},
	{
		name:  "bare call is the whole output",
		text:  "  get_weather(city=\"Paris\")\n",
		calls: calls("get_weather", `{"city":"Paris"}`),
	},
	{
		name:  "bare calls one per line",
		text:  "get_weather(city=\"Paris\")\nget_time()",
		calls: calls("get_weather", `{"city":"Paris"}`, "get_time", `{}`),
	},
	{
		name:    "no call",
		text:    "The weather in Paris is sunny (about 20°C).",
		content: "The weather in Paris is sunny (about 20°C).",
	},
	{
		name:    "calls mentioned in prose are not calls",
		text:    "Use print(x) to debug, or helper(a) (see above).",
		content: "Use print(x) to debug, or helper(a) (see above).",
	},
	{
		name:    "a declared tool mentioned inline is not a call",
		text:    "I could use get_weather('Paris') later if you like.",
		tools:   weatherTools,
		content: "I could use get_weather('Paris') later if you like.",
	},
	{
		name:    "surrounding text",
		text:    "Let me check.\n[get_weather(city='Paris')]\nOne moment.",
		calls:   calls("get_weather", `{"city":"Paris"}`),
		content: "Let me check.\nOne moment.",
	},
	{
		name:    "call without arguments in a sentence",
		text:    "Sure: [get_time()] coming up.",
		calls:   calls("get_time", `{}`),
		content: "Sure: coming up.",
	},
	{
		name:    "positional call in a sentence is prose unless declared",
		text:    "As [Smith(2020)] shows, checking: [get_weather('Oslo')] now.",
		tools:   weatherTools,
		calls:   calls("get_weather", `{"city":"Oslo"}`),
		content: "As [Smith(2020)] shows, checking: now.",
	},
	{
		name:    "a list with prose on both sides on its line is an example",
		text:    `You can try it like [get_weather(city="Paris")] to see the weather.`,
		content: `You can try it like [get_weather(city="Paris")] to see the weather.`,
		chunks:  []string{"You can try it like [get_we", `ather(city="Paris")]`, " to see the weather."},
	},
	{
		name:    "an example in a sentence with tools declared",
		text:    "Call it as [get_weather(city='Oslo'), get_time()] and read the answer.",
		tools:   weatherTools,
		content: "Call it as [get_weather(city='Oslo'), get_time()] and read the answer.",
		chunks:  []string{"Call it as [get_weather(city='Oslo'), get_time()]", " and read the answer."},
	},
	{
		name:    "a list after a sentence ending the output is a call",
		text:    "Let me check: [get_weather(city='Oslo')]",
		calls:   calls("get_weather", `{"city":"Oslo"}`),
		content: "Let me check:",
		chunks:  []string{"Let me check: [get_weather(", "city='Oslo')]"},
	},
	{
		name:    "list between paragraphs",
		text:    "I'll look.\n\n[get_time(),\n get_weather(city=\"Oslo\")]\n\nBack soon.",
		calls:   calls("get_time", `{}`, "get_weather", `{"city":"Oslo"}`),
		content: "I'll look.\n\nBack soon.",
	},
	{
		name:    "a python fence holds a program, never calls",
		text:    "```python\nget_weather(city='Paris')\n```",
		content: "```python\nget_weather(city='Paris')\n```",
	},
	{
		name:    "code fence after prose",
		text:    "Here you go:\n```\n[get_time()]\n```\nDone.",
		calls:   calls("get_time", `{}`),
		content: "Here you go:\nDone.",
	},
	{
		name:  "code fence closed at the end of the line",
		text:  "```tool_code\nget_time()```",
		calls: calls("get_time", `{}`),
	},
	{
		name:    "a fence opened inside a line of prose is a fence",
		text:    "Sure: ```\nget_time()\n```\nDone.",
		calls:   calls("get_time", `{}`),
		content: "Sure:\nDone.",
		chunks:  []string{"Sure: `", "``\nget_ti", "me()\n``", "`\nDone."},
	},
	{
		name:    "a fence of tildes is a fence",
		text:    "Here you go:\n~~~\nget_time()\n~~~\nDone.",
		calls:   calls("get_time", `{}`),
		content: "Here you go:\nDone.",
		chunks:  []string{"Here you go:\n~", "~~\nget_time()\n~", "~~\nDone."},
	},
	{
		name:    "tildes inside a line open no fence",
		text:    "It takes ~~~ 5 minutes.",
		content: "It takes ~~~ 5 minutes.",
	},
	{
		name:    "inline code left open before a list shows it",
		text:    "I type ` a lot. [get_time()]",
		content: "I type ` a lot. [get_time()]",
		chunks:  []string{"I type `", " a lot. [get_t", "ime()]"},
	},
	{
		name:    "code fence holding program code",
		text:    "Run this:\n```python\nimport os\nprint(os.getcwd())\n```",
		content: "Run this:\n```python\nimport os\nprint(os.getcwd())\n```",
	},
	{
		name:    "code fence calling a built-in",
		text:    "```python\nprint('hello')\n```",
		content: "```python\nprint('hello')\n```",
	},
	{
		name:    "code fence in another language",
		text:    "```javascript\nconsole.log('x')\nfetchWeather('Paris')\n```",
		content: "```javascript\nconsole.log('x')\nfetchWeather('Paris')\n```",
	},
	{
		name:    "bare built-in call is code",
		text:    "print('hello')",
		content: "print('hello')",
	},
	{
		name:    "built-in in a prose bracket is not a call",
		text:    "Add [print(x)] while debugging.",
		content: "Add [print(x)] while debugging.",
	},
	{
		name:    "markdown link is not a call",
		text:    "See [get_weather()](docs/weather.md).",
		content: "See [get_weather()](docs/weather.md).",
	},
	{
		name:    "declared tool on its own line",
		text:    "Checking now.\n  get_weather('Paris')\nPlease wait.",
		tools:   weatherTools,
		calls:   calls("get_weather", `{"city":"Paris"}`),
		content: "Checking now.\nPlease wait.",
	},
	{
		name:  "positional arguments take schema names",
		text:  `[get_weather("Paris", "C")]`,
		tools: weatherTools,
		calls: calls("get_weather", `{"city":"Paris","unit":"C"}`),
	},
	{
		name:  "positional arguments without a schema",
		text:  `[sql_select("SELECT 1", ["db"], limit=5)]`,
		calls: calls("sql_select", `{"arg0":"SELECT 1","arg1":["db"],"limit":5}`),
	},
	{
		name:  "python literals",
		text:  `[configure(flag=True, off=False, none=None, nums=[1, 2.5, -3], cfg={'a': (1, 2)}, doc="""tri""")]`,
		calls: calls("configure", `{"flag":true,"off":false,"none":null,"nums":[1,2.5,-3],"cfg":{"a":[1,2]},"doc":"tri"}`),
	},
	{
		name:  "dotted and hyphenated names",
		text:  `[tools.lookup(q="x"), list-files(path='.')]`,
		calls: calls("tools.lookup", `{"q":"x"}`, "list-files", `{"path":"."}`),
	},
	{
		name:    "a name is a Python identifier: '$' is not in it",
		text:    `[get$weather(city='Paris')]`,
		content: `[get$weather(city='Paris')]`,
		chunks:  []string{"[get$", "weather(city='Paris')]"},
	},
	{
		name:    "a bare call whose name holds '$' is not a call",
		text:    "get_time()\nget$weather(city='Paris')",
		content: "get_time()\nget$weather(city='Paris')",
	},
	{
		name:  "escaped strings",
		text:  `[echo(text="line1\nline2 \"quoted\" back\\slash caf\u00e9 ☃ \U0001F600", s='it\'s')]`,
		calls: calls("echo", `{"text":"line1\nline2 \"quoted\" back\\slash café ☃ 😀","s":"it's"}`),
	},
	{
		// An escaped quote before the closing three does not close the
		// string: it ends at the three quotes after it, as in Python.
		name:   "an escaped quote at the end of a triple-quoted string",
		text:   `[echo(text='''it\''''), get_time()]`,
		calls:  calls("echo", `{"text":"it'"}`, "get_time", `{}`),
		chunks: []string{`[echo(text='''it\'`, `'`, `''), get_`, `time()]`},
	},
	{
		name:  "a line continuation in a string",
		text:  "[echo(text='one \\\ntwo'), get_time()]",
		calls: calls("echo", `{"text":"one two"}`, "get_time", `{}`),
	},
	{
		name:    "python_start markers",
		text:    "Sure. <|python_start|>[get_time()]<|python_end|> Done.",
		calls:   calls("get_time", `{}`),
		content: "Sure. Done.",
		marked:  true,
		chunks:  []string{"Sure. <|pyth", "on_start|>[get_time()]<|python_", "end|> Done."},
	},
	{
		name:  "python_tag prefix",
		text:  "<|python_tag|>get_weather(city='LA')",
		calls: calls("get_weather", `{"city":"LA"}`),
	},
	{
		name:    "malformed: unquoted value and missing bracket",
		text:    `[get_weather(city=Paris)`,
		calls:   calls("get_weather", `{"city":"Paris"}`),
		repairs: kinds(toolcall.RepairUnquotedString, toolcall.RepairMissingClosingBracket),
	},
	{
		name:    "malformed: missing comma between calls",
		text:    `[get_weather(city='x') get_time()]`,
		calls:   calls("get_weather", `{"city":"x"}`, "get_time", `{}`),
		repairs: kinds(toolcall.RepairMissingComma),
	},
	{
		name:  "beyond repair: sibling still parses",
		text:  `[get_weather(city='SF'), get_time(zone=@utc)]`,
		calls: calls("get_weather", `{"city":"SF"}`),
		errs:  codes(toolcall.CodeMalformedCall),
	},
	{
		name:  "truncated call list",
		text:  `[get_weather(city='SF'), get_time(zone='U`,
		calls: calls("get_weather", `{"city":"SF"}`),
		errs:  codes(toolcall.CodeTruncated),
	},
	{
		name:  "whole output list with junk",
		text:  `[get_weather(city='SF') then stop]`,
		calls: calls("get_weather", `{"city":"SF"}`),
		errs:  codes(toolcall.CodeMalformedCall),
	},
	{
		name:  "unknown tool",
		text:  `[get_wether(city='SF')]`,
		tools: weatherTools,
		errs:  codes(toolcall.CodeUnknownTool),
	},
	{
		name:  "too many positional arguments",
		text:  `[get_weather('a', 'b', 'c')]`,
		tools: weatherTools,
		errs:  codes(toolcall.CodeMalformedCall),
	},
	{
		name:    "argument given twice: the last value wins",
		text:    `[f(a=1, b=0, a=2)]`,
		calls:   []want{{"f", `{"a":2,"b":0}`}},
		repairs: []toolcall.RepairKind{toolcall.RepairDuplicateKey},
	},
	{
		name:      "reasoning",
		text:      "<think>User wants weather. Maybe [get_time()]?</think>\n[get_weather(city='Oslo')]",
		calls:     calls("get_weather", `{"city":"Oslo"}`),
		reasoning: "User wants weather. Maybe [get_time()]?",
		chunks:    []string{"<thi", "nk>User wants weather. Maybe [get_time()]?</th", "ink>\n[get_weather(city='Oslo')]"},
	},
	{
		name:      "reasoning opened by the template",
		text:      "weighing options</think>[get_time()]",
		open:      true,
		calls:     calls("get_time", `{}`),
		reasoning: "weighing options",
	},
	{
		// No pythonic template opens a reasoning block: unless the caller
		// says one did, a stray closing tag is text.
		name:    "a closing tag with no opening one, the template unknown",
		text:    "weighing options</think>[get_time()]",
		calls:   calls("get_time", `{}`),
		content: "weighing options</think>",
	},
}

func TestPythonic(t *testing.T) { runRows(t, pythonic.Pythonic, pythonicRows) }

var llama4Rows = []row{
	{
		name:    "a bare list with prose on both sides on its line is an example",
		text:    `You can try it like [get_weather(city="Paris")] to see the weather.`,
		content: `You can try it like [get_weather(city="Paris")] to see the weather.`,
		chunks:  []string{"You can try it like [", `get_weather(city="Paris")] to`, " see the weather."},
	},
	{
		name:    "the same list in its markers is a call",
		text:    `You can try it like <|python_start|>[get_weather(city="Paris")]<|python_end|> now.`,
		calls:   calls("get_weather", `{"city":"Paris"}`),
		content: "You can try it like now.",
		marked:  true,
	},
	{
		name:   "single call with markers",
		text:   "<|python_start|>[get_weather(city='LA', metric='C')]<|python_end|>",
		calls:  calls("get_weather", `{"city":"LA","metric":"C"}`),
		marked: true,
	},
	{
		name:   "parallel calls",
		text:   "<|python_start|>[get_weather(city='LA', metric='C'), get_time()]<|python_end|>",
		calls:  calls("get_weather", `{"city":"LA","metric":"C"}`, "get_time", `{}`),
		marked: true,
		chunks: []string{"<|python_st", "art|>[get_weather(city='LA', metric='C'), get_time()]<|py", "thon_end|>"},
	},
	{
		name:  "markers are optional",
		text:  "[get_weather(city='LA')]",
		calls: calls("get_weather", `{"city":"LA"}`),
	},
	{
		name:    "no call",
		text:    "Los Angeles is warm today.",
		content: "Los Angeles is warm today.",
	},
	{
		name:    "surrounding text",
		text:    "Checking. <|python_start|>[get_time()]<|python_end|>\nThat's all.",
		calls:   calls("get_time", `{}`),
		content: "Checking.\nThat's all.",
		marked:  true,
	},
	{
		name:   "unclosed markers",
		text:   "<|python_start|>[get_time()]",
		calls:  calls("get_time", `{}`),
		marked: true,
		chunks: []string{"<|python_start|>[get_", "time()]"},
	},
	{
		name:    "malformed: unquoted value",
		text:    "<|python_start|>[get_weather(city=LA)]<|python_end|>",
		calls:   calls("get_weather", `{"city":"LA"}`),
		repairs: kinds(toolcall.RepairUnquotedString),
		marked:  true,
	},
	{
		name:   "beyond repair: sibling still parses",
		text:   "<|python_start|>[get_time(), get_weather(city='LA' 'x' = 1)]<|python_end|>",
		calls:  calls("get_time", `{}`),
		errs:   codes(toolcall.CodeMalformedCall),
		marked: true,
	},
	{
		name:   "cut inside a hyphenated name",
		text:   "<|python_start|>[get_time(), list-fi",
		calls:  calls("get_time", `{}`),
		errs:   codes(toolcall.CodeTruncated),
		marked: true,
		chunks: []string{"<|python_start|>[get_time(), list-", "fi"},
	},
	{
		name:   "cut after text that is no name's start",
		text:   "<|python_start|>[get_time(), get$w",
		calls:  calls("get_time", `{}`),
		errs:   codes(toolcall.CodeMalformedCall),
		marked: true,
	},
	{
		name:   "text inside markers that is not a call",
		text:   "<|python_start|>I cannot help with that.<|python_end|>",
		errs:   codes(toolcall.CodeMalformedCall),
		marked: true,
	},
	{
		name:   "escaped strings",
		text:   `<|python_start|>[note(text='say "hi"\n\ttab', path="C:\\tmp")]<|python_end|>`,
		calls:  calls("note", `{"text":"say \"hi\"\n\ttab","path":"C:\\tmp"}`),
		marked: true,
	},
	{
		name:      "reasoning",
		text:      "<think>Two things to fetch.</think><|python_start|>[get_time()]<|python_end|>",
		calls:     calls("get_time", `{}`),
		reasoning: "Two things to fetch.",
		marked:    true,
	},
}

func TestLlama4Pythonic(t *testing.T) { runRows(t, pythonic.Llama4Pythonic, llama4Rows) }
