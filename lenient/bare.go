package lenient

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"github.com/dialectkit/toolcall"
)

// Unquoted text: numbers, literals, unquoted keys, and words the model
// meant as strings.

// bare parses an unquoted value at s.pos.
func (s *scanner) bare(ctx context) valueKind {
	start := s.pos
	kind := s.bareValue(ctx)
	s.tick(s.pos - start)
	return kind
}

func (s *scanner) bareValue(ctx context) valueKind {
	start := s.pos
	c := s.src[start]
	if w := nonFiniteAt(s.src, start); w > 0 && s.endsToken(start+w, ctx) && ctx != ctxTop {
		// NaN, Infinity, -Infinity: JSON has no such number; null is the
		// nearest value, and it may not be what was meant.
		s.guess()
		s.rec.addRisky(toolcall.RepairNumberFormat, start, true)
		s.out = append(s.out, "null"...)
		s.pos = start + w
		s.strayQuote(ctx)
		return vLiteral
	}
	if isDigit(c) || c == '-' || c == '+' || c == '.' {
		if s.ellipsisAt(start) > 0 {
			return s.ellipsis(ctx)
		}
		if end := s.numberEnd(start); end > start && (s.endsToken(end, ctx) || s.openerAfterNumber(end, ctx)) && s.writeNumber(start, end) {
			s.pos = end
			s.strayQuote(ctx)
			return vNumber
		}
		if kind := s.loneSign(start, ctx); kind != vNone {
			return kind
		}
	}
	if isLetter(c) {
		end := start
		for end < len(s.src) && isLetter(s.src[end]) {
			end++
		}
		if s.endsToken(end, ctx) {
			if lit := literalFor(s.src[start:end]); lit != "" {
				if string(s.src[start:end]) != lit {
					s.guess()
					s.rec.add(toolcall.RepairPythonLiteral, start)
				}
				s.out = append(s.out, lit...)
				s.pos = end
				s.strayQuote(ctx)
				return vLiteral
			}
		}
		if end == len(s.src) && (end-start >= 2 || ctx != ctxTop) {
			if lit := literalPrefix(s.src[start:end]); lit != "" {
				s.guess()
				s.rec.add(toolcall.RepairTruncatedValue, start)
				s.out = append(s.out, lit...)
				s.pos = end
				return vLiteral
			}
		}
	}
	if w := s.ellipsisAt(start); w > 0 && s.endsToken(start+w, ctx) {
		return s.ellipsis(ctx)
	}
	if ctx != ctxTop && ctx != ctxKey && isLetter(c) {
		if kind, ok := s.prefixedString(ctx); ok {
			return kind
		}
		if kind, ok := s.constructorCall(ctx); ok {
			return kind
		}
	}
	if ctx == ctxTop {
		s.fail(start, "no JSON value in the input")
	}
	end, quote := s.bareEnd(start, ctx)
	text := s.src[start:trimSpaceEnd(s.src, start, end)]
	if placeholder(text) {
		s.fail(start, "a placeholder where a value should be")
	}
	s.guess()
	s.rec.add(toolcall.RepairUnquotedString, start)
	s.writeText(text, start)
	s.pos = end
	if quote > 0 {
		// abc", — the opening quote was missing.
		s.rec.add(toolcall.RepairMissingQuote, start)
		s.pos += quote
	}
	return vBare
}

// placeholder reports whether unquoted text is a template's slot rather
// than data: text in angle brackets (<path>, <<<binary>>>, <your key
// here>) marks where a value was to go, in templates and in the examples
// models copy. JSON has no use for angle brackets around a value, and a
// call made with the slot as its argument would act on the marker.
func placeholder(text []byte) bool {
	return len(text) >= 2 && text[0] == '<' && text[len(text)-1] == '>'
}

// literalFor returns the JSON literal a word spells in any case (Python's
// True, False and None and JavaScript's undefined included), or "".
func literalFor(word []byte) string {
	switch {
	case bytes.EqualFold(word, []byte("true")):
		return "true"
	case bytes.EqualFold(word, []byte("false")):
		return "false"
	case bytes.EqualFold(word, []byte("null")), bytes.EqualFold(word, []byte("none")),
		bytes.EqualFold(word, []byte("undefined")):
		return "null"
	}
	return ""
}

