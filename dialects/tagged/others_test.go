package tagged_test

import (
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects/tagged"
)

const cpmRoaming = `<function name="enable_roaming"><param name="line_id">L1001</param></function>`

const cpmTools = `[{"name":"enable_roaming","parameters":{"type":"object","properties":{"line_id":{"type":"string"},"days":{"type":"integer"}}}},
	{"name":"get-balance","parameters":{"type":"object","properties":{}}},
	{"name":"getBalance2","parameters":{"type":"object","properties":{}}},
	{"name":"Get_Balance2","parameters":{"type":"object","properties":{}}}]`

var cpmRows = []row{
	{
		name:   "single call",
		text:   cpmRoaming,
		chunks: []string{"<func", "tion name=\"enable_roaming\"><param name=\"line_id\">L10", "01</param></function>"},
		calls:  []want{call("enable_roaming", `{"line_id":"L1001"}`)},
	},
	{
		name:  "parallel calls",
		text:  cpmRoaming + "\n<function name=\"get_balance\"></function>",
		calls: []want{call("enable_roaming", `{"line_id":"L1001"}`), call("get_balance", `{}`)},
	},
	{name: "no call", text: "Roaming is on.", content: "Roaming is on."},
	{
		// A frame around nothing but calls goes with them: content keeps
		// no emptied wrapper.
		name:    "calls framed by <tool_call>",
		text:    "Sure.\n<tool_call>\n" + cpmRoaming + "\n</tool_call>\nDone.",
		chunks:  []string{"Sure.\n<tool_", "call>\n" + cpmRoaming + "\n</tool", "_call>\nDone."},
		calls:   []want{call("enable_roaming", `{"line_id":"L1001"}`)},
		content: "Sure.\nDone.",
	},
	{
		name:  "several calls in one frame, and a frame per call",
		text:  "<tools>\n" + cpmRoaming + "\n" + cpmRoaming + "\n</tools>\n<tool_call>" + cpmRoaming + "</tool_call>",
		calls: []want{call("enable_roaming", `{"line_id":"L1001"}`), call("enable_roaming", `{"line_id":"L1001"}`), call("enable_roaming", `{"line_id":"L1001"}`)},
	},
	{
		// A frame around other text too is not a frame of the calls.
		name:    "a wrapper holding prose stays content",
		text:    "<tool_call>\nLet me check.\n" + cpmRoaming + "\n</tool_call>",
		calls:   []want{call("enable_roaming", `{"line_id":"L1001"}`)},
		content: "<tool_call>\nLet me check.\n</tool_call>",
	},
	{
		name:      "reasoning and surrounding text",
		text:      "<think>enable it</think>\nSure.\n" + cpmRoaming + "\nDone.",
		chunks:    []string{"<think>enable it</th", "ink>\nSure.\n" + cpmRoaming + "\nDone."},
		calls:     []want{call("enable_roaming", `{"line_id":"L1001"}`)},
		reasoning: "enable it", content: "Sure.\nDone.",
	},
	{
		name:    "names resolved through aliases to declared tools",
		tools:   cpmTools,
		text:    `<function name="Enable-Roaming"><param name="line_id">L1</param><param name="days">3</param></function><function name="get_balance"></function>`,
		calls:   []want{call("enable_roaming", `{"line_id":"L1","days":3}`), call("get-balance", `{}`)},
		repairs: []toolcall.RepairKind{toolcall.RepairNameNormalized, toolcall.RepairCoercion},
	},
	{
		name:  "an alias that matches two tools is not resolved",
		tools: cpmTools,
		text:  `<function name="get-balance2"></function>`,
		errs:  []toolcall.Code{toolcall.CodeUnknownTool},
	},
	{
		name:  "escaped strings",
		text:  `<function name="note"><param name="text">"quoted" \back ∑ ` + "\n" + `line</param></function>`,
		calls: []want{call("note", `{"text":"\"quoted\" \\back ∑ \nline"}`)},
	},
	{
		name:    "malformed value repaired by schema",
		tools:   weatherTool,
		text:    `<function name="get_weather"><param name="city">Kyiv</param><param name="tags">["a", 'b']</param></function>`,
		calls:   []want{call("get_weather", `{"city":"Kyiv","tags":["a","b"]}`)},
		repairs: []toolcall.RepairKind{toolcall.RepairCoercion},
	},
	{
		name:  "a broken call beside a good one",
		text:  `<function name="a"><parameter name="x">1</parameter></function>` + cpmRoaming,
		calls: []want{call("enable_roaming", `{"line_id":"L1001"}`)},
		errs:  []toolcall.Code{toolcall.CodeMalformedCall},
	},
	{
		name:    "tokenizer artefacts: collapsed tags, Ġ for a space",
		text:    `Sure.` + "\n" + `<functionname="get_weather"><paramname="city">NewĠYork</param><paramname="unit">celsius</param></function>`,
		chunks:  []string{"Sure.\n<functionna", "me=\"get_weather\"><paramna", "me=\"city\">NewĠ", "York</param><paramname=\"unit\">celsius</param></function>"},
		calls:   []want{call("get_weather", `{"city":"New York","unit":"celsius"}`)},
		content: "Sure.",
	},
	{
		name:    "tokenizer artefacts: Ġ in tags, Ċ for a newline",
		tools:   cpmTools,
		text:    `<functionĠname="enable_roaming">Ċ<paramĠname="line_id">L1001</param>Ċ<paramĠname="days">3</param>Ċ</function>` + "\nDone.",
		chunks:  []string{"<functionĠ", "name=\"enable_roaming\">Ċ<param", "Ġname=\"line_id\">L1001</param>Ċ<paramĠname=\"days\">3</param>Ċ</function>\nDone."},
		calls:   []want{call("enable_roaming", `{"line_id":"L1001","days":3}`)},
		content: "Done.",
	},
	{
		name:   "Ġ glued to a word is an artefact even in clean markup",
		text:   `<function name="search"><param name="query">bestĠpizzaĠinĠNewĠYork</param></function>`,
		chunks: []string{`<function name="search"><param name="query">bestĠ`, `pizzaĠinĠNewĠYork</param></function>`},
		calls:  []want{call("search", `{"query":"best pizza in New York"}`)},
	},
	{
		name:  "Ġ and Ċ are letters when the markup has no artefact",
		text:  `<function name="note"><param name="text">Ġgantija u Ċirkewwa</param></function>`,
		calls: []want{call("note", `{"text":"Ġgantija u Ċirkewwa"}`)},
	},
	{
		name:   "CDATA values are unwrapped, closing literals inside kept",
		text:   `<function name="write_file"><param name="path">a.xml</param><param name="content"><![CDATA[<param name="x">1</param> & </function>]]></param></function>`,
		chunks: []string{`<function name="write_file"><param name="path">a.xml</param><param name="content"><![CDA`, `TA[<param name="x">1</param> & </func`, `tion>]]></param></function>`},
		calls:  []want{call("write_file", `{"path":"a.xml","content":"<param name=\"x\">1</param> & </function>"}`)},
	},
	{
		name:  "CDATA value typed by the schema",
		tools: cpmTools,
		text:  `<function name="enable_roaming"><param name="line_id"><![CDATA[007]]></param><param name="days"> <![CDATA[3]]> </param></function>`,
		calls: []want{call("enable_roaming", `{"line_id":"007","days":3}`)},
	},
	{
		name:    "arguments wrapped in an undeclared parameter, as a Python dict",
		tools:   cpmTools,
		text:    `<function name="enable_roaming"><param name="input">{'line_id': 'L1001', 'days': 2}</param></function>`,
		calls:   []want{call("enable_roaming", `{"line_id":"L1001","days":2}`)},
		repairs: []toolcall.RepairKind{toolcall.RepairWrappedArguments},
	},
	{
		name:    "arguments wrapped as properties, as JSON",
		tools:   cpmTools,
		text:    `<function name="enable_roaming"><param name="properties">{"line_id": "L1001"}</param></function>`,
		calls:   []want{call("enable_roaming", `{"line_id":"L1001"}`)},
		repairs: []toolcall.RepairKind{toolcall.RepairWrappedArguments},
	},
	{
		name:   "a JSON object in place of the parameters",
		text:   `<function name="get_weather">{"city": "Paris", "days": 2}</function>`,
		chunks: []string{`<function name="get_weather">{"city": "Pa`, `ris", "days": 2}</function>`},
		calls:  []want{call("get_weather", `{"city":"Paris","days":2}`)},
	},
	{
		name:    "qwen's <function=…> is not a MiniCPM call",
		text:    "<function=get_weather>\n<parameter=city>Tokyo</parameter>\n</function>",
		content: "<function=get_weather>\n<parameter=city>Tokyo</parameter>\n</function>",
	},
}

