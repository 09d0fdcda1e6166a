package lenient

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/coded"
)

func TestValidJSONPassesThroughByteForByte(t *testing.T) {
	for _, in := range []string{
		`{}`, `[]`, `0`, `-1.5e+10`, `true`, `null`, `"plain string"`,
		`{"a":1}`,
		"  {\n\t\"path\" : \"test.txt\" ,\n\t\"n\": [1, 2.50, -0]\n}\n\n",
		`{"unicode": "é 😀 \u00e9 \ud83d\ude00", "esc": "\"\\\/\b\f\n\r\t"}`,
		`{"b": 1, "a": {"b": 2}, "c": [{"b": 3}, {"b": 4}]}`,
		`"{not json inside}"`,
		`"[1, 2"`,
	} {
		input := []byte(in)
		res := Repair(input, nil)
		if res.Err != nil || res.Attempted || res.Repairs != nil {
			t.Errorf("%q: err=%v attempted=%v repairs=%v", in, res.Err, res.Attempted, res.Repairs)
			continue
		}
		if !bytes.Equal(res.Output, input) {
			t.Errorf("%q: output %q", in, res.Output)
		}
		if &res.Output[0] != &input[0] || &res.Original[0] != &input[0] {
			t.Errorf("%q: output is a copy", in)
		}
	}
}

// repairCase is one input, the JSON it must become and the repair kinds
// that must be reported.
type repairCase struct {
	name  string
	in    string
	want  string
	kinds []toolcall.RepairKind
}

