package harmony

import (
	"strings"

	"github.com/dialectkit/toolcall/dialects"
)

// Syntax describes the dialect to the stream engine: a commentary message is
// a call region closed by <|call|>; the analysis channel is reasoning; any
// other header holds the stream back until the end, where the one-shot
// reader settles it.
func (harmonyDialect) Syntax() dialects.Syntax {
	return dialects.Syntax{
		Starts: []string{mChannel + "commentary", mStart + "assistant to="},
		Ends:   []string{mCall},
		// A <think> block is reasoning too (Extract).
		Reasoning: []dialects.ReasoningTags{{Open: mChannel + "analysis" + mMessage, Close: mEnd}, dialects.Think},
		Tokens:    []string{mChannel, mConstrain, mCall, mMessage, mStart, mReturn, mEnd},
		// The prompt may end inside a header: " to=functions.f<|channel|>…".
		MarkedStart: true,
		Header:      headerStart,
		// The model writes its own analysis channel header; an <|end|>
		// alone ends no block.
		ReasoningClosed: true,
	}
}

// headerStart reports whether text, the output so far, may open with the
// rest of a header the template began, as the scanner reads it (lexBetween):
// words that open with a header's own (headerOpening) before a
// <|channel|>, <|constrain|> or <|message|> token, or, while none has come,
// all that has arrived less the first bytes of a token it may end with,
// when its first word may still become such a word.
func headerStart(text string) bool {
	pre := text
	for i := strings.IndexByte(text, '<'); i >= 0; {
		if m := markerAt(text, i); m != noMarker {
			if m != channelMarker && m != constrainMarker && m != messageMarker {
				return false
			}
			pre = text[:i]
			break
		}
		if tokenPrefix(text[i:]) {
			pre = text[:i]
			break
		}
		j := strings.IndexByte(text[i+1:], '<')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	t := strings.TrimLeft(pre, " \t\r\n")
	if t == "" {
		return false
	}
	end := strings.IndexAny(t, " \t\r\n")
	if end < 0 && len(pre) == len(text) {
		// The first word may go on: hold while it can become a header's.
		return vocabularyPrefix(t)
	}
	return headerLike(pre) && headerOpening(pre)
}

// vocabularyPrefix reports whether w is the first bytes of a header word
// (vocabularyWord), or one already.
func vocabularyPrefix(w string) bool {
	for _, v := range []string{"assistant", "user", "system", "developer", "tool", "json", "code", "analysis", "commentary", "final", "to=", "functions."} {
		if strings.HasPrefix(v, w) || strings.HasPrefix(w, v) && (v == "to=" || v == "functions.") {
			return true
		}
	}
	return vocabularyWord(w)
}

// tokenPrefix reports whether s is the first bytes of a harmony token, cut
// short.
func tokenPrefix(s string) bool {
	for m := startMarker; m <= returnMarker; m++ {
		if len(s) < len(markerText[m]) && strings.HasPrefix(markerText[m], s) {
			return true
		}
	}
	return false
}
