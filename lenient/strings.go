package lenient

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unicode/utf8"

	"github.com/dialectkit/toolcall"
)

// Strings are read in two passes over their bytes. The first finds where
// the string ends — deciding, for every quote inside, whether it closes the
// string — and what the content needs; the second writes the content.

// quoteKind is the delimiter a string was opened with.
type quoteKind uint8

const (
	qNone quoteKind = iota
	qDouble
	qSingle
	qCurlyDouble // “…”
	qCurlySingle // ‘…’
	qBacktick    // `…`, JavaScript's template quote
	qAcute       // ´…´, the acute accent typed for an apostrophe
)

// quoteAt returns the quote that starts at i and its width in bytes.
func quoteAt(src []byte, i int) (quoteKind, int) {
	switch src[i] {
	case '"':
		return qDouble, 1
	case '\'':
		return qSingle, 1
	case 0xE2:
		if i+2 < len(src) && src[i+1] == 0x80 {
			switch src[i+2] {
			case 0x9C, 0x9D:
				return qCurlyDouble, 3
			case 0x98, 0x99:
				return qCurlySingle, 3
			}
		}
	case '`':
		// Three backticks are a code fence, not a quote.
		if !(i+2 < len(src) && src[i+1] == '`' && src[i+2] == '`') {
			return qBacktick, 1
		}
	case 0xC2:
		if i+1 < len(src) && src[i+1] == 0xB4 {
			return qAcute, 2
		}
	}
	return qNone, 0
}

// closerAt returns the width of a quote at i that can close a string opened
// with q, or 0. Curly strings may close with either curly quote or the
// ASCII one, a backtick string with an acute accent and the reverse:
// models mix them.
func closerAt(q quoteKind, src []byte, i int) int {
	c := src[i]
	switch q {
	case qDouble:
		if c == '"' {
			return 1
		}
	case qSingle:
		if c == '\'' {
			return 1
		}
	case qCurlyDouble:
		if c == '"' {
			return 1
		}
		if k, w := quoteAt(src, i); k == qCurlyDouble {
			return w
		}
	case qCurlySingle:
		if c == '\'' {
			return 1
		}
		if k, w := quoteAt(src, i); k == qCurlySingle {
			return w
		}
	case qBacktick, qAcute:
		// The grave and the acute accent both stand for a quote, and
		// models pair them either way: `key´, ´key`.
		if c == '`' {
			return 1
		}
		if c == 0xC2 && i+1 < len(src) && src[i+1] == 0xB4 {
			return 2
		}
	}
	return 0
}

// inString sorts bytes for the first pass over a string: the ones it
// stops at (strStop), the ones it skips that JSON holds as they are
// (strSafe), and the ones it skips that the second pass must write with
// care (strCare: control characters and non-ASCII bytes).
var inString = func() (t [256]uint8) {
	for i := range t {
		if !safeInJSON[i] {
			t[i] = strCare
		}
	}
	for _, c := range []byte{'\\', '"', '\'', '{', '[', '}', ']', '\n', ':', 0xE2, '`', 0xC2} {
		t[c] = strStop
	}
	return t
}()

const (
	strSafe = 0
	strCare = 1
	strStop = 2
)

// safeInJSON marks the bytes a JSON string holds as they are.
var safeInJSON = func() (t [256]bool) {
	for i := 0x20; i < utf8.RuneSelf; i++ {
		t[i] = true
	}
	t['"'] = false
	t['\\'] = false
	return t
}()

// stringScan is what the first pass learned about a string.
type stringScan struct {
	open       int  // offset of the opening quote
	start, end int  // the content
	next       int  // where parsing resumes
	inner      int  // quotes inside the content taken as literal characters
	raw        bool // a backslash that starts no escape: all backslashes are literal
	trimRight  bool // the end was inferred: trailing whitespace is layout, not content
	layoutEnd  bool // closed by a quote whose own line was layout; see emitString
	dropped    bool // cut off by the end of the input with nothing worth keeping
	safe       bool // every byte read is one JSON holds as it is: one copy writes the content
	json       int8 // holdsJSON's answer: 0 not asked yet, 1 yes, -1 no
}

