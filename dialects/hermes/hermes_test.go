package hermes_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/hermes"
	"github.com/dialectkit/toolcall/internal/coded"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/schema"
)

type call struct{ name, args string }

type row struct {
	name      string
	text      string
	open      bool   // opts.ReasoningOpen
	tools     string // declared tools, JSON; "" for none
	noRepair  bool
	calls     []call
	content   string
	reasoning string
	errs      []toolcall.Code
	repairs   []toolcall.RepairKind // kinds that must be recorded
	unmarked  bool                  // Marked must be false
	chunks    []string              // for the stream engine; must join to text
}

const weatherTools = `[{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}]`

var rows = []row{
	{name: "a fence opened inside a line spans lines and is read whole", unmarked: true, text: "Sure: ```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```\nDone.", calls: []call{{"get_weather", `{"city":"Paris"}`}}, content: "Sure:\nDone.",
		chunks: []string{"Sure: `", "``js", "on\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Pa", "ris\"}}\n`", "``\nDone."}},
	{name: "a backslash before a line break in a string escapes no quote after it", text: "<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": \"x\\\n\"}}\n</tool_call>\nafter", calls: []call{{"f", `{"a":"x\n"}`}}, content: "after",
		chunks: []string{"<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": \"x\\", "\n", "\"}}\n</tool_call>\nafter"}},
	{name: "a run of three backticks inside a line is no inline code: the call after it is a call", text: "Use ```x``` and\n<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call>", calls: []call{{"f", `{}`}}, content: "Use ```x``` and"},
	{name: "a call in a tilde fence is a call, the fence going with it", unmarked: true, text: "Sure.\n~~~json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n~~~\nDone.", calls: []call{{"get_weather", `{"city":"Paris"}`}}, content: "Sure.\nDone.",
		chunks: []string{"Sure.\n~", "~~js", "on\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n~~", "~\nDone."}},
	{name: "a tilde fence of code closes with tildes: the call after it is a call", text: "~~~python\nprint(1)\n~~~\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>", calls: []call{{"get_weather", `{"city":"Paris"}`}}, content: "~~~python\nprint(1)\n~~~",
		chunks: []string{"~~~python\nprint(1)\n~", "~~\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>"}},
	{name: "tags named in a sentence are words, not a failed call", text: "Wrap the call in <tool_call> and </tool_call> tags.", content: "Wrap the call in <tool_call> and </tool_call> tags.",
		chunks: []string{"Wrap the call in <tool_", "call> and </tool_call> tags."}},
	{name: "a call beyond repair after a word keeps its error", text: "I will use the tool <tool_call>{\"name\": \"f\", \"arguments\": {:::}}</tool_call>", content: "I will use the tool",
		errs: []toolcall.Code{toolcall.CodeMalformedCall}},
	{name: "a call shown in inline code is content", text: "The syntax is `<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}</tool_call>`, but I won't call it now.", content: "The syntax is `<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}</tool_call>`, but I won't call it now.", unmarked: true, chunks: []string{"The syntax is `<tool", "_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}</tool_call>`, but I won't call it now."}},
	{name: "a call shown in an example fence is content", text: "For example:\n```\n<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}</tool_call>\n```\nbut I won't call it.", content: "For example:\n```\n<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}</tool_call>\n```\nbut I won't call it.", unmarked: true, chunks: []string{"For example:\n```\n<to", "ol_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}</tool_call>\n```\nbut I won't call it."}},
	{name: "a bare list whose later element is no value is content, though its first element is a call", text: "[{\"name\": \"f\", \"arguments\": {}},{\"\": \"\", \"\")0{}}]", content: "[{\"name\": \"f\", \"arguments\": {}},{\"\": \"\", \"\")0{}}]", unmarked: true, chunks: []string{"[{\"name\": \"f\", \"arguments\": {}}", ",{\"\": \"\", \"\")0{", "}}]"}},
	{name: "a call quoted in a sentence is content", text: "Write \"<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}</tool_call>\" to call it.", content: "Write \"<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}</tool_call>\" to call it.", unmarked: true,
		chunks: []string{"Write \"<tool", "_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Par", "is\"}}</tool_call>\" to call it."}},
	{name: "a call in typographic quotes in a sentence is content", text: "The model answers \u201C<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": [\"Paris\", 1]}}</tool_call>\u201D here.", content: "The model answers \u201C<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": [\"Paris\", 1]}}</tool_call>\u201D here.", unmarked: true,
		chunks: []string{"The model answers \u201C<tool_call>", "{\"name\": \"get_weather\", \"arguments\": {\"city\": [\"Paris\", 1]}}</tool_call>\u201D", " here."}},
	{name: "quotes in a value are argument text", text: "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"say \u201C<tool_call>{x}\u201D and \\\"[a]\\\" here\"}}</tool_call>", calls: []call{{"get_weather", `{"city":"say “<tool_call>{x}” and \"[a]\" here"}`}}, content: "",
		chunks: []string{"<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"say \u201C<tool", "_call>{x}\u201D and \\\"[a]\\\" here\"}}</tool_call>"}},
	{name: "a call on its own line after a quoted phrase is a call", text: "I will look up \"Paris\" now.\n<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}</tool_call>", calls: []call{{"get_weather", `{"city":"Paris"}`}}, content: "I will look up \"Paris\" now.",
		chunks: []string{"I will look up \"Par", "is\" now.\n<tool_call>{\"name\": \"get_weather\", ", "\"arguments\": {\"city\": \"Paris\"}}</tool_call>"}},
	{name: "a call after a closed quotation on its line is a call", text: "I will look up \"[Paris]\" now: <tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}</tool_call>", calls: []call{{"get_weather", `{"city":"Paris"}`}}, content: "I will look up \"[Paris]\" now:",
		chunks: []string{"I will look up \"[Par", "is]\" now: <tool_call>{\"name\": \"get_weather\", ", "\"arguments\": {\"city\": \"Paris\"}}</tool_call>"}},
	{name: "a call in a fence with nothing around it is a call", text: "```\n<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}</tool_call>\n```", calls: []call{{"get_weather", `{"city":"Paris"}`}}, content: ""},
	// A call is decided by what precedes it: the prose after its region
	// never unmakes it.
	{name: "a call in a fence is a call whatever the prose after it says", text: "Here it is:\n```\n<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}</tool_call>\n```\nbut I won't call it.", calls: []call{{"get_weather", `{"city":"Paris"}`}}, content: "Here it is:\nbut I won't call it.", chunks: []string{"Here it is:\n```\n<to", "ol_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}</tool_call>\n```", "\nbut I won't call it."}},
	{name: "a call in a fence followed by prose that does not disown it is a call", text: "Here it is:\n```\n<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}</tool_call>\n```\nLet me know if it does not work.", calls: []call{{"get_weather", `{"city":"Paris"}`}}, content: "Here it is:\nLet me know if it does not work.", chunks: []string{"Here it is:\n```\n<to", "ol_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}</tool_call>\n```", "\nLet me know if it does not work."}},
	// The template's own syntax.
	{
		name:   "single call",
		text:   "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tokyo\"}}\n</tool_call>",
		calls:  []call{{"get_weather", `{"city":"Tokyo"}`}},
		chunks: []string{"<tool", "_call>\n{\"name\": \"get_", "weather\", \"arguments\": {\"city\": \"Tokyo\"}}\n</tool_", "call>"},
	},
	{
		name:  "parallel calls back to back",
		text:  `<tool_call>{"name": "a", "arguments": {"x": 1}}</tool_call><tool_call>{"name": "b", "arguments": {}}</tool_call>`,
		calls: []call{{"a", `{"x":1}`}, {"b", `{}`}},
	},
	{
		name:    "parallel calls newline separated after text",
		text:    "Let me check.\n<tool_call>\n{\"name\": \"a\", \"arguments\": {}}\n</tool_call>\n<tool_call>\n{\"name\": \"b\", \"arguments\": {\"y\": [1, 2]}}\n</tool_call>",
		calls:   []call{{"a", `{}`}, {"b", `{"y":[1,2]}`}},
		content: "Let me check.",
	},
	{
		name:     "no call",
		text:     "The weather in Tokyo is sunny. Enjoy your day!",
		content:  "The weather in Tokyo is sunny. Enjoy your day!",
		unmarked: true,
	},
	{
		name:     "no call, multi-byte text",
		text:     "東京は晴れです ✅",
		content:  "東京は晴れです ✅",
		unmarked: true,
		chunks:   []string{"東", "\xe4\xba", "\xac", "は晴れです \xe2\x9c", "\x85"},
	},
	{
		name:    "text before and after",
		text:    "I'll look it up.\n\n<tool_call>\n{\"name\": \"a\", \"arguments\": {}}\n</tool_call>\n\nDone.",
		calls:   []call{{"a", `{}`}},
		content: "I'll look it up.\nDone.",
	},
	{
		name:    "call inline in a sentence",
		text:    `Calling <tool_call>{"name": "a", "arguments": {}}</tool_call> now.`,
		calls:   []call{{"a", `{}`}},
		content: "Calling now.",
	},
	{
		name:    "malformed arguments repaired",
		text:    `<tool_call>{'name': 'echo', 'arguments': {'text': 'hi', 'loud': True}}</tool_call>`,
		calls:   []call{{"echo", `{"text":"hi","loud":true}`}},
		repairs: []toolcall.RepairKind{toolcall.RepairSingleQuotes},
	},
	{
		name:  "a block beyond repair beside a good one",
		text:  "<tool_call>{\"name\": \"good\", \"arguments\": {\"x\": 1}}</tool_call>\n<tool_call>{:::}</tool_call>",
		calls: []call{{"good", `{"x":1}`}},
		errs:  []toolcall.Code{toolcall.CodeMalformedCall},
	},
	{
		name:  "arguments that are not an object beside a good call",
		text:  `<tool_call>{"name": "bad", "arguments": [1, 2]}</tool_call><tool_call>{"name": "good", "arguments": {}}</tool_call>`,
		calls: []call{{"good", `{}`}},
		errs:  []toolcall.Code{toolcall.CodeNotObject},
	},
	{
		name: "call object without a name",
		text: `<tool_call>{"arguments": {"x": 1}}</tool_call>`,
		errs: []toolcall.Code{toolcall.CodeMalformedCall},
	},
	{
		name:  "escaped strings",
		text:  `<tool_call>{"name": "write", "arguments": {"text": "She said \"hi\" \\ C:\\tmp\nline 2 \u00e9 日本 \ud83d\ude00", "tag": "</tool_call>"}}</tool_call>`,
		calls: []call{{"write", `{"text":"She said \"hi\" \\ C:\\tmp\nline 2 é 日本 😀","tag":"</tool_call>"}`}},
	},
	// Reasoning.
	{
		name:      "reasoning then call",
		text:      "<think>\nThe user wants the weather.\n</think>\n\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>",
		calls:     []call{{"get_weather", `{"city":"Paris"}`}},
		reasoning: "The user wants the weather.",
	},
	{
		name:      "reasoning opened by the template",
		text:      "The user wants the weather.\n</think>\n\nSure.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>",
		open:      true,
		calls:     []call{{"get_weather", `{"city":"Paris"}`}},
		content:   "Sure.",
		reasoning: "The user wants the weather.",
		chunks:    []string{"The user wants the weather.\n</th", "ink>\n\nSure.\n<", "tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>"},
	},
	{
		// Trimmed as a block written whole is: whitespace that opens the
		// output is no reasoning.
		name:      "reasoning opened by the template, after whitespace",
		text:      " \n The user wants the weather. </think> Sure.",
		content:   "Sure.",
		reasoning: "The user wants the weather.",
		unmarked:  true,
	},
	{
		name:      "template-opened reasoning repeated by the model, after whitespace",
		text:      "<think> Hmm.</think>Answer.",
		open:      true,
		content:   "Answer.",
		reasoning: "Hmm.",
		unmarked:  true,
	},
	{
		name:      "template-opened reasoning repeated by the model",
		text:      "<think>Hmm.</think>Answer.",
		open:      true,
		content:   "Answer.",
		reasoning: "Hmm.",
		unmarked:  true,
	},
	{
		name:      "call in reasoning that is never closed ends it",
		text:      `Let me think<tool_call>{"name": "a", "arguments": {}}</tool_call>Done.`,
		open:      true,
		calls:     []call{{"a", `{}`}},
		content:   "Done.",
		reasoning: "Let me think",
	},
	{
		name:      "call inside a closed reasoning block stays reasoning",
		text:      `<think>I will call <tool_call>{"name": "a", "arguments": {}}</tool_call> and wait.</think>OK.`,
		content:   "OK.",
		reasoning: `I will call <tool_call>{"name": "a", "arguments": {}}</tool_call> and wait.`,
	},
	{
		name:      "a JSON draft in reasoning is not a call",
		text:      "<think>Maybe {\"name\": \"a\", \"arguments\": {}} would do.</think>No tool needed.",
		content:   "No tool needed.",
		reasoning: "Maybe {\"name\": \"a\", \"arguments\": {}} would do.",
		unmarked:  true,
	},
	// Tag spellings.
	{name: "upper-case tag", text: `<TOOL_CALL>{"name": "a", "arguments": {}}</TOOL_CALL>`, calls: []call{{"a", `{}`}}},
	{name: "tag without underscore", text: `<toolcall>{"name": "a", "arguments": {}}</toolcall>`, calls: []call{{"a", `{}`}}},
	{name: "tag with a hyphen", text: `<tool-call>{"name": "a", "arguments": {}}</tool-call>`, calls: []call{{"a", `{}`}}},
	{name: "mismatched spellings pair", text: `<tool_call>{"name": "a", "arguments": {}}</toolcall>`, calls: []call{{"a", `{}`}}},
	{
		name:  "attributes on the tag give the id",
		text:  `<tool_call id="call_7" type="function">{"name": "a", "arguments": {}}</tool_call>`,
		calls: []call{{"a", `{}`}},
	},
	// Truncation and missing tags.
	{
		name:    "unclosed final tag",
		text:    "Checking.\n<tool_call>\n{\"name\": \"a\", \"arguments\": {\"x\": 1}}",
		calls:   []call{{"a", `{"x":1}`}},
		content: "Checking.",
	},
	{
		name:  "unclosed tag followed by the next call",
		text:  `<tool_call>{"name": "a", "arguments": {}}<tool_call>{"name": "b", "arguments": {}}</tool_call>`,
		calls: []call{{"a", `{}`}, {"b", `{}`}},
	},
	{
		name: "output cut off inside the call",
		text: `<tool_call>{"name": "get_weather", "arguments": {"city": "Tok`,
		errs: []toolcall.Code{toolcall.CodeTruncated},
	},
	{
		name: "a member cut after its key, closed by the tag, is no call",
		text: `<tool_call>{"name": "write_file", "arguments": {"content": "x"}, "x": </tool_call>`,
		errs: []toolcall.Code{toolcall.CodeMalformedCall},
	},
	{
		name:  "a call complete but for its closing tag is a call",
		text:  `<tool_call>{"name": "get_weather", "arguments": {"city": "Tokyo"}}` + "\n</tool_ca",
		calls: []call{{"get_weather", `{"city":"Tokyo"}`}},
	},
	{
		name:   "an opening tag inside an argument string is argument text",
		text:   `<tool_call>{"name": "write_file", "arguments": {"content": "wrap it in <tool_call> tags"}}</tool_call>`,
		calls:  []call{{"write_file", `{"content":"wrap it in <tool_call> tags"}`}},
		chunks: []string{`<tool_call>{"name": "write_file", "arguments": {"content": "wrap it in <tool`, `_call> tags"}}</tool_call>`},
	},
	{
		name:   "both tags inside an argument string are argument text",
		text:   `<tool_call>{"name": "write_file", "arguments": {"content": "use <tool_call> and </tool_call>, \"q\""}}</tool_call>`,
		calls:  []call{{"write_file", `{"content":"use <tool_call> and </tool_call>, \"q\""}`}},
		chunks: []string{`<tool_call>{"name": "write_file", "arguments": {"content": "use <tool_call> and </tool_`, `call>, \"q\""}}</tool_call>`},
	},
	{
		name:   "a call broken off inside a string where the next block begins is cut off",
		text:   "<tool_call>{\"name\": \"a\", \"arguments\": {\"x\": \"abc\n<tool_call>{\"name\": \"b\", \"arguments\": {}}</tool_call>",
		calls:  []call{{"b", `{}`}},
		errs:   []toolcall.Code{toolcall.CodeTruncated},
		chunks: []string{"<tool_call>{\"name\": \"a\", \"arguments\": {\"x\": \"ab", "c\n<tool_call>{\"name\": \"b\", \"arguments\": {}}</tool_call>"},
	},
	{
		name:   "a closing tag inside an argument string of a bare call is argument text",
		text:   `{"name": "note", "arguments": {"text": "end it with </tool_call> then"}}`,
		calls:  []call{{"note", `{"text":"end it with </tool_call> then"}`}},
		chunks: []string{`{"name": "note", "arguments": {"text": "end it with </tool`, `_call> then"}}`},
		// The tag inside the string is text: no marker of the dialect.
		unmarked: true,
	},
	{
		name:     "a closing tag inside a string of a fenced call is argument text",
		text:     "```json\n{\"name\": \"note\", \"arguments\": {\"text\": \"a </tool_call> b\"}}\n```",
		calls:    []call{{"note", `{"text":"a </tool_call> b"}`}},
		unmarked: true,
	},
	{
		name:  "a closing tag inside a string of a tag block's fenced call is argument text",
		text:  "<tool_call>\n```json\n{\"name\": \"note\", \"arguments\": {\"text\": \"a </tool_call> b\"}}\n```\n</tool_call>",
		calls: []call{{"note", `{"text":"a </tool_call> b"}`}},
	},
	{
		name:     "a call written inside a string of a JSON data value is text",
		text:     `{"note": "<tool_call>{\"name\": \"note\", \"arguments\": {\"text\": \"a\"}}</tool_call>"}`,
		content:  `{"note": "<tool_call>{\"name\": \"note\", \"arguments\": {\"text\": \"a\"}}</tool_call>"}`,
		unmarked: true,
	},
	{
		name:  "a closing tag inside an argument string of a call that lost its opening tag",
		text:  "{\"name\": \"note\", \"arguments\": {\"text\": \"a </tool_call> b\"}}\n</tool_call>",
		calls: []call{{"note", `{"text":"a </tool_call> b"}`}},
	},
	{
		name: "a call that lost its opening tag, broken off inside a string before a stray closing tag, is cut off",
		text: `{"name": "note", "arguments": {"text": "a </tool_call>`,
		errs: []toolcall.Code{toolcall.CodeTruncated},
	},
	{
		name:      "missing opening tag after reasoning",
		text:      "<think>ok</think>\n{\"name\": \"a\", \"arguments\": {\"x\": 1}}\n</tool_call>",
		calls:     []call{{"a", `{"x":1}`}},
		reasoning: "ok",
	},
	{
		name:    "bare object before a stray closing tag",
		text:    "Sure. {\"name\": \"a\"}</tool_call> Bye.",
		calls:   []call{{"a", `{}`}},
		content: "Sure. Bye.",
	},
	{
		name:    "closing tag with no call before it stays text",
		text:    "Nothing here </tool_call>",
		content: "Nothing here </tool_call>",
	},
	{
		name:    "stray closing brace before the tag",
		text:    `<tool_call>{"name": "a", "arguments": {"q": "x >= 1"}}></tool_call>`,
		calls:   []call{{"a", `{"q":"x >= 1"}`}},
		repairs: []toolcall.RepairKind{toolcall.RepairSurroundingText},
	},
	{
		name:    "a brace too many after the call of a block left open",
		text:    `<tool_call>{"name": "a", "arguments": {}}}`,
		chunks:  []string{`<tool_call>{"name": "a", "arguments": {}}`, `}`},
		calls:   []call{{"a", `{}`}},
		repairs: []toolcall.RepairKind{toolcall.RepairExtraClosing},
	},
	{
		// On the value's line, brackets too many are its punctuation
		// whatever follows them: the prose is content.
		name:    "braces too many after the call of a block left open, then prose",
		text:    "Sure <tool_call>{\"name\": \"a\", \"arguments\": {}}} } and more\n<tool_call>{\"name\": \"b\", \"arguments\": {}}]",
		chunks:  []string{`Sure <tool_call>{"name": "a", "arguments": {}}`, `} } and`, " more\n<tool_call>{\"name\": \"b\", \"arguments\": {}}]"},
		calls:   []call{{"a", `{}`}, {"b", `{}`}},
		content: "Sure and more",
		repairs: []toolcall.RepairKind{toolcall.RepairExtraClosing},
	},
	{
		name:    "a brace on the next line after a block left open is prose",
		text:    "<tool_call>{\"name\": \"a\", \"arguments\": {}}\n} and more",
		calls:   []call{{"a", `{}`}},
		content: "} and more",
	},
	// Alternative wrappers.
	{name: "tools wrapper", text: "<tools>\n{\"name\": \"a\", \"arguments\": {}}\n</tools>", calls: []call{{"a", `{}`}}, unmarked: true},
	{name: "tool wrapper", text: `<tool>{"name": "a", "arguments": {}}</tool>`, calls: []call{{"a", `{}`}}, unmarked: true},
	{name: "response wrapper", text: `<response>{"name": "a", "arguments": {}}</response>`, calls: []call{{"a", `{}`}}, unmarked: true},
	{name: "function_call wrapper", text: `<function_call>{"name": "a", "arguments": {"x": 1}}</function_call>`, calls: []call{{"a", `{"x":1}`}}, unmarked: true},
	{
		name:     "function=name element",
		text:     "<function=get_weather>{\"city\": \"Tokyo\"}</function>\n<function=get_time>{}</function>",
		calls:    []call{{"get_weather", `{"city":"Tokyo"}`}, {"get_time", `{}`}},
		unmarked: true,
	},
	{name: "two function elements in one block", text: "<tool_call>\n<function name=\"get_weather\">{\"city\": \"Paris\"}</function>\n<function name=\"get_time\">{}</function>\n</tool_call>",
		chunks: []string{"<tool_call>\n<function name=\"get_weather\">{\"city\": \"Paris\"}</func", "tion>\n<function name=\"get_time\">{}</function>\n</tool_call>"},
		calls:  []call{{"get_weather", `{"city":"Paris"}`}, {"get_time", `{}`}}},
	{name: "unclosed block holding a function element", text: "Sure.\n<tool_call>\n<function name=\"get_weather\">{\"city\": \"Paris\"}</function>",
		calls: []call{{"get_weather", `{"city":"Paris"}`}}, content: "Sure."},
	{name: "function name attribute", text: "<function name=\"get_weather\">\n{\"city\": \"Tokyo\"}\n</function>", calls: []call{{"get_weather", `{"city":"Tokyo"}`}}, unmarked: true},
	{name: "function element inside a tool-call block", text: `<tool_call><function=a>{"x": 1}</function></tool_call>`, calls: []call{{"a", `{"x":1}`}}},
	{name: "name line then arguments", text: "<tool_call>get_weather\n{\"city\": \"Tokyo\"}</tool_call>", calls: []call{{"get_weather", `{"city":"Tokyo"}`}}},
	{
		name:     "json fence",
		text:     "I'll call it:\n```json\n{\"name\": \"a\", \"arguments\": {\"x\": 1}}\n```\nDone.",
		calls:    []call{{"a", `{"x":1}`}},
		content:  "I'll call it:\nDone.",
		unmarked: true,
	},
	{name: "fence without language", text: "```\n{\"name\": \"a\", \"parameters\": {\"x\": 1}}\n```", calls: []call{{"a", `{"x":1}`}}, unmarked: true},
	{
		name:  "xml fence around tool-call blocks",
		text:  "```xml\n<tool_call>\n{\"name\": \"a\", \"arguments\": {}}\n</tool_call>\n<tool_call>\n{\"name\": \"b\", \"arguments\": {}}\n</tool_call>\n```",
		calls: []call{{"a", `{}`}, {"b", `{}`}},
	},
	{name: "fence inside a tool-call block", text: "<tool_call>\n```json\n{\"name\": \"a\", \"arguments\": {}}\n```\n</tool_call>", calls: []call{{"a", `{}`}}},
	{name: "tilde fence inside a tool-call block", text: "<tool_call>\n~~~json\n{\"name\": \"a\", \"arguments\": {}}\n~~~\n</tool_call>", calls: []call{{"a", `{}`}}},
	{
		name:     "fenced data is content",
		text:     "Config:\n```json\n{\"database\": \"postgres\", \"port\": 5432}\n```",
		content:  "Config:\n```json\n{\"database\": \"postgres\", \"port\": 5432}\n```",
		unmarked: true,
	},
	// Field aliases and several calls in one block.
	{name: "parameters alias", text: `<tool_call>{"name": "search", "parameters": {"q": "go"}}</tool_call>`, calls: []call{{"search", `{"q":"go"}`}}},
	{name: "tool_name and tool_args", text: `<tool_call>{"tool_name": "search", "tool_args": {"q": "go"}}</tool_call>`, calls: []call{{"search", `{"q":"go"}`}}},
	{name: "OpenAI envelope", text: `<tool_call>{"type": "function", "function": {"name": "a", "arguments": "{\"x\": 1}"}}</tool_call>`, calls: []call{{"a", `{"x":1}`}}},
	{
		name:  "several objects in one block",
		text:  "<tool_call>\n{\"name\": \"a\", \"arguments\": {}}\n{\"name\": \"b\", \"arguments\": {}}\n</tool_call>",
		calls: []call{{"a", `{}`}, {"b", `{}`}},
	},
	{
		name:  "array of calls in one block",
		text:  `<tool_call>[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"y": 2}}]</tool_call>`,
		calls: []call{{"a", `{}`}, {"b", `{"y":2}`}},
	},
	// Bare JSON in prose.
	// A bare value inside a line of prose is shown, not made (the table
	// of what is a call); one alone on its line, after a colon or ending
	// its line stays a call.
	{
		name:     "bare call inside a sentence is shown",
		text:     `Here is the call {"name": "test", "arguments": {}} as promised.`,
		content:  `Here is the call {"name": "test", "arguments": {}} as promised.`,
		unmarked: true,
	},
	{
		name:     "bare call in an aside is shown",
		text:     `I would run it (see {"name": "test", "arguments": {}}) later.`,
		content:  `I would run it (see {"name": "test", "arguments": {}}) later.`,
		unmarked: true,
	},
	{
		name:     "bare call list inside a sentence is shown",
		text:     `You can call [{"name": "test", "arguments": {}}], then read the result.`,
		content:  `You can call [{"name": "test", "arguments": {}}], then read the result.`,
		unmarked: true,
	},
	{
		name:     "bare call in a quotation is shown",
		text:     `He typed “{"name": "test", "arguments": {}}”.`,
		content:  `He typed “{"name": "test", "arguments": {}}”.`,
		unmarked: true,
	},
	{
		name:     "bare call inside a line of prose",
		text:     `Here is some explanation text and then {"name": "test", "arguments": {}} more text`,
		content:  `Here is some explanation text and then {"name": "test", "arguments": {}} more text`,
		unmarked: true,
	},
	{
		name:     "bare call followed by its sentence's end",
		text:     `I will check the weather {"name": "test", "arguments": {}}.`,
		content:  `I will check the weather {"name": "test", "arguments": {}}.`,
		unmarked: true,
	},
	{
		name:     "a run of bare calls after a colon",
		text:     `Results: {"name": "a", "arguments": {}}; {"name": "b", "arguments": {}} Want more?`,
		calls:    []call{{"a", `{}`}, {"b", `{}`}},
		content:  "Results: ; Want more?",
		unmarked: true,
	},
	{
		name:     "bare call after a colon",
		text:     `Sure: {"name": "test", "arguments": {}} coming up.`,
		calls:    []call{{"test", `{}`}},
		content:  "Sure: coming up.",
		unmarked: true,
	},
	{
		name:     "prose JSON that does not start with its name is an example",
		text:     "This is not a tool call:\n{\"arguments\": {\"arg1\": 1}, \"name\": \"special_function\"}",
		content:  "This is not a tool call:\n{\"arguments\": {\"arg1\": 1}, \"name\": \"special_function\"}",
		unmarked: true,
	},
	{
		name:     "prose JSON naming an undeclared tool",
		text:     `For example {"name": "search", "arguments": {"q": "x"}}.`,
		tools:    weatherTools,
		content:  `For example {"name": "search", "arguments": {"q": "x"}}.`,
		unmarked: true,
	},
	{
		name:     "prose data with a name field",
		text:     `The package is {"name": "my-app", "version": "1.0"}.`,
		content:  `The package is {"name": "my-app", "version": "1.0"}.`,
		unmarked: true,
	},
	{
		name:     "tool definitions echoed back are not calls",
		text:     `<tools>[{"type": "function", "function": {"name": "get_weather", "description": "Weather.", "parameters": {"type": "object", "properties": {}}}}]</tools>`,
		content:  `<tools>[{"type": "function", "function": {"name": "get_weather", "description": "Weather.", "parameters": {"type": "object", "properties": {}}}}]</tools>`,
		unmarked: true,
	},
	// Other dialects' syntax behind the same tag.
	{
		name: "glm45 tagged arguments are not hermes",
		text: "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>{\"name\": \"x\", \"arguments\": {}}</arg_value>\n</tool_call>",
		errs: []toolcall.Code{toolcall.CodeMalformedCall},
	},
	{
		name: "qwen3_coder parameters are not hermes",
		text: "<tool_call>\n<function=get_weather>\n<parameter=city>\nTokyo\n</parameter>\n</function>\n</tool_call>",
		errs: []toolcall.Code{toolcall.CodeMalformedCall},
	},
	{
		name: "granite array after an unclosed tag is not hermes",
		text: `<tool_call> [{"name": "get_weather", "arguments": {"city": "Tokyo"}}]`,
		errs: []toolcall.Code{toolcall.CodeMalformedCall},
	},
	{
		name:     "qwen3_coder function element outside a block is not claimed",
		text:     "<function=get_weather>\n<parameter=city>Tokyo</parameter>\n</function>",
		content:  "<function=get_weather>\n<parameter=city>Tokyo</parameter>\n</function>",
		unmarked: true,
	},
	// Tags that are not calls.
	{name: "empty block", text: "<tool_call></tool_call>", content: "<tool_call></tool_call>"},
	{name: "tag mentioned in prose", text: "Wrap calls in <tool_call> tags.", content: "Wrap calls in <tool_call> tags."},
	{name: "partial tag", text: "abc\n<tool_call fakeout", content: "abc\n<tool_call fakeout", unmarked: true},
	// Options.
	{
		name:     "repair disabled",
		text:     `<tool_call>{'name': 'a', 'arguments': {}}</tool_call>`,
		noRepair: true,
		errs:     []toolcall.Code{toolcall.CodeMalformedCall},
	},
	{
		name:  "declared tools: names fold to the declared case",
		text:  `<tool_call>{"name": "Get_Weather", "arguments": {"city": "Rome"}}</tool_call>`,
		tools: weatherTools,
		calls: []call{{"get_weather", `{"city":"Rome"}`}},
	},
	{
		name:     "declared tools: bare call to a declared tool",
		text:     `{"name": "get_weather", "arguments": {"city": "Rome"}}`,
		tools:    weatherTools,
		calls:    []call{{"get_weather", `{"city":"Rome"}`}},
		unmarked: true,
	},
}

func TestHermes(t *testing.T) {
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			opts := &dialects.Options{ReasoningOpen: r.open, DisableRepair: r.noRepair}
			if r.tools != "" {
				opts.Tools = toolSet(t, r.tools)
			}
			// Streamed in every cut, the row must give the same answer.
			if err := streamtest.Check(hermes.Dialect, r.text, r.chunks, opts); err != nil {
				t.Errorf("stream: %v", err)
			}
			// Read by the engine in every cut, the row must read as the
			// whole text does, with the reasoning start given either way
			// too.
			for _, o := range []dialects.Options{*opts, {ReasoningOpen: true, Tools: opts.Tools}, {ReasoningClosed: true, Tools: opts.Tools}} {
				if err := streamtest.CheckReader(reader, r.text, &o); err != nil {
					t.Errorf("reader (open %v, closed %v): %v", o.ReasoningOpen, o.ReasoningClosed, err)
				}
			}
			res := dialects.Parse(hermes.Dialect, r.text, opts)
			checkCalls(t, res, r.calls)
			if res.Content != r.content {
				t.Errorf("content %q, want %q", res.Content, r.content)
			}
			if res.Reasoning != r.reasoning {
				t.Errorf("reasoning %q, want %q", res.Reasoning, r.reasoning)
			}
			var codes []toolcall.Code
			for _, e := range res.Errors {
				codes = append(codes, e.Code)
			}
			if !slices.Equal(codes, r.errs) {
				t.Errorf("errors %v, want codes %v", res.Errors, r.errs)
			}
			for _, k := range r.repairs {
				if !slices.ContainsFunc(res.Repairs, func(rp toolcall.Repair) bool { return rp.Kind == k }) {
					t.Errorf("repairs %v lack %s", res.Repairs, k)
				}
			}
			if marked := hermes.Dialect.Extract(r.text, opts).Marked; marked == r.unmarked {
				t.Errorf("Marked = %v", marked)
			}
		})
	}
}

