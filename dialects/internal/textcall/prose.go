package textcall

import (
	"strings"

	"github.com/dialectkit/toolcall/internal/textlayer"
)

// ProseCode reports whether text that a raw-code marker introduced (Llama
// 3's and Functionary's <|python_tag|>) reads as a sentence, not as code:
// its first line is at least three words of letters separated by single
// blanks, with no bracket, operator or quote, at most ending in closing
// punctuation (textlayer.ClosingPunct: "to call tools in general.").
// Such a marker is mentioned in prose, and what follows it is not code to
// run.
func ProseCode(code string) bool {
	line := strings.TrimSpace(code)
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = strings.TrimSpace(line[:i])
	}
	for line != "" && textlayer.ClosingPunct(line[len(line)-1]) {
		line = line[:len(line)-1]
	}
	words := 0
	for w := range strings.SplitSeq(line, " ") {
		if w == "" {
			return false // a double blank is layout, as code has
		}
		w = strings.TrimRight(w, ",;")
		for _, r := range w {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '\'' || r > 0x7f) {
				return false
			}
		}
		words++
	}
	return words >= 3
}

// MentionedCode reports whether the text after a raw-code marker shows
// the marker mentioned, not used: it reads as a sentence (ProseCode), or
// its first byte is one no Python statement starts with (the marker listed
// in a sentence: "the markers <|python_tag|>, <tool_call> and …").
func MentionedCode(code string) bool {
	line := strings.TrimSpace(code)
	if line != "" && strings.IndexByte(",;:)]}=<>|&^%/!?`$", line[0]) >= 0 {
		return true
	}
	return ProseCode(code)
}