// nonFiniteAt returns the width of NaN, Infinity, -Infinity or +Infinity
// at i, or 0.
func nonFiniteAt(src []byte, i int) int {
	j := i
	if j < len(src) && (src[j] == '-' || src[j] == '+') {
		j++
	}
	switch {
	case bytes.HasPrefix(src[j:], []byte("Infinity")):
		return j - i + len("Infinity")
	case j == i && bytes.HasPrefix(src[j:], []byte("NaN")):
		return len("NaN")
	}
	return 0
}

// literalPrefix returns the literal a word cut off by the end of the input
// begins, or "".
func literalPrefix(word []byte) string {
	for _, lit := range []string{"true", "false", "null"} {
		if len(word) < len(lit) && bytes.EqualFold(word, []byte(lit[:len(word)])) {
			return lit
		}
	}
	// Python's None, from its third letter: "No" is a word too.
	if len(word) >= 3 && len(word) < len("None") && bytes.EqualFold(word, []byte("None"[:len(word)])) {
		return "null"
	}
	return ""
}

// literalAt reports whether a literal word starts at i.
func (s *scanner) literalAt(i int) bool {
	end := i
	for end < len(s.src) && isLetter(s.src[end]) {
		end++
	}
	return end > i && literalFor(s.src[i:end]) != ""
}

// ellipsisAt returns the width of "..." or "…" at i, or 0.
func (s *scanner) ellipsisAt(i int) int {
	if bytes.HasPrefix(s.src[i:], []byte("...")) {
		w := 3
		for i+w < len(s.src) && s.src[i+w] == '.' {
			w++
		}
		return w
	}
	if bytes.HasPrefix(s.src[i:], []byte("…")) {
		return len("…")
	}
	return 0
}

// ellipsis handles "..." standing where a value should: in an array it
// stands for elided items and is dropped; elsewhere it is kept as a string.
func (s *scanner) ellipsis(ctx context) valueKind {
	s.guess()
	start := s.pos
	w := s.ellipsisAt(start)
	if ctx == ctxArrayValue {
		s.rec.add(toolcall.RepairStrayText, start)
		s.pos += w
		return vEllipsis
	}
	if ctx == ctxTop {
		s.fail(start, "no JSON value in the input")
	}
	s.rec.add(toolcall.RepairUnquotedString, start)
	s.writeText(s.src[start:start+w], start)
	s.pos += w
	return vBare
}

// loneSign handles a sign or dot with no digits standing as a value. It
// reports the kind of value read, vNone when there is no such token. At
// the end of the input it is a number the input cut off ("[1, -"); the
// caller drops it, or, as a member's value, gives the member null (see
// memberValue). Before a separator it is no number at all: a member's value
// is missing ({"a": -, "b": 1} gives "a" the empty string, risky, as
// {"a": , "b": 1} does), an array element is a stray mark, dropped.
func (s *scanner) loneSign(start int, ctx context) valueKind {
	end := start + 1
	if end < len(s.src) && !s.endsToken(end, ctx) {
		return vNone
	}
	s.guess()
	s.pos = end
	switch j := s.skipAt(end); {
	case j >= len(s.src) || s.fenceAt(j):
		if ctx != ctxObjectValue {
			s.rec.add(toolcall.RepairTruncatedValue, start)
		}
	case ctx == ctxObjectValue:
		s.rec.addRisky(toolcall.RepairMissingValue, start, true)
		s.out = append(s.out, '"', '"')
		return vString
	default:
		s.rec.add(toolcall.RepairStrayText, start)
	}
	return vDropped
}

// endsToken reports whether an unquoted token ending at i ends there: the
// input, whitespace, a separator, a closer, a comment, a fence, or a stray
// quote glued to it (12", — the model closed a string it never opened).
func (s *scanner) endsToken(i int, ctx context) bool {
	if i >= len(s.src) {
		return true
	}
	switch c := s.src[i]; c {
	case ' ', '\t', '\n', '\r', '\f', '\v', ',', '}', ']', ')':
		return true
	case 0xC2, 0xE1, 0xE2, 0xE3:
		if uspaceAt(s.src, i) > 0 {
			return true
		}
	case '/':
		return i+1 < len(s.src) && (s.src[i+1] == '/' || s.src[i+1] == '*')
	case '#':
		return true
	case '`':
		return s.fenceAt(i)
	case ':':
		return ctx == ctxKey
	}
	if _, w := quoteAt(s.src, i); w > 0 {
		return s.properClose(i+w, ctx, 0, 0)
	}
	return false
}