func TestMiniCPM5(t *testing.T) {
	runTable(t, tagged.MiniCPM5, cpmRows)
	testChunks(t, cpmRows)
}

const step3Search = "<｜tool_calls_begin｜>\n<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"search\">\n<steptml:parameter name=\"query\">rust</steptml:parameter>\n</steptml:invoke><｜tool_call_end｜>\n<｜tool_calls_end｜>"

var step3Rows = []row{
	{
		name:   "single call",
		text:   step3Search,
		chunks: []string{"<｜tool_calls_", "begin｜>\n<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"search\">\n<steptml:parameter name=\"query\">ru", "st</steptml:parameter>\n</steptml:invoke><｜tool_call_end｜>\n<｜tool_calls_end｜>"},
		calls:  []want{call("search", `{"query":"rust"}`)},
	},
	{
		name:  "parallel calls",
		text:  "<｜tool_calls_begin｜>\n<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"a\">\n<steptml:parameter name=\"x\">1</steptml:parameter>\n</steptml:invoke><｜tool_call_end｜>\n<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"b\"></steptml:invoke><｜tool_call_end｜>\n<｜tool_calls_end｜>",
		calls: []want{call("a", `{"x":1}`), call("b", `{}`)},
	},
	{name: "no call", text: "No tools needed.", content: "No tools needed."},
	{
		name:      "reasoning and surrounding text",
		text:      "<think>search it</think>Let me help you.\n" + step3Search + "Here are the results.",
		chunks:    []string{"<think>search it</think>Let me help you.\n<｜tool_calls_begin｜>", step3Search[len("<｜tool_calls_begin｜>"):] + "Here are the results."},
		calls:     []want{call("search", `{"query":"rust"}`)},
		reasoning: "search it", content: "Let me help you.\nHere are the results.",
	},
	{
		name:  "escaped strings and angle brackets",
		text:  "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"compare\"><steptml:parameter name=\"expression\">a < b && b > c \"q\" \\</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>",
		calls: []want{call("compare", `{"expression":"a < b && b > c \"q\" \\"}`)},
	},
	{
		name:    "malformed value repaired by schema",
		tools:   weatherTool,
		text:    "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"get_weather\"><steptml:parameter name=\"city\">Bern</steptml:parameter><steptml:parameter name=\"options\">{\"a\": 1,}</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>",
		calls:   []want{call("get_weather", `{"city":"Bern","options":{"a":1}}`)},
		repairs: []toolcall.RepairKind{toolcall.RepairCoercion},
	},
	{
		name:  "an empty name beside a good call",
		text:  "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"\"><steptml:parameter name=\"p\">v</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"b\"></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>",
		calls: []want{call("b", `{}`)},
		errs:  []toolcall.Code{toolcall.CodeMissingFunction},
	},
	{
		name:    "calls without the section keep their wrappers out of content",
		text:    "Searching.\n<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"search\"><steptml:parameter name=\"query\">rust</steptml:parameter></steptml:invoke><｜tool_call_end｜>\nDone.",
		calls:   []want{call("search", `{"query":"rust"}`)},
		content: "Searching.\nDone.",
	},
	{
		name: "deepseek's JSON body in step3's section is an error",
		text: "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜>search\n```json\n{\"q\": 1}\n```<｜tool_call_end｜><｜tool_calls_end｜>",
		errs: []toolcall.Code{toolcall.CodeMalformedCall},
	},
}

