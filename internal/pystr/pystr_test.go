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

func TestEnd(t *testing.T) {
	for _, tc := range []struct {
		in   string
		end  int // -1: not closed
		rest string
	}{
		{`'a'x`, 3, "x"},
		{`"a\"b"x`, 6, "x"},
		{`'a\\'x`, 5, "x"},
		{`'''a'''x`, 7, "x"},
		{`'''a\''''x`, 9, "x"}, // an escaped quote does not start the closing three
		{`"""a""""x`, 7, `"x`},
		{`''x`, 2, "x"},
		{`'''a''`, -1, ""},
		{`'a` + "\n" + `b'x`, 5, "x"}, // a line break is read as part of the string
		{"'a\\\nb'x", 6, "x"},
		{`'a\'`, -1, ""},
		{`'`, -1, ""},
	} {
		end, ok := End(tc.in, 0)
		if !ok {
			end = -1
		}
		if end != tc.end || ok && tc.in[end:] != tc.rest {
			t.Errorf("End(%q) = %d, %v; want %d", tc.in, end, ok, tc.end)
		}
	}
}

// TestLitPieces feeds literals in every cutting: a quote at the end of a
// piece waits for the two bytes that say whether it opens three.
func TestLitPieces(t *testing.T) {
	for _, in := range []string{`'''a\''''x`, `''x`, `'a'x`, `"""a"b""""x`, `'''x`} {
		want, wantOK := End(in, 0)
		for cut := 1; cut <= len(in); cut++ {
			var l Lit
			text := in[:cut]
			j := 0
			got, gotOK := len(in), false
		read:
			for {
				if !l.IsOpen() {
					n := l.Open(text, 0, len(text) == len(in))
					if n == 0 {
						text = in[:min(len(in), len(text)+1)]
						continue
					}
					j = n
				}
				for ; j < len(text); j++ {
					if l.Feed(text[j]) == Closed {
						got, gotOK = j+1, true
						break read
					}
				}
				if len(text) == len(in) {
					break
				}
				text = in[:min(len(in), len(text)+cut)]
			}
			if got != want || gotOK != wantOK {
				t.Errorf("%q cut every %d: %d, %v; one-shot %d, %v", in, cut, got, gotOK, want, wantOK)
			}
		}
	}
}

func TestBroken(t *testing.T) {
	var l Lit
	l.Open("'a\nb'", 0, true)
	if l.Feed('a') != In || l.Feed('\n') != Broken || l.Feed('b') != In || l.Feed('\'') != Closed {
		t.Error("a line break in a literal in one quote is not reported Broken")
	}
	l.Open("'''a\nb'''", 0, true)
	if l.Feed('\n') != In {
		t.Error("a line break in a literal in three quotes is reported Broken")
	}
}