// scanString reads the string that opens at s.pos with quote q of width w.
func (s *scanner) scanString(ctx context, q quoteKind, w int) stringScan {
	st := stringScan{open: s.pos, start: s.pos + w}
	switch q {
	case qSingle:
		s.rec.add(toolcall.RepairSingleQuotes, s.pos)
	case qCurlyDouble, qCurlySingle, qBacktick, qAcute:
		s.guess()
		s.rec.add(toolcall.RepairSmartQuotes, s.pos)
	}
	src := s.src
	i := st.start
	bal, colon := 0, -1
	doubled := -1 // the offset of a doubled opening quote; -2 once decided against
	care := uint8(0)
	for {
		j := i
		for j < len(src) {
			k := inString[src[j]]
			if k == strStop {
				break
			}
			care |= k
			j++
		}
		s.tick(j - i + 1)
		i = j
		if i >= len(src) {
			s.stringAtEOF(&st, ctx, colon)
			break
		}
		c := src[i]
		if c == '\\' {
			care = strCare
			n, invalid := escapeLen(src, i)
			if invalid && !cutEscape(src, i) {
				st.raw = true
			}
			i += n
			continue
		}
		if cw := closerAt(q, src, i); cw > 0 {
			if s.quoteEnds(&st, ctx, q, i, cw, bal, colon, &doubled) {
				break
			}
			care = strCare
			i += cw
			continue
		}
		switch c {
		case '{', '[':
			bal++
		case '}', ']':
			bal--
		case ':':
			if colon < 0 {
				colon = i
			}
		case '"', '\n', 0xE2, 0xC2:
			care = strCare
		}
		i++
	}
	if doubled >= 0 {
		s.rec.add(toolcall.RepairStrayText, doubled)
	}
	st.safe = care == strSafe
	return st
}

// tripleString reads a Python triple-quoted string (three double or three
// single quotes) at s.pos and writes it, reporting whether there was one.
// As in Python, its content runs to the next run of the same three quotes
// (the last three of a longer run: """say "hi\"""" ends with a quote of
// the content); a quote or a line break inside is content. That run must
// be followed by what may follow a value in ctx, or there is no such
// string here. The search reads each byte once: it stops at the first run.
func (s *scanner) tripleString(ctx context) bool {
	src, open := s.src, s.pos
	c := src[open]
	if open+5 >= len(src) || src[open+1] != c || src[open+2] != c {
		return false
	}
	start := open + 3
	e := bytes.Index(src[start:], src[open:start])
	if e < 0 {
		s.tick(len(src) - start)
		return false
	}
	e += start
	for e+3 < len(src) && src[e+3] == c {
		e++
	}
	s.tick(e + 3 - start)
	if !s.properClose(e+3, ctx, 0, 0) {
		return false
	}
	s.guess()
	s.rec.add(toolcall.RepairPythonLiteral, open)
	raw := false
	s.tick(e - start)
	for k := start; k < e; k++ {
		if src[k] == '\\' {
			n, invalid := escapeLen(src, k)
			raw = raw || invalid
			k += n - 1
		}
	}
	s.out = append(s.out, '"')
	s.writeContent(start, e, raw, false)
	s.out = append(s.out, '"')
	s.pos = e + 3
	return true
}

// escapeLen returns the length of the escape sequence at i (a backslash)
// and whether it is one JSON does not know. An unknown escape is length 1:
// the backslash alone, the next byte read as usual.
func escapeLen(src []byte, i int) (int, bool) {
	if i+1 >= len(src) {
		return 1, true
	}
	switch e := src[i+1]; e {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't', '\'', '\n':
		return 2, false
	case '\r':
		if i+2 < len(src) && src[i+2] == '\n' {
			return 3, false
		}
		return 2, false
	case 'u':
		if hexRun(src, i+2, 4) {
			return 6, false
		}
	case 'x':
		if hexRun(src, i+2, 2) {
			return 4, false
		}
	default:
		if w := smartQuoteAt(src, i+1); w > 0 {
			return 1 + w, false
		}
	}
	return 1, true
}

// smartQuoteAt returns the width of a typographic quote at i (U+2018 to
// U+201F), or 0.
func smartQuoteAt(src []byte, i int) int {
	if i+2 < len(src) && src[i] == 0xE2 && src[i+1] == 0x80 && src[i+2] >= 0x98 && src[i+2] <= 0x9F {
		return 3
	}
	return 0
}

func hexRun(src []byte, at, n int) bool {
	if at+n > len(src) {
		return false
	}
	for _, c := range src[at : at+n] {
		if !isHex(c) {
			return false
		}
	}
	return true
}