func TestStep3(t *testing.T) {
	runTable(t, tagged.Step3, step3Rows)
	testChunks(t, step3Rows)
}

const dsmlCall = "\n<｜DSML｜invoke name=\"get_weather\">\n<｜DSML｜parameter name=\"city\" string=\"true\">Tokyo</｜DSML｜parameter>\n<｜DSML｜parameter name=\"days\" string=\"false\">3</｜DSML｜parameter>\n</｜DSML｜invoke>\n"

const (
	v32Weather = "<｜DSML｜function_calls>" + dsmlCall + "</｜DSML｜function_calls>"
	v4Weather  = "<｜DSML｜tool_calls>" + dsmlCall + "</｜DSML｜tool_calls>"
)

func dsmlRows(section, sample, other string) []row {
	open, end := "<｜DSML｜"+section+">", "</｜DSML｜"+section+">"
	return []row{
		{
			name:   "single call",
			text:   sample,
			chunks: []string{"<｜DSML", "｜" + sample[len("<｜DSML｜"):]},
			calls:  []want{call("get_weather", `{"city":"Tokyo","days":3}`)},
		},
		{
			name:  "parallel invokes",
			text:  open + "\n<｜DSML｜invoke name=\"a\">\n<｜DSML｜parameter name=\"x\" string=\"false\">[1, 2]</｜DSML｜parameter>\n</｜DSML｜invoke>\n<｜DSML｜invoke name=\"get_date\">\n</｜DSML｜invoke>\n" + end,
			calls: []want{call("a", `{"x":[1,2]}`), call("get_date", `{}`)},
		},
		{name: "no call", text: "Just a normal response.", content: "Just a normal response."},
		{
			name:      "reasoning and surrounding text",
			open:      true,
			text:      "check weather</think>Sure.\n\n" + sample + "\nOK.",
			chunks:    []string{"check weather</think>Sure.\n\n", sample + "\nOK."},
			calls:     []want{call("get_weather", `{"city":"Tokyo","days":3}`)},
			reasoning: "check weather", content: "Sure.\nOK.",
		},
		{
			name:  "string=\"true\" keeps text whatever the schema says",
			tools: weatherTool,
			text:  open + "<｜DSML｜invoke name=\"get_weather\"><｜DSML｜parameter name=\"city\" string=\"true\">true</｜DSML｜parameter><｜DSML｜parameter name=\"zip\" string=\"true\">00123</｜DSML｜parameter></｜DSML｜invoke>" + end,
			calls: []want{call("get_weather", `{"city":"true","zip":"00123"}`)},
		},
		{
			name:  "escaped strings",
			text:  open + "<｜DSML｜invoke name=\"echo\"><｜DSML｜parameter name=\"s\" string=\"true\">\"q\" \\ </x> 漢字</｜DSML｜parameter></｜DSML｜invoke>" + end,
			calls: []want{call("echo", `{"s":"\"q\" \\ </x> 漢字"}`)},
		},
		{
			name:  "a not-a-string value is typed against the declared type",
			tools: weatherTool,
			text:  open + "<｜DSML｜invoke name=\"get_weather\"><｜DSML｜parameter name=\"city\" string=\"false\">null</｜DSML｜parameter><｜DSML｜parameter name=\"zip\" string=\"false\">\"02134\"</｜DSML｜parameter><｜DSML｜parameter name=\"days\" string=\"false\">3</｜DSML｜parameter></｜DSML｜invoke>" + end,
			calls: []want{call("get_weather", `{"city":"null","zip":"02134","days":3}`)},
		},
		{
			name:  "malformed JSON value is repaired",
			text:  open + "<｜DSML｜invoke name=\"f\"><｜DSML｜parameter name=\"o\" string=\"false\">{'a': True,}</｜DSML｜parameter></｜DSML｜invoke>" + end,
			calls: []want{call("f", `{"o":{"a":true}}`)},
		},
		{
			name:  "a broken invoke beside a good one",
			text:  open + "<｜DSML｜invoke name=\"a\">stray words</｜DSML｜invoke><｜DSML｜invoke name=\"b\"></｜DSML｜invoke>" + end,
			calls: []want{call("b", `{}`)},
			errs:  []toolcall.Code{toolcall.CodeMalformedCall},
		},
		{
			name:   "an invoke whose body is a JSON object",
			text:   open + "\n<｜DSML｜invoke name=\"get_weather\">\n{\"city\": \"Tokyo\", \"days\": 3}\n</｜DSML｜invoke>\n<｜DSML｜invoke name=\"get_date\">{}</｜DSML｜invoke>\n" + end,
			chunks: []string{open + "\n<｜DSML｜invoke name=\"get_weather\">\n{\"city\": \"To", "kyo\", \"days\": 3}\n</｜DSML｜in", "voke>\n<｜DSML｜invoke name=\"get_date\">{}</｜DSML｜invoke>\n" + end},
			calls:  []want{call("get_weather", `{"city":"Tokyo","days":3}`), call("get_date", `{}`)},
		},
		{
			name:    "a JSON body is repaired like any arguments",
			text:    open + "<｜DSML｜invoke name=\"f\">{'a': True,}</｜DSML｜invoke>" + end,
			calls:   []want{call("f", `{"a":true}`)},
			repairs: []toolcall.RepairKind{toolcall.RepairSingleQuotes},
		},
		{
			name:    "arguments wrapped in a parameter the tool does not declare",
			tools:   weatherTool,
			text:    open + "<｜DSML｜invoke name=\"get_weather\"><｜DSML｜parameter name=\"arguments\" string=\"false\">{\"city\": \"Tokyo\", \"days\": 3}</｜DSML｜parameter></｜DSML｜invoke>" + end,
			calls:   []want{call("get_weather", `{"city":"Tokyo","days":3}`)},
			repairs: []toolcall.RepairKind{toolcall.RepairWrappedArguments},
		},
		{
			name:    "the other DSML section is not this dialect's",
			text:    other,
			content: other,
		},
	}
}

