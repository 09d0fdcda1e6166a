package lenient

import (
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/coded"
)

// candidateCases: text holding several candidate values gives the values
// it holds, or a coded error; never fewer values as a success.
var candidateCases = []struct {
	name string
	in   string
	want string // "" when a TLP-003 error is wanted
}{
	{"the second value holds a triple-quoted string", "Here are two: {\"a\": 1} and {\"code\": \"\"\"def f():\n    return 1\"\"\", \"n\": 2}",
		`[{"a":1},{"code":"def f():\n    return 1","n":2}]`},
	{"the first value holds a triple-quoted string", "First {\"code\": '''x = \"y\"'''} then {\"b\": 2}", `[{"code":"x = \"y\""},{"b":2}]`},
	{"a triple-quoted string ending in a quote of its own", `{"code": """say "hi\"""""}`, `{"code":"say \"hi\"\""}`},
	{"triple quotes joined to a string", `{"a": """x""" + "y"}`, `{"a":"xy"}`},
	{"an unreadable value after a value", `Here: {"a": 1} and {"b": [1, }`, ""},
	{"an unreadable value before a value", `Here: {"a": [1, } and {"b": 1}`, ""},
	{"a value needing a guess after prose", `Here: {"a": 1} and then {"b": "x" "c": 2}`, ""},
	{"an unreadable array of objects after a value", `Use {"a": 1} or [{"b": <x>}]`, ""},
	{"prose braces after a value are prose", `Here: {"a": 1} and see {the docs}`, `{"a":1}`},
	{"a lone value among prose", `Call it with {"a": 1, "b": [1,]} please.`, `{"a":1,"b":[1]}`},
}

func TestSeveralCandidates(t *testing.T) {
	for _, tc := range candidateCases {
		t.Run(tc.name, func(t *testing.T) {
			res := RepairString(tc.in, nil)
			if tc.want == "" {
				if res.Err == nil || coded.Code(res.Err) != toolcall.CodeRepairFailed {
					t.Fatalf("%q: %s %v, want TLP-003", tc.in, res.Output, res.Err)
				}
				return
			}
			if res.Err != nil {
				t.Fatalf("%q: %v", tc.in, res.Err)
			}
			if !sameJSON(res.Output, []byte(tc.want)) {
				t.Errorf("%q: output %s, want %s", tc.in, res.Output, tc.want)
			}
		})
	}
}

// TestPlaceholderIsNoValue: a template's slot where data should be is an
// error, not an argument.
func TestPlaceholderIsNoValue(t *testing.T) {
	for _, in := range []string{
		`{"path": "a.txt" "content" = <<<binary>>>}`,
		`{"path": <path>}`,
		`[<file>, 2]`,
		`{"key": <your api key here>, "n": 1}`,
		"Here: {\"data\": <<<binary>>>}",
	} {
		res := RepairString(in, nil)
		if res.Err == nil || coded.Code(res.Err) != toolcall.CodeRepairFailed {
			t.Errorf("%q: %s %v, want TLP-003", in, res.Output, res.Err)
		}
	}
	// Angle brackets inside a value are its text; in quotes they are data.
	for in, want := range map[string]string{
		`{"a": a<b>}`:            `{"a":"a<b>"}`,
		`{"a": "<<<binary>>>"}`:  `{"a":"<<<binary>>>"}`,
		`{"tag": '<b>', "n": 1}`: `{"tag":"<b>","n":1}`,
	} {
		res := RepairString(in, nil)
		if res.Err != nil || !sameJSON(res.Output, []byte(want)) {
			t.Errorf("%q: %s %v, want %s", in, res.Output, res.Err, want)
		}
	}
}