// quoteEnds decides what the quote at i means for the string being read.
// It reports true when the string ends (st.end and st.next are set), false
// when the quote belongs to the content.
func (s *scanner) quoteEnds(st *stringScan, ctx context, q quoteKind, i, cw, bal, colon int, doubled *int) bool {
	after := i + cw
	// {"key: "value"}: the key's closing quote is missing before its
	// colon, and the quote is the value's opening one — not the key's
	// end before a value with its colon missing ({"key: " 3}).
	if ctx == ctxKey && st.inner == 0 && colon >= st.start && trimSpaceEnd(s.src, colon+1, i) == colon+1 {
		if k := s.skipAt(after); k < len(s.src) && s.src[k] != ':' && !equalsColon(s.src, k) && s.keyNameBefore(st.start, colon) {
			s.guess()
			s.rec.add(toolcall.RepairMissingQuote, colon)
			st.end, st.next, st.trimRight = colon, colon, true
			return true
		}
	}
	if s.properClose(after, ctx, st.inner, bal) {
		st.end, st.next = i, after
		return true
	}
	s.guess()
	// {"a": 1, """" "b": 2}: quotes where a key should be, then a space and
	// a key with its colon. What was read is no key: it is dropped and the
	// key after it read instead.
	if ctx == ctxKey {
		if j := s.skipAt(after); j > after && j < len(s.src) && quoteWidth(s.src, j) > 0 && s.keyPattern(j, false) {
			s.rec.add(toolcall.RepairStrayText, st.open)
			st.dropped, st.next = true, j
			return true
		}
	}
	// {"b": "x" true}, {"v": "data" AAAA }: one stray word between a
	// string with no inner quote and the object's closer; the string ends
	// here and the word is dropped (see objectBody), one change where
	// reading the quote as text would take two (an escaped quote and a
	// missing closing one).
	if ctx == ctxObjectValue && st.inner == 0 {
		if j := s.skipAt(after); j > after && isLetter(s.src[j]) && s.strayWordThenClose(j) {
			st.end, st.next = i, after
			return true
		}
	}
	// ""value": the opening quote was doubled. It is recorded when the
	// string ends: a quote inside the content later on makes it the first
	// of a quoted phrase instead (""yes" she said").
	if i == st.start && *doubled == -1 && ctx != ctxTop {
		*doubled = i
		st.start = after
		return false
	}
	// {"a""x"}: a key, then a string with no space and no colon between,
	// that closes cleanly as a value — unless a colon follows the second
	// quote: {""key"": 1} is a key in doubled quotes.
	if ctx == ctxKey && st.inner == 0 && i > st.start && after < len(s.src) {
		if q2, w2 := quoteAt(s.src, after); w2 > 0 {
			if k := s.skipAt(after + w2); k < len(s.src) && s.src[k] != ':' && s.cleanValueAt(after, q2) {
				st.end, st.next = i, after
				return true
			}
		}
	}
	// "value"": the closing quote was doubled (in a string with no quote
	// inside; "said "hi"" ends with an inner quote and the closing one).
	if after < len(s.src) && st.inner == 0 {
		if cw2 := closerAt(q, s.src, after); cw2 > 0 && s.properClose(after+cw2, ctx, st.inner, bal) {
			s.rec.add(toolcall.RepairStrayText, after)
			st.end, st.next = i, after+cw2
			return true
		}
	}
	if ctx != ctxKey && s.quoteLineBeforeTrailingComma(q, after) {
		return s.endWithStray(st, i, after)
	}
	// "first +⏎ "second": the text ends in a '+' joining it to the string
	// the quote opens, which closes cleanly; the closing quote before the
	// '+' is missing (see concatenation).
	if ctx != ctxKey && st.inner == 0 {
		if p := s.joinedBefore(st.start, i, q, ctx); p >= 0 {
			s.rec.add(toolcall.RepairMissingQuote, p)
			st.end, st.next, st.trimRight = p, p, true
			return true
		}
	}
	comma := -1
	if ctx != ctxKey {
		comma = s.closerBoundary(st.start, i, q, bal)
	}
	switch {
	case comma < 0 && bal > 0 && ctx != ctxKey && s.holdsJSON(st, q, ctx):
		// {"p": "{"a": 1, "b": 2}", "n": 1}: the string holds JSON
		// written with its quotes unescaped; its members are text.
	case comma >= 0:
	case ctx == ctxObjectValue:
		comma = s.memberBoundary(st.start, i, q)
		if comma < 0 && st.inner == 0 && bal == 0 {
			comma = s.lineBoundary(st.start, i)
		}
	case ctx == ctxArrayValue:
		comma = s.elementBoundary(st.start, i, q)
	}
	if comma >= 0 {
		s.rec.add(toolcall.RepairMissingQuote, comma)
		st.end, st.next, st.trimRight = comma, comma, true
		return true
	}
	// {"key:"value"}: the key's closing quote was left out before the colon.
	if ctx == ctxKey && colon >= st.start {
		s.rec.add(toolcall.RepairMissingQuote, colon)
		st.end, st.next, st.trimRight = colon, colon, true
		return true
	}
	if *doubled >= 0 && st.inner == 0 && ctx != ctxKey {
		st.start, *doubled = *doubled, -2
		st.inner++
		s.rec.add(toolcall.RepairUnescapedQuotes, st.start)
	}
	st.inner++
	s.rec.add(toolcall.RepairUnescapedQuotes, i)
	return false
}

