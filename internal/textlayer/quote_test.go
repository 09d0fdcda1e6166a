package textlayer

import "testing"

// TestQuoteSides: whether a quote mark may begin or end a quoted text is
// decided by the bytes on either side of it (0: a blank, a line break, the
// line's start or end), and whether what follows opens a call's syntax.
func TestQuoteSides(t *testing.T) {
	for _, tc := range []struct {
		name         string
		prev, next   byte
		syntax       bool
		begins, ends bool
	}{
		{`after a blank: say "x`, 0, 'x', false, true, false},
		{`blanks on both sides: a " b`, 0, 0, false, true, true},
		{`glued before a word: said,"x`, ',', 'x', false, true, true},
		{`glued before the syntax: see("<`, '(', '<', true, true, true},
		{`ending a quoted text: x." then a blank`, '.', 0, false, false, true},
		{`inside a word: it's`, 't', 's', false, false, false},
		{`glued to a word before punctuation: "hi".`, 'i', '.', false, false, true},
		{`part of a token: <|"|>`, '|', '|', false, false, true},
	} {
		if got := QuoteBegins(tc.prev, tc.next, tc.syntax); got != tc.begins {
			t.Errorf("%s: QuoteBegins = %v, want %v", tc.name, got, tc.begins)
		}
		if got := QuoteEnds(tc.prev, tc.next); got != tc.ends {
			t.Errorf("%s: QuoteEnds = %v, want %v", tc.name, got, tc.ends)
		}
	}
}

// TestSyntaxOpens: a bracket, or a '<' glued to a name, opens a call's
// syntax; what the text does not hold yet leaves it unknown.
func TestSyntaxOpens(t *testing.T) {
	for _, tc := range []struct {
		text                  string
		opens, closing, known bool
	}{
		{"(a", true, false, true},
		{"[", true, false, true},
		{"{", true, false, true},
		{"<tool_call>", true, false, true},
		{"</tool_call>", true, true, true},
		{"<|start|>", true, false, true},
		{"<｜tool▁calls▁begin｜>", true, false, true},
		{"< b", false, false, true},
		{"<= b", false, false, true},
		{"<|\"|>", false, false, true},
		{"<", false, false, false},
		{"</", false, false, false},
		{"x", false, false, true},
		{"```json", true, false, true},
		{"``x", false, false, true},
		{"``", false, false, false},
	} {
		opens, closing, known := SyntaxOpens(tc.text, 0)
		if opens != tc.opens || closing != tc.closing || known != tc.known {
			t.Errorf("SyntaxOpens(%q) = %v, %v, %v; want %v, %v, %v", tc.text, opens, closing, known, tc.opens, tc.closing, tc.known)
		}
	}
}
