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
		{"~~~json\n{}\n~~~", "       \n{}\n   "},
		{"````py\n1", "      \n1"},         // the whole run
		{"x ~~~ y", "x ~~~ y"},             // tildes inside a line are no fence
		{"```json-ld\n1", "          \n1"}, // the info word as a fence reads it
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

func TestEscaped(t *testing.T) {
	for _, tc := range []struct {
		in   string
		at   int
		want bool
	}{
		{`a"`, 1, false},
		{`a\"`, 2, true},
		{`a\\"`, 3, false},
		{`\\\"`, 3, true},
		{`"`, 0, false},
	} {
		if got := Escaped(tc.in, tc.at); got != tc.want {
			t.Errorf("Escaped(%q, %d) = %v, want %v", tc.in, tc.at, got, tc.want)
		}
	}
}

// A StringScan finds the closing quote StringEnd finds, however the text
// arrives, a cut inside a run of backslashes included.
func TestStringScan(t *testing.T) {
	for _, text := range []string{`"abc" x`, `"a\"b" x`, `"a\\" x`, `"a\\\"b\\\\" x`, `"open \\\`, `"日本\\" x`} {
		want := StringEndIn(text, 0)
		for cut := 1; cut <= len(text); cut++ {
			s := NewStringScan(0)
			end, closed := s.Next(text[:cut])
			if !closed {
				end, closed = s.Next(text)
			}
			if end != want || closed != (want < len(text)) {
				t.Errorf("%q cut at %d: %d %v, want %d", text, cut, end, closed, want)
			}
		}
	}
}

// EscapedAfter on the part of a text after a cut, given the backslashes
// that end the part before it (Backslashes), says what Escaped says on
// the whole text, wherever the cut falls.
func TestEscapedAfter(t *testing.T) {
	for _, text := range []string{`a"`, `a\"`, `a\\"`, `\\\"`, `"`, `x\\\\\"y"`, `\"\\"\\\"`} {
		for cut := 0; cut <= len(text); cut++ {
			n := Backslashes(text[:cut])
			for i := cut; i < len(text); i++ {
				if got, want := EscapedAfter(n, text[cut:], i-cut), Escaped(text, i); got != want {
					t.Errorf("%q cut at %d, byte %d: EscapedAfter %v, Escaped %v", text, cut, i, got, want)
				}
			}
		}
	}
	for _, tc := range []struct {
		in   string
		want int
	}{{"", 0}, {`a`, 0}, {`a\`, 1}, {`\\\`, 3}, {`\a\\`, 2}} {
		if got := Backslashes(tc.in); got != tc.want {
			t.Errorf("Backslashes(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}
