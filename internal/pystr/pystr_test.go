package pystr

import "testing"

func TestUnescape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`plain`, "plain"},
		{`a\nb\tc`, "a\nb\tc"},
		{`it\'s \"q\" \\ \/`, `it's "q" \ /`},
		{`\x41\u00e9\U0001F600`, "Aé😀"},
		{`\ud83d\ude00`, "😀"},
		{"line\\\ncontinued", "linecontinued"},
		{`C:\Users\new`, `C:\Users\new`}, // \U starts no valid escape: backslashes are literal
		{`\q`, `\q`},
		{`\xZZ`, `\xZZ`},
		{`end\`, `end\`},
		{`\0`, "\x00"},
	} {
		if got := Unescape(tc.in); got != tc.want {
			t.Errorf("Unescape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