// quoteLineBeforeTrailingComma reports whether, after a quote ending at
// after, only whitespace leads to another quote followed by a comma that
// ends its container: "text"\n",} — the second quote is a stray.
func (s *scanner) quoteLineBeforeTrailingComma(q quoteKind, after int) bool {
	j := s.skipWS(after)
	if j == after || j >= len(s.src) {
		return false
	}
	cw := closerAt(q, s.src, j)
	if cw == 0 {
		return false
	}
	k := s.skipWS(j + cw)
	if k >= len(s.src) || s.src[k] != ',' {
		return false
	}
	m := s.skipAt(k + 1)
	if m >= len(s.src) || s.fenceAt(m) {
		return true
	}
	switch s.src[m] {
	case '}', ']', ')':
		return true
	}
	return false
}

// endWithStray ends the string at the quote at i and drops the stray quote
// found after it by quoteLineBeforeTrailingComma.
func (s *scanner) endWithStray(st *stringScan, i, after int) bool {
	j := s.skipWS(after)
	_, w := quoteAt(s.src, j)
	s.rec.add(toolcall.RepairStrayText, j)
	st.end, st.next, st.layoutEnd = i, j+w, true
	return true
}

// maxEOFSplits bounds how often a string that ran to the end of the input
// is cut back at a member boundary, which makes the parser read its tail
// again.
const maxEOFSplits = 2

// stringAtEOF settles a string that the input ended inside.
func (s *scanner) stringAtEOF(st *stringScan, ctx context, colon int) {
	n := len(s.src)
	s.guess()
	if ctx == ctxKey {
		if colon >= st.start && s.eofScans < maxEOFSplits {
			s.eofScans++
			s.rec.add(toolcall.RepairMissingQuote, colon)
			st.end, st.next, st.trimRight = colon, colon, true
			return
		}
		if st.inner > 0 {
			// Quotes inside a key that never ends: the structure is
			// broken, not cut off; dropping it would lose text.
			s.fail(st.open, "key string never closes")
		}
		s.rec.add(toolcall.RepairTruncatedValue, st.open)
		st.dropped, st.next = true, n
		return
	}
	// The content may end with the structure that closes it, "value"}: the
	// closing quote was missing, not the rest of the text.
	if tail := s.structuralTail(st.start, n); tail < n {
		end := tail
		// "en,} — the comma before the closers was a trailing one.
		if e := trimSpaceEnd(s.src, st.start, end); e > st.start && s.src[e-1] == ',' {
			end = e - 1
		}
		if ctx == ctxObjectValue && s.eofScans < maxEOFSplits {
			if b := s.firstBoundary(st.start, tail); b >= 0 {
				s.eofScans++
				end = b
			}
		}
		s.rec.add(toolcall.RepairMissingQuote, end)
		st.end, st.next, st.trimRight = end, end, true
		return
	}
	// A member's value cut off right after its opening quote is the empty
	// string ({"a": "), as jsonrepair reads it: the model wrote a string.
	// An array element there is dropped (["), as json_repair does.
	st.end, st.next = truncatedEnd(s.src, st.start), n
	if st.end == st.start && ctx == ctxArrayValue {
		s.rec.add(toolcall.RepairTruncatedValue, st.open)
		st.dropped = true
		return
	}
	s.rec.add(toolcall.RepairTruncatedString, st.open)
}

// cutEscape reports whether the backslash at i starts an escape that the
// end of the input cut off: a lone backslash, \u with fewer than four hex
// digits, \x with fewer than two.
func cutEscape(src []byte, i int) bool {
	rest := src[i+1:]
	switch {
	case len(rest) == 0:
		return true
	case rest[0] == 'u' && len(rest) <= 4, rest[0] == 'x' && len(rest) <= 2:
		for _, c := range rest[1:] {
			if !isHex(c) {
				return false
			}
		}
		return true
	}
	return false
}

// truncatedEnd returns where the content of a string that the input cut
// off ends, the input ending at len(src). What the cut fell inside is not
// content: an escape ("x\u00") or a character's UTF-8 bytes ("Z\xc3"). The
// line break a terminal or a file adds after the last line is not in src
// (see trimFinalBreak).
func truncatedEnd(src []byte, start int) int {
	end := len(src)
	// A character the cut fell inside: its first bytes are no character.
	for b := end - 1; b >= start && b >= end-3; b-- {
		if c := src[b]; c < 0x80 || c >= 0xC0 {
			if c >= 0xC0 && !utf8.FullRune(src[b:end]) {
				end = b
			}
			break
		}
	}
	for b := end - 1; b >= start && b >= end-5; b-- {
		if src[b] != '\\' {
			continue
		}
		// The backslash starts an escape only if it is not itself escaped.
		run := 0
		for k := b; k >= start && src[k] == '\\'; k-- {
			run++
		}
		if run%2 == 1 && cutEscape(src, b) {
			end = b
		}
		break
	}
	if b := end - 6; b >= start && highSurrogateEscape(src[b:end]) {
		// The cut fell between the two halves of a surrogate pair: the
		// first half alone is no character.
		run := 0
		for k := b; k >= start && src[k] == '\\'; k-- {
			run++
		}
		if run%2 == 1 {
			return b
		}
	}
	return end
}

