package stream

import (
	"strings"
	"testing"
)

// stringEndByBytes is stringEnd read one byte at a time: the reference.
func stringEndByBytes(s string, q byte, escaped bool) (int, bool) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case escaped:
			escaped = false
		case c == '\\':
			escaped = true
		case c == q:
			return i, false
		}
	}
	return -1, escaped
}

func checkStringEnd(t *testing.T, s string) {
	t.Helper()
	for _, q := range []byte{'"', '\''} {
		for _, escaped := range []bool{false, true} {
			end, esc := stringEnd(s, q, escaped)
			wantEnd, wantEsc := stringEndByBytes(s, q, escaped)
			if end != wantEnd || esc != wantEsc {
				t.Fatalf("stringEnd(%q, %q, %v) = %d, %v; want %d, %v", s, q, escaped, end, esc, wantEnd, wantEsc)
			}
		}
	}
}

// TestStringEnd checks the jumps from quote to quote against a read one
// byte at a time, with quotes and backslash runs at every place of short
// and longer strings.
func TestStringEnd(t *testing.T) {
	for n := 0; n <= 72; n++ {
		base := strings.Repeat("a", n)
		checkStringEnd(t, base)
		for i := 0; i < n; i++ {
			for _, ins := range []string{`"`, `\`, `\\`, `\"`, `\\"`, `\\\"`, `'`, "\xff", "\x80\""} {
				s := base[:i] + ins + base[i:]
				checkStringEnd(t, s)
				checkStringEnd(t, s+`\`)
			}
		}
	}
}

func FuzzStringEnd(f *testing.F) {
	for _, s := range []string{"", `"`, `\"`, `ab\\"cd`, strings.Repeat(`x\"`, 30) + `"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkStringEnd(t, s) })
}