// openerAfterNumber reports whether the number ending at end, a value
// inside a container, is directly followed by an object or array: the
// number ends there, as it would before a space, and the container reads
// what follows ([1{"a": 2}] is two elements whose comma is missing;
// [{"a": 1{"b": 2}] two objects, the first missing its '}').
func (s *scanner) openerAfterNumber(end int, ctx context) bool {
	return (ctx == ctxArrayValue || ctx == ctxObjectValue) && end < len(s.src) && (s.src[end] == '{' || s.src[end] == '[')
}

// strayQuote drops a quote glued to the token just read when it is
// followed by what may follow a value.
func (s *scanner) strayQuote(ctx context) {
	if s.pos >= len(s.src) {
		return
	}
	if _, w := quoteAt(s.src, s.pos); w > 0 && s.properClose(s.pos+w, ctx, 0, 0) {
		s.guess()
		s.rec.add(toolcall.RepairStrayText, s.pos)
		s.pos += w
	}
}

// numberEnd returns the end of the number-like token at start: an
// optional sign, digits (with Python's _ separators), a fraction and an
// exponent, or a hexadecimal integer. It returns start when there are no
// digits.
func (s *scanner) numberEnd(start int) int {
	src := s.src
	i := start
	if src[i] == '-' || src[i] == '+' {
		i++
	}
	if i+1 < len(src) && src[i] == '0' && src[i+1]|0x20 == 'x' {
		j := i + 2
		for j < len(src) && isHex(src[j]) {
			j++
		}
		if j > i+2 {
			return j
		}
	}
	digits := 0
	i, digits = digitRun(src, i, digits)
	if i < len(src) && src[i] == '.' {
		i, digits = digitRun(src, i+1, digits)
	}
	if digits == 0 {
		return start
	}
	if i < len(src) && src[i]|0x20 == 'e' {
		j := i + 1
		if j < len(src) && (src[j] == '+' || src[j] == '-') {
			j++
		}
		switch {
		case j < len(src) && isDigit(src[j]):
			for j < len(src) && isDigit(src[j]) {
				j++
			}
			i = j
		case j >= len(src) || !isKeyByte(src[j]) && src[j] != '+' && src[j] != '-':
			i = j // 1e with no digits: the exponent was cut off or left empty
		}
	}
	return i
}

// digitRun reads digits and the _ that may separate them.
func digitRun(src []byte, i, digits int) (int, int) {
	for i < len(src) {
		c := src[i]
		if isDigit(c) {
			digits++
			i++
			continue
		}
		if c == '_' && digits > 0 && i+1 < len(src) && isDigit(src[i+1]) && isDigit(src[i-1]) {
			i++
			continue
		}
		break
	}
	return i, digits
}