// highSurrogateEscape reports whether e is an escape \uD800 to \uDBFF, the
// first half of a surrogate pair.
func highSurrogateEscape(e []byte) bool {
	if len(e) != 6 || e[0] != '\\' || e[1] != 'u' || !hexRun(e, 2, 4) {
		return false
	}
	return (e[2] == 'd' || e[2] == 'D') && bytes.IndexByte([]byte("89abAB"), e[3]) >= 0
}

// structuralTail returns where the trailing structure of an unterminated
// string's content begins: closing brackets that close the open containers
// in order (beyond the brackets the content opened itself), and code
// fences. It returns end when there is none.
func (s *scanner) structuralTail(start, end int) int {
	src := s.src
	t := end
	closers := false
	for t > start {
		c := src[t-1]
		// A comma counts when closers follow it: "Peter,],} — the
		// trailing commas of the containers the cut string closes.
		if isSpace(c) || c == '`' || c == '}' || c == ']' || c == ')' || c == ',' && closers {
			closers = closers || c == '}' || c == ']' || c == ')'
			t--
			continue
		}
		break
	}
	if t == end {
		return end
	}
	depth := 0
	for _, c := range src[start:t] {
		switch c {
		case '{', '[', '(':
			depth++
		case '}', ']', ')':
			if depth > 0 {
				depth--
			}
		}
	}
	s.tick(end - start)
	level := len(s.stack) - 1
	tail := -1
	for i := t; i < end; i++ {
		c := src[i]
		switch {
		case isSpace(c):
		case c == '`':
			run := i
			for run < end && src[run] == '`' {
				run++
			}
			if run-i >= 3 {
				// A fence that closes a block the content opened
				// (```python … ```) is content: a Markdown text cut off
				// after it.
				if tail < 0 && fenceRuns(src[start:i])%2 == 1 {
					return end
				}
				if tail < 0 {
					tail = i
				}
			} else {
				tail = -1
			}
			i = run - 1
		case c == ',':
			if depth > 0 {
				tail = -1
			} else if tail < 0 {
				tail = i
			}
		case depth > 0:
			depth--
			tail = -1
		case level >= 0 && closerOf(s.stack[level]) == c:
			if tail < 0 {
				tail = i
			}
			level--
		default:
			return end
		}
	}
	if tail < 0 {
		return end
	}
	return tail
}

// fenceRuns counts the runs of three or more backticks in b.
func fenceRuns(b []byte) int {
	n := 0
	for i := 0; i < len(b); i++ {
		if b[i] != '`' {
			continue
		}
		run := i
		for run < len(b) && b[run] == '`' {
			run++
		}
		if run-i >= 3 {
			n++
		}
		i = run
	}
	return n
}

// firstBoundary returns the first comma in src[start:end] that is followed
// by a key and a colon — where a string missing its closing quote ended —
// or -1.
func (s *scanner) firstBoundary(start, end int) int {
	src := s.src
	for i := start; i < end; i++ {
		switch src[i] {
		case '\\':
			i++
		case ',':
			if k := s.skipWS(i + 1); k < end && s.keyPattern(k, false) {
				s.tick(i - start)
				return i
			}
		}
	}
	s.tick(end - start)
	return -1
}

// memberBoundary reports the comma where a string value should have ended
// when the quote at i starts the next member instead: either the quote
// opens a key ("a": "x, "b": 1) or it opens the value of a key that stands
// in the content ("a": "x, b: "y"). It returns -1 otherwise.
func (s *scanner) memberBoundary(start, i int, q quoteKind) int {
	j := s.commaBefore(start, i)
	if j >= start && s.src[j] == ',' && s.keyPattern(i, false) {
		return j
	}
	if comma := s.keyBefore(start, i); comma >= 0 && s.cleanValueAt(i, q) {
		return comma
	}
	return -1
}

// commaBefore returns the last byte before i, in src[start:i], that is no
// whitespace and no comment between a comma and i: "x, // note⏎"b": 1 and
// "x, /* note */ "b": 1 give the comma, as "x, "b": 1 does. The caller
// checks whether it is a comma.
func (s *scanner) commaBefore(start, i int) int {
	src := s.src
	j := skipSpaceBack(src, start, i-1)
	if j < start {
		return j
	}
	if j > start && src[j] == '/' && src[j-1] == '*' {
		// a block comment ends here: the comma stands before it
		if o := bytes.LastIndex(src[start:j-1], []byte("/*")); o >= 0 {
			s.tick(j - start - o)
			return skipSpaceBack(src, start, start+o-1)
		}
		return j
	}
	if !s.lineBreakIn(j, i) {
		return j
	}
	// a line comment runs to the end of j's line: find where it starts
	ls := j
	for ls > start && src[ls-1] != '\n' {
		ls--
	}
	s.tick(j - ls)
	line := src[ls : j+1]
	o := bytes.Index(line, []byte("//"))
	if h := bytes.IndexByte(line, '#'); h >= 0 && (o < 0 || h < o) {
		o = h
	}
	if o < 0 {
		return j
	}
	if c := skipSpaceBack(src, start, ls+o-1); c >= start && src[c] == ',' {
		return c
	}
	return j
}