// reader is the dialect's engine.
var reader = hermes.Dialect.(dialects.Incremental)

func TestChunksJoinToText(t *testing.T) {
	n := 0
	for _, r := range rows {
		if r.chunks == nil {
			continue
		}
		n++
		if got := strings.Join(r.chunks, ""); got != r.text {
			t.Errorf("%s: chunks join to %q, want %q", r.name, got, r.text)
		}
	}
	if n < 2 {
		t.Errorf("only %d rows carry chunks", n)
	}
}

func TestMarkers(t *testing.T) {
	m, ok := hermes.Dialect.(dialects.Marked)
	if !ok || len(m.Markers()) == 0 || m.Markers()[0] != "<tool_call>" {
		t.Fatalf("hermes must announce <tool_call> as its strongest marker")
	}
	if hermes.Dialect.Name() != "hermes" || len(hermes.All()) != 1 {
		t.Fatalf("name %q, All %v", hermes.Dialect.Name(), hermes.All())
	}
}

func TestIDFromTagAttribute(t *testing.T) {
	res := dialects.Parse(hermes.Dialect, `<tool_call id="call_7">{"name": "a", "arguments": {}}</tool_call>`, nil)
	if len(res.Calls) != 1 || res.Calls[0].ID != "call_7" {
		t.Fatalf("calls %+v, want one with id call_7", res.Calls)
	}
}

