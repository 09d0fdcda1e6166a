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
