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
	for i := from - 1; i >= 0 && text[i] != '\n'; i-- {
		if c := text[i]; c != ' ' && c != '\t' && c != '\r' && c != '`' && !(i >= 2 && isFenceInfo(text, i)) {
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

// isFenceInfo reports whether text[i] is in the info word of a code fence
// opened on its line ("```json").
func isFenceInfo(text string, i int) bool {
	j := i
	for j >= 0 && text[j] != '\n' && text[j] != '`' && isLangByte(text[j]) {
		j--
	}
	return j >= 2 && text[j] == '`' && text[j-1] == '`' && text[j-2] == '`'
}

// exampleWords are what prose says when it shows a call rather than makes
// one.
var exampleWords = []string{"example", "e.g.", "for instance", "such as", "format", "syntax", "like this", "looks like", "would look", "template", "schema"}

// PresentedAsExample reports whether the prose right before text[at] (the
// last line with text before the value's line, or the value's own line up
// to it) presents what follows as an example ("Here is an example of the
// format:"). A call shown as an example is not a call.
func PresentedAsExample(text string, at int) bool {
	end := at
	for end > 0 && text[end-1] != '\n' {
		end--
	}
	line := strings.TrimSpace(text[end:at])
	for (line == "" || strings.HasPrefix(line, "```")) && end > 0 {
		e := end - 1
		s := e
		for s > 0 && text[s-1] != '\n' {
			s--
		}
		line, end = strings.TrimSpace(text[s:e]), s
	}
	if len(line) > 400 {
		line = line[len(line)-400:]
	}
	line = strings.ToLower(line)
	for _, w := range exampleWords {
		if strings.Contains(line, w) {
			return true
		}
	}
	return false
}