func TestDeepSeekV32(t *testing.T) {
	rows := dsmlRows("function_calls", v32Weather, v4Weather)
	runTable(t, tagged.DeepSeekV32, rows)
	testChunks(t, rows)
}

func TestDeepSeekV4(t *testing.T) {
	rows := dsmlRows("tool_calls", v4Weather, v32Weather)
	runTable(t, tagged.DeepSeekV4, rows)
	testChunks(t, rows)
}

const kimiWeather = `<|open|>tools<|sep|><|open|>call tool="get_weather" index="0"<|sep|><|open|>argument key="city" type="string"<|sep|>Beijing<|close|>argument<|sep|><|open|>argument key="days" type="integer"<|sep|>3<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>`

// kimiDraft is a call the model drafts while it thinks.
const kimiDraft = `<|open|>call tool="delete_file" index="0"<|sep|><|open|>argument key="path" type="string"<|sep|>build<|close|>argument<|sep|><|close|>call<|sep|>`

var kimiRows = []row{
	{
		name:   "single call",
		text:   kimiWeather,
		chunks: []string{"<|open|>tools<|s", "ep|><|open|>call tool=\"get_weather\" index=\"0\"<|sep|><|open|>argu", kimiWeather[len(`<|open|>tools<|sep|><|open|>call tool="get_weather" index="0"<|sep|><|open|>argu`):]},
		calls:  []want{call("get_weather", `{"city":"Beijing","days":3}`)},
	},
	{
		name:  "parallel calls",
		text:  `<|open|>tools<|sep|><|open|>call tool="a" index="0"<|sep|><|open|>argument key="x" type="object"<|sep|>{"k": [1]}<|close|>argument<|sep|><|close|>call<|sep|><|open|>call tool="b" index="1"<|sep|><|close|>call<|sep|><|close|>tools<|sep|>`,
		calls: []want{call("a", `{"x":{"k":[1]}}`), call("b", `{}`)},
	},
	{name: "no call", text: "Nothing to call.", content: "Nothing to call."},
	{
		name:      "reasoning and surrounding text",
		text:      "<think>need data</think>Looking.\n" + kimiWeather + "\nDone.",
		chunks:    []string{"<think>need data</think>Looking.\n<|op", "en|>" + kimiWeather[len("<|open|>"):] + "\nDone."},
		calls:     []want{call("get_weather", `{"city":"Beijing","days":3}`)},
		reasoning: "need data", content: "Looking.\nDone.",
	},
	{
		// The whole assistant turn as Kimi-K3's template writes it.
		name:      "reasoning and answer in Kimi-K3's own sections",
		text:      "<|open|>think<|sep|>need data<|close|>think<|sep|><|open|>response<|sep|>Looking.<|close|>response<|sep|>" + kimiWeather + "<|close|>message<|sep|><|end_of_msg|>",
		chunks:    []string{"<|open|>think<|sep|>need da", "ta<|close|>think<|s", "ep|><|open|>response<|sep|>Looking.<|close|>resp", "onse<|sep|>" + kimiWeather + "<|close|>message<|sep|>", "<|end_of_msg|>"},
		calls:     []want{call("get_weather", `{"city":"Beijing","days":3}`)},
		reasoning: "need data", content: "Looking.",
	},
	{
		// The generation prompt opened the think section: a call drafted
		// before its close is the model thinking.
		name:      "template-opened think section with a drafted call",
		text:      "I could call " + kimiDraft + " but not yet.<|close|>think<|sep|><|open|>response<|sep|>Checking.<|close|>response<|sep|>" + kimiWeather,
		chunks:    []string{"I could call ", kimiDraft, " but not yet.", "<|close|>think<|sep|>", "<|open|>response<|sep|>Checking.<|close|>response<|sep|>", kimiWeather},
		calls:     []want{call("get_weather", `{"city":"Beijing","days":3}`)},
		reasoning: "I could call " + kimiDraft + " but not yet.", content: "Checking.",
	},
	{
		name:      "template-opened think section, ReasoningOpen",
		text:      "I could call " + kimiDraft + " but not yet.<|close|>think<|sep|><|open|>response<|sep|>Checking.<|close|>response<|sep|>" + kimiWeather,
		open:      true,
		calls:     []want{call("get_weather", `{"city":"Beijing","days":3}`)},
		reasoning: "I could call " + kimiDraft + " but not yet.", content: "Checking.",
	},
	{
		// Thinking off: the generation prompt opened the response section.
		name:    "template-opened response section",
		text:    "Checking.<|close|>response<|sep|>" + kimiWeather + "<|close|>message<|sep|>",
		calls:   []want{call("get_weather", `{"city":"Beijing","days":3}`)},
		content: "Checking.",
	},
	{
		name:  "type=string keeps numbers as text",
		text:  `<|open|>call tool="f"<|sep|><|open|>argument key="zip" type="string"<|sep|>00123<|close|>argument<|sep|><|close|>call<|sep|>`,
		calls: []want{call("f", `{"zip":"00123"}`)},
	},
	{
		name:  "escaped strings",
		text:  `<|open|>call tool="echo"<|sep|><|open|>argument key="s" type="string"<|sep|>"q" \ <b> ü<|close|>argument<|sep|><|close|>call<|sep|>`,
		calls: []want{call("echo", `{"s":"\"q\" \\ <b> ü"}`)},
	},
	{
		name:  "malformed JSON value is repaired",
		text:  `<|open|>call tool="f"<|sep|><|open|>argument key="o" type="object"<|sep|>{a: 1,}<|close|>argument<|sep|><|close|>call<|sep|>`,
		calls: []want{call("f", `{"o":{"a":1}}`)},
	},
	{
		name:  "a broken call beside a good one",
		text:  `<|open|>tools<|sep|><|open|>call tool="a"<|sep|>junk<|close|>call<|sep|><|open|>call tool="b"<|sep|><|close|>call<|sep|><|close|>tools<|sep|>`,
		calls: []want{call("b", `{}`)},
		errs:  []toolcall.Code{toolcall.CodeMalformedCall},
	},
}