// writeNumber writes the number src[start:end] in JSON syntax. It reports
// false, writing nothing, when the token has no JSON number form (a
// hexadecimal number beyond 64 bits).
func (s *scanner) writeNumber(start, end int) bool {
	tok := s.src[start:end]
	changed := false
	neg := false
	switch tok[0] {
	case '+':
		tok, changed = tok[1:], true
	case '-':
		tok, neg = tok[1:], true
	}
	if len(tok) > 2 && tok[0] == '0' && tok[1]|0x20 == 'x' {
		v, err := strconv.ParseUint(string(tok[2:]), 16, 64)
		if err != nil {
			return false
		}
		if neg {
			s.out = append(s.out, '-')
		}
		s.out = strconv.AppendUint(s.out, v, 10)
		s.rec.add(toolcall.RepairNumberFormat, start)
		return true
	}
	intEnd := 0
	for intEnd < len(tok) && (isDigit(tok[intEnd]) || tok[intEnd] == '_') {
		intEnd++
	}
	intPart := tok[:intEnd]
	rest := tok[intEnd:]
	// Leading zeros are not JSON, and the digits the model wrote are not
	// ours to drop: a zip code 02134 or an id 007 becomes the string it
	// was written as. -0, 0.5 and 0e1 are numbers.
	if len(intPart) > 1 && intPart[0] == '0' {
		s.guess()
		s.rec.addRisky(toolcall.RepairNumberFormat, start, true)
		s.writeText(s.src[start:end], start)
		return true
	}
	if neg {
		s.out = append(s.out, '-')
	}
	if bytes.IndexByte(tok, '_') >= 0 {
		s.guess()
		changed = true
	}
	switch {
	case len(intPart) == 0: // .5
		s.out = append(s.out, '0')
		changed = true
	default:
		for _, c := range intPart {
			if c != '_' {
				s.out = append(s.out, c)
			}
		}
	}
	if len(rest) > 0 && rest[0] == '.' {
		frac := 1
		for frac < len(rest) && (isDigit(rest[frac]) || rest[frac] == '_') {
			frac++
		}
		s.out = append(s.out, '.')
		if frac == 1 { // 5. is 5.0
			s.out = append(s.out, '0')
			changed = true
		}
		for _, c := range rest[1:frac] {
			if c != '_' {
				s.out = append(s.out, c)
			}
		}
		rest = rest[frac:]
	}
	if len(rest) > 0 { // exponent
		exp := rest[1:]
		if len(exp) > 0 && (exp[0] == '+' || exp[0] == '-') {
			exp = exp[1:]
		}
		if len(exp) == 0 {
			// 1e], 2E+: an exponent with no digits is no exponent. At the
			// end of the input it was cut off.
			s.guess()
			if end >= len(s.src) {
				s.rec.add(toolcall.RepairTruncatedValue, start)
			} else {
				changed = true
			}
		} else {
			s.out = append(s.out, rest...)
		}
	}
	if changed {
		s.rec.add(toolcall.RepairNumberFormat, start)
	}
	return true
}

// bareEnd returns where an unquoted string value starting at start ends,
// and the width of a quote that ends it as its missing opening quote's
// partner (abc", → abc), or 0.
func (s *scanner) bareEnd(start int, ctx context) (int, int) {
	src := s.src
	bal := 0
	i := start
	defer func() { s.tick(i - start + 1) }()
	for i < len(src) {
		c := src[i]
		switch c {
		case '\n', '\r':
			return i, 0
		case '{', '[', '(':
			bal++
		case '}', ']', ')':
			if bal == 0 {
				return i, 0
			}
			bal--
		case ',':
			if bal > 0 {
				break
			}
			// "a": ipsum, sic", — the closing quote of a string whose opening
			// quote is missing, later on the same line.
			if ctx == ctxObjectValue {
				if q := s.nextQuoteOrNewline(i); q < len(src) {
					if _, w := quoteAt(src, q); w > 0 && s.properClose(q+w, ctx, 0, 0) {
						i = q
						return q, w
					}
				}
			}
			return i, 0
		case '/':
			if i > start && isSpace(src[i-1]) && i+1 < len(src) && (src[i+1] == '/' || src[i+1] == '*') {
				return i, 0
			}
		case '#':
			if i > start && isSpace(src[i-1]) {
				return i, 0
			}
		case '`':
			if s.fenceAt(i) {
				return i, 0
			}
		}
		if q, w := quoteAt(src, i); w > 0 {
			if s.properClose(i+w, ctx, 0, 0) {
				return i, w
			}
			// A backtick or acute accent in unquoted text is a character
			// of it: run `ls` now.
			if i > start && isSpace(src[i-1]) && q < qBacktick {
				return i, 0 // a new string: the comma before it is missing
			}
			i += w
			continue
		}
		i++
	}
	return i, 0
}

