package lenient

import (
	"bytes"

	"github.com/dialectkit/toolcall"
)

// Whitespace, comments, and the look-ahead questions the rules ask: does a
// quote close its string, does a key start here, which closer was meant.
// Look-ahead never writes and never records; every byte it reads is counted
// as work.

func isSpace(c byte) bool { return spaceClass[c] == spaceASCII }

// spaceClass sorts bytes for the loops that skip whitespace: the ASCII
// spaces (the space, \t, \n, \r, \f, \v), the bytes that may start
// something else to skip or look at (a comment, a Unicode space, a BOM,
// \v, which is a repair), and the rest, which end the whitespace.
var spaceClass = func() (t [256]uint8) {
	for _, c := range []byte{' ', '\t', '\n', '\r', '\f', '\v'} {
		t[c] = spaceASCII
	}
	for c := 0xC2; c < 256; c++ {
		t[c] = spaceMaybe
	}
	t['/'], t['#'] = spaceMaybe, spaceMaybe
	return t
}()

const (
	spaceNone  = 0
	spaceASCII = 1
	spaceMaybe = 2
)

// uspaceAt returns the width of a Unicode space character at i, or 0:
// U+00A0, U+1680, U+180E, U+2000 to U+200B, U+2028, U+2029, U+202F,
// U+205F and U+3000. Outside strings they are whitespace, as ASCII
// spaces are; models and editors put them between tokens.
func uspaceAt(src []byte, i int) int {
	if i >= len(src) || src[i] < 0xC2 {
		return 0
	}
	switch src[i] {
	case 0xC2:
		if i+1 < len(src) && src[i+1] == 0xA0 {
			return 2
		}
	case 0xE1:
		if i+2 < len(src) && (src[i+1] == 0x9A && src[i+2] == 0x80 || src[i+1] == 0xA0 && src[i+2] == 0x8E) {
			return 3
		}
	case 0xE2:
		if i+2 < len(src) {
			switch c1, c2 := src[i+1], src[i+2]; {
			case c1 == 0x80 && (c2 >= 0x80 && c2 <= 0x8B || c2 == 0xA8 || c2 == 0xA9 || c2 == 0xAF):
				return 3
			case c1 == 0x81 && c2 == 0x9F:
				return 3
			}
		}
	case 0xE3:
		if i+2 < len(src) && src[i+1] == 0x80 && src[i+2] == 0x80 {
			return 3
		}
	}
	return 0
}

// spaceWidth returns the width of the whitespace character at i, ASCII or
// Unicode, or 0.
func spaceWidth(src []byte, i int) int {
	switch c := src[i]; spaceClass[c] {
	case spaceASCII:
		return 1
	case spaceMaybe:
		if c >= 0xC2 {
			return uspaceAt(src, i)
		}
	}
	return 0
}

