package jsonscan_test

import (
	"testing"

	"github.com/dialectkit/toolcall/internal/jsonscan"
)

// TestValueScan checks that a ValueScan fed a text byte by byte finds the
// end ValueEnd finds in the whole text, and that it stays found.
func TestValueScan(t *testing.T) {
	for _, tc := range []struct {
		text  string
		start int
	}{
		{`{"a": 1}`, 0},
		{`x {"a": "}"} y`, 2},
		{`{"a": "\\\"}"}, z`, 0},
		{`{"a": "\\\\"}`, 0},
		{`[{'a': 'it''s'}, "]"]`, 0},
		{`{'a': 'open` + "\n" + `}`, 0},
		{`{"a": [1, {"b": "\u005d"}]}`, 0},
		{`{it's {"a": 1}}`, 0},
		{`{"a": "cut`, 0},
		{`[[[`, 0},
	} {
		wantEnd, wantOK := jsonscan.ValueEnd(tc.text, tc.start)
		v := jsonscan.ValueScan{Start: tc.start}
		var end int
		var ok bool
		for i := tc.start + 1; i <= len(tc.text); i++ {
			if end, ok = v.Next(tc.text[:i]); ok {
				break
			}
		}
		if end != wantEnd || ok != wantOK {
			t.Errorf("%q: fed byte by byte %d %v, whole %d %v", tc.text, end, ok, wantEnd, wantOK)
		}
		if ok {
			if e, again := v.Next(tc.text + "]]"); e != end || !again {
				t.Errorf("%q: asked again %d %v, want %d true", tc.text, e, again, end)
			}
		}
	}
}

func TestValueEnd(t *testing.T) {
	tests := []struct {
		s        string
		end      int
		complete bool
	}{
		{`{"a": "}"} tail`, 10, true},
		{`[1, [2, {"x": "]"}]] tail`, 20, true},
		{`{'it''s': 1}`, 12, true},
		{`{"a": "unterminated`, 19, false},
		{`{"a": {"b": 1}`, 14, false},
		{`{"k": "it's"}`, 13, true},
	}
	for _, tt := range tests {
		end, complete := jsonscan.ValueEnd(tt.s, 0)
		if end != tt.end || complete != tt.complete {
			t.Errorf("ValueEnd(%q) = %d, %v; want %d, %v", tt.s, end, complete, tt.end, tt.complete)
		}
	}
}

// ValueEnd skips double-quoted strings by quote search as it did byte by
// byte.
func FuzzValueEnd(f *testing.F) {
	for _, s := range []string{`{"a": "x\"y}"}`, `["\\", "}"]`, `{'a': "b'}`, `{"a": "\\\"}"} tail`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) == 0 || s[0] != '{' && s[0] != '[' {
			return
		}
		end, ok := jsonscan.ValueEnd(s, 0)
		wantEnd, wantOK := valueEndByBytes(s, 0)
		if end != wantEnd || ok != wantOK {
			t.Fatalf("ValueEnd(%q) = %d, %v; byte by byte %d, %v", s, end, ok, wantEnd, wantOK)
		}
	})
}

// valueEndByBytes is ValueEnd as it was written first, one byte at a time.
func valueEndByBytes(s string, start int) (int, bool) {
	depth := 0
	for i := start; i < len(s); i++ {
		switch c := s[i]; c {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1, true
			}
		case '"', '\'':
			if c == '\'' && i > start && (s[i-1] >= 'a' && s[i-1] <= 'z' || s[i-1] >= 'A' && s[i-1] <= 'Z' || s[i-1] >= '0' && s[i-1] <= '9') {
				continue
			}
			j := i + 1
			for j < len(s) && s[j] != c {
				if s[j] == '\\' {
					j++
				} else if s[j] == '\n' && c == '\'' {
					break
				}
				j++
			}
			if j >= len(s) {
				return len(s), false
			}
			i = j
		}
	}
	return len(s), false
}
