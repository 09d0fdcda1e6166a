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

// QuoteOpens reports whether the quote mark at text[i], on the line that
// starts at lineStart, opens a quoted text, closed by its partner, and
// whether that text is a quotation in a sentence (the table's
// InQuotation), where a candidate is shown. A quote mark opens one where
// it begins a word: at the start of its line or after a blank. One glued
// to what precedes it closes a quoted text ("x." then the quote), is an
// inch mark, or is part of a token (Gemma's <|"|>), and opens nothing.
// Where an opening quote stands decides, as for a candidate (lastBefore,
// as PlaceOf reads what precedes one): after text on its line that no
// colon ends, whatever that text's punctuation, it opens a quotation; a
// quote that opens its line, or that a colon introduces, opens a string
// that shows nothing ("key": "value", or a quoted call where a bare one
// is a call, OwnLine or AfterColon: a quote mark is neither a call's
// framing nor a reason to make one), read so that its partner is not
// taken for an opening quote.
func QuoteOpens(text string, lineStart, i int) (opens, shown bool) {
	if i > lineStart && !IsBlank(text[i-1]) {
		return false, false
	}
	c := lastBefore(text, lineStart, i)
	return true, c != 0 && c != ':'
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