var repairCases = []repairCase{
	// The cases.
	{"trailing comma", `{"path": "test.txt",}`, `{"path":"test.txt"}`, kinds(toolcall.RepairTrailingComma)},
	{"single quotes", `{'path': 'test.txt'}`, `{"path":"test.txt"}`, kinds(toolcall.RepairSingleQuotes)},
	{"unquoted key, single quotes, trailing comma", `{path: 'test.txt',}`, `{"path":"test.txt"}`,
		kinds(toolcall.RepairUnquotedKey, toolcall.RepairSingleQuotes, toolcall.RepairTrailingComma)},
	{"missing closing braces", `{"outer": {"inner": {"deep": "value"}`, `{"outer":{"inner":{"deep":"value"}}}`,
		kinds(toolcall.RepairMissingClosingBrace)},
	{"unescaped inner quotes", `{"message": "He said "hello" to me"}`, `{"message":"He said \"hello\" to me"}`,
		kinds(toolcall.RepairUnescapedQuotes)},
	{"truncated content keeps every character", "{\"content\": \"line one\nline tw", `{"content":"line one\nline tw"}`,
		kinds(toolcall.RepairTruncatedString, toolcall.RepairControlCharacter, toolcall.RepairMissingClosingBrace)},

	// Structure.
	{"missing closing bracket", `{"a": [1, 2`, `{"a":[1,2]}`, kinds(toolcall.RepairMissingClosingBracket, toolcall.RepairMissingClosingBrace)},
	{"closers in nesting order", `{"a": [{"b": [1, {"c": 2`, `{"a":[{"b":[1,{"c":2}]}]}`, kinds(toolcall.RepairMissingClosingBrace, toolcall.RepairMissingClosingBracket)},
	{"array closer stands for the object's", `{"a": [{"b": 1], "c": 2}`, `{"a":[{"b":1}],"c":2}`, kinds(toolcall.RepairMissingClosingBrace)},
	{"brace typed for a bracket", `{"a": ["x", "y"}, "b": 1}`, `{"a":["x","y"],"b":1}`, kinds(toolcall.RepairMismatchedBracket)},
	{"extra closer", `[{"a": 1}}, {"b": 2}]`, `[{"a":1},{"b":2}]`, kinds(toolcall.RepairExtraClosing)},
	{"object closed too early", `{"a": 1}, "b": 2}`, `{"a":1,"b":2}`, kinds(toolcall.RepairExtraClosing)},
	{"empty object closed too early", `{}, "b": 2}`, `{"b":2}`, kinds(toolcall.RepairExtraClosing)},
	{"array going on past its closer", `{"a": [1], [2, 3], "b": 4}`, `{"a":[1,2,3],"b":4}`, kinds(toolcall.RepairExtraClosing)},
	{"missing comma", `{"a": 1 "b": 2}`, `{"a":1,"b":2}`, kinds(toolcall.RepairMissingComma)},
	{"missing commas in an array", `["a" "b" 3]`, `["a","b",3]`, kinds(toolcall.RepairMissingComma)},
	{"missing colon", `{"a" 1, "b" "x"}`, `{"a":1,"b":"x"}`, kinds(toolcall.RepairMissingColon)},
	{"equals for a colon", `{a=1}`, `{"a":1}`, kinds(toolcall.RepairMissingColon, toolcall.RepairUnquotedKey)},
	{"missing value", `{"a": , "b": 2}`, `{"a":"","b":2}`, kinds(toolcall.RepairMissingValue)},
	{"object missing its brace in an array", `["k": "v", "l": 1]`, `[{"k":"v","l":1}]`, kinds(toolcall.RepairMissingOpeningBrace)},
	{"object missing its brace at the top", `"k": "v", "l": 1`, `{"k":"v","l":1}`, kinds(toolcall.RepairMissingOpeningBrace)},
	{"doubled comma", `[1,, 2]`, `[1,2]`, kinds(toolcall.RepairStrayText)},
	{"ellipsis", `[1, 2, ...]`, `[1,2]`, kinds(toolcall.RepairStrayText)},
	{"stray word before a key", `{"a": 1, NOTE "b": 2}`, `{"a":1,"b":2}`, kinds(toolcall.RepairStrayText)},
	{"concatenated values", `{"a": 1}{"b": 2}`, `[{"a":1},{"b":2}]`, kinds(toolcall.RepairConcatenated)},
	{"newline-delimited values", "{\"a\": 1}\n{\"b\": 2}\n", `[{"a":1},{"b":2}]`, kinds(toolcall.RepairConcatenated)},

	// Strings.
	{"raw newline and tab", "{\"a\": \"x\ny\tz\", \"b\": 1,}", `{"a":"x\ny\tz","b":1}`, kinds(toolcall.RepairControlCharacter)},
	{"windows path keeps its backslashes", `{"path": "C:\Users\new"}`, `{"path":"C:\\Users\\new"}`, kinds(toolcall.RepairInvalidEscape)},
	{"windows path in single quotes", `{'path': 'C:\Users\new'}`, `{"path":"C:\\Users\\new"}`, kinds(toolcall.RepairInvalidEscape, toolcall.RepairSingleQuotes)},
	{"invalid escape", `{"a": "\d+ and \q",}`, `{"a":"\\d+ and \\q"}`, kinds(toolcall.RepairInvalidEscape)},
	{"escaped apostrophe", `{"a": "it\'s",}`, `{"a":"it's"}`, kinds(toolcall.RepairInvalidEscape)},
	{"hex escape", `{"a": "\x41"}`, `{"a":"\u0041"}`, kinds(toolcall.RepairInvalidEscape)},
	{"string missing its closing quote", `{"a": "x, "b": 1}`, `{"a":"x","b":1}`, kinds(toolcall.RepairMissingQuote)},
	{"string missing its opening quote", `{"a": x", "b": 1}`, `{"a":"x","b":1}`, kinds(toolcall.RepairMissingQuote, toolcall.RepairUnquotedString)},
	{"unterminated string before the closer", `{"a": "value}`, `{"a":"value"}`, kinds(toolcall.RepairMissingQuote)},
	{"doubled quotes", `{""a"": ""b""}`, `{"a":"b"}`, kinds(toolcall.RepairStrayText)},
	{"inner quotes around braces", `{"a": "see {"k": 1} here", "b": 2}`, `{"a":"see {\"k\": 1} here","b":2}`, kinds(toolcall.RepairUnescapedQuotes)},
	{"apostrophe in a single-quoted string", `{'a': 'it's'}`, `{"a":"it's"}`, kinds(toolcall.RepairUnescapedQuotes, toolcall.RepairSingleQuotes)},
	{"smart quotes", `{“a”: “b”}`, `{"a":"b"}`, kinds(toolcall.RepairSmartQuotes)},
	{"unquoted string", `{"a": hello world}`, `{"a":"hello world"}`, kinds(toolcall.RepairUnquotedString)},
	{"invalid UTF-8", "{\"a\": \"x\xffy\",}", `{"a":"x\ufffdy"}`, kinds(toolcall.RepairInvalidUTF8)},
	{"empty key and string", `{"": "",}`, `{"":""}`, kinds(toolcall.RepairTrailingComma)},

	// Literals and numbers.
	{"python literals", `{"a": True, "b": False, "c": None}`, `{"a":true,"b":false,"c":null}`, kinds(toolcall.RepairPythonLiteral)},
	{"literals in any case", `{"a": TRUE, "b": Null,}`, `{"a":true,"b":null}`, kinds(toolcall.RepairPythonLiteral)},
	{"tuple", `{"a": (1, 2), "b": ()}`, `{"a":[1,2],"b":[]}`, kinds(toolcall.RepairPythonLiteral)},
	{"parenthesised scalar", `{"a": (1)}`, `{"a":1}`, kinds(toolcall.RepairPythonLiteral)},
	{"triple quotes", `{'a': '''x'y'''}`, `{"a":"x'y"}`, kinds(toolcall.RepairPythonLiteral)},
	{"truncated true", `[tru`, `[true]`, kinds(toolcall.RepairTruncatedValue)},
	{"truncated null", `{"a": nul`, `{"a":null}`, kinds(toolcall.RepairTruncatedValue)},
	{"truncated minus", `[1, -`, `[1]`, kinds(toolcall.RepairTruncatedValue)},
	{"truncated fraction", `{"a": 1.`, `{"a":1.0}`, kinds(toolcall.RepairNumberFormat)},
	{"truncated exponent", `{"a": 1e`, `{"a":1}`, kinds(toolcall.RepairTruncatedValue)},
	{"empty exponent", `{"a": 1e}`, `{"a":1}`, kinds(toolcall.RepairNumberFormat)},
	{"number formats", `{"a": 0x1F, "b": +1, "c": .5, "d": 1_000, "e": 007,}`, `{"a":31,"b":1,"c":0.5,"d":1000,"e":"007"}`, kinds(toolcall.RepairNumberFormat)},
	{"number-like words stay text", `{"a": 1/3, "b": 10-20, "c": 2x,}`, `{"a":"1/3","b":"10-20","c":"2x"}`, kinds(toolcall.RepairUnquotedString)},
	{"infinity and NaN are null", `{"a": Infinity, "b": NaN,}`, `{"a":null,"b":null}`, kinds(toolcall.RepairNumberFormat)},

	// Comments.
	{"line comment", "{\"a\": 1, // note\n\"b\": 2}", `{"a":1,"b":2}`, kinds(toolcall.RepairComment)},
	{"block comment", `{"a": /* note */ 1}`, `{"a":1}`, kinds(toolcall.RepairComment)},
	{"hash comment", "{\"a\": 1 # note\n}", `{"a":1}`, kinds(toolcall.RepairComment)},
	{"comment on a one-line document", `{"a": {"b": 1 # note }, "c": 2}`, `{"a":{"b":1},"c":2}`, kinds(toolcall.RepairComment)},

	// Around the value.
	{"code fence", "```json\n{\"a\": 1}\n```", `{"a": 1}`, kinds(toolcall.RepairCodeFence)},
	{"prose and a fence", "Sure:\n```json\n{\"a\": 1,}\n```\nDone.", `{"a":1}`, kinds(toolcall.RepairCodeFence, toolcall.RepairSurroundingText, toolcall.RepairTrailingComma)},
	{"prose around valid JSON", "Here it is: {\"a\": [1, 2]} Hope that helps.", `{"a": [1, 2]}`, kinds(toolcall.RepairSurroundingText)},
	{"two fenced blocks", "```json\n{\"a\": 1}\n```\nand\n```json\n[2]\n```", `[{"a":1},[2]]`, kinds(toolcall.RepairCodeFence, toolcall.RepairConcatenated)},
	{"BOM", "\xef\xbb\xbf{\"a\": 1}", `{"a": 1}`, kinds(toolcall.RepairBOM)},
	{"double-encoded", `"{\"a\": 1}"`, `{"a": 1}`, kinds(toolcall.RepairDoubleEncoded)},
	{"double-encoded and broken", `"{'a': 1,}"`, `{"a":1}`, kinds(toolcall.RepairDoubleEncoded)},
	{"escaped document", `{\"a\": \"b\"}`, `{"a": "b"}`, kinds(toolcall.RepairDoubleEncoded)},

	// Combined.
	{"everything at once", "Result:\n```json\n{name: 'Ann', \"age\": 3_0, 'tags': ['a' 'b',], \"note\": \"she said \"hi\"\", ok: True, // done\n",
		`{"name":"Ann","age":30,"tags":["a","b"],"note":"she said \"hi\"","ok":true}`,
		kinds(toolcall.RepairCodeFence, toolcall.RepairSurroundingText, toolcall.RepairUnquotedKey, toolcall.RepairSingleQuotes,
			toolcall.RepairNumberFormat, toolcall.RepairMissingComma, toolcall.RepairTrailingComma, toolcall.RepairUnescapedQuotes,
			toolcall.RepairPythonLiteral, toolcall.RepairComment, toolcall.RepairMissingClosingBrace)},
}