// key parses an object key at s.pos and writes it as a JSON string. It
// reports false when the input ended inside the key.
func (s *scanner) key() bool {
	for {
		if q, w := quoteAt(s.src, s.pos); w > 0 {
			st := s.scanString(ctxKey, q, w)
			if st.dropped {
				s.pos = st.next
				return false
			}
			s.emitString(st, ctxKey)
			return true
		}
		start := s.pos
		end := s.bareKeyEnd(start)
		text := s.src[start:trimSpaceEnd(s.src, start, end)]
		if len(text) == 0 {
			// A character that cannot start a key: drop it.
			s.guess()
			s.rec.add(toolcall.RepairStrayText, start)
			s.pos = start + 1
			s.space()
			if s.atEnd() {
				return false
			}
			continue
		}
		if !json5Identifier(text) {
			s.guess()
		}
		j := s.skipWS(end)
		if j >= len(s.src) {
			s.guess()
			s.rec.add(toolcall.RepairTruncatedValue, start)
			s.pos = j
			return false
		}
		if _, w := quoteAt(s.src, j); w > 0 {
			if j == start+len(text) && s.skipWS(j+w) < len(s.src) && s.src[s.skipWS(j+w)] == ':' {
				// key": — a closing quote without its opening one.
				s.guess()
				s.rec.add(toolcall.RepairMissingQuote, start)
				s.writeText(text, start)
				s.pos = j + w
				return true
			}
			if s.keyPattern(j, false) {
				// COMMENT "key": — a stray word before the key.
				s.guess()
				s.rec.add(toolcall.RepairStrayText, start)
				s.pos = j
				continue
			}
		}
		s.rec.add(toolcall.RepairUnquotedKey, start)
		if sp := keyThenNumber(text); sp > 0 && (s.src[j] == ',' || s.src[j] == '}') {
			// {qty 1, …}: a key and a number or literal with the colon
			// missing between; the value is read next (see memberValue).
			s.guess()
			s.writeText(bytes.TrimRight(text[:sp], " \t"), start)
			s.pos = start + sp + 1
			return true
		}
		s.writeText(text, start)
		s.pos = end
		return true
	}
}

// bareKeyEnd returns where an unquoted key starting at start ends.
func (s *scanner) bareKeyEnd(start int) int {
	src := s.src
	i := start
	for i < len(src) {
		c := src[i]
		if c == ':' || c == ',' || c == '{' || c == '}' || c == '[' || c == ']' || c == '=' || c == '\n' || c == '\r' {
			break
		}
		if c == '/' && i+1 < len(src) && (src[i+1] == '/' || src[i+1] == '*') {
			break // a comment between the key and its colon
		}
		if _, w := quoteAt(src, i); w > 0 {
			break
		}
		i++
	}
	s.tick(i - start + 1)
	return i
}

// json5Identifier reports whether a key is an identifier JSON5 accepts
// unquoted.
func json5Identifier(b []byte) bool {
	for i, c := range b {
		if !(isLetter(c) || c == '_' || c == '$' || i > 0 && isDigit(c)) {
			return false
		}
	}
	return len(b) > 0
}

// writeText writes text as a JSON string, replacing invalid UTF-8.
func (s *scanner) writeText(text []byte, at int) {
	s.out = append(s.out, '"')
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case safeInJSON[c]:
			s.out = append(s.out, c)
			i++
		case c == '"' || c == '\\':
			s.out = append(s.out, '\\', c)
			i++
		case c < 0x20:
			if c != '\t' {
				s.stop(toolcall.CodeRepairFailed, at+i, msgBinary)
			}
			s.out = appendControl(s.out, c)
			i++
		default:
			r, size := utf8.DecodeRune(text[i:])
			if r == utf8.RuneError && size == 1 {
				s.rec.add(toolcall.RepairInvalidUTF8, at+i)
				s.out = append(s.out, `\ufffd`...)
				i++
				continue
			}
			s.out = append(s.out, text[i:i+size]...)
			i += size
		}
	}
	s.out = append(s.out, '"')
}

