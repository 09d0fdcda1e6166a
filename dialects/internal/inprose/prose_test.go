package inprose_test

import (
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/dialects/internal/inprose"
)

// TestTokenNamed: a special token named in prose is a word; one used as
// framing, glued to the message text around it, is not. The token looked
// at is the first "<|" of the text after the "^" mark.
func TestTokenNamed(t *testing.T) {
	for _, tc := range []struct {
		text  string
		named bool
	}{
		// Named.
		{"the ^<|channel|> token names it", true},
		{"The format is ^<|channel|>final<|message|> then the answer.", true},
		{"The format is <|channel|>final^<|message|> then the answer.", true},
		{"Use <|start|>assistant<|channel|>final<|message|>Hello^<|end|> to answer.", true},
		{"a reply looks like <|channel|>analysis<|message|>...^<|end|>, then a final one.", true},
		{"Tokens: ^<|start|>, <|channel|>, <|end|>.", true},
		{"Tokens: <|start|>, ^<|channel|>, <|end|>.", true},
		{"Tokens: <|start|>, <|channel|>, ^<|end|>.", true},
		{"The tokens are <|start|>, <|message|>, ^<|eom|> and <|eot|>.", true},
		{"The tokens are <|start|>, <|message|>, <|eom|> and ^<|eot|>.", true},
		// Used.
		{"^<|channel|>analysis<|message|>We need to answer.<|end|>", false},
		{"We need to answer.^<|end|><|start|>assistant<|channel|>final<|message|>The answer is 4.", false},
		{"We need to answer.<|end|><|start|>assistant<|channel|>final^<|message|>The answer is 4.", false},
		{"Let me check the weather ^<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{}<|call|>", false},
		{"Sure: ^<|channel|>commentary to=functions.f<|message|>{}<|call|>", false},
		{" to=functions.f^<|channel|>commentary <|constrain|>json<|message|>{}", false},
		{"Sure.\n^<|channel|>final<|message|>Hi", false},
		{"We need to answer <|end|> ^<|start|>assistant<|channel|>final<|message|>Hi", false},
		// A group longer than the bound is no word of a sentence.
		{"See ^<|end|>" + strings.Repeat("<|end|>", 100) + " here.", false},
	} {
		i := strings.Index(tc.text, "^")
		text := tc.text[:i] + tc.text[i+1:]
		at := i + strings.Index(text[i:], "<|")
		end := at + strings.Index(text[at:], "|>") + 2
		if got := inprose.TokenNamed(text, at, end); got != tc.named {
			t.Errorf("%q at %d: named %v, want %v", text, at, got, tc.named)
		}
	}
}

// TestMayBeNamed holds MayBeNamed to TokenNamed: wherever a token is
// named in prose, MayBeNamed said it may be, and it says no where nothing
// before the token can make it a word of a sentence.
func TestMayBeNamed(t *testing.T) {
	const tok = "<|channel|>"
	for _, c := range []struct {
		before, after string
		may           bool
	}{
		{"use the ", " token, then", true},
		{"tokens a, ", " and b", true},
		{"tokens:\t", " and b", true},
		{"", "final<|message|>Hi", false},
		{"answer.", "final", false},
		{"answer. ", "final", false},
		{"  ", " and so on", false},
		{"write ", "final<|message|> here", true},
		{"write x" + strings.Repeat("y", 300), " and so on", false},
	} {
		text := c.before + c.after
		at := len(c.before)
		text = text[:at] + tok + text[at:]
		if got := inprose.MayBeNamed(text, at); got != c.may {
			t.Errorf("MayBeNamed(%q) = %v, want %v", text, got, c.may)
		}
		if inprose.TokenNamed(text, at, at+len(tok)) && !inprose.MayBeNamed(text, at) {
			t.Errorf("%q: TokenNamed but not MayBeNamed", text)
		}
	}
}