func TestOffsets(t *testing.T) {
	text := "ab <tool_call>{\"name\": \"a\", \"arguments\": {}}</tool_call> <tool_call>{:::}</tool_call>"
	ext := hermes.Dialect.Extract(text, nil)
	if len(ext.Calls) != 2 {
		t.Fatalf("calls %+v", ext.Calls)
	}
	if got := ext.Calls[0].Offset; got != strings.Index(text, `{"name"`) {
		t.Errorf("first call offset %d", got)
	}
	if got := ext.Calls[1].Err; got == nil || coded.As(got).Offset != strings.Index(text, "{:::}") {
		t.Errorf("error %v, want offset %d", got, strings.Index(text, "{:::}"))
	}
}

func TestErrorsHideValues(t *testing.T) {
	res := dialects.Parse(hermes.Dialect, `<tool_call>{"name": "a", "arguments": {"secret": "hunter2"`, nil)
	if len(res.Errors) != 1 {
		t.Fatalf("errors %v", res.Errors)
	}
	if strings.Contains(res.Errors[0].Error(), "hunter2") {
		t.Errorf("error message shows an argument value: %s", res.Errors[0])
	}
}

// TestHostileInput feeds inputs built to break a scanner: every one must
// come back without a panic, and without a call where none was written.
func TestHostileInput(t *testing.T) {
	inputs := map[string]string{
		"open tags":          strings.Repeat("<tool_call>", 100000),
		"open tags + brace":  strings.Repeat("<tool_call>{", 20000),
		"close tags":         strings.Repeat("</tool_call>", 100000),
		"braces":             strings.Repeat("{", 100000),
		"brackets":           strings.Repeat("[", 100000),
		"angle brackets":     strings.Repeat("<", 200000),
		"fences":             strings.Repeat("```json\n", 50000),
		"think tags":         strings.Repeat("<think>", 50000) + strings.Repeat("</think>", 50000),
		"function tags":      strings.Repeat("<function=a>", 50000),
		"mixed markup":       strings.Repeat("<tool_call><tool></tools><function_call>{[\"'`", 20000),
		"unclosed strings":   strings.Repeat("<tool_call>{\"", 20000),
		"orphan closes":      strings.Repeat("{ </tool_call>", 20000),
		"deep arguments":     `<tool_call>{"name": "a", "arguments": ` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}</tool_call>`,
		"deep object":        strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000),
		"binary":             "\x00\xff\xfe<tool_call>\x00{\x80\"name\x00",
		"invalid utf-8 call": "<tool_call>{\"name\": \"a\", \"arguments\": {\"t\": \"\xff\xfe\"}}</tool_call>",
		"NULs":               strings.Repeat("\x00", 100000),
	}
	for name, in := range inputs {
		res := dialects.Parse(hermes.Dialect, in, nil)
		if len(res.Calls) > 0 && name != "invalid utf-8 call" {
			t.Errorf("%s: %d calls invented", name, len(res.Calls))
		}
	}
}

func checkCalls(t *testing.T, res *toolcall.Result, want []call) {
	t.Helper()
	if len(res.Calls) != len(want) {
		t.Fatalf("got %d calls %+v (errors %v), want %d", len(res.Calls), res.Calls, res.Errors, len(want))
	}
	for i, w := range want {
		got := res.Calls[i]
		if got.Name != w.name {
			t.Errorf("call %d: name %q, want %q", i, got.Name, w.name)
		}
		if !sameJSON(got.Arguments, []byte(w.args)) {
			t.Errorf("call %d: arguments %s, want %s", i, got.Arguments, w.args)
		}
		if got.ID == "" {
			t.Errorf("call %d: no id", i)
		}
	}
}

func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}

func toolSet(t testing.TB, js string) *schema.Set {
	t.Helper()
	tools, err := toolcall.ParseTools([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	set, err := schema.NewSet(tools...)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// TestManyTagsInOneArgumentString: an argument string holding many opening
// tags is read as one call with the tags as its text (the value is measured
// once for all of them, not once per tag).
func TestManyTagsInOneArgumentString(t *testing.T) {
	inner := strings.Repeat("<tool_call> ", 20000)
	text := `<tool_call>{"name": "write_file", "arguments": {"content": "` + inner + `"}}</tool_call>`
	ext := hermes.Dialect.Extract(text, &dialects.Options{})
	if len(ext.Calls) != 1 || ext.Calls[0].Err != nil || ext.Calls[0].Name != "write_file" {
		t.Fatalf("got %d calls (%+v), want the one write_file call", len(ext.Calls), ext.Calls)
	}
}