func kinds(k ...toolcall.RepairKind) []toolcall.RepairKind { return k }

func TestRepair(t *testing.T) {
	for _, tc := range repairCases {
		t.Run(tc.name, func(t *testing.T) {
			res := RepairString(tc.in, nil)
			if res.Err != nil {
				t.Fatalf("error: %v", res.Err)
			}
			if string(res.Output) != tc.want {
				t.Errorf("output %s, want %s", res.Output, tc.want)
			}
			if !gjson.ValidBytes(res.Output) || !res.Attempted {
				t.Errorf("valid=%v attempted=%v", gjson.ValidBytes(res.Output), res.Attempted)
			}
			got := map[toolcall.RepairKind]bool{}
			for _, r := range res.Repairs {
				got[r.Kind] = true
				if r.CallIndex != -1 || r.Offset < -1 || r.Offset > len(tc.in) {
					t.Errorf("repair %v: bad call index or offset", r)
				}
			}
			for _, k := range tc.kinds {
				if !got[k] {
					t.Errorf("repairs %v lack %s", res.Repairs, k)
				}
			}
			if string(res.Original) != tc.in {
				t.Errorf("original %q", res.Original)
			}
		})
	}
}

// TestRepairIsIdempotent repairs each output again: it is valid JSON, so it
// comes back unchanged and without repairs.
func TestRepairIsIdempotent(t *testing.T) {
	for _, tc := range repairCases {
		first := RepairString(tc.in, nil)
		if first.Err != nil {
			continue
		}
		second := Repair(first.Output, nil)
		if second.Err != nil || !bytes.Equal(second.Output, first.Output) || second.Attempted || len(second.Repairs) > 0 {
			t.Errorf("%s: second repair changed %s into %s (%v)", tc.name, first.Output, second.Output, second.Repairs)
		}
	}
}

