package gemma

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/jsonscan"
	"github.com/dialectkit/toolcall/internal/textlayer"
	"github.com/dialectkit/toolcall/lenient"
	"github.com/dialectkit/toolcall/schema"
)

// valueParser turns the argument object of a Gemma call into JSON, in one
// pass, in the model's key order.
//
// The syntax: {key:value,…}, keys bare or quoted; a value is a string in
// delimiter tokens (raw text, no escapes), a JSON string in double quotes,
// a bare number, true, false or null, an object or an array.
//
// Repairs, each recorded: single-quoted strings; unescaped quotes inside
// quoted strings (a quote ends the string only before , } ] : or a line
// end); bare words taken as strings; a missing closing delimiter (the
// string runs to the end of the call, less the brackets that close it); a
// missing object or array close; missing or extra commas; a bare last
// value that holds brackets or commas, taken raw up to the call's final
// '}' (the raw terminal value).
//
// With a declared tool, a top-level value is typed by the property's
// schema (schema.TypeText), so a bare 42 for a string property is "42";
// elsewhere the syntax decides: bare 42 is a number, delimited 42 a string.
type valueParser struct {
	src      string // the whole output; offsets are into it
	pos, end int
	dialect  string
	delims   []string
	out      bytes.Buffer
	closers  []byte // the closing brackets still expected, outermost first
	maxDepth int
	tool     *schema.Tool
	repairs  []toolcall.Repair
	member   topMember
}

// topMember is the top-level member read last, kept so that a bare value
// the syntax could not end can be taken raw to the end of the object.
type topMember struct {
	key        string
	bare       bool
	outLen     int // output length before the value
	valuePos   int
	repairsLen int
}

// scalar describes a value just written, for typing by schema.
type scalar struct {
	ok   bool   // a string or a bare word, not an object, array or gap
	text string // the string's text or the bare word
	bare bool
	null bool
}

