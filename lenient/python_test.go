package lenient

import (
	"bytes"
	"slices"
	"testing"

	"github.com/dialectkit/toolcall"
)

func TestPythonLiteralToJSON(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		kinds    []toolcall.RepairKind
	}{
		{`{'a': True, 'b': None, 'c': False}`, `{"a":true,"b":null,"c":false}`, kinds(toolcall.RepairSingleQuotes, toolcall.RepairPythonLiteral)},
		{`(1, 2)`, `[1,2]`, kinds(toolcall.RepairPythonLiteral)},
		{`(1,)`, `[1]`, kinds(toolcall.RepairPythonLiteral)},
		{`(1)`, `1`, kinds(toolcall.RepairPythonLiteral)},
		{`("x")`, `"x"`, kinds(toolcall.RepairPythonLiteral)},
		{`()`, `[]`, kinds(toolcall.RepairPythonLiteral)},
		{`{"a": TRUE, "b": Null}`, `{"a":true,"b":null}`, kinds(toolcall.RepairPythonLiteral)},
		{`{a: b, c: 1}`, `{"a":"b","c":1}`, kinds(toolcall.RepairUnquotedKey, toolcall.RepairUnquotedString)},
		{`{"cmd": run(1, x=2)}`, `{"cmd":"run(1, x=2)"}`, kinds(toolcall.RepairUnquotedString)},
		{`'''multi
line'''`, `"multi\nline"`, kinds(toolcall.RepairPythonLiteral, toolcall.RepairSingleQuotes)},
		{`['''it\'''', '''a\'''b''']`, `["it'","a'''b"]`, kinds(toolcall.RepairPythonLiteral, toolcall.RepairSingleQuotes)}, // escaped quotes end no string (pystr.End)
		{"'one \\\ntwo'", `"one two"`, kinds(toolcall.RepairSingleQuotes)},
		{`{'path': 'C:\Users\new'}`, `{"path":"C:\\Users\\new"}`, kinds(toolcall.RepairSingleQuotes)},
		{`{'text': 'a\nb\x41'}`, `{"text":"a\nbA"}`, kinds(toolcall.RepairSingleQuotes)},
		{`[0x10, +1, .5]`, `[16,1,0.5]`, kinds(toolcall.RepairNumberFormat)},
	} {
		out, got, err := PythonLiteralToJSON(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if string(out) != tc.want {
			t.Errorf("%s: %s, want %s", tc.in, out, tc.want)
		}
		for _, k := range tc.kinds {
			if !slices.Contains(got, k) {
				t.Errorf("%s: kinds %v lack %s", tc.in, got, k)
			}
		}
	}
}

func TestParsePythonCalls(t *testing.T) {
	src := `[get_weather(city='Paris', days=3), tools.lookup("x", flag=True), noop()]`
	calls, _, err := ParsePythonCalls(src)
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 3 {
		t.Fatalf("%d calls", len(calls))
	}
	if calls[0].Name != "get_weather" || string(calls[0].Args[0].Value) != `"Paris"` || calls[0].Args[1].Key != "days" {
		t.Errorf("first call %+v", calls[0])
	}
	if calls[1].Name != "tools.lookup" || calls[1].Args[0].Key != "" || string(calls[1].Args[1].Value) != "true" {
		t.Errorf("second call %+v", calls[1])
	}
	if got := src[calls[2].Start:calls[2].End]; got != "noop()" {
		t.Errorf("third call spans %q", got)
	}
	nested, _, err := ParsePythonCalls(`f(x=g(1, 2))`)
	if err != nil || string(nested[0].Args[0].Value) != `"g(1, 2)"` {
		t.Errorf("nested call kept as %s (%v)", nested[0].Args[0].Value, err)
	}
}

func TestPythonErrors(t *testing.T) {
	_, _, err := ParsePythonCalls(`[f(a=1`)
	if err == nil || !IsIncomplete(err) {
		t.Errorf("truncated call: %v, incomplete=%v", err, IsIncomplete(err))
	}
	_, _, err = ParsePythonCalls(`[f(a='unterminated`)
	if err == nil || !IsIncomplete(err) {
		t.Errorf("unterminated string: %v", err)
	}
	_, _, err = ParsePythonCalls(`[f(a=1 b=2)]`)
	if err == nil || IsIncomplete(err) || ErrorOffset(err) != 7 {
		t.Errorf("invalid call: %v at %d", err, ErrorOffset(err))
	}
	if ErrorOffset(nil) != -1 {
		t.Error("ErrorOffset(nil) != -1")
	}
}

func TestWriteJSONString(t *testing.T) {
	var b bytes.Buffer
	WriteJSONString(&b, "a\"b\\c\n\t<&>\x01\xff é")
	if got, want := b.String(), `"a\"b\\c\n\t<&>\u0001\ufffd é"`; got != want {
		t.Errorf("%s, want %s", got, want)
	}
}