// lineBoundary reports the line break where a one-line string value
// should have ended when the quote at i, first on the next line, opens
// the next member's key: {⏎"a": "foo⏎"b": "bar"⏎}. It returns -1
// otherwise. The caller asks only for a string with no quote or open
// bracket inside, so that JSON written raw inside a string stays text.
func (s *scanner) lineBoundary(start, i int) int {
	j := i - 1
	for j >= start && (s.src[j] == ' ' || s.src[j] == '\t') {
		j--
	}
	if j < start || s.src[j] != '\n' {
		return -1
	}
	nl := j
	if nl > start && s.src[nl-1] == '\r' {
		nl--
	}
	if nl == start || bytes.IndexByte(s.src[start:nl], '\n') >= 0 || !s.keyPattern(i, false) {
		return -1
	}
	return nl
}

// elementBoundary is memberBoundary for an array element: the quote at i,
// after a comma, opens a string that closes cleanly as the next element
// ("a, "b"] — the first element's closing quote is missing before the
// comma). It returns the comma, or -1.
func (s *scanner) elementBoundary(start, i int, q quoteKind) int {
	j := s.commaBefore(start, i)
	if j < start || s.src[j] != ',' || !s.cleanElementAt(i, q) {
		return -1
	}
	return j
}

// holdsJSON reports whether the string st, opened with q, holds a JSON
// object or array written with its quotes unescaped: its content starts
// with '{' or '[', the brackets from there balance at a closer, and right
// after that closer a quote closes the string properly in ctx. The answer
// is kept in st: it is one look over the content.
func (s *scanner) holdsJSON(st *stringScan, q quoteKind, ctx context) bool {
	if st.json != 0 {
		return st.json > 0
	}
	st.json = -1
	src := s.src
	if st.start >= len(src) || src[st.start] != '{' && src[st.start] != '[' {
		return false
	}
	depth := 0
	k := st.start
loop:
	for ; k < len(src); k++ {
		switch src[k] {
		case '\\':
			k++
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				break loop
			}
		}
	}
	s.tick(k - st.start)
	if k+1 >= len(src) {
		return false
	}
	if cw := closerAt(q, src, k+1); cw > 0 && s.properClose(k+1+cw, ctx, 0, 0) {
		st.json = 1
	}
	return st.json > 0
}

// closerBoundary returns the closer of the innermost container in
// `}, "key":` or `], {"key":` that ends just before the quote at i, or -1:
// the string's closing quote is missing before its container's closer,
// and what follows the comma is the next item of the container around
// it: {"a": {"b": "x}, "c": 1}, [{"k": "v}, {"k": "w"}], {"tags": ["a",
// "b], "n": 1}. bal is the balance of the brackets read in the content;
// the closer must be one the content did not open.
func (s *scanner) closerBoundary(start, i int, q quoteKind, bal int) int {
	src := s.src
	n := len(s.stack)
	if n < 2 {
		return -1
	}
	j := skipSpaceBack(src, start, i-1)
	opener := byte(0)
	if j >= start && (src[j] == '{' || src[j] == '[') {
		opener = src[j]
		bal--
		j = skipSpaceBack(src, start, j-1)
	}
	if bal >= 0 || j < start || src[j] != ',' {
		return -1
	}
	k := skipSpaceBack(src, start, j-1)
	closer := byte(']')
	if s.stack[n-1] == '{' {
		closer = '}'
	}
	if k < start || src[k] != closer {
		return -1
	}
	var fits bool
	switch {
	case s.stack[n-2] == '{':
		fits = opener == 0 && s.keyPattern(i, false)
	case opener == '{':
		fits = s.keyPattern(i, false)
	case opener == '[':
		fits = s.cleanElementAt(i, q)
	default:
		fits = s.cleanElementAt(i, q)
	}
	if !fits {
		return -1
	}
	return k
}

// keyNameBefore reports whether src[start:colon] reads as a key's name:
// no quote, bracket or line break in it.
func (s *scanner) keyNameBefore(start, colon int) bool {
	s.tick(colon - start)
	for _, c := range s.src[start:colon] {
		switch c {
		case '"', '\'', '{', '}', '[', ']', '\n', ',':
			return false
		}
	}
	return colon > start
}

