package textcall

import "strings"

// ProseCode reports whether text that a raw-code marker introduced (Llama
// 3's and Functionary's <|python_tag|>) reads as a sentence, not as code:
// its first line is at least three words of letters separated by single
// blanks, with no bracket, operator or quote, at most ending in sentence
// punctuation ("to call tools in general."). Such a marker is mentioned in
// prose, and what follows it is not code to run.
func ProseCode(code string) bool {
	line := strings.TrimSpace(code)
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = strings.TrimSpace(line[:i])
	}
	line = strings.TrimRight(line, ".,;!?")
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

// OwnLine reports whether text[from:to] (a JSON value found in prose)
// stands on lines of its own: only blanks between the start of its first
// line and from, and between to and the end of its last line. A code fence
// around it counts as a line of its own. An object with prose on its line
// ("I think {…} would work") is mentioned in a sentence, not called.
func OwnLine(text string, from, to int) bool {
	// One pass back to the start of the line: blanks and backticks, or the
	// info word of a fence opened on the line, skipped whole.
	for i := from - 1; i >= 0 && text[i] != '\n'; {
		switch c := text[i]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '`':
			i--
		case isLangByte(c):
			j := i
			for j >= 0 && text[j] != '\n' && text[j] != '`' && isLangByte(text[j]) {
				j--
			}
			if j < 2 || text[j] != '`' || text[j-1] != '`' || text[j-2] != '`' {
				return false
			}
			i = j
		default:
			return false
		}
	}
	for i := to; i < len(text) && text[i] != '\n'; i++ {
		if c := text[i]; c != ' ' && c != '\t' && c != '\r' && c != '`' && c != ';' && c != ',' {
			return false
		}
	}
	return true
}

// exampleWords are what prose says when it shows a call rather than makes
// one.
var exampleWords = []string{"example", "e.g.", "for instance", "such as", "format", "syntax", "like this", "looks like", "would look", "template", "schema"}

// PresentedAsExample reports whether the prose right before text[at] (the
// last line with text before the value's line, or the value's own line up
// to it) presents what follows as an example ("Here is an example of the
// format:"). A call shown as an example is not a call.
func PresentedAsExample(text string, at int) bool {
	line, end, whole := lineBefore(text, at)
	for whole && (line == "" || strings.HasPrefix(line, "```")) && end > 0 {
		line, end, whole = lineBefore(text, end-1)
	}
	if len(line) > exampleProse {
		line = line[len(line)-exampleProse:]
	}
	line = strings.ToLower(line)
	for _, w := range exampleWords {
		if strings.Contains(line, w) {
			return true
		}
	}
	return false
}

// exampleProse is how much of the prose before a value is read for
// exampleWords: the end of the sentence that introduces it.
const exampleProse = 400

// lineBefore returns the text of the line that ends at e, trimmed, and the
// offset its scan reached. It reads back to the start of the line (whole)
// or stops once it holds more than exampleProse bytes of text, so that
// every value of a long line costs a bounded look, not the whole line.
func lineBefore(text string, e int) (line string, start int, whole bool) {
	s, last := e, -1
	for s > 0 && text[s-1] != '\n' {
		if last < 0 && !isBlank(text[s-1]) {
			last = s
		}
		if last >= 0 && last-s > exampleProse+112 {
			return strings.TrimSpace(text[s:e]), s, false
		}
		s--
	}
	return strings.TrimSpace(text[s:e]), s, true
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }
