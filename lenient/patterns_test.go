package lenient

import (
	"testing"

	"github.com/dialectkit/toolcall"
)

// patternCase is an input of a shape that lost or changed content, the
// value it must become, and the repairs that must be reported (risky
// names the kinds that must be marked Risky).
type patternCase struct {
	name  string
	in    string
	want  string
	kinds []toolcall.RepairKind
	risky []toolcall.RepairKind
}

var patternCases = []patternCase{
	// Unicode spaces outside strings are whitespace.
	{"ideographic space before a value", "{\"city\":\u3000\"Kyoto\", \"days\": 2}", `{"city":"Kyoto","days":2}`, nil, nil},
	{"em space and thin space", "{\"q\":\u2003\"x y\",\u2009\"n\":\u20091}", `{"q":"x y","n":1}`, nil, nil},
	{"zero-width space before a key", "{\u200b\"a\": [1,\u200b2]}", `{"a":[1,2]}`, nil, nil},
	{"no-break and narrow no-break spaces", "[\u00a01,\u202f2\u205f,\u180e3\u3000]", `[1,2,3]`, nil, nil},
	{"unicode space ends a literal", "{\"ok\": true\u2002, \"v\": null\u3000}", `{"ok":true,"v":null}`, nil, nil},
	{"unicode space inside a string is content", "{\"a\": \"x\u3000y\u00a0\",}", "{\"a\":\"x\u3000y\u00a0\"}", kinds(toolcall.RepairTrailingComma), nil},
	{"unicode space around an unquoted key", "{\u3000path\u2003: 'a.txt'}", `{"path":"a.txt"}`, kinds(toolcall.RepairUnquotedKey), nil},

	// Leading zeros keep their digits as a string.
	{"zip code", `{"zip": 02134, "n": 1,}`, `{"zip":"02134","n":1}`, kinds(toolcall.RepairNumberFormat), kinds(toolcall.RepairNumberFormat)},
	{"agent number in an array", `[007]`, `["007"]`, kinds(toolcall.RepairNumberFormat), kinds(toolcall.RepairNumberFormat)},
	{"negative and fractional leading zeros", `{"a": -007, "b": 00.5}`, `{"a":"-007","b":"00.5"}`, kinds(toolcall.RepairNumberFormat), kinds(toolcall.RepairNumberFormat)},
	{"zero forms that are numbers", `{"a": -0, "b": 0.5, "c": 0e1, "d": 0,}`, `{"a":-0,"b":0.5,"c":0e1,"d":0}`, kinds(toolcall.RepairTrailingComma), nil},
	{"leading zero in a Python literal", `{'id': 0042, 's': '''x'''}`, `{"id":"0042","s":"x"}`, kinds(toolcall.RepairNumberFormat), kinds(toolcall.RepairNumberFormat)},

	// A number directly followed by an opener; exponents with no digits.
	{"number then object", `[1{"a": 2}]`, `[1,{"a":2}]`, kinds(toolcall.RepairMissingComma), nil},
	{"number then array", `[3.5[4], 5]`, `[3.5,[4],5]`, kinds(toolcall.RepairMissingComma), nil},
	{"empty exponent before a bracket", `{"a": [2e], "b": 3E+}`, `{"a":[2],"b":3}`, kinds(toolcall.RepairNumberFormat), nil},
	{"empty exponent before a paren closer", `{"a": (1, 4e)}`, `{"a":[1,4]}`, kinds(toolcall.RepairNumberFormat), nil},
	{"exponent cut off by the end", `[1, 2.5e-`, `[1,2.5]`, kinds(toolcall.RepairTruncatedValue), nil},

	// Escapes.
	{"cut unicode escape", `{"a": "caf\u00`, `{"a":"caf"}`, kinds(toolcall.RepairTruncatedString), nil},
	{"cut unicode escape right after the u", `["x\u`, `["x"]`, kinds(toolcall.RepairTruncatedString), nil},
	{"cut escape keeps the other escapes", `{"a": "tab\there\u4`, `{"a":"tab\there"}`, kinds(toolcall.RepairTruncatedString), nil},
	{"cut lone backslash", `{"a": "dir\`, `{"a":"dir"}`, kinds(toolcall.RepairTruncatedString), nil},
	{"escaped backslash before the cut stays", `{"a": "C:\\`, `{"a":"C:\\"}`, kinds(toolcall.RepairTruncatedString), nil},
	{"backslash newline keeps the newline", "{\"a\": \"line one\\\nline two\"}", `{"a":"line one\nline two"}`, kinds(toolcall.RepairJSON5), nil},
	{"backslash CRLF keeps the line break", "{'a': 'x\\\r\ny',}", `{"a":"x\r\ny"}`, kinds(toolcall.RepairJSON5), nil},
	{"escaped document with nested escapes", `{\"cmd\": \"echo \\"hi\\"\", \"n\": 1}`, `{"cmd": "echo \"hi\"", "n": 1}`, kinds(toolcall.RepairDoubleEncoded), nil},
	{"escaped document with careful nested escapes", `[\"say \\\"yes\\\"\", \"a\\\\b\"]`, `["say \"yes\"", "a\\b"]`, kinds(toolcall.RepairDoubleEncoded), nil},

	// Newlines at the end of a string.
	{"closed string keeps its trailing newline", "{\"path\": \"a.txt\", \"content\": \"hello\n\",}", `{"path":"a.txt","content":"hello\n"}`, kinds(toolcall.RepairControlCharacter), nil},
	{"closed string keeps trailing blank lines", "{\"content\": \"x\n\n\"}", `{"content":"x\n\n"}`, kinds(toolcall.RepairControlCharacter), nil},
	{"truncated path drops the final newline", "{\"path\": \"notes/todo.txt\n", `{"path":"notes/todo.txt"}`, kinds(toolcall.RepairTruncatedString), nil},
	{"truncated path drops a final CRLF", "{\"path\": \"notes/todo.txt\r\n", `{"path":"notes/todo.txt"}`, kinds(toolcall.RepairTruncatedString), nil},
	{"truncated text drops only the last newline", "{\"text\": \"a\n\nb\n\n", `{"text":"a\n\nb\n"}`, kinds(toolcall.RepairTruncatedString), nil},
	{"key keeps no trailing newline", "{\"name\n\": \"x\"}", `{"name":"x"}`, kinds(toolcall.RepairControlCharacter), nil},

	// Missing quotes and commas.
	{"string then newline and a bare key", "{\"a\": \"x\"\nb: 2}", `{"a":"x","b":2}`, kinds(toolcall.RepairMissingComma, toolcall.RepairUnquotedKey), nil},
	{"string then a bare key on the line", `{"path": "a.txt" mode: "w"}`, `{"path":"a.txt","mode":"w"}`, kinds(toolcall.RepairMissingComma), nil},
	{"string, comment, bare key", "{\"a\": \"x\" // first\n  b: 2}", `{"a":"x","b":2}`, kinds(toolcall.RepairMissingComma, toolcall.RepairComment), nil},
	{"string, hash comment, quoted key", "{\"a\": \"x\"\n# note\n\"b\": 2}", `{"a":"x","b":2}`, kinds(toolcall.RepairMissingComma, toolcall.RepairComment), nil},
	{"element missing its closing quote", `["red, "green", "blue"]`, `["red","green","blue"]`, kinds(toolcall.RepairMissingQuote), nil},
	{"element missing its closing quote across lines", "[\n  \"red,\n  \"green\"\n]", `["red","green"]`, kinds(toolcall.RepairMissingQuote), nil},
	{"two elements missing closing quotes", `{"tags": ["a, "b, "c"], "n": 1}`, `{"tags":["a","b","c"],"n":1}`, kinds(toolcall.RepairMissingQuote), nil},
	{"inner quotes in an element stay text", `["He said, "hi" twice"]`, `["He said, \"hi\" twice"]`, kinds(toolcall.RepairUnescapedQuotes), nil},
	{"inner quotes then words with a colon stay text", `{"a": "He said "hi" to me: ok"}`, `{"a":"He said \"hi\" to me: ok"}`, kinds(toolcall.RepairUnescapedQuotes), nil},

	// Structure.
	{"missing brace before the next object", `[{"id": 1, {"id": 2}]`, `[{"id":1},{"id":2}]`, kinds(toolcall.RepairMissingClosingBrace), nil},
	{"missing brace before the next object, no comma", "[{\"id\": 1\n {\"id\": 2}, {\"id\": 3}]", `[{"id":1},{"id":2},{"id":3}]`, kinds(toolcall.RepairMissingClosingBrace), nil},
	{"missing brace in a nested array", `{"rows": [{"a": "x", {"a": "y"}], "n": 2}`, `{"rows":[{"a":"x"},{"a":"y"}],"n":2}`, kinds(toolcall.RepairMissingClosingBrace), nil},
	{"doubled braces", `{{"city": "Oslo"}}`, `{"city":"Oslo"}`, kinds(toolcall.RepairStrayText), nil},
	{"doubled braces nested", `{"q": {{"a": 1, "b": [2]}}, "r": 3}`, `{"q":{"a":1,"b":[2]},"r":3}`, kinds(toolcall.RepairStrayText), nil},
	{"doubled braces in an array", `[{{"a": 1}}, {"b": 2}]`, `[{"a":1},{"b":2}]`, kinds(toolcall.RepairStrayText), nil},
	{"missing colon before a number, no space", `{"a"2, "b"-3.5}`, `{"a":2,"b":-3.5}`, kinds(toolcall.RepairMissingColon), nil},
	{"missing colon before a container, no space", `{"a"[1], "b"{"c": true}}`, `{"a":[1],"b":{"c":true}}`, kinds(toolcall.RepairMissingColon), nil},
	{"array missing its closer before the next member", "{\"tags\": [\"a\", \"b\"\n\"path\": \"x.txt\"}", `{"tags":["a","b"],"path":"x.txt"}`, kinds(toolcall.RepairMissingClosingBracket), nil},
	{"array of numbers missing its closer before the next member", "{\"ids\": [1, 2 \"n\": 3}", `{"ids":[1,2],"n":3}`, kinds(toolcall.RepairMissingClosingBracket), nil},
	{"array keeps a string element that is followed by a comma", `{"a": ["x" "y"], "b": 1}`, `{"a":["x","y"],"b":1}`, kinds(toolcall.RepairMissingComma), nil},
	{"prose after a value whose object was never closed", "{\"key\": \"value\"\n\nHope this helps!", `{"key":"value"}`, kinds(toolcall.RepairSurroundingText, toolcall.RepairMissingClosingBrace), nil},
	{"prose after a nested value never closed", "{\"a\": {\"b\": \"c\"\nthat is all", `{"a":{"b":"c"}}`, kinds(toolcall.RepairSurroundingText, toolcall.RepairMissingClosingBrace), nil},
	{"a quote later in the text keeps the string open", "{\"text\": \"say \"\nit's \"fine", "{\"text\":\"say \\\"\\nit's \\\"fine\"}", kinds(toolcall.RepairTruncatedString), nil},
	{"equals sign after a quoted key", `{"path"="a.txt", "n" = 2}`, `{"path":"a.txt","n":2}`, kinds(toolcall.RepairMissingColon), nil},
	{"equals sign inside a key stays", `{"a=b": 1,}`, `{"a=b":1}`, nil, nil},
	{"wrong closer ending the input after a string", `{"a": "b"]`, `{"a":"b"}`, kinds(toolcall.RepairExtraClosing), nil},
	{"wrong closer ending the input after nested strings", `{"a": {"b": "c"]`, `{"a":{"b":"c"}}`, nil, nil},
	{"wrong closer inside the text stays text", `{"a": "see ] here", "b": 1,}`, `{"a":"see ] here","b":1}`, nil, nil},
	{"comparison in a value stays text", `{"expr": "x == 1", "op" : "=>",}`, `{"expr":"x == 1","op":"=>"}`, nil, nil},
	{"ellipsis as the last member", `{"a": 1, "b": 2, ...}`, `{"a":1,"b":2}`, kinds(toolcall.RepairStrayText), nil},
	{"ellipsis as the whole body", `{"config": {...}, "n": 1}`, `{"config":{},"n":1}`, kinds(toolcall.RepairStrayText), nil},
	{"ellipsis between members", "{\"a\": 1,\n  …,\n  \"z\": 26}", `{"a":1,"z":26}`, kinds(toolcall.RepairStrayText), nil},
	{"fence inside an array", "[\n```json\n{\"a\": 1}\n```\n]", `[{"a":1}]`, kinds(toolcall.RepairCodeFence), nil},
	{"fence inside an object", "{\n```json\n\"path\": \"a.txt\"\n```\n}", `{"path":"a.txt"}`, kinds(toolcall.RepairCodeFence), nil},
	{"fence around a member value", "{\"a\": ```json\n[1, 2]\n```, \"b\": 3}", `{"a":[1,2],"b":3}`, kinds(toolcall.RepairCodeFence), nil},
	{"fence closing a document still ends it", "```json\n{\"a\": 1\n```\nHope this helps", `{"a":1}`, kinds(toolcall.RepairMissingClosingBrace), nil},

	// JavaScript and Python spellings.
	{"undefined is null", `{"a": undefined, "b": [1, undefined]}`, `{"a":null,"b":[1,null]}`, kinds(toolcall.RepairPythonLiteral), nil},
	{"NaN is null", `{"ratio": NaN}`, `{"ratio":null}`, kinds(toolcall.RepairNumberFormat), kinds(toolcall.RepairNumberFormat)},
	{"signed infinities are null", `[Infinity, -Infinity, +Infinity, 1]`, `[null,null,null,1]`, kinds(toolcall.RepairNumberFormat), kinds(toolcall.RepairNumberFormat)},
	{"words that start like NaN stay text", `{"a": NaNa, "b": Infinityx}`, `{"a":"NaNa","b":"Infinityx"}`, kinds(toolcall.RepairUnquotedString), nil},
	{"strings joined with plus across lines", "{\"text\": \"first line, \" +\n  \"second line\", \"n\": 1}", `{"text":"first line, second line","n":1}`, kinds(toolcall.RepairPythonLiteral), nil},
	{"plus cut off by the end of the input", `{"a": "x" +`, `{"a":"x"}`, kinds(toolcall.RepairTruncatedValue), nil},
	{"three strings joined with plus", `["a" + 'b' + "c", "d"]`, `["abc","d"]`, kinds(toolcall.RepairPythonLiteral), nil},
	{"plus between inner quotes stays text", `{"code": "print("a" + "b")"}`, `{"code":"print(\"a\" + \"b\")"}`, kinds(toolcall.RepairUnescapedQuotes), nil},
	{"backtick quoted keys", "{`path`: \"a.txt\", `mode`: `w`}", `{"path":"a.txt","mode":"w"}`, kinds(toolcall.RepairSmartQuotes), nil},
	{"acute accent quoted keys", "{\u00b4name\u00b4: \u00b4Ann\u00b4}", `{"name":"Ann"}`, kinds(toolcall.RepairSmartQuotes), nil},
	{"backticks inside a string stay text", "{\"cmd\": \"run `ls` now\",}", "{\"cmd\":\"run `ls` now\"}", kinds(toolcall.RepairTrailingComma), nil},
	{"backticks inside unquoted text stay text", "{\"cmd\": run `ls` now}", "{\"cmd\":\"run `ls` now\"}", kinds(toolcall.RepairUnquotedString), nil},
}

func TestRepairPatterns(t *testing.T) {
	for _, tc := range patternCases {
		t.Run(tc.name, func(t *testing.T) {
			res := RepairString(tc.in, nil)
			if res.Err != nil {
				t.Fatalf("error: %v", res.Err)
			}
			if string(res.Output) != tc.want {
				t.Errorf("output %s, want %s", res.Output, tc.want)
			}
			if !Valid(res.Output) {
				t.Errorf("invalid output")
			}
			got := map[toolcall.RepairKind]bool{}
			risky := map[toolcall.RepairKind]bool{}
			for _, r := range res.Repairs {
				got[r.Kind] = true
				if r.Risky {
					risky[r.Kind] = true
				}
			}
			for _, k := range tc.kinds {
				if !got[k] {
					t.Errorf("repairs %v lack %s", res.Repairs, k)
				}
			}
			for _, k := range tc.risky {
				if !risky[k] {
					t.Errorf("repairs %v: %s not marked risky", res.Repairs, k)
				}
			}
			again := Repair(res.Output, nil)
			if again.Attempted || string(again.Output) != string(res.Output) {
				t.Errorf("not idempotent: %s", again.Output)
			}
		})
	}
}

// TestTopLevelScalarsStayErrors: a bare word, a backtick-quoted word, a
// non-finite number or several lines of scalars are not tool arguments.
func TestTopLevelScalarsStayErrors(t *testing.T) {
	for _, in := range []string{"hello", "`hello`", "NaN", "-Infinity", "\u00b4x\u00b4"} {
		if res := RepairString(in, nil); res.Err == nil {
			t.Errorf("%q: repaired to %s, want an error", in, res.Output)
		}
	}
}
