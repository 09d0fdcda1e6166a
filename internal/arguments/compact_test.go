package arguments

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// Compact agrees with encoding/json.Compact on valid JSON, and returns
// text without layout as it is.
func TestCompactAgreesWithEncodingJSON(t *testing.T) {
	for _, in := range []string{
		`{}`, `{"a": 1}`, "{\n\t\"a\" : [1, 2 ,3],\r\n \"b\": \"x y\\\" z\" }",
		`{"s": "a\\\\", "t" : "\\\\\" \\\\"}`, `{"a":{"b":[{"c":null}, true , false]}}`,
		`{"k": "  spaces   inside  ", "n": -1.5e+3 }`, `{"é": "日本 語"}`, `{"a":"\\\"}"}`,
	} {
		var want bytes.Buffer
		if err := json.Compact(&want, []byte(in)); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if got := Compact([]byte(in)); string(got) != want.String() {
			t.Errorf("Compact(%s) = %s, want %s", in, got, want.String())
		}
	}
	already := []byte(`{"a":"x y","b":[1,2]}`)
	if got := Compact(already); &got[0] != &already[0] {
		t.Error("text without layout was copied")
	}
}

func FuzzCompact(f *testing.F) {
	for _, s := range []string{`{"a": 1}`, "[ \"x\\\" y\" , {\"b\" :\n2} ]", `"a b"`, `1`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var want bytes.Buffer
		if json.Compact(&want, []byte(in)) != nil {
			return
		}
		if got := Compact([]byte(in)); string(got) != want.String() {
			t.Fatalf("Compact(%q) = %q, want %q", in, got, want.String())
		}
	})
}

func TestWithinDepth(t *testing.T) {
	deep := strings.Repeat("[", 65) + strings.Repeat("]", 65)
	for _, c := range []struct {
		text  string
		limit int
		want  bool
	}{
		{`{"a":[1]}`, 0, true},
		{`{"a":"` + strings.Repeat("{[", 100) + `"}`, 0, true},
		{`{"a":` + deep + `}`, 0, false},
		{`{"a":` + deep + `}`, 100, true},
		{`{"a":` + deep + `}`, -1, true},
		{`{"a":"\"{{{{","b":` + deep + `}`, 0, false},
	} {
		if got := withinDepth(c.text, c.limit); got != c.want {
			t.Errorf("withinDepth(%.40q, %d) = %v", c.text, c.limit, got)
		}
	}
}