func TestKimiK3(t *testing.T) {
	runTable(t, tagged.KimiK3, kimiRows)
	testChunks(t, kimiRows)
}

const miroSearch = "<use_mcp_tool>\n<server_name>srv</server_name>\n<tool_name>search</tool_name>\n<arguments>\n{\"q\": \"x\"}\n</arguments>\n</use_mcp_tool>"

var miroRows = []row{
	{
		name:   "single call",
		text:   miroSearch,
		chunks: []string{"<use_mcp", "_tool>\n<server_name>srv</server_name>\n<tool_name>sea", "rch</tool_name>\n<arguments>\n{\"q\": \"x\"}\n</arguments>\n</use_mcp_tool>"},
		calls:  []want{call("search", `{"q":"x"}`)},
	},
	{
		name:  "parallel calls",
		text:  miroSearch + "\n\n<use_mcp_tool>\n<server_name>fs</server_name>\n<tool_name>read</tool_name>\n<arguments>\n{}\n</arguments>\n</use_mcp_tool>",
		calls: []want{call("search", `{"q":"x"}`), call("read", `{}`)},
	},
	{name: "no call", text: "I know this one.", content: "I know this one."},
	{
		name:      "reasoning and surrounding text",
		text:      "<think>search first</think>\n\nSearching.\n\n" + miroSearch + "\n",
		chunks:    []string{"<think>search first</think>\n\nSearching.\n\n<use_", "mcp_tool>" + miroSearch[len("<use_mcp_tool>"):] + "\n"},
		calls:     []want{call("search", `{"q":"x"}`)},
		reasoning: "search first", content: "Searching.",
	},
	{
		name:  "escaped strings, and <tags> inside the JSON",
		text:  "<use_mcp_tool><tool_name>post</tool_name><arguments>{\"html\": \"<b>\\\"hi\\\"</b>\", \"path\": \"C:\\\\x\"}</arguments></use_mcp_tool>",
		calls: []want{call("post", `{"html":"<b>\"hi\"</b>","path":"C:\\x"}`)},
	},
	{
		name:    "malformed JSON arguments are repaired",
		text:    "<use_mcp_tool><tool_name>search</tool_name><arguments>{'q': 'x', 'n': 2,}</arguments></use_mcp_tool>",
		calls:   []want{call("search", `{"q":"x","n":2}`)},
		repairs: []toolcall.RepairKind{toolcall.RepairSingleQuotes},
	},
	{
		name:  "a call without a tool name beside a good one",
		text:  "<use_mcp_tool><server_name>srv</server_name><arguments>{}</arguments></use_mcp_tool>" + miroSearch,
		calls: []want{call("search", `{"q":"x"}`)},
		errs:  []toolcall.Code{toolcall.CodeMissingFunction},
	},
}

