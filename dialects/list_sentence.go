package dialects

import "strings"

// ListInSentence reports whether text[at:end], a call list written without
// a marker, sits inside a sentence on its line, so that it is shown, not
// made: the sentence runs up to it and goes on after it.
//
//   - Before it, on its line: a word, a comma, a semicolon or a closed
//     parenthesis, then blanks or opening punctuation ('(', a quote, '*',
//     '_'), at least one of them ("try it like [f(a=1)]", "(see
//     [f(a=1)]", "he typed "[f(a=1)]", "the tool (weather) [f(a=1)]").
//     A list glued to a word, after sentence-ending punctuation ('.', ':',
//     '!', '?') or at the start of its line starts a clause of its own.
//   - After it, on its line: closing punctuation, if any (')', ']', '}', a
//     quote, '*', '_', '.', ',', ';', ':', '!', '?'), then at least one
//     blank and a word, opening punctuation aside ("[f(a=1)] to see",
//     "[f(a=1)]) later", "[f(a=1)], then read it"). A list followed by
//     nothing but closing punctuation up to the end of its line ends its
//     sentence, unless that punctuation closes a parenthesis or a wide
//     quotation the sentence opened before it on its line ("I checked
//     (see [f(a=1)]).", "he typed “[f(a=1)]”."): a list in an aside or a
//     quotation is shown whatever follows.
//
// It extends InSentence, whose shape (a word and a blank before, a blank
// and a word after) it keeps, to lists written in brackets, parentheses or
// quotes, or followed by the rest of the sentence after punctuation.
func ListInSentence(text string, at, end int) bool {
	in, _ := inSentence(text, at, end)
	return in
}

// ValueInSentence reports whether text[at:end], a JSON call value (an
// object or a list of them) written without a marker, sits inside a
// sentence, so that it is shown, not made. It is ListInSentence, with one
// more condition when the value is not held in an aside or a quotation:
// the sentence that goes on after it must end as a sentence does, with
// '.', '!', '?' or ':' before a blank line or the end of the text (within
// maxAside bytes). "You can call {…} to see the weather." is shown;
// "explanation text and then {…} more text" ends nowhere, reads as text
// around an output value rather than as a sentence about it, and leaves
// the value a call, as bare-JSON parsers read leading and trailing text.
func ValueInSentence(text string, at, end int) bool {
	in, aside := inSentence(text, at, end)
	return in && (aside || sentenceEnds(text, end))
}

// sentenceEnds reports whether sentence-ending punctuation ('.', '!', '?',
// ':') stands after text[end] before a blank line, the end of the text, or
// maxAside bytes.
func sentenceEnds(text string, end int) bool {
	for k := end; k < len(text) && k-end <= maxAside; k++ {
		switch text[k] {
		case '.', '!', '?', ':':
			return true
		case '\n':
			r := k + 1
			for r < len(text) && (text[r] == ' ' || text[r] == '\t' || text[r] == '\r') {
				r++
			}
			if r == len(text) || text[r] == '\n' {
				return false
			}
		}
	}
	return false
}

// inSentence is ListInSentence, and whether the list stands in an aside or
// a quotation the sentence opened before it.
func inSentence(text string, at, end int) (in, aside bool) {
	j := at
	for j > 0 {
		if c := text[j-1]; c == ' ' || c == '\t' || strings.IndexByte(`("'*_`, c) >= 0 {
			j--
			continue
		}
		if n := wideOpenerBefore(text, j); n > 0 {
			j -= n
			continue
		}
		break
	}
	if j == at || j == 0 {
		return false, false
	}
	if c := text[j-1]; !proseWordByte(c) && c != ',' && c != ';' && c != ')' {
		return false, false
	}
	k := end
	for k < len(text) {
		if strings.IndexByte(`)]}"'*_.,;:!?`, text[k]) >= 0 {
			k++
			continue
		}
		if n := wideCloserAt(text, k); n > 0 {
			k += n
			continue
		}
		break
	}
	if enclosed(text, at, end, k) {
		return true, true
	}
	b := k
	for b < len(text) && (text[b] == ' ' || text[b] == '\t') {
		b++
	}
	if b == k {
		return false, false
	}
	for b < len(text) && strings.IndexByte(`("'*_`, text[b]) >= 0 {
		b++
	}
	return b < len(text) && proseWordByte(text[b]), false
}

// maxAside bounds how far before a list enclosed looks for the opener of
// the aside or quotation that holds it, so that a line of many lists
// costs linear time.
const maxAside = 512

// enclosed reports whether the closing punctuation text[end:k] after the
// list at text[at:end] closes a parenthesis or a wide quotation opened
// before the list on its line, within maxAside bytes.
func enclosed(text string, at, end, k int) bool {
	for i := end; i < k; i++ {
		var open string
		switch {
		case text[i] == ')':
			open = "("
		case wideCloserAt(text, i) > 0:
			n := wideCloserAt(text, i)
			for w, c := range wideClosers {
				if c == text[i:i+n] {
					open = wideOpeners[w]
				}
			}
			i += n - 1
		default:
			continue
		}
		depth := 0
		for j := at - 1; j >= 0 && at-j <= maxAside && text[j] != '\n'; j-- {
			switch {
			case open == "(" && text[j] == ')':
				depth++
			case strings.HasPrefix(text[j:], open):
				if depth == 0 {
					return true
				}
				depth--
			}
		}
		return false
	}
	return false
}

// wideOpeners and wideClosers are the non-ASCII opening and closing
// punctuation a sentence writes around a quoted or bracketed phrase.
var (
	wideOpeners = []string{"“", "‘", "«", "「", "『", "（"}
	wideClosers = []string{"”", "’", "»", "」", "』", "）"}
)

// wideOpenerBefore returns the length of the wide opener that ends right
// before text[j], or 0.
func wideOpenerBefore(text string, j int) int {
	for _, o := range wideOpeners {
		if strings.HasSuffix(text[:j], o) {
			return len(o)
		}
	}
	return 0
}

// wideCloserAt returns the length of the wide closer at text[k:], or 0.
func wideCloserAt(text string, k int) int {
	for _, c := range wideClosers {
		if strings.HasPrefix(text[k:], c) {
			return len(c)
		}
	}
	return 0
}