func TestRepairIsDeterministic(t *testing.T) {
	for _, tc := range repairCases {
		a, b := RepairString(tc.in, nil), RepairString(tc.in, nil)
		if !bytes.Equal(a.Output, b.Output) || !slices.Equal(a.Repairs, b.Repairs) {
			t.Errorf("%s: two runs differ", tc.name)
		}
	}
}

func TestRepairOffsets(t *testing.T) {
	for _, tc := range []struct {
		in   string
		kind toolcall.RepairKind
		at   string // the text the offset points at
	}{
		{`{"a": 1, "b": 2,}`, toolcall.RepairTrailingComma, ",}"},
		{`{"a": 1 "b": 2}`, toolcall.RepairMissingComma, `"b"`},
		{`{"a": 'x'}`, toolcall.RepairSingleQuotes, `'x'`},
		{`{a: 1, "b": 2,}`, toolcall.RepairUnquotedKey, `a:`},
		{`{"a": "He said "hi" ok"}`, toolcall.RepairUnescapedQuotes, `"hi"`},
		{`{"a": True, "b": [1, 2}`, toolcall.RepairPythonLiteral, `True`},
		{`{"a": [1, 2}`, toolcall.RepairMissingClosingBracket, `}`},
		{"Text {\"a\": 1,}", toolcall.RepairTrailingComma, ",}"},
		{`{"a": 1, /* c */ "b": 2,}`, toolcall.RepairComment, "/* c */"},
	} {
		res := RepairString(tc.in, nil)
		found := false
		for _, r := range res.Repairs {
			if r.Kind == tc.kind {
				found = true
				if r.Offset < 0 || !strings.HasPrefix(tc.in[r.Offset:], tc.at) {
					t.Errorf("%s: %s at %d, want at %q", tc.in, r.Kind, r.Offset, tc.at)
				}
				break
			}
		}
		if !found {
			t.Errorf("%s: no %s in %v", tc.in, tc.kind, res.Repairs)
		}
	}
}