// constructorCall reads a value wrapped in a constructor call, as MongoDB
// shells print them: ObjectId("5f1d"), ISODate("2024-01-02T03:04:05Z"),
// NumberLong("42"), NumberInt(42), new Date("2024-01-01"). The value inside
// is what was meant; the constructor's name is dropped (stray_text). The
// name must start with a capital letter and hold one string without
// escapes, or one number, so that a call in text (print("hi")) stays text.
func (s *scanner) constructorCall(ctx context) (valueKind, bool) {
	src, start := s.src, s.pos
	i := start
	if bytes.HasPrefix(src[i:], []byte("new ")) {
		i = skipSpace(src, i+len("new "))
	}
	if i >= len(src) || src[i] < 'A' || src[i] > 'Z' {
		return vNone, false
	}
	for i < len(src) && (isLetter(src[i]) || isDigit(src[i]) || src[i] == '_') {
		i++
	}
	if i >= len(src) || src[i] != '(' {
		return vNone, false
	}
	from := skipSpace(src, i+1)
	if from >= len(src) {
		return vNone, false
	}
	var to int // end of the inner value
	str := false
	if q := src[from]; q == '"' || q == '\'' {
		k := bytes.IndexByte(src[from+1:], q)
		if k < 0 || !plainText(src[from+1:from+1+k]) {
			return vNone, false
		}
		to, str = from+1+k+1, true
	} else {
		to = s.numberEnd(from)
		if to == from {
			return vNone, false
		}
	}
	end := skipSpace(src, to)
	if end >= len(src) || src[end] != ')' || !s.endsToken(end+1, ctx) {
		return vNone, false
	}
	s.tick(end - start)
	mark := len(s.out)
	if str {
		s.writeText(src[from+1:to-1], from+1)
	} else if !s.writeNumber(from, to) {
		s.out = s.out[:mark]
		return vNone, false
	}
	s.guess()
	s.rec.add(toolcall.RepairStrayText, start)
	s.pos = end + 1
	if str {
		return vString, true
	}
	return vNumber, true
}

// plainText reports whether b holds no backslash and no control character.
func plainText(b []byte) bool {
	for _, c := range b {
		if c == '\\' || c < 0x20 {
			return false
		}
	}
	return true
}

// prefixedString reads a Python string with a prefix: r'…', b"…", f'…',
// u'…', rb'…'. The prefix is dropped (python_literal); in a raw string
// (r) every backslash is a character.
func (s *scanner) prefixedString(ctx context) (valueKind, bool) {
	src, start := s.src, s.pos
	end, raw := start, false
	for end < len(src) && end-start < 3 {
		switch src[end] | 0x20 {
		case 'r':
			raw = true
		case 'b', 'u', 'f':
		default:
			goto done
		}
		end++
	}
done:
	if end == start || end-start > 2 || end >= len(src) || src[end] != '\'' && src[end] != '"' {
		return vNone, false
	}
	q, w := quoteAt(src, end)
	if !s.prefixedCloses(end, q, w, ctx) {
		// {"a": b"}: a word whose opening quote is missing, not a prefix.
		return vNone, false
	}
	s.guess()
	s.rec.add(toolcall.RepairPythonLiteral, start)
	s.pos = end
	st := s.scanString(ctx, q, w)
	if st.dropped {
		s.pos = st.next
		return vDropped, true
	}
	st.raw = st.raw || raw
	s.emitString(st, ctx)
	return vString, true
}

// prefixedCloses reports whether the string a Python prefix stands before
// (opening at i) reads as one: its first closing quote closes it properly
// in ctx, or the input ends before any (a cut-off string).
func (s *scanner) prefixedCloses(i int, q quoteKind, w int, ctx context) bool {
	src := s.src
	k := i + w
	for k < len(src) {
		if src[k] == '\\' {
			k += 2
			continue
		}
		if cw := closerAt(q, src, k); cw > 0 {
			s.tick(k - i)
			return ctx == ctxTop || ctx == ctxKey || s.properClose(k+cw, ctx, 0, 0)
		}
		k++
	}
	s.tick(k - i)
	// No closing quote: a cut-off string, unless what follows the quote
	// is the structure closing the value ({"a": b"}).
	return s.structuralTail(i+w, len(src)) >= len(src)
}

// keyThenNumber returns the offset of the last space in an unquoted key's
// text when the word after it is a number or a literal (qty 1, on true),
// or -1.
func keyThenNumber(text []byte) int {
	sp := bytes.LastIndexByte(text, ' ')
	if sp <= 0 || sp+1 >= len(text) {
		return -1
	}
	w := text[sp+1:]
	if c := w[0]; (isDigit(c) || c == '-') && validJSON(w) || literalFor(w) != "" {
		return sp
	}
	return -1
}
