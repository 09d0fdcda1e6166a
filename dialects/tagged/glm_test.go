package tagged_test

import (
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects/tagged"
)

const glmWeather = "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Beijing</arg_value>\n</tool_call>"

var glmRows = []row{
	{
		name:   "the section's closing tag inside a raw value is value text",
		text:   "<tool_call>note\n<arg_key>text</arg_key>\n<arg_value>end it with </tool_call> here</arg_value>\n</tool_call>",
		chunks: []string{"<tool_call>note\n<arg_key>text</arg_key>\n<arg_value>end it with </tool_call>", " here</arg_value>\n</tool_call>"},
		calls:  []want{call("note", `{"text":"end it with </tool_call> here"}`)},
	},
	{
		name:    "a word between the tags in prose is not a call",
		text:    "Wrap the call in <tool_call> and </tool_call> tags.",
		chunks:  []string{"Wrap the call in <tool_", "call> and </tool", "_call> tags."},
		content: "Wrap the call in <tool_call> and </tool_call> tags.",
	},
	{
		name:   "a call without arguments right after the tag is a call",
		text:   "<tool_call>get_time</tool_call>",
		calls:  []want{call("get_time", `{}`)},
		chunks: []string{"<tool_call>get_", "time</tool_call>"},
	},
	{name: "a call shown in inline code is content", text: "The syntax is `<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>`, but I won't call it now.", content: "The syntax is `<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>`, but I won't call it now.", chunks: []string{"The syntax is `<tool", "_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>`, but I won't call it now."}},
	{name: "a call shown in an example fence is content", text: "For example:\n```\n<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>\n```\nbut I won't call it.", content: "For example:\n```\n<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>\n```\nbut I won't call it.", chunks: []string{"For example:\n```\n<to", "ol_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>\n```\nbut I won't call it."}},
	{
		name:   "single call, GLM-4.5 newlines",
		text:   glmWeather,
		chunks: []string{"<tool_call>get_", "weather\n<arg_", "key>city</arg_key>\n<arg_value>Bei", "jing</arg_value>\n</tool_call>"},
		calls:  []want{call("get_weather", `{"city":"Beijing"}`)},
	},
	{
		name:  "single call, GLM-4.7 without newlines",
		text:  "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Beijing</arg_value><arg_key>days</arg_key><arg_value>2</arg_value></tool_call>",
		calls: []want{call("get_weather", `{"city":"Beijing","days":2}`)},
	},
	{
		name:  "parallel calls",
		text:  glmWeather + "\n<tool_call>get_time<arg_key>zone</arg_key><arg_value>CST</arg_value></tool_call>",
		calls: []want{call("get_weather", `{"city":"Beijing"}`), call("get_time", `{"zone":"CST"}`)},
	},
	{
		name:   "a call without arguments on a line of its own, blanks around",
		text:   "<tool_call>  \n  get_time  \n  </tool_call>",
		calls:  []want{call("get_time", `{}`)},
		chunks: []string{"<tool_call>  ", "\n  get_time  \n", "  </tool_call>"},
	},
	{
		name:  "call without arguments",
		text:  "<tool_call>get_time</tool_call>",
		calls: []want{call("get_time", `{}`)},
	},
	{name: "no call: the spaces that begin the content are not content (textlayer.Edges)", text: "  \n  Beijing is sunny.", content: "Beijing is sunny."},
	{
		name:    "surrounding text",
		text:    "Let me search for that.\n" + glmWeather + "\nThe weather will be...",
		calls:   []want{call("get_weather", `{"city":"Beijing"}`)},
		content: "Let me search for that.\nThe weather will be...",
	},
	{
		name:    "<|observation|> ends the turn: what follows is content, never calls",
		text:    glmWeather + "<|observation|>{\"temp\": 20}\n<tool_call>imagined</tool_call>",
		chunks:  []string{glmWeather, "<|obser", "vation|>{\"temp\": 20}\n<tool_call>imagined</tool_call>"},
		calls:   []want{call("get_weather", `{"city":"Beijing"}`)},
		content: "{\"temp\": 20}\n<tool_call>imagined</tool_call>",
	},
	{
		name:      "reasoning opened by the template",
		open:      true,
		text:      "plan</think>\n" + glmWeather,
		calls:     []want{call("get_weather", `{"city":"Beijing"}`)},
		reasoning: "plan",
	},
	{
		name:      "reasoning block",
		text:      "<think>Need current weather.</think>\nDirect answer.",
		reasoning: "Need current weather.", content: "Direct answer.",
	},
	{
		name:  "values are JSON without tools",
		text:  "<tool_call>f<arg_key>n</arg_key><arg_value>3</arg_value><arg_key>o</arg_key><arg_value>{\"a\": [1, 2]}</arg_value><arg_key>s</arg_key><arg_value>text</arg_value></tool_call>",
		calls: []want{call("f", `{"n":3,"o":{"a":[1,2]},"s":"text"}`)},
	},
	{
		name:    "typed by the declared schema",
		tools:   weatherTool,
		text:    "<tool_call>get_weather<arg_key>city</arg_key><arg_value>007</arg_value><arg_key>days</arg_key><arg_value>5</arg_value></tool_call>",
		calls:   []want{call("get_weather", `{"city":"007","days":5}`)},
		repairs: []toolcall.RepairKind{toolcall.RepairCoercion},
	},
	{
		name:    "malformed object value is repaired",
		tools:   weatherTool,
		text:    "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n<arg_key>options</arg_key>\n<arg_value>{units: 'c', deep: None}</arg_value>\n</tool_call>",
		calls:   []want{call("get_weather", `{"city":"Paris","options":{"units":"c","deep":null}}`)},
		repairs: []toolcall.RepairKind{toolcall.RepairCoercion},
	},
	{
		name:  "a key without its value is an error, the sibling parses",
		text:  "<tool_call>get_weather\n<arg_key>city</arg_key>\nBeijing\n</tool_call>\n<tool_call>get_time</tool_call>",
		calls: []want{call("get_time", `{}`)},
		errs:  []toolcall.Code{toolcall.CodeMalformedCall},
	},
	{
		name:    "missing </arg_value>: the value ends at the next key",
		text:    "<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>x\n<arg_key>b</arg_key>\n<arg_value>y</arg_value>\n</tool_call>",
		calls:   []want{call("f", `{"a":"x","b":"y"}`)},
		repairs: []toolcall.RepairKind{toolcall.RepairUnclosedTag},
	},
	{
		name:  "escaped strings",
		text:  "<tool_call>echo<arg_key>s</arg_key><arg_value>say \"hi\"\\n C:\\dir\n😀 ü</arg_value></tool_call>",
		calls: []want{call("echo", `{"s":"say \"hi\"\\n C:\\dir\n😀 ü"}`)},
	},
	{
		name:  "JSON arguments after the name",
		text:  "<tool_call>get_weather\n{\"location\":\"San Francisco\"}</tool_call>",
		calls: []want{call("get_weather", `{"location":"San Francisco"}`)},
	},
	{
		name:  "a JSON call object inside <tool_call>",
		text:  "<tool_call>\n{\"name\":\"get_weather\",\"arguments\":{\"location\":\"Paris\"}}\n</tool_call>",
		calls: []want{call("get_weather", `{"location":"Paris"}`)},
	},
	{
		name:  "a call restarted before it closed: the abandoned one is an error",
		text:  "<tool_call>skill\n{\"name\":\"review\"}\n<tool_call>skill\n{\"name\":\"review\"}</tool_call>",
		calls: []want{call("skill", `{"name":"review"}`)},
		errs:  []toolcall.Code{toolcall.CodeMalformedCall},
	},
	{
		name:    "Laguna's <user> wrapper holding a call",
		text:    "I'll read the file.\n<user>read\n<arg_key>path</arg_key>\n<arg_value>/tmp/go.mod</arg_value>\n</user>",
		calls:   []want{call("read", `{"path":"/tmp/go.mod"}`)},
		content: "I'll read the file.",
	},
	{
		name:    "a <user> wrapper without a call is content",
		text:    "<user>hello</user>",
		content: "<user>hello</user>",
	},
	{
		name:    "a JSON call ending the output",
		text:    "Let me call the weather tool.\n{\"name\":\"get_weather\",\"arguments\":{\"location\":\"Paris\"}}",
		calls:   []want{call("get_weather", `{"location":"Paris"}`)},
		content: "Let me call the weather tool.",
	},
	{
		name:    "a JSON call ending the output closed twice",
		text:    "Let me call the weather tool.\n{\"name\":\"get_weather\",\"arguments\":{\"location\":\"Paris\"}}}\n",
		calls:   []want{call("get_weather", `{"location":"Paris"}`)},
		content: "Let me call the weather tool.",
		repairs: []toolcall.RepairKind{toolcall.RepairExtraClosing},
		chunks:  []string{"Let me call the weather tool.\n{\"name\":\"get_weather\",\"arguments\":{\"location\":\"Paris\"}}", "}\n"},
	},
	{
		name:    "a trailing JSON call to an undeclared tool is content",
		tools:   weatherTool,
		text:    "Example:\n{\"name\":\"delete_all\",\"arguments\":{}}",
		content: "Example:\n{\"name\":\"delete_all\",\"arguments\":{}}",
	},
	{
		name:    "JSON in the middle of prose is content",
		text:    "Send {\"name\":\"x\",\"arguments\":{}} to the API, then wait.",
		content: "Send {\"name\":\"x\",\"arguments\":{}} to the API, then wait.",
	},
	{
		name: "qwen syntax is not a glm call",
		text: qwenWeather,
		errs: []toolcall.Code{toolcall.CodeMalformedCall},
	},
	{
		name: "output ends inside a call",
		text: "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Bei",
		errs: []toolcall.Code{toolcall.CodeTruncated},
	},
}