// TestRefusals lists inputs that cannot be repaired without inventing
// structure or that are not JSON at all: each gets a coded error.
func TestRefusals(t *testing.T) {
	for _, in := range []string{
		"",
		"   ",
		"just some prose",
		"prose with {a} bracket",
		`{"a": 1, [2]}`,
		`{"a": {"b": 1}: 2}`,
		`["a": [1]: 2]`,
		`{"a": 1, {"b": 2}}`,
		`{"rows": [["a"], "b", "c"], ["d"]]}`,
		`{"key", "x" "y",`,
		"```json\n{invalid json}\n```",
		"\x00\x01\x02",
		"{\"a\": \x01}",
		`]`,
	} {
		res := RepairString(in, nil)
		if res.Err == nil {
			t.Errorf("%q: repaired to %s, want an error", in, res.Output)
			continue
		}
		if coded.Code(res.Err) != toolcall.CodeRepairFailed || res.Output != nil || !res.Attempted {
			t.Errorf("%q: %v (output %q)", in, res.Err, res.Output)
		}
		if !errors.Is(res.Err, toolcall.ErrRepairFailed) {
			t.Errorf("%q: error does not match ErrRepairFailed", in)
		}
	}
}

func TestErrorMessagesHoldNoValues(t *testing.T) {
	secret := "s3cr3t-value"
	for _, in := range []string{
		`{"a": {"b": "` + secret + `"}: 2}`,
		`{"a": 1, [` + secret + `]}`,
		`prose ` + secret,
		"\x00" + secret,
	} {
		res := RepairString(in, &Options{MaxDepth: 1})
		if res.Err == nil {
			t.Fatalf("%q: no error", in)
		}
		if strings.Contains(res.Err.Error(), secret) {
			t.Errorf("error message shows the input: %s", res.Err)
		}
	}
}