// cleanElementAt reports whether the string opening at i closes at its
// first closing quote, properly, as an array element.
func (s *scanner) cleanElementAt(i int, q quoteKind) bool {
	src := s.src
	_, w := quoteAt(src, i)
	k := i + w
	for k < len(src) {
		if src[k] == '\\' {
			k += 2
			continue
		}
		if cw := closerAt(q, src, k); cw > 0 {
			s.tick(k - i)
			m := s.skipAt(k + cw)
			if m >= len(src) || s.fenceAt(m) {
				return true
			}
			switch src[m] {
			case ',', ']', ')':
				return s.properClose(k+cw, ctxArrayValue, 0, 0)
			}
			// ["a, "b, "c"]: the next element lacks its closing quote too.
			e := skipSpaceBack(src, i+w, k-1)
			return e >= i+w && src[e] == ','
		}
		k++
	}
	s.tick(k - i)
	return false
}

// keyBefore returns the comma of a ", key: " that ends just before i, or -1.
func (s *scanner) keyBefore(start, i int) int {
	src := s.src
	j := i - 1
	for j >= start && isSpace(src[j]) {
		j--
	}
	if j < start || src[j] != ':' {
		return -1
	}
	j--
	for j >= start && isSpace(src[j]) {
		j--
	}
	k := j
	for j >= start && isKeyByte(src[j]) {
		j--
	}
	if j == k || !isKeyStart(src[j+1]) {
		return -1
	}
	for j >= start && isSpace(src[j]) {
		j--
	}
	if j < start || src[j] != ',' {
		return -1
	}
	s.tick(i - j)
	return j
}

// cleanValueAt reports whether the string opening at i closes at its first
// closing quote, properly, as an object value.
func (s *scanner) cleanValueAt(i int, q quoteKind) bool {
	src := s.src
	_, w := quoteAt(src, i)
	k := i + w
	for k < len(src) {
		if src[k] == '\\' {
			k += 2
			continue
		}
		if cw := closerAt(q, src, k); cw > 0 {
			s.tick(k - i)
			return s.properClose(k+cw, ctxObjectValue, 0, 0)
		}
		k++
	}
	s.tick(k - i)
	return false
}

// layoutBreak reports whether whitespace with a line break at the end of a
// closed string is layout: in a key ("key⏎": 1), before a closing quote
// followed by a stray quote line, and in a string holding a code fence,
// a Markdown block whose closing quote the model put on a line of its own.
func (s *scanner) layoutBreak(st stringScan, ctx context) bool {
	if ctx == ctxKey || st.layoutEnd {
		return true
	}
	return bytes.Contains(s.src[st.start:st.end], fence)
}

// emitString writes the string read by scanString and moves past it.
func (s *scanner) emitString(st stringScan, ctx context) {
	s.pos = st.next
	end := st.end
	switch {
	case st.trimRight:
		end = trimSpaceEnd(s.src, st.start, end)
	case end > st.start && isSpace(s.src[end-1]) && s.layoutBreak(st, ctx):
		// The line break before the closing quote is layout here, not
		// content; elsewhere a closed string keeps it ("hello⏎" is a file
		// that ends with a newline).
		if e := trimSpaceEnd(s.src, st.start, end); indexByte(s.src[e:end], '\n') >= 0 {
			s.rec.add(toolcall.RepairControlCharacter, e)
			end = e
		}
	}
	s.out = append(s.out, '"')
	if st.safe {
		s.out = append(s.out, s.src[st.start:end]...)
		s.tick(end - st.start)
	} else {
		s.writeContent(st.start, end, st.raw, st.inner > 0)
	}
	s.out = append(s.out, '"')
}

