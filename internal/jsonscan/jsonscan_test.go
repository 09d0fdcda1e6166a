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
	}
}
