package jsonscan

import "testing"

func TestStringEnd(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{`"abc"`, 4},
		{`"a\"b"`, 5},
		{`"a\\"b"`, 4},
		{`"a\\\"b"`, 7},
		{`""`, 1},
		{`"open`, 5},
		{`"ends with \"`, 13},
		{`"日本" tail`, 7},
	} {
		if got := StringEnd([]byte(tc.in), 0); got != tc.want {
			t.Errorf("StringEnd(%q) = %d, want %d", tc.in, got, tc.want)
		}
		if got := StringEndIn(tc.in, 0); got != tc.want {
			t.Errorf("StringEndIn(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

func TestWithoutRemovableSyntax(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"a": 1}`, `{"a": 1}`},
		{"{\"a\": 1, // the count\n\"b\": 2}", "{\"a\": 1,             \n\"b\": 2}"},
		{`{"a": 1 /* note */}`, `{"a": 1           }`},
		{"{\"a\": 1 # note\n}", "{\"a\": 1       \n}"},
		{"```json\n{}\n```", "       \n{}\n   "},
		{"x```qvg(", "x```qvg("},
		{"  ```py\n1", "       \n1"},
		{`{"u": "http://x.org/#top"}`, `{"u": "http://x.org/#top"}`},
		{`{'u': 'a // b'}`, `{'u': 'a // b'}`},
		{`{"s": "it's // kept"} // gone`, `{"s": "it's // kept"}        `},
	} {
		if got := string(WithoutRemovableSyntax([]byte(tc.in))); got != tc.want {
			t.Errorf("WithoutRemovableSyntax(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestEndsInString(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{`{"a": 1}`, false},
		{`{"a": "b`, true},
		{`{"a": "b\"`, true},
		{`{"a": "b\\"`, false},
		{`{"a`, true},
		{`{"a": "x", "b": "y`, true},
		{`{"a": "x", "b": 2`, false},
		{``, false},
	} {
		if got := EndsInString(tc.in); got != tc.want {
			t.Errorf("EndsInString(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