func trimSpaceEnd(src []byte, start, end int) int {
	return skipSpaceBack(src, start, end-1) + 1
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

// writeContent writes src[start:end] as the inside of a JSON string. raw
// means the string had a backslash that starts no escape, the sign of text
// whose backslashes are literal (C:\Users\new); broken means it had literal
// quotes inside, whose backslashes (\\") were the model's attempt at an
// escape.
func (s *scanner) writeContent(start, end int, raw, broken bool) {
	src := s.src
	noted := false
	for i := start; i < end; {
		j := i
		// Eight bytes at a time while all of them are safe as they are;
		// the lowest mark of special8 is the first byte that is not.
		for j+8 <= end {
			if m := special8(binary.LittleEndian.Uint64(src[j:])); m != 0 {
				j += bits.TrailingZeros64(m) >> 3
				break
			}
			j += 8
		}
		for j < end && safeInJSON[src[j]] {
			j++
		}
		s.out = append(s.out, src[i:j]...)
		i = j
		if i >= end {
			break
		}
		switch c := src[i]; {
		case c == '\\':
			i = s.writeEscape(i, end, raw, broken)
		case c == '"':
			s.out = append(s.out, '\\', '"')
			i++
		case c < 0x20:
			if !noted {
				s.guess()
				s.rec.add(toolcall.RepairControlCharacter, i)
				noted = true
			}
			s.out = appendControl(s.out, c)
			i++
		default:
			r, size := utf8.DecodeRune(src[i:end])
			if r == utf8.RuneError && size == 1 {
				s.rec.add(toolcall.RepairInvalidUTF8, i)
				s.out = append(s.out, `\ufffd`...)
				i++
				continue
			}
			s.out = append(s.out, src[i:i+size]...)
			i += size
		}
	}
	s.tick(end - start)
}

func appendControl(out []byte, c byte) []byte {
	const hex = "0123456789abcdef"
	switch c {
	case '\n':
		return append(out, '\\', 'n')
	case '\r':
		return append(out, '\\', 'r')
	case '\t':
		return append(out, '\\', 't')
	case '\b':
		return append(out, '\\', 'b')
	case '\f':
		return append(out, '\\', 'f')
	}
	return append(out, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
}

// writeEscape writes the escape sequence at i and returns the offset after
// what it consumed.
func (s *scanner) writeEscape(i, end int, raw, broken bool) int {
	src := s.src
	if broken {
		j := i
		for j < end && src[j] == '\\' {
			j++
		}
		if j < end {
			if _, w := quoteAt(src, j); w > 0 {
				if j-i > 1 || src[j] != '"' {
					s.rec.add(toolcall.RepairInvalidEscape, i)
				}
				return s.writeQuoteChar(j, w)
			}
		}
	}
	if i+1 >= end {
		s.literalBackslash(i)
		return i + 1
	}
	switch e := src[i+1]; e {
	case '"', '\\', '/':
		s.out = append(s.out, '\\', e)
		return i + 2
	case 'b', 'f', 'n', 'r', 't':
		if raw {
			s.literalBackslash(i)
			return i + 1
		}
		s.out = append(s.out, '\\', e)
		return i + 2
	case 'u':
		if hexRun(src, i+2, 4) {
			s.out = append(s.out, src[i:i+6]...)
			return i + 6
		}
	case 'x':
		if hexRun(src, i+2, 2) {
			s.guess()
			s.rec.add(toolcall.RepairInvalidEscape, i)
			s.out = append(s.out, '\\', 'u', '0', '0', src[i+2], src[i+3])
			return i + 4
		}
	case '\'':
		s.rec.add(toolcall.RepairInvalidEscape, i)
		s.out = append(s.out, '\'')
		return i + 2
	case '\n':
		// A backslash before a line break (a JSON5 line continuation, or
		// an escape written with a real newline): the line break is kept.
		s.rec.add(toolcall.RepairJSON5, i)
		s.out = append(s.out, '\\', 'n')
		return i + 2
	case '\r':
		s.rec.add(toolcall.RepairJSON5, i)
		s.out = append(s.out, '\\', 'r')
		if i+2 < end && src[i+2] == '\n' {
			s.out = append(s.out, '\\', 'n')
			return i + 3
		}
		return i + 2
	default:
		if w := smartQuoteAt(src, i+1); w > 0 {
			s.guess()
			s.rec.add(toolcall.RepairInvalidEscape, i)
			return s.writeQuoteChar(i+1, w)
		}
	}
	s.literalBackslash(i)
	return i + 1
}

// literalBackslash writes the backslash at i as a character of the text.
func (s *scanner) literalBackslash(i int) {
	s.guess()
	s.rec.add(toolcall.RepairInvalidEscape, i)
	s.out = append(s.out, '\\', '\\')
}

// writeQuoteChar writes the quote character at i as content.
func (s *scanner) writeQuoteChar(i, w int) int {
	if s.src[i] == '"' {
		s.out = append(s.out, '\\', '"')
	} else {
		s.out = append(s.out, s.src[i:i+w]...)
	}
	return i + w
}

// quoteWidth returns the width of a quote at i, or 0.
func quoteWidth(src []byte, i int) int {
	_, w := quoteAt(src, i)
	return w
}

// joinedBefore returns where a string missing its closing quote ends when
// its text, up to the quote at i, ends in a '+' after a space, with a
// line break between the '+' and the quote ("first +⏎ "second"), and the
// quote opens a string that closes cleanly in ctx: the '+' joins two
// strings, as in JavaScript. It returns the offset of the '+', or -1.
func (s *scanner) joinedBefore(start, i int, q quoteKind, ctx context) int {
	src := s.src
	p := trimSpaceEnd(src, start, i) - 1
	if p-1 < start || src[p] != '+' || src[p-1] != ' ' || !s.lineBreakIn(p, i) {
		return -1
	}
	_, w := quoteAt(src, i)
	k := i + w
	for ; k < len(src) && src[k] != '\n'; k++ {
		if src[k] == '\\' {
			k++
			continue
		}
		if cw := closerAt(q, src, k); cw > 0 {
			s.tick(k - i)
			if s.properClose(k+cw, ctx, 0, 0) {
				return p
			}
			return -1
		}
	}
	s.tick(k - i)
	return -1
}
