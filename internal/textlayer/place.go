package textlayer

import "strings"

// PlaceOf returns where the candidate text[start:end] stands, by the
// text's structure alone: text[floor:] is the output outside reasoning (a
// candidate with only blanks between floor and start opens it; a floor < 0
// says that content or calls came before the text read); otherwise
// what precedes start on its line, and what follows end up to the end of
// its own line, decide: a colon ending the text before it on its line
// introduces it, whatever follows; otherwise text after it on its line
// puts it inside a line of prose. A candidate inside reasoning, inline code, a
// quotation or a code fence is ruled out by the engines before they place
// it (shown.ShownScan.ShownAt, by what precedes it), so PlaceOf never
// sees one.
//
// Before the candidate, a fence's opening run and info word on its line
// ("```json {…}"), and the opening bracket and separators of a list it is
// an element of ("[{…}, {…"), count as nothing. After it, only blanks and the bytes
// that stand between or after calls count as nothing: the separators of a
// run of calls (',' ';', after which a '{' or '[' starts the next
// candidate's own region), closing brackets too many ('}' ']'), and a
// fence's closing run ('`').
func PlaceOf(text string, floor, start, end int) Place {
	opens := floor >= 0 && RunOnly(text[floor:start])
	last := lastBefore(text, max(floor, 0), start)
	after, sep := false, false
scan:
	for e := end; e < len(text) && text[e] != '\n'; e++ {
		switch c := text[e]; {
		case c == ',' || c == ';':
			sep = true
		case c == ' ' || c == '\t' || c == '\r' || c == '}' || c == ']' || c == '`':
		case sep && (c == '{' || c == '['):
			break scan // the next candidate of a run: its own region
		default:
			after = true
			break scan
		}
	}
	switch {
	case opens && after:
		return LeadsProse
	case opens:
		return Opens
	case last == ':':
		return AfterColon
	case after:
		return InProse
	case last == 0:
		return OwnLine
	}
	return AfterText
}

// lastBefore returns the last byte before start on its line that counts
// for the place of what stands at start, blanks aside, or 0 when none
// does: text[lo:] is the text read (lo the floor, or the start of the
// line). Before start, a fence's opening run and info word on its line
// ("```json {…}"), and the opening bracket and separators of a list
// ("[{…}, {…"), count as nothing. What precedes start is read backwards
// from it, only as far as it decides (the last byte that is not a blank,
// and whether the line before it holds more than a list's opening), so
// that placing every candidate of a long line costs linear time.
func lastBefore(text string, lo, start int) byte {
	j := start
	for j > lo && IsBlank(text[j-1]) {
		j--
	}
	if j == lo || text[j-1] == '\n' {
		return 0
	}
	r := j
	for r > lo && start-r < maxRunBack && (IsBlank(text[r-1]) || isRunByte(text[r-1])) {
		r--
	}
	if r == lo || text[r-1] == '\n' {
		return 0 // the opening of the list it is an element of
	}
	if k := FenceOpenBefore(text, lo, start); k >= 0 && !strings.Contains(text[k:start], "\n") && beginsLine(text, lo, k) {
		return 0 // a fence's opening run and info word on its line
	}
	return text[j-1]
}

// QuoteShows reports whether the quote mark at text[i], on the line that
// starts at lineStart, which begins a quoted text (QuoteBegins), opens a
// quotation in a sentence (the table's InQuotation), where a candidate is
// shown, rather than a string that shows nothing; word is where the run of
// bytes that are not blanks, which the quote mark ends, starts (i when a
// blank or the line's start precedes it).
//
// Where the quote stands decides, as for a candidate (lastBefore, as
// PlaceOf reads what precedes one): a quote that a colon introduces, or
// that opens its line with the run it is glued to ("{"a"…" or
// "[f(a="x")]" at a line's start), opens a string that shows nothing
// ("key": "value", or a quoted call where a bare one is a call, OwnLine or
// AfterColon: a quote mark is neither a call's framing nor a reason to
// make one), read so that its partner is not taken for an opening quote.
// After text on its line that no colon ends, whatever that text's
// punctuation and whether or not the quote is glued to it (He said, "<…",
// He said,"<…", see("<…"), it opens a quotation.
func QuoteShows(text string, lineStart, word, i int) bool {
	return lastBefore(text, lineStart, i) != ':' && lastBefore(text, lineStart, word) != 0
}

// QuoteBegins reports whether a quote mark may begin a quoted text, by the
// bytes right before it (prev) and right after it (next), 0 standing for
// a blank, a line break, or the start or end of the line: after a blank
// or at the line's start, whatever follows; glued to what precedes it,
// where what follows begins a word, or the syntax a call is written in
// (syntax: SyntaxOpens), as in see("<…") or said,"[…". One glued to what
// precedes it and followed by a blank ends a quoted text ("x." then the
// quote, an inch mark, the users' then a blank), one between two bytes of
// a word is part of it (an apostrophe: it's, don’t), and one between
// other bytes is part of a token (Gemma's <|"|>): none of these begins
// one.
func QuoteBegins(prev, next byte, syntax bool) bool {
	return prev == 0 || syntax || WordByte(next) && !WordByte(prev)
}

// QuoteEnds reports whether a quote mark may end a quoted text, by the
// bytes right before it (prev) and right after it (next), as for
// QuoteBegins: any quote mark but one after a blank or at the line's
// start and glued to what follows it, which only begins one, and one
// between two bytes of a word, which is part of the word.
func QuoteEnds(prev, next byte) bool {
	return (prev != 0 || next == 0) && !(WordByte(prev) && WordByte(next))
}

// SyntaxOpens reports whether text[i] opens a bracket of the syntax a
// call is written in: '(', '[' or '{' (JSON, Python), a fence's run of
// three backticks or more (CodeSpanRun), or a tag, a '<' glued to a name
// (a byte of a word, or one byte that is no blank and then a byte of a
// word: "<x", "</x", "<|x", "<｜x"); closing says that the tag closes an
// element ("</x"). A '<' glued to no name ("< b", "<= b") opens nothing.
// known is false when text ends before the bytes that decide.
func SyntaxOpens(text string, i int) (opens, closing, known bool) {
	switch text[i] {
	case '(', '[', '{':
		return true, false, true
	case '`':
		for k := 1; k < 3; k++ {
			if i+k >= len(text) {
				return false, false, false
			}
			if text[i+k] != '`' {
				return false, false, true
			}
		}
		return true, false, true
	case '<':
	default:
		return false, false, true
	}
	if i+1 >= len(text) {
		return false, false, false
	}
	if a := text[i+1]; WordByte(a) {
		return true, false, true
	} else if IsSpace(a) {
		return false, false, true
	}
	if i+2 >= len(text) {
		return false, false, false
	}
	return WordByte(text[i+2]), text[i+1] == '/', true
}

// maxRunBack bounds the run of a list's opening bytes and blanks read back
// before a candidate: a longer run counts as text before it.
const maxRunBack = 1 << 10

// isRunByte reports whether c opens a list of calls or separates its
// elements.
func isRunByte(c byte) bool { return c == '[' || c == ',' || c == ';' }

// RunOnly reports whether s holds nothing but blanks, line breaks and the
// bytes that open a list of calls or separate its elements ('[', ',',
// ';'): before an element of a list, what stands before the list counts,
// and a candidate after such text opens the output (PlaceOf).
func RunOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !IsSpace(c) && !isRunByte(c) {
			return false
		}
	}
	return true
}