func TestMiroThinker(t *testing.T) {
	runTable(t, tagged.MiroThinker, miroRows)
	testChunks(t, miroRows)
}

const glimmerWeather = " to=get_weather<|message|><atem:function_calls>\n<atem:invoke name=\"get_weather\">\n<atem:parameter name=\"city\">SF</atem:parameter></atem:invoke>\n</atem:function_calls>"

var glimmerRows = []row{
	{
		name:   "single call",
		text:   glimmerWeather,
		chunks: []string{" to=get_weather<|mess", "age|><atem:function_", "calls>" + glimmerWeather[len(" to=get_weather<|message|><atem:function_calls>"):]},
		calls:  []want{call("get_weather", `{"city":"SF"}`)},
	},
	{
		name:      "reasoning, a call, then the answer",
		text:      " to=self<|message|>Check the facts.<|eom|><|start|>assistant" + glimmerWeather + "<|eom|><|start|>assistant to=user<|message|>It is sunny.<|eot|>",
		chunks:    []string{" to=self<|message|>Check the facts.<|e", "om|><|start|>assistant" + glimmerWeather, "<|eom|><|start|>assistant to=user<|message|>It is sunny.<|eot|>"},
		calls:     []want{call("get_weather", `{"city":"SF"}`)},
		reasoning: "Check the facts.", content: "It is sunny.",
	},
	{
		name:  "parallel invokes",
		text:  " to=get_weather<|message|><atem:function_calls>\n<atem:invoke name=\"get_weather\"><atem:parameter name=\"city\">SF</atem:parameter></atem:invoke>\n<atem:invoke name=\"get_weather\"><atem:parameter name=\"city\">LA</atem:parameter></atem:invoke>\n</atem:function_calls><|eom|>",
		calls: []want{call("get_weather", `{"city":"SF"}`), call("get_weather", `{"city":"LA"}`)},
	},
	{name: "final answer", text: " to=user<|message|>Hello", content: "Hello"},
	{name: "framing tokens named in a sentence are words",
		text:    "Use <|start|> and <|end|> tokens; the <|message|> token starts the text and <|eom|> ends it.",
		content: "Use <|start|> and <|end|> tokens; the <|message|> token starts the text and <|eom|> ends it.",
		chunks:  []string{"Use <|start|> and <|end|> tokens; the <|mess", "age|> token starts the text and <|eom", "|> ends it."}},
	{name: "a group of framing tokens named in a sentence is words",
		text:    "A reply is <|start|>assistant<|message|>…<|eom|> in this format.",
		content: "A reply is <|start|>assistant<|message|>…<|eom|> in this format."},
	{name: "framing tokens listed in prose are words",
		text:    "The tokens are <|start|>, <|message|>, <|eom|> and <|eot|>.",
		content: "The tokens are <|start|>, <|message|>, <|eom|> and <|eot|>."},
	{name: "a token named in a sentence beside a real message",
		text:    " to=user<|message|>The <|message|> token starts a body.<|eot|>",
		content: "The <|message|> token starts a body."},
	{name: "self is reasoning", text: " to=self<|message|>Check the facts.", reasoning: "Check the facts."},
	{name: "no framing", text: "Just text.", content: "Just text."},
	{
		name:  "a JSON body addressed to a tool",
		text:  " to=functions.get_weather<|message|>{\"city\": \"SF\"}<|eom|>",
		calls: []want{call("get_weather", `{"city":"SF"}`)},
	},
	{
		name:  "escaped strings",
		text:  " to=echo<|message|><atem:function_calls><atem:invoke name=\"echo\"><atem:parameter name=\"s\">\"q\" \\ & 🙂</atem:parameter></atem:invoke></atem:function_calls>",
		calls: []want{call("echo", `{"s":"\"q\" \\ & 🙂"}`)},
	},
	{
		name:    "malformed value repaired by schema",
		tools:   weatherTool,
		text:    " to=get_weather<|message|><atem:function_calls><atem:invoke name=\"get_weather\"><atem:parameter name=\"city\">SF</atem:parameter><atem:parameter name=\"options\">{'a': 1}</atem:parameter></atem:invoke></atem:function_calls>",
		calls:   []want{call("get_weather", `{"city":"SF","options":{"a":1}}`)},
		repairs: []toolcall.RepairKind{toolcall.RepairCoercion},
	},
	{
		name:  "a broken invoke beside a good one",
		text:  " to=x<|message|><atem:function_calls><atem:invoke name=\"a\">??</atem:invoke><atem:invoke name=\"b\"></atem:invoke></atem:function_calls>",
		calls: []want{call("b", `{}`)},
		errs:  []toolcall.Code{toolcall.CodeMalformedCall},
	},
}

func TestGlimmer(t *testing.T) {
	runTable(t, tagged.Glimmer, glimmerRows)
	testChunks(t, glimmerRows)
}