func newValueParser(src string, pos, end int, dialect string, delims []string, opts *dialects.Options, tool *schema.Tool) *valueParser {
	maxDepth := opts.Lenient.MaxDepth
	if maxDepth <= 0 {
		maxDepth = lenient.DefaultMaxDepth
	}
	p := &valueParser{src: src, pos: pos, end: end, dialect: dialect, delims: delims, maxDepth: maxDepth, tool: tool}
	// The output is the input plus the escapes JSON needs in strings
	// written raw: sized for them, it is allocated once.
	in := src[pos:end]
	p.out.Grow(len(in) + 8 + strings.Count(in, `"`) + strings.Count(in, `\`) + strings.Count(in, "\n") + strings.Count(in, "\t") + strings.Count(in, "\r"))
	return p
}

// arguments parses the object at p.pos.
func (p *valueParser) arguments() ([]byte, *toolcall.Error) {
	err := p.object()
	if err == nil && !p.closedEarly() {
		return p.out.Bytes(), nil
	}
	if (err == nil || err.Code == toolcall.CodeMalformedCall) && p.member.bare && p.rawTerminal() {
		return p.out.Bytes(), nil
	}
	if err != nil {
		return nil, err
	}
	return p.out.Bytes(), nil
}

// closedEarly reports whether the object closed at a '}' that belongs to
// a bare value's text: more text and another '}' follow inside the call,
// as in {code:print({"a": 1})}.
func (p *valueParser) closedEarly() bool {
	q := skipSpace(p.src, p.pos, p.end)
	if q >= p.end || strings.HasPrefix(p.src[q:p.end], callPrefix) {
		return false
	}
	rest := p.src[q:p.end]
	return strings.Trim(rest, "}] \t\r\n,;") != "" && strings.IndexByte(rest, '}') >= 0
}

func (p *valueParser) object() *toolcall.Error {
	if err := p.push('}'); err != nil {
		return err
	}
	top := len(p.closers) == 1
	p.pos++
	p.out.WriteByte('{')
	members, comma := 0, false
	for {
		p.pos = skipSpace(p.src, p.pos, p.end)
		if p.pos >= p.end {
			p.note(toolcall.RepairMissingClosingBrace, p.pos, "")
			return p.close()
		}
		switch p.src[p.pos] {
		case '}':
			if comma {
				p.note(toolcall.RepairTrailingComma, p.pos, "")
			}
			p.pos++
			return p.close()
		case ']':
			p.note(toolcall.RepairMismatchedBracket, p.pos, "")
			p.pos++
			return p.close()
		case ',':
			if comma || members == 0 {
				p.note(toolcall.RepairTrailingComma, p.pos, "empty member")
			}
			comma = true
			p.pos++
			continue
		}
		if members > 0 && !comma {
			if !p.looksLikeKey() {
				return p.fail("expected ',' or '}' after a value")
			}
			p.note(toolcall.RepairMissingComma, p.pos, "")
		}
		if members > 0 {
			p.out.WriteByte(',')
		}
		key, err := p.key()
		if err != nil {
			return err
		}
		lenient.WriteJSONString(&p.out, key)
		p.out.WriteByte(':')
		p.pos = skipSpace(p.src, p.pos, p.end)
		if p.pos >= p.end || p.src[p.pos] != ':' {
			return p.fail("expected ':' after key " + strconv.Quote(key))
		}
		p.pos = skipSpace(p.src, p.pos+1, p.end)
		mark := p.out.Len()
		if top {
			p.member = topMember{key: key, outLen: mark, valuePos: p.pos, repairsLen: len(p.repairs)}
		}
		v, err := p.value()
		if top {
			p.member.bare = v.bare
		}
		if err != nil {
			return err
		}
		if top {
			p.typeBySchema(key, mark, v)
		}
		members++
		comma = false
	}
}

func (p *valueParser) array() *toolcall.Error {
	if err := p.push(']'); err != nil {
		return err
	}
	p.pos++
	p.out.WriteByte('[')
	items, comma := 0, false
	for {
		p.pos = skipSpace(p.src, p.pos, p.end)
		if p.pos >= p.end {
			p.note(toolcall.RepairMissingClosingBracket, p.pos, "")
			return p.close()
		}
		switch p.src[p.pos] {
		case ']':
			if comma {
				p.note(toolcall.RepairTrailingComma, p.pos, "")
			}
			p.pos++
			return p.close()
		case '}':
			p.note(toolcall.RepairMismatchedBracket, p.pos, "")
			p.pos++
			return p.close()
		case ',':
			if comma || items == 0 {
				p.note(toolcall.RepairTrailingComma, p.pos, "empty item")
			}
			comma = true
			p.pos++
			continue
		}
		if items > 0 && !comma {
			if !p.startsValue() {
				return p.fail("expected ',' or ']' after an array item")
			}
			p.note(toolcall.RepairMissingComma, p.pos, "")
		}
		if items > 0 {
			p.out.WriteByte(',')
		}
		if _, err := p.value(); err != nil {
			return err
		}
		items++
		comma = false
	}
}

func (p *valueParser) push(closer byte) *toolcall.Error {
	if len(p.closers) >= p.maxDepth {
		e := toolcall.NewError(toolcall.CodeTooDeep, fmt.Sprintf("%s arguments are nested deeper than %d at byte %d", p.dialect, p.maxDepth, p.pos))
		e.Offset = p.pos
		return e
	}
	p.closers = append(p.closers, closer)
	return nil
}

// close writes the innermost closer and pops it.
func (p *valueParser) close() *toolcall.Error {
	last := len(p.closers) - 1
	p.out.WriteByte(p.closers[last])
	p.closers = p.closers[:last]
	return nil
}

func (p *valueParser) value() (scalar, *toolcall.Error) {
	if p.pos >= p.end {
		p.note(toolcall.RepairTruncatedValue, p.pos, "missing value")
		p.out.WriteString("null")
		return scalar{}, nil
	}
	if d := p.delimAt(p.pos); d != "" {
		s := p.delimited(d)
		lenient.WriteJSONString(&p.out, s)
		return scalar{ok: true, text: s}, nil
	}
	switch c := p.src[p.pos]; c {
	case '"', '\'':
		s := p.quoted(c, false)
		lenient.WriteJSONString(&p.out, s)
		return scalar{ok: true, text: s}, nil
	case '{':
		return scalar{}, p.object()
	case '[':
		return scalar{}, p.array()
	case ',', '}', ']':
		p.note(toolcall.RepairTruncatedValue, p.pos, "missing value")
		p.out.WriteString("null")
		return scalar{}, nil
	}
	return p.bare(), nil
}

// bare reads an unquoted value: a literal, a number, or a word taken as a
// string. It runs to the next ',', '}', ']' or line end.
func (p *valueParser) bare() scalar {
	start := p.pos
	for p.pos < p.end {
		if c := p.src[p.pos]; c == ',' || c == '}' || c == ']' || c == '\n' {
			break
		}
		p.pos++
	}
	text := strings.TrimSpace(p.src[start:p.pos])
	if text == "" {
		p.note(toolcall.RepairTruncatedValue, start, "missing value")
		p.out.WriteString("null")
		return scalar{bare: true}
	}
	if lit, kind := literal(text); lit != "" {
		p.out.WriteString(lit)
		if kind != "" {
			p.note(kind, start, "")
		}
		return scalar{ok: true, text: text, bare: true, null: lit == "null"}
	}
	p.note(toolcall.RepairUnquotedString, start, "bare word taken as a string")
	lenient.WriteJSONString(&p.out, text)
	return scalar{ok: true, text: text, bare: true}
}

func (p *valueParser) key() (string, *toolcall.Error) {
	if d := p.delimAt(p.pos); d != "" {
		return p.delimited(d), nil
	}
	if c := p.src[p.pos]; c == '"' || c == '\'' {
		return p.quoted(c, true), nil
	}
	start := p.pos
	for ; p.pos < p.end && p.src[p.pos] != ':'; p.pos++ {
		switch p.src[p.pos] {
		case '{', '}', '[', ']', ',', '\n':
			return "", p.fail("expected a key")
		}
	}
	key := strings.TrimSpace(p.src[start:p.pos])
	if key == "" || p.pos >= p.end {
		return "", p.fail("expected a key")
	}
	return key, nil
}

// looksLikeKey reports whether a key followed by ':' starts at p.pos, so
// that a missing comma can be told from stray text.
func (p *valueParser) looksLikeKey() bool {
	if p.delimAt(p.pos) != "" || p.src[p.pos] == '"' || p.src[p.pos] == '\'' {
		return true
	}
	for i := p.pos; i < p.end; i++ {
		switch p.src[i] {
		case ':':
			return i > p.pos
		case '{', '}', '[', ']', ',', '\n', ' ', '\t':
			return false
		}
	}
	return false
}

func (p *valueParser) startsValue() bool {
	if p.delimAt(p.pos) != "" {
		return true
	}
	switch c := p.src[p.pos]; {
	case c == '"' || c == '\'' || c == '{' || c == '[' || c == '-' || c >= '0' && c <= '9':
		return true
	}
	return false
}

func (p *valueParser) delimAt(i int) string {
	for _, d := range p.delims {
		if strings.HasPrefix(p.src[i:p.end], d) {
			return d
		}
	}
	return ""
}

// delimited reads a string between two delimiter tokens, as raw text.
func (p *valueParser) delimited(d string) string {
	from := p.pos + len(d)
	if j := strings.Index(p.src[from:p.end], d); j >= 0 {
		p.pos = from + j + len(d)
		return p.src[from : from+j]
	}
	cut := p.cutClosers(from)
	p.note(toolcall.RepairTruncatedString, from, "closing string delimiter missing")
	p.pos = cut
	return p.src[from:cut]
}

// quoted reads a string in quotes q, with JSON escapes.
func (p *valueParser) quoted(q byte, key bool) string {
	from := p.pos + 1
	stop := -1
	for i := from; i < p.end; i++ {
		k := strings.IndexByte(p.src[i:p.end], q)
		if k < 0 {
			break
		}
		// A quote ends the string when no backslash escapes it
		// (jsonscan.Escaped) and what follows it says it does.
		if i += k; !jsonscan.Escaped(p.src, i) && p.quoteEnds(i+1, key) {
			stop = i
			break
		}
	}
	var body string
	if stop < 0 {
		cut := p.cutClosers(from)
		p.note(toolcall.RepairTruncatedString, from, "closing quote missing")
		body, p.pos = p.src[from:cut], cut
	} else {
		body, p.pos = p.src[from:stop], stop+1
	}
	if q == '\'' {
		p.note(toolcall.RepairSingleQuotes, from-1, "")
	}
	return p.unescape(body, from, q)
}

// quoteEnds reports whether a quote whose next byte is at j closes its
// string: it does before , } ] (and ':' after a key), a line end, or the
// end of the object. Any other quote is part of the text.
func (p *valueParser) quoteEnds(j int, key bool) bool {
	for ; j < p.end; j++ {
		switch p.src[j] {
		case ' ', '\t', '\r':
			continue
		case '\n', ',', '}', ']':
			return true
		case ':':
			return key
		}
		return false
	}
	return true
}

// cutClosers returns where a string that lost its closing delimiter ends:
// at the end of the call, less the whitespace and closing brackets that
// close the containers still open.
func (p *valueParser) cutClosers(from int) int {
	i := p.end
	for k := 0; k < len(p.closers); k++ {
		j := i
		for j > from && textlayer.IsSpace(p.src[j-1]) {
			j--
		}
		if j <= from || p.src[j-1] != p.closers[k] {
			break
		}
		i = j - 1
	}
	for i > from && textlayer.IsSpace(p.src[i-1]) {
		i--
	}
	return i
}

// unescape decodes the JSON escapes of a quoted string's body, keeping
// what is not a valid escape as written.
func (p *valueParser) unescape(body string, from int, q byte) string {
	plain := true
	for i := 0; i < len(body) && plain; i++ {
		plain = body[i] != '\\' && body[i] != q && body[i] >= 0x20
	}
	if plain {
		return body
	}
	var b strings.Builder
	b.Grow(len(body))
	var noted [3]bool // invalid escape, unescaped quote, control character
	note := func(n int, kind toolcall.RepairKind, at int) {
		if !noted[n] {
			noted[n] = true
			p.note(kind, from+at, "")
		}
	}
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c == '\\' && i+1 < len(body):
			n := body[i+1]
			switch n {
			case '"', '\\', '/', '\'':
				b.WriteByte(n)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				if r, size := unicodeEscape(body[i:]); size > 0 {
					b.WriteRune(r)
					i += size - 1
					continue
				}
				note(0, toolcall.RepairInvalidEscape, i)
				b.WriteString(`\u`)
			default:
				note(0, toolcall.RepairInvalidEscape, i)
				b.WriteByte('\\')
				b.WriteByte(n)
			}
			i++
		case c == q:
			note(1, toolcall.RepairUnescapedQuotes, i)
			b.WriteByte(c)
		case c < 0x20 && c != '\\':
			note(2, toolcall.RepairControlCharacter, i)
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// unicodeEscape decodes \uXXXX at the start of s, joining a surrogate
// pair; size is 0 when s does not start with a valid escape.
func unicodeEscape(s string) (r rune, size int) {
	hex4 := func(s string) (rune, bool) {
		if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(s[2:6], 16, 16)
		return rune(v), err == nil
	}
	r, ok := hex4(s)
	if !ok {
		return 0, 0
	}
	if utf16.IsSurrogate(r) {
		if lo, ok := hex4(s[6:]); ok {
			if pair := utf16.DecodeRune(r, lo); pair != utf8.RuneError {
				return pair, 12
			}
		}
		return utf8.RuneError, 6
	}
	return r, 6
}

// rawTerminal retakes the last top-level member, whose bare value the
// syntax could not end, as raw text up to the object's final '}'.
func (p *valueParser) rawTerminal() bool {
	m := p.member
	stop, closed := p.end, false
	if j := strings.LastIndexByte(p.src[m.valuePos:p.end], '}'); j >= 0 {
		stop, closed = m.valuePos+j, true
	}
	text := strings.TrimSpace(p.src[m.valuePos:stop])
	if text == "" {
		return false
	}
	p.out.Truncate(m.outLen)
	p.repairs = p.repairs[:m.repairsLen]
	lenient.WriteJSONString(&p.out, text)
	p.note(toolcall.RepairUnquotedString, m.valuePos, "raw text up to the end of the call taken as the last value")
	p.typeBySchema(m.key, m.outLen, scalar{ok: true, text: text})
	p.out.WriteByte('}')
	p.closers = p.closers[:0]
	if closed {
		p.pos = stop + 1
	} else {
		p.note(toolcall.RepairMissingClosingBrace, p.end, "")
		p.pos = p.end
	}
	return true
}

// typeBySchema retypes a top-level scalar by the declared property type.
// A bare null stays null: it says "no value", whatever the type.
func (p *valueParser) typeBySchema(key string, mark int, v scalar) {
	if p.tool == nil || !v.ok || v.null || len(p.tool.PropertyTypes(key)) == 0 {
		return
	}
	typed, r := schema.TypeText(p.tool, key, v.text, false, false)
	p.out.Truncate(mark)
	p.out.Write(typed)
	if r != nil {
		p.repairs = append(p.repairs, *r)
	}
}

func (p *valueParser) note(kind toolcall.RepairKind, at int, detail string) {
	p.repairs = append(p.repairs, toolcall.Repair{Kind: kind, Offset: at, CallIndex: -1, Detail: detail})
}

func (p *valueParser) fail(msg string) *toolcall.Error {
	e := toolcall.NewError(toolcall.CodeMalformedCall, fmt.Sprintf("%s arguments: %s at byte %d", p.dialect, msg, p.pos))
	e.Offset = p.pos
	return e
}

// literal returns the JSON of a bare literal or number, and the repair its
// spelling needed; "" when the word is neither.
func literal(w string) (string, toolcall.RepairKind) {
	switch w {
	case "true", "false", "null":
		return w, ""
	case "True", "False":
		return strings.ToLower(w), toolcall.RepairPythonLiteral
	case "None":
		return "null", toolcall.RepairPythonLiteral
	}
	if isJSONNumber(w) {
		return w, ""
	}
	if n, ok := fixNumber(w); ok {
		return n, toolcall.RepairNumberFormat
	}
	return "", ""
}

// isJSONNumber reports whether s is a number in JSON's grammar.
func isJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	start := i
	if n := digits(); n == 0 || (n > 1 && s[start] == '0') {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// fixNumber spells a number JSON does not accept (+5, .5, 5.) the JSON way.
// Leading zeros are not fixed: 007 may be a code, so it stays a string.
func fixNumber(w string) (string, bool) {
	if w == "" || strings.Trim(w, "+-.0123456789eE") != "" {
		return "", false
	}
	n := strings.TrimPrefix(w, "+")
	neg := strings.HasPrefix(n, "-")
	n = strings.TrimPrefix(n, "-")
	if strings.HasPrefix(n, ".") {
		n = "0" + n
	}
	if mant, exp, ok := strings.Cut(n, "e"); ok {
		n = strings.TrimSuffix(mant, ".") + "e" + exp
	} else {
		n = strings.TrimSuffix(n, ".")
	}
	if neg {
		n = "-" + n
	}
	return n, isJSONNumber(n)
}