func TestLimits(t *testing.T) {
	deepValid := strings.Repeat("[", 70) + strings.Repeat("]", 70)
	deepBroken := strings.Repeat("[", 70)
	for _, tc := range []struct {
		name string
		in   string
		opts *Options
		code toolcall.Code
	}{
		{"valid JSON over the size limit", `{"a": 1}`, &Options{MaxSize: 4}, toolcall.CodeTooLarge},
		{"malformed over the size limit", `{"a": 1,}`, &Options{MaxSize: 8}, toolcall.CodeTooLarge},
		{"default size limit", `"` + strings.Repeat("x", DefaultMaxSize) + `"`, nil, toolcall.CodeTooLarge},
		{"valid JSON too deep", deepValid, nil, toolcall.CodeTooDeep},
		{"malformed too deep", deepBroken, nil, toolcall.CodeTooDeep},
		{"JSON5 too deep", strings.Repeat("[", 10) + "1," + strings.Repeat("]", 10), &Options{MaxDepth: 5}, toolcall.CodeTooDeep},
		{"prose then too deep", "Text: " + deepBroken, nil, toolcall.CodeTooDeep},
		{"time budget", `{"a": "` + strings.Repeat(`x "q" `, 100000), &Options{Timeout: time.Nanosecond}, toolcall.CodeRepairTimeout},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := RepairString(tc.in, tc.opts)
			if res.Err == nil || coded.Code(res.Err) != tc.code {
				t.Fatalf("err = %v, want %s", res.Err, tc.code)
			}
			if res.Output != nil {
				t.Errorf("output %q with an error", res.Output)
			}
		})
	}
	t.Run("limits off", func(t *testing.T) {
		res := RepairString(deepBroken+`"x`, &Options{MaxSize: -1, MaxDepth: -1, Timeout: -1})
		if res.Err != nil || !strings.HasPrefix(string(res.Output), "[[[") {
			t.Fatalf("%v %q", res.Err, res.Output)
		}
	})
	t.Run("depth at the limit", func(t *testing.T) {
		in := strings.Repeat("[", DefaultMaxDepth)
		if res := RepairString(in, nil); res.Err != nil {
			t.Fatalf("%v", res.Err)
		}
	})
}

// TestScannerDeadline checks the clock inside the scanner, not only
// between stages.
func TestScannerDeadline(t *testing.T) {
	in := []byte(`{"a": "` + strings.Repeat(`x "q" `, 10000))
	s := newScanner(in, 0, config{maxDepth: DefaultMaxDepth}, time.Now().Add(-time.Second))
	_, err, _ := s.run()
	if err == nil || err.Code != toolcall.CodeRepairTimeout || err.Offset < 0 {
		t.Fatalf("err = %v, want TLP-007 with an offset", err)
	}
}

func TestBinaryInput(t *testing.T) {
	for _, in := range []string{
		"\x00", "{\"a\": \"\x00\"}", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
		"{\x01\x02\x03}", "[\x7f]",
	} {
		res := RepairString(in, nil)
		if res.Err == nil {
			t.Errorf("%q: repaired to %q", in, res.Output)
		}
	}
}

// TestTruncationKeepsText cuts a document at every byte: whatever comes out
// is valid JSON, and a string the cut falls inside keeps all its text.
func TestTruncationKeepsText(t *testing.T) {
	doc := `{"path": "notes/today.md", "content": "Dear diary,\nit \"rained\".", "tags": ["a", "b"], "n": -12.5e3, "ok": true}`
	for i := 1; i < len(doc); i++ {
		res := RepairString(doc[:i], nil)
		if res.Err != nil {
			continue
		}
		if !gjson.ValidBytes(res.Output) {
			t.Fatalf("cut at %d: invalid %q", i, res.Output)
		}
		if i > len(`{"path": "notes/`) && i < len(`{"path": "notes/today.md`) {
			if got := gjson.GetBytes(res.Output, "path").String(); got != doc[len(`{"path": "`):i] {
				t.Errorf("cut at %d: path %q", i, got)
			}
		}
	}
}

func TestNestedDoubleEncoding(t *testing.T) {
	doc := `{"a": [1, "x"]}`
	for range 6 {
		b, _ := json.Marshal(doc)
		doc = string(b)
	}
	res := RepairString(doc, nil)
	if res.Err != nil || string(res.Output) != `{"a": [1, "x"]}` {
		t.Fatalf("%v %s", res.Err, res.Output)
	}
	if again := Repair(res.Output, nil); again.Attempted {
		t.Errorf("not idempotent")
	}
}