func TestGLM45(t *testing.T) {
	runTable(t, tagged.GLM45, glmRows)
	testChunks(t, glmRows)
}

const hyWeather = "<tool_calls><tool_call>get_weather<tool_sep><arg_key>city</arg_key><arg_value>Beijing</arg_value></tool_call></tool_calls>"

var hyRows = []row{
	{
		name:   "single call",
		text:   hyWeather,
		chunks: []string{"<tool_calls><tool_call>get_weather<tool_", "sep><arg_key>city</arg_key><arg_value>Beijing</arg_value></tool_call></tool_calls>"},
		calls:  []want{call("get_weather", `{"city":"Beijing"}`)},
	},
	{
		name:  "parallel calls in one section",
		text:  "<tool_calls>\n<tool_call>a<tool_sep>\n<arg_key>x</arg_key>\n<arg_value>1</arg_value>\n</tool_call>\n<tool_call>b<tool_sep></tool_call>\n</tool_calls>",
		calls: []want{call("a", `{"x":1}`), call("b", `{}`)},
	},
	{name: "no call", text: "Sunny.", content: "Sunny."},
	{
		name:      "reasoning and surrounding text",
		text:      "<think>weather needed</think>\nOne moment.\n" + hyWeather + "\nDone.",
		chunks:    []string{"<think>weather needed</think>\nOne moment.\n<tool_", "calls>" + hyWeather[len("<tool_calls>"):] + "\nDone."},
		calls:     []want{call("get_weather", `{"city":"Beijing"}`)},
		reasoning: "weather needed", content: "One moment.\nDone.",
	},
	{
		name:  "escaped strings",
		text:  "<tool_calls><tool_call>echo<tool_sep><arg_key>s</arg_key><arg_value>\"q\" \\ \t 中文</arg_value></tool_call></tool_calls>",
		calls: []want{call("echo", `{"s":"\"q\" \\ \t 中文"}`)},
	},
	{
		name:    "malformed value repaired by schema",
		tools:   weatherTool,
		text:    "<tool_calls><tool_call>get_weather<tool_sep><arg_key>city</arg_key><arg_value>Rome</arg_value><arg_key>options</arg_key><arg_value>{\"a\": 1,}</arg_value></tool_call></tool_calls>",
		calls:   []want{call("get_weather", `{"city":"Rome","options":{"a":1}}`)},
		repairs: []toolcall.RepairKind{toolcall.RepairCoercion},
	},
	{
		name:  "a broken call beside a good one",
		text:  "<tool_calls><tool_call>a<tool_sep>junk</tool_call><tool_call>b<tool_sep><arg_key>y</arg_key><arg_value>2</arg_value></tool_call></tool_calls>",
		calls: []want{call("b", `{"y":2}`)},
		errs:  []toolcall.Code{toolcall.CodeMalformedCall},
	},
	{
		name:    "glm's calls without the section are not hy_v3's",
		text:    glmWeather,
		content: glmWeather,
	},
}

func TestHYV3(t *testing.T) {
	runTable(t, tagged.HYV3, hyRows)
	testChunks(t, hyRows)
}
