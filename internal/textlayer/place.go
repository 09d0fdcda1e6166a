package textlayer

// PlaceOf returns where the candidate text[start:end] stands, by the
// text's structure alone: text[floor:] is the output outside reasoning (a
// candidate with only blanks between floor and start opens it; a floor < 0
// says that content or calls came before the text read); otherwise
// what precedes start on its line, and what follows end up to the end of
// its own line, decide: a colon ending the text before it on its line
// introduces it, whatever follows; otherwise text after it on its line
// puts it inside a line of prose. A candidate inside reasoning, inline code, a
// quotation or a code fence is held out of the engines' reach before they
// read (dialects.ExtractShown), so PlaceOf never sees one.
//
// Before the candidate, a fence's opening run and info word on its line
// ("```json {…}"), and the opening bracket and separators of a list it is
// an element of ("[{…}, {…"), count as nothing. After it, only blanks and the bytes
// that stand between or after calls count as nothing: the separators of a
// run of calls (',' ';', after which a '{' or '[' starts the next
// candidate's own region), closing brackets too many ('}' ']'), and a
// fence's closing run ('`').
func PlaceOf(text string, floor, start, end int) Place {
	opens := floor >= 0 && runOnly(text[floor:start])
	ls := start
	for ls > max(floor, 0) && text[ls-1] != '\n' {
		ls--
	}
	before := trimBlanks(text[ls:start])
	if runOnly(before) {
		before = "" // the opening of the list it is an element of
	}
	if k := FenceOpenBefore(text, ls, start); k >= 0 && trimBlanks(text[ls:k]) == "" {
		before = ""
	}
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
	case before != "" && before[len(before)-1] == ':':
		return AfterColon
	case after:
		return InProse
	case before == "":
		return OwnLine
	}
	return AfterText
}

// runOnly reports whether s holds nothing but blanks, line breaks and the
// bytes that open a list of calls or separate its elements ('[', ',',
// ';'): before an element of a list, what stands before the list counts.
func runOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isSpace(c) && c != '[' && c != ',' && c != ';' {
			return false
		}
	}
	return true
}

// trimBlanks returns s without the blanks around it.
func trimBlanks(s string) string {
	i, j := 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}