// skipSpaceBack returns the last position at or after start, moving back
// from i, whose byte is not whitespace, or start-1. Unicode spaces count.
func skipSpaceBack(src []byte, start, i int) int {
	for i >= start {
		if isSpace(src[i]) {
			i--
			continue
		}
		if src[i] >= 0x80 && i-1 >= start {
			if i-2 >= start && uspaceAt(src, i-2) == 3 {
				i -= 3
				continue
			}
			if uspaceAt(src, i-1) == 2 {
				i -= 2
				continue
			}
		}
		break
	}
	return i
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHex(c byte) bool { return isDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'f' }

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// isKeyStart reports whether an unquoted key may start with c.
func isKeyStart(c byte) bool {
	return isLetter(c) || isDigit(c) || c == '_' || c == '$' || c >= 0x80
}

// isKeyByte reports whether c may continue an unquoted key.
func isKeyByte(c byte) bool { return isKeyStart(c) || c == '-' || c == '.' }

// space skips whitespace and comments at s.pos, recording the comments.
func (s *scanner) space() {
	start := s.pos
	for s.pos < len(s.src) {
		c := s.src[s.pos]
		switch cl := spaceClass[c]; {
		case cl == spaceNone:
			s.tick(s.pos - start)
			return
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			s.pos++
		case c == '/' || c == '#':
			end, ok := s.commentEnd(s.pos)
			if !ok {
				s.tick(s.pos - start)
				return
			}
			if c == '#' {
				s.guess()
			}
			s.rec.add(toolcall.RepairComment, s.pos)
			s.pos = end
		case c == '\v':
			s.guess()
			s.pos++
		case c >= 0xC2 && uspaceAt(s.src, s.pos) > 0:
			s.guess()
			s.pos += uspaceAt(s.src, s.pos)
		case c == 0xEF && bytes.HasPrefix(s.src[s.pos:], bom):
			s.guess()
			s.rec.add(toolcall.RepairBOM, s.pos)
			s.pos += len(bom)
		default:
			s.tick(s.pos - start)
			return
		}
	}
	s.tick(s.pos - start)
}

// skipAt returns the first position at or after i that is neither
// whitespace nor inside a comment.
func (s *scanner) skipAt(i int) int {
	start := i
	for i < len(s.src) {
		c := s.src[i]
		cl := spaceClass[c]
		if cl == spaceNone {
			break
		}
		if cl == spaceASCII {
			i++
			continue
		}
		if w := uspaceAt(s.src, i); w > 0 {
			i += w
			continue
		}
		if c == '/' || c == '#' {
			if end, ok := s.commentEnd(i); ok {
				i = end
				continue
			}
		}
		break
	}
	s.tick(i - start + 1)
	return i
}

// hashValueAt reports whether the '#' at i starts a value, not a comment:
// it stands where a value does (after ':', ',' or '['), a word follows it
// with no space, and the word ends the value on its line, at a comma, a
// closer, a quote or the end of the input: {"color": #ff0000}, ["#a", #b],
// {"tag": #x-y", …}. "# note" and "#note⏎" stay comments.
func (s *scanner) hashValueAt(i int) bool {
	src := s.src
	if i+1 >= len(src) || spaceClass[src[i+1]] != spaceNone || src[i+1] == '#' {
		return false
	}
	b := skipSpaceBack(src, 0, i-1)
	if b < 0 || src[b] != ':' && src[b] != ',' && src[b] != '[' {
		return false
	}
	k := i + 1
	for k < len(src) && spaceClass[src[k]] == spaceNone {
		switch src[k] {
		case ',', '}', ']', ')', '"', '\'':
			s.tick(k - i)
			return true
		}
		k++
	}
	s.tick(k - i)
	for k < len(src) && (src[k] == ' ' || src[k] == '\t') {
		k++
	}
	if k >= len(src) {
		return true
	}
	switch src[k] {
	case ',', '}', ']', ')':
		return true
	}
	return false
}

// commentEnd returns the end of the comment starting at i: //, /* */ or #.
func (s *scanner) commentEnd(i int) (int, bool) {
	src := s.src
	if src[i] == '#' {
		if s.hashValueAt(i) {
			return 0, false
		}
		return s.lineCommentEnd(i + 1), true
	}
	if i+1 >= len(src) {
		return 0, false
	}
	switch src[i+1] {
	case '/':
		return s.lineCommentEnd(i + 2), true
	case '*':
		e := bytes.Index(src[i+2:], []byte("*/"))
		if e < 0 {
			s.tick(len(src) - i)
			return len(src), true
		}
		s.tick(e + 4)
		return i + 2 + e + 2, true
	}
	return 0, false
}

// lineCommentEnd returns where a line comment whose text starts at i ends:
// at the end of the line, or — when the model wrote the rest of the
// document on the same line, { "a": 1 # note }, "b": 2 } — at the closer of
// the innermost container that has more text after it on that line.
func (s *scanner) lineCommentEnd(i int) int {
	src := s.src
	e := bytes.IndexByte(src[i:], '\n')
	if e < 0 {
		e = len(src)
	} else {
		e += i
	}
	s.tick(e - i)
	closer := s.innerCloser()
	if closer == 0 {
		return e
	}
	for j := i; j < e; j++ {
		if src[j] != closer {
			continue
		}
		for k := j + 1; k < e; k++ {
			if !isSpace(src[k]) {
				return j
			}
		}
		return e
	}
	return e
}

// nextQuoteOrNewline returns the first quote or line break at or after i.
// The answer is cached: queries move forward, and a query inside the span
// of the last answer has the same answer.
func (s *scanner) nextQuoteOrNewline(i int) int {
	if i >= s.nqFrom && i <= s.nqAt {
		return s.nqAt
	}
	src := s.src
	j := i
	for j < len(src) {
		c := src[j]
		if c == '\n' || c == '\r' || c == '"' || c == '\'' {
			break
		}
		if c == 0xE2 {
			if _, w := quoteAt(src, j); w > 0 {
				break
			}
		}
		j++
	}
	s.tick(j - i + 1)
	s.nqFrom, s.nqAt = i, j
	return j
}

// properClose reports whether a quote ending at after closes a string
// standing in ctx: what follows it is what may follow such a value.
// inner and bal describe the content so far: literal quotes seen inside it
// and the balance of its brackets. A string that already had stray quotes
// and opened a bracket it has not closed is not closed by a closing bracket:
// "see {"a": 1} here" keeps its inner object.
func (s *scanner) properClose(after int, ctx context, inner, bal int) bool {
	j := s.skipAt(after)
	if j >= len(s.src) || s.fenceAt(j) {
		return true
	}
	c := s.src[j]
	switch ctx {
	case ctxTop:
		return true
	case ctxKey:
		// {"a"="b"}: '=' stands for the colon, as after an unquoted key.
		if c == ':' || inner == 0 && equalsColon(s.src, j) {
			return true
		}
		// {"a": 1, "b"}: a key with no value before the closer (see
		// memberValue).
		if c == '}' && inner == 0 {
			return true
		}
		// "key" "value", "key" 1: the colon is missing — unless the key
		// already had stray quotes, and nothing about it is certain. With
		// no space, only a number, an object or an array may follow:
		// {"a"2}; a letter or quote there belongs to the key.
		if inner > 0 {
			return false
		}
		if j > after {
			// A string that is itself a key ("" "lorem": 1) is not the
			// value: the quotes before it were no key.
			return s.valueStartAt(j) && !s.keyPattern(j, false)
		}
		if isDigit(c) || c == '-' || c == '{' || c == '[' {
			return true
		}
		// {"a"true}: a literal. A letter that starts none ({"k"e"y": 1})
		// stays in the key; for a quote see quoteEnds.
		return s.literalAt(j)
	}
	switch c {
	case ',':
		return s.fitsAfterComma(j+1, ctx, inner)
	case '+':
		// "a" + "b": a string joined to the next; see concatenation.
		if inner > 0 {
			return false
		}
		k := s.skipAt(j + 1)
		if k >= len(s.src) {
			return true // "a" + and the input ends: the joined string was cut off
		}
		_, w := quoteAt(s.src, k)
		return w > 0
	case '}', ']', ')':
		return s.closerFits(j, c, inner, bal)
	case ':':
		// ["key": "value"]: the string is the key of an object whose '{'
		// is missing.
		return ctx == ctxArrayValue
	}
	if _, w := quoteAt(s.src, j); w > 0 {
		// A string right after: the comma between two members is missing.
		if ctx == ctxObjectValue {
			return s.keyPattern(j, false)
		}
		// ["a", "b"⏎"key": 1}: the next member of the object around the
		// array; the array's closer is missing (see arrayBody).
		if ctx == ctxArrayValue && inner == 0 && j > after && s.inObjectMember() && s.keyPattern(j, false) {
			return true
		}
		return j > after && s.cleanStringAt(j)
	}
	// "a": "x"⏎ b: 2 — an unquoted key after the quote: the comma between
	// two members is missing, as before a quoted key. The key must stand
	// on a new line, or the string must have had no stray quote so far.
	if ctx == ctxObjectValue && j > after && isKeyStart(c) && (inner == 0 || s.lineBreakIn(after, j)) && s.bareKeyAt(j) {
		return true
	}
	// ["a", "b"⏎1], ["a" [1]]: a number or literal on the next line, or a
	// container, after a string that had no inner quote is the next
	// element, its comma missing.
	if ctx == ctxArrayValue && inner == 0 && j > after {
		if c == '[' || c == '{' || (isDigit(c) || c == '-' || s.literalAt(j)) && s.lineBreakIn(after, j) {
			return true
		}
	}
	// ["a" b", "c"], ["a" b]: a word after a string that had no inner
	// quote is the next element, its comma (and quote) missing.
	if ctx == ctxArrayValue && inner == 0 && j > after && s.wordElementAt(j) {
		return true
	}
	// {"a": "b"⏎⏎Hope this helps!: the value's containers were never
	// closed and prose follows, on a line of its own, with no quote or
	// bracket left to end anything: the quote ends the string.
	return inner == 0 && s.proseToEnd(after, j)
}

// proseToEnd reports whether the text from after to the end of the input
// is a line break, then text holding no quote, bracket or brace.
func (s *scanner) proseToEnd(after, j int) bool {
	if j <= after || !s.lineBreakIn(after, j) {
		return false
	}
	if s.lastMark == -2 {
		s.tick(len(s.src))
		s.lastMark = bytes.LastIndexAny(s.src, "\"'`{}[]()")
	}
	if j > s.lastMark {
		s.proseFrom = j
		return true
	}
	return false
}

// skipTrailingProse drops the prose proseToEnd found, when the parse stands at it.
func (s *scanner) skipTrailingProse() bool {
	if s.proseFrom < 0 || s.pos != s.proseFrom {
		return false
	}
	s.rec.add(toolcall.RepairSurroundingText, s.pos)
	s.pos = len(s.src)
	return true
}

// equalsColon reports whether src[m] is an '=' written for a key's colon
// ("key" = value), not part of "==" or "=>".
func equalsColon(src []byte, m int) bool {
	return m < len(src) && src[m] == '=' && (m+1 >= len(src) || src[m+1] != '=' && src[m+1] != '>')
}

// bareKeyAt reports whether an unquoted key and its colon start at k.
func (s *scanner) bareKeyAt(k int) bool {
	src := s.src
	i := k
	for i < len(src) && isKeyByte(src[i]) {
		i++
	}
	if i == k {
		return false
	}
	i = skipSpace(src, i)
	s.tick(i - k)
	return i < len(src) && src[i] == ':'
}

// lineBreakIn reports whether src[from:to] holds a line break.
func (s *scanner) lineBreakIn(from, to int) bool {
	s.tick(to - from)
	return bytes.IndexByte(s.src[from:to], '\n') >= 0
}

// wordElementAt reports whether an unquoted word at j ends as an array
// element: at a comma or closer, or at a quote that closes it (b",).
func (s *scanner) wordElementAt(j int) bool {
	src := s.src
	k := j
	for k < len(src) && !isSpace(src[k]) && src[k] != ',' && src[k] != ']' && src[k] != ')' && src[k] != '[' && src[k] != '{' && src[k] != '}' {
		if _, w := quoteAt(src, k); w > 0 {
			s.tick(k - j)
			return k > j && s.properClose(k+w, ctxArrayValue, 1, 0)
		}
		k++
	}
	s.tick(k - j)
	if k == j || k >= len(src) {
		return k > j
	}
	switch src[k] {
	case ',', ']', ')':
		return true
	}
	return false
}

// junkThenKey reports whether a stray word and then a key start at k:
// "a": 1, COMMENT "b": 2.
func (s *scanner) junkThenKey(k int) bool {
	src := s.src
	if k >= len(src) || !isLetter(src[k]) {
		return false
	}
	i := k
	for i < len(src) && isKeyByte(src[i]) {
		i++
	}
	j := s.skipWS(i)
	s.tick(j - k)
	if j == i || j >= len(src) {
		return false
	}
	_, w := quoteAt(src, j)
	return w > 0 && s.keyPattern(j, false)
}

// fitsAfterComma reports whether what follows a comma at k-1 continues a
// container in which a value stands in ctx.
func (s *scanner) fitsAfterComma(k int, ctx context, inner int) bool {
	k = s.skipAt(k)
	if inner == 0 {
		// "x",, "b": 1 — a doubled comma, read as one (see objectBody and
		// arrayBody), in a string that had no stray quote so far.
		for k < len(s.src) && s.src[k] == ',' {
			k = s.skipAt(k + 1)
		}
	}
	if k >= len(s.src) || s.fenceAt(k) {
		return true
	}
	c := s.src[k]
	if ctx == ctxObjectValue {
		// A bracket after the comma is structure too, if odd: the object
		// parser decides what it means.
		return c == '}' || c == '{' || c == '[' || s.keyPattern(k, false) || s.junkThenKey(k) || inner == 0 && (s.cutKeyAt(k) || s.brokenMemberAt(k))
	}
	return c != ',' && c != ':' && c != '}'
}

// brokenMemberAt reports whether a member with a broken key starts at k:
// a quoted key whose colon is missing ("b" 2, "b"2, "b" "x"), a quoted key
// with no value before the object's closer ("b"}), or a key whose closing
// quote is missing before its colon ("b: 2). It is the weaker evidence a
// quote with no stray quote before it may take for its string's end.
func (s *scanner) brokenMemberAt(k int) bool {
	src := s.src
	q, w := quoteAt(src, k)
	if w == 0 {
		return s.bareKeyNoColonAt(k)
	}
	i := k + w
	for i < len(src) && isKeyByte(src[i]) {
		i++
	}
	s.tick(i - k)
	if i >= len(src) || i == k+w {
		return false
	}
	if src[i] == ':' {
		// "b: 2, "b:"x" — the colon right after the name, then a value.
		m := s.skipWS(i + 1)
		return m < len(src) && s.valueAfterKey(m, m > i+1)
	}
	cw := closerAt(q, src, i)
	if cw == 0 {
		return false
	}
	m := s.skipWS(i + cw)
	if m >= len(src) {
		return false
	}
	return src[m] == '}' || s.valueAfterKey(m, m > i+cw)
}

// bareKeyNoColonAt reports whether an unquoted key whose colon is missing
// starts at k: ⏎  content "text", ⏎  flags["a"], ,key2 "text". The key must
// start its line or follow its comma with no space, so that a word and a
// quoted phrase in a sentence (, then "bye") are not taken for a member.
func (s *scanner) bareKeyNoColonAt(k int) bool {
	src := s.src
	if !isKeyStart(src[k]) {
		return false
	}
	b := skipSpaceBack(src, 0, k-1)
	if b < 0 || src[b] != ',' || b+1 < k && !s.lineBreakIn(b, k) {
		return false
	}
	i := k
	for i < len(src) && isKeyByte(src[i]) {
		i++
	}
	s.tick(i - k)
	if i >= len(src) {
		return false
	}
	if src[i] == '[' || src[i] == '{' {
		return true
	}
	if quoteWidth(src, i) > 0 {
		return s.valueAfterKey(i, false) // b"y": the string must close cleanly
	}
	m := s.skipWS(i)
	return m > i && m < len(src) && src[m] != '\n' && s.valueAfterKey(m, true)
}

// valueAfterKey reports whether a value starts at m, right after a key
// whose colon is missing or misplaced. With no space before it, a string
// must close cleanly as a value: "b""x" is not a doubled quote.
func (s *scanner) valueAfterKey(m int, spaced bool) bool {
	c := s.src[m]
	switch {
	case isDigit(c) || c == '-' || c == '{' || c == '[':
		return true
	case s.literalAt(m):
		return true
	}
	q, w := quoteAt(s.src, m)
	if w == 0 {
		return false
	}
	return spaced || s.cleanValueAt(m, q)
}

// maxCutKey bounds the key cutKeyAt recognises.
const maxCutKey = 64

// cutKeyAt reports whether a key that the end of the input cut off starts
// at k: "pa, "path, "path":, path, path: with nothing after. The key must read
// as a name (no space, no punctuation but '-', '.', '_', '$'), so that a
// quoted phrase at the end of a cut-off sentence (, "hello world) stays
// text; the caller asks only for a string that had no stray quote before
// ("He said "hi", then stays one string).
func (s *scanner) cutKeyAt(k int) bool {
	src := s.src
	if len(src)-k > maxCutKey+8 {
		return false
	}
	q, w := quoteAt(src, k)
	i := k + w
	for i < len(src) && isKeyByte(src[i]) {
		i++
	}
	s.tick(i - k)
	if i >= len(src) {
		return i > k+w || w > 0
	}
	cw := 0
	if w > 0 {
		if cw = closerAt(q, src, i); cw == 0 {
			return false
		}
	} else if i == k {
		return false
	}
	m := s.skipWS(i + cw)
	if m < len(src) && src[m] == ':' {
		m = s.skipWS(m + 1)
	}
	return m >= len(src)
}

// closerFits reports whether the closer c at j can follow a value here.
func (s *scanner) closerFits(j int, c byte, inner, bal int) bool {
	if inner > 0 && bal > 0 {
		return false
	}
	m := s.matchIndex(c)
	if m < 0 {
		// No open container takes this closer: a typo for the innermost
		// one's, believable when the input ends right after it
		// ({"a": "b"]) and the string had no stray quote.
		return inner == 0 && len(s.stack) > 0 && s.skipAt(j+1) >= len(s.src)
	}
	if m == len(s.stack)-1 {
		return true
	}
	// The closer skips open containers: only believable if what follows
	// it fits too.
	k := s.skipAt(j + 1)
	if k >= len(s.src) || s.fenceAt(k) {
		return true
	}
	switch s.src[k] {
	case ',', '}', ']', ')':
		return true
	}
	return false
}

// cleanStringAt reports whether a string opening at j ends on its line at
// its first closing quote, followed by what may follow an array element.
func (s *scanner) cleanStringAt(j int) bool {
	src := s.src
	q, w := quoteAt(src, j)
	k := j + w
	for k < len(src) {
		c := src[k]
		if c == '\\' {
			k += 2
			continue
		}
		if c == '\n' {
			break
		}
		if cw := closerAt(q, src, k); cw > 0 {
			s.tick(k - j)
			m := s.skipAt(k + cw)
			if m >= len(src) || s.fenceAt(m) {
				return true
			}
			switch src[m] {
			case ',', ']', ')':
				return true
			}
			return m > k+cw && s.valueStartAt(m)
		}
		k++
	}
	s.tick(k - j)
	return false
}

// keyPattern reports whether an object key followed by a colon starts at
// k: a quoted key (also ""doubled"" quotes) or an unquoted one. weak also
// accepts a quoted key followed by a quoted value with the colon missing.
func (s *scanner) keyPattern(k int, weak bool) bool {
	src := s.src
	if k >= len(src) {
		return false
	}
	if q, w := quoteAt(src, k); w > 0 {
		i := k + w
		if i < len(src) {
			if cw := closerAt(q, src, i); cw > 0 {
				m := s.skipWS(i + cw)
				if m < len(src) && src[m] == ':' {
					return true // "": value
				}
				i += cw // ""key"": the quotes were doubled
			}
		}
		start := i
		for i < len(src) {
			if src[i] == '\\' {
				i += 2
				continue
			}
			if cw := closerAt(q, src, i); cw > 0 {
				i += cw
				if i < len(src) {
					if cw2 := closerAt(q, src, i); cw2 > 0 {
						i += cw2
					}
				}
				s.tick(i - start)
				m := s.skipWS(i)
				if m >= len(src) {
					return false
				}
				if src[m] == ':' || equalsColon(src, m) {
					return true
				}
				if _, w2 := quoteAt(src, m); weak && m > i && w2 > 0 {
					return true
				}
				return false
			}
			i++
		}
		s.tick(i - start)
		return false
	}
	if !isKeyStart(src[k]) {
		return false
	}
	i := k
	for i < len(src) && isKeyByte(src[i]) {
		i++
	}
	if i < len(src) {
		if _, w := quoteAt(src, i); w > 0 {
			i += w // b": — the key's opening quote is missing
		}
	}
	for i < len(src) {
		if src[i] == ' ' || src[i] == '\t' {
			i++
		} else if w := uspaceAt(src, i); w > 0 {
			i += w
		} else {
			break
		}
	}
	s.tick(i - k)
	return i < len(src) && src[i] == ':'
}

// want is what the text after a closer expects to stand in.
type want uint8

const (
	wantEither want = iota
	wantObject
	wantArray
)

func (s *scanner) wantAt(k int) want {
	if k >= len(s.src) || s.fenceAt(k) {
		return wantEither
	}
	switch s.src[k] {
	case ',':
		k2 := s.skipAt(k + 1)
		if k2 >= len(s.src) || s.fenceAt(k2) {
			return wantEither
		}
		if s.keyPattern(k2, false) {
			return wantObject
		}
		return wantArray
	case '}':
		return wantObject
	case ']', ')':
		return wantArray
	}
	return wantEither
}

// preferTypo decides a closer at pos that does not close the innermost
// container but stack[m]: either the closers of the containers inside m are
// missing (it closes m), or it is a typo for the innermost container's own
// closer. The typo wins only when the text after it fits that reading and
// not the other.
func (s *scanner) preferTypo(pos, m int) bool {
	w := s.wantAt(s.skipAt(pos + 1))
	if w == wantEither {
		return false
	}
	fits := func(c context) bool {
		return c == ctxObjectValue && w == wantObject || c == ctxArrayValue && w == wantArray
	}
	return fits(s.contextAt(len(s.stack)-2)) && !fits(s.contextAt(m-1))
}

// strayWordThenClose reports whether one word stands at j, followed by
// the closer of the object innermost open: {"v": 1 AAAA }.
func (s *scanner) strayWordThenClose(j int) bool {
	if len(s.stack) == 0 || s.stack[len(s.stack)-1] != '{' {
		return false
	}
	return s.strayWordEnd(j) > j
}

// strayWordEnd returns the end of a word at j that is followed by the
// innermost object's '}', or j: letters, digits and punctuation other
// than quotes, brackets, commas and colons.
func (s *scanner) strayWordEnd(j int) int {
	src := s.src
	k := j
	for k < len(src) && !isSpace(src[k]) {
		switch src[k] {
		case '"', '\'', '`', ',', ':', '{', '}', '[', ']', '(', ')', '/', '#':
			s.tick(k - j)
			if k > j && src[k] == '}' {
				return k
			}
			return j
		}
		if src[k] >= 0x80 {
			if _, w := quoteAt(src, k); w > 0 || uspaceAt(src, k) > 0 {
				break
			}
		}
		k++
	}
	s.tick(k - j)
	if k == j {
		return j
	}
	if m := s.skipAt(k); m < len(src) && src[m] == '}' {
		return k
	}
	return j
}

// maxMemberScan bounds how far memberBeforeObjectCloser looks.
const maxMemberScan = 512

// memberBeforeObjectCloser reports whether the "key": value starting at k
// (see keyPattern) and the members after it, if any, are followed by a
// '}' before any ']': they belong to the object around the current array
// ({"a": ["x", "k": 1}), not to an object whose '{' is missing inside it
// (["x", "k": 1]). It looks at most maxMemberScan bytes ahead.
func (s *scanner) memberBeforeObjectCloser(k int) bool {
	src := s.src
	end := min(len(src), k+maxMemberScan)
	depth := 0
	var quote byte
	for i := k; i < end; i++ {
		c := src[i]
		if quote != 0 {
			switch c {
			case '\\':
				i++
			case quote:
				quote = 0
			}
			continue
		}
		switch c {
		case '"', '\'':
			quote = c
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				s.tick(i - k)
				return c == '}'
			}
			depth--
		}
	}
	s.tick(end - k)
	return false
}
