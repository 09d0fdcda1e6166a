package textlayer

import (
	"strings"
	"testing"
)

func TestAtLineEnd(t *testing.T) {
	for _, c := range []struct {
		in   string
		k    int
		want bool
	}{
		{"", 0, true},
		{"a \t\r\nb", 1, true},
		{"a  b", 1, false},
		{"a  ", 1, true},
		{"a\n", 0, false},
	} {
		if got := AtLineEnd(c.in, c.k); got != c.want {
			t.Errorf("AtLineEnd(%q, %d) = %v, want %v", c.in, c.k, got, c.want)
		}
	}
}

func TestTrimSpace(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{" \t\r\n", ""},
		{" \n a b \r\n", "a b"},
		{"\u00a0a\u00a0", "\u00a0a\u00a0"}, // not in the space set: text
		{"\f\va\v\f", "\f\va\v\f"},
		{"\u3000a", "\u3000a"},
		{" \u00a0 a", "\u00a0 a"},
	} {
		if got := TrimSpace(c.in); got != c.want {
			t.Errorf("TrimSpace(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestClosingPunct(t *testing.T) {
	for c := 0; c < 256; c++ {
		want := c < 128 && strings.IndexByte(`.,;:!?)]}"'`, byte(c)) >= 0
		if got := ClosingPunct(byte(c)); got != want {
			t.Errorf("ClosingPunct(%q) = %v, want %v", byte(c), got, want)
		}
	}
}

func TestCutLiteral(t *testing.T) {
	for _, tt := range []struct {
		text string
		from int
		lit  string
		want int
	}{
		{"abc</th", 0, "</think>", 3},
		{"abc<", 0, "</think>", 3},
		{"abc</think>", 0, "</think>", 11}, // whole: not cut short
		{"abc", 0, "</think>", 3},
		{"<<", 0, "<<a", 0},        // the longest cut prefix
		{"x</t", 3, "</think>", 4}, // nothing before from
		{"", 0, "</think>", 0},
		{"ab", 0, "", 2},
	} {
		if got := CutLiteral(tt.text, tt.from, tt.lit); got != tt.want {
			t.Errorf("CutLiteral(%q, %d, %q) = %d, want %d", tt.text, tt.from, tt.lit, got, tt.want)
		}
	}
}

// TestOpensCall: a call opens text after its leading blanks, its marker in
// any ASCII case, a blank of the marker standing for any run of blanks.
func TestOpensCall(t *testing.T) {
	starts, bare := []string{"<tool_call>", "[TOOL_CALLS]", "<|action_start|> <|plugin|>", " to="}, "{(`"
	for text, want := range map[string]bool{
		"<tool_call>":                   true,
		" \n\t<TOOL_CALL>{":             true,
		"[tool_calls] [":                true,
		"{\"name\"":                     true,
		"  {":                           true,
		"(f)":                           false, // only '{' and '[' of Bare open a call here
		"`{}`":                          false,
		"[x]":                           false, // '[' is not in Bare
		"<tool_cal":                     false,
		"Sure. <tool_call>":             false,
		"\u00a0<tool_call>":             false, // only ASCII space, tab and line breaks are skipped
		"<tool_call\u212a":              false,
		"":                              false,
		"<think>a</think><tool_":        false,
		"<|action_start|><|plugin|>\n{": true,
		"<|action_start|> \n<|plugin|>": true,
		"<|action_start|>\n{":           false,
		"<|action_start|> <|plug":       false,
		"to=f<|message|>":               true,
		"  to=":                         true,
		"tO=":                           true,
		"top":                           false,
	} {
		if got := OpensCall(text, bare, starts); got != want {
			t.Errorf("OpensCall(%q) = %v, want %v", text, got, want)
		}
	}
}
