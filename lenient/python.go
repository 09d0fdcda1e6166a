package lenient

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/pystr"
)

// The loose-literal grammar: Python literals (True/False/None, single and
// triple quotes, tuples) plus the JavaScript looseness models mix into JSON
// (unquoted keys and bare words). One grammar serves two users: the lenient
// pipeline, which turns a loose literal into JSON, and the pythonic dialects,
// which parse call expressions such as [get_weather(city='Paris'), noop()].

// pyValue is one literal. Exactly one field is set.
type pyValue struct {
	Pos    lexer.Position
	Str    *string  `parser:"  @String"`
	Number *string  `parser:"| @Number"`
	Const  *string  `parser:"| @( \"True\" | \"False\" | \"None\" | \"true\" | \"false\" | \"null\" )"`
	List   *pyList  `parser:"| @@"`
	Tuple  *pyTuple `parser:"| @@"`
	Dict   *pyDict  `parser:"| @@"`
	Call   *pyCall  `parser:"| @@"`
	Bare   *string  `parser:"| @Ident"`
}

type pyList struct {
	Items []*pyValue `parser:"\"[\" ( @@ ( \",\" @@ )* \",\"? )? \"]\""`
}

// pyTuple is a parenthesised sequence. Python reads (x) as x and (x,) as a
// one-element tuple, so the trailing comma is kept.
type pyTuple struct {
	Items    []*pyValue `parser:"\"(\" ( @@ ( \",\" @@ )*"`
	Trailing bool       `parser:"  @\",\"? )? \")\""`
}

type pyDict struct {
	Entries []*pyEntry `parser:"\"{\" ( @@ ( \",\" @@ )* \",\"? )? \"}\""`
}

type pyEntry struct {
	Key   *pyKey   `parser:"@@ ( \":\" | \"=\" )"`
	Value *pyValue `parser:"@@"`
}

type pyKey struct {
	Pos    lexer.Position
	Str    *string `parser:"  @String"`
	Number *string `parser:"| @Number"`
	Ident  *string `parser:"| @Ident"`
}

type pyCall struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Name   string   `parser:"@Ident ( @\".\" @Ident )* \"(\""`
	Args   []*pyArg `parser:"( @@ ( \",\" @@ )* \",\"? )? \")\""`
}

type pyArg struct {
	Key   string   `parser:"( @Ident \"=\" )?"`
	Value *pyValue `parser:"@@"`
}

type pyCallList struct {
	Calls []*pyCall `parser:"  \"[\" ( @@ ( \",\" @@ )* \",\"? )? \"]\"" `
	Bare  []*pyCall `parser:"| @@ ( \",\"? @@ )* \",\"?"`
}

type pyLiteral struct {
	Value *pyValue `parser:"@@"`
}

var pyLexer = lexer.MustSimple([]lexer.SimpleRule{
	// A string ends where pystr.End says: a backslash escapes the byte
	// after it (a quote, a line break) in every kind of literal.
	{Name: "String", Pattern: `"""(?s:\\.|[^\\])*?"""|'''(?s:\\.|[^\\])*?'''|"(?s:\\.|[^"\\])*"|'(?s:\\.|[^'\\])*'`},
	{Name: "Number", Pattern: `[-+]?(?:0[xX][0-9a-fA-F]+|(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?)`},
	// Hyphens join identifier parts because tool names have them (MCP's
	// "list-files"), and models write such names unquoted in calls.
	{Name: "Ident", Pattern: `[A-Za-z_$][A-Za-z0-9_$]*(?:-[A-Za-z0-9_$]+)*`},
	{Name: "Punct", Pattern: `[][(){}=,:.]`},
	{Name: "Whitespace", Pattern: `\s+`},
})

var (
	literalParser = participle.MustBuild[pyLiteral](
		participle.Lexer(pyLexer), participle.Elide("Whitespace"), participle.UseLookahead(2))
	callsParser = participle.MustBuild[pyCallList](
		participle.Lexer(pyLexer), participle.Elide("Whitespace"), participle.UseLookahead(2))
)

// PythonCall is one call expression parsed by ParsePythonCalls.
type PythonCall struct {
	// Name is the callee, dotted names kept whole ("tools.lookup").
	Name string
	// Args are the arguments in order. Positional arguments have an empty Key.
	Args []PythonArg
	// Start and End are the byte offsets of the call expression in the source.
	Start, End int
}

// PythonArg is one argument of a call expression; Value is its JSON encoding.
type PythonArg struct {
	Key   string
	Value json.RawMessage
}

// ParsePythonCalls parses a list of call expressions, "[f(a=1), g()]", or bare
// calls separated by commas or whitespace, "f(a=1), g()" or "f()\ng()".
// Literal arguments follow Python (single, double and triple quotes,
// True/False/None, lists, tuples, dicts); the JSON spellings are accepted too.
// The error satisfies IsIncomplete when the source ended too early, which a
// streaming caller reads as "wait for more".
func ParsePythonCalls(src string) ([]PythonCall, []toolcall.RepairKind, error) {
	ast, err := callsParser.ParseString("", src)
	if err != nil {
		return nil, nil, err
	}
	calls := ast.Calls
	if calls == nil {
		calls = ast.Bare
	}
	c := converter{src: src}
	out := make([]PythonCall, 0, len(calls))
	for _, pc := range calls {
		call := PythonCall{Name: pc.Name, Start: pc.Pos.Offset, End: pc.EndPos.Offset}
		for _, a := range pc.Args {
			c.buf.Reset()
			if err := c.value(a.Value, 0); err != nil {
				return nil, nil, err
			}
			call.Args = append(call.Args, PythonArg{Key: a.Key, Value: bytes.Clone(c.buf.Bytes())})
		}
		out = append(out, call)
	}
	return out, c.kindList(), nil
}

// PythonLiteralToJSON converts one loose literal (a Python literal, or JSON
// with unquoted keys, single quotes and bare words) into compact JSON that
// keeps the key order. It reports the kinds of looseness it met.
func PythonLiteralToJSON(src string) ([]byte, []toolcall.RepairKind, error) {
	ast, err := literalParser.ParseString("", src)
	if err != nil {
		return nil, nil, err
	}
	c := converter{src: src}
	if err := c.value(ast.Value, 0); err != nil {
		return nil, nil, err
	}
	return c.buf.Bytes(), c.kindList(), nil
}

// IsIncomplete reports whether err means the source ended before the
// literal or call did.
func IsIncomplete(err error) bool {
	var ute *participle.UnexpectedTokenError
	if errors.As(err, &ute) {
		return ute.Unexpected.EOF()
	}
	var le *lexer.Error
	if errors.As(err, &le) {
		// An unterminated string is a lexer error at its opening quote; a
		// lexer error at any other character is text the grammar rejects.
		return unterminatedString(le.Msg)
	}
	return false
}

// unterminatedString reports whether a lexer error message points at a
// quote: the String rule did not match there, so the string never closed.
func unterminatedString(msg string) bool {
	const marker = "invalid input text "
	i := strings.Index(msg, marker)
	if i < 0 {
		return false
	}
	text, err := strconv.Unquote(msg[i+len(marker):])
	if err != nil || text == "" {
		return false
	}
	return text[0] == '"' || text[0] == '\''
}

// ErrorOffset returns the byte offset a grammar error points at, or -1.
func ErrorOffset(err error) int {
	var pe participle.Error
	if errors.As(err, &pe) {
		return pe.Position().Offset
	}
	return -1
}

// maxLiteralDepth bounds recursion in the converter; the pipeline's own depth
// limit is checked before the grammar runs, this is a backstop.
const maxLiteralDepth = 10000

type converter struct {
	src   string
	buf   bytes.Buffer
	notes []note
	// oneLine refuses a raw line break inside a '…' or "…" string, which
	// Python does not allow either: the repair scanner has rules for it.
	oneLine bool
}

var errRawNewline = errors.New("raw line break inside a single-line string")

// unquote decodes a string token, enforcing oneLine.
func (c *converter) unquote(tok string) (string, bool, error) {
	if c.oneLine && !strings.HasPrefix(tok, `"""`) && !strings.HasPrefix(tok, "'''") && strings.ContainsAny(tok, "\n\r") {
		return "", false, errRawNewline
	}
	s, single := pyUnquote(tok)
	return s, single, nil
}

// note is the first occurrence of one kind of change.
type note struct {
	kind   toolcall.RepairKind
	offset int
	risky  bool
}

func (c *converter) note(k toolcall.RepairKind, offset int) {
	for _, have := range c.notes {
		if have.kind == k {
			return
		}
	}
	c.notes = append(c.notes, note{kind: k, offset: offset})
}

// noteRisky records a change that may not be what the model meant; the
// kind is then risky wherever it occurs.
func (c *converter) noteRisky(k toolcall.RepairKind, offset int) {
	for i := range c.notes {
		if c.notes[i].kind == k {
			c.notes[i].risky = true
			return
		}
	}
	c.notes = append(c.notes, note{kind: k, offset: offset, risky: true})
}

func (c *converter) kindList() []toolcall.RepairKind {
	var kinds []toolcall.RepairKind
	for _, n := range c.notes {
		kinds = append(kinds, n.kind)
	}
	return kinds
}

var errLiteralTooDeep = errors.New("literal nested too deeply")

func (c *converter) value(v *pyValue, depth int) error {
	if depth > maxLiteralDepth {
		return errLiteralTooDeep
	}
	at := v.Pos.Offset
	switch {
	case v.Str != nil:
		s, single, err := c.unquote(*v.Str)
		if err != nil {
			return err
		}
		if single {
			c.note(toolcall.RepairSingleQuotes, at)
		}
		if strings.HasPrefix(*v.Str, `"""`) || strings.HasPrefix(*v.Str, "'''") {
			c.note(toolcall.RepairPythonLiteral, at)
		}
		writeJSONString(&c.buf, s)
	case v.Number != nil:
		if leadingZero(*v.Number) {
			// The digits the model wrote are kept: 02134 is the string it
			// was written as, not 2134.
			c.noteRisky(toolcall.RepairNumberFormat, at)
			writeJSONString(&c.buf, *v.Number)
			break
		}
		n, changed := normalizeNumber(*v.Number)
		if changed {
			c.note(toolcall.RepairNumberFormat, at)
		}
		c.buf.WriteString(n)
	case v.Const != nil:
		c.literal(*v.Const, at)
	case v.List != nil:
		return c.array(v.List.Items, depth)
	case v.Tuple != nil:
		c.note(toolcall.RepairPythonLiteral, at)
		if len(v.Tuple.Items) == 1 && !v.Tuple.Trailing {
			// (x) is x: parentheses, not a tuple.
			return c.value(v.Tuple.Items[0], depth+1)
		}
		return c.array(v.Tuple.Items, depth)
	case v.Dict != nil:
		c.buf.WriteByte('{')
		for i, e := range v.Dict.Entries {
			if i > 0 {
				c.buf.WriteByte(',')
			}
			kat := e.Key.Pos.Offset
			switch {
			case e.Key.Str != nil:
				s, single, err := c.unquote(*e.Key.Str)
				if err != nil {
					return err
				}
				if single {
					c.note(toolcall.RepairSingleQuotes, kat)
				}
				writeJSONString(&c.buf, s)
			case e.Key.Number != nil:
				c.note(toolcall.RepairUnquotedKey, kat)
				writeJSONString(&c.buf, *e.Key.Number)
			default:
				c.note(toolcall.RepairUnquotedKey, kat)
				writeJSONString(&c.buf, *e.Key.Ident)
			}
			c.buf.WriteByte(':')
			if err := c.value(e.Value, depth+1); err != nil {
				return err
			}
		}
		c.buf.WriteByte('}')
	case v.Call != nil:
		// A call used as a value (f(x=g(1))) has no JSON meaning; keep its
		// source text as a string rather than guess.
		c.note(toolcall.RepairUnquotedString, at)
		writeJSONString(&c.buf, c.callSource(v.Call))
	case v.Bare != nil:
		if lit := literalFor([]byte(*v.Bare)); lit != "" {
			// TRUE, Null: a literal in the wrong case.
			c.note(toolcall.RepairPythonLiteral, at)
			c.buf.WriteString(lit)
			break
		}
		c.note(toolcall.RepairUnquotedString, at)
		writeJSONString(&c.buf, *v.Bare)
	}
	return nil
}

// literal writes a True/False/None or JSON literal.
func (c *converter) literal(word string, at int) {
	lit := literalFor([]byte(word))
	if lit != word {
		c.note(toolcall.RepairPythonLiteral, at)
	}
	c.buf.WriteString(lit)
}

func (c *converter) array(items []*pyValue, depth int) error {
	c.buf.WriteByte('[')
	for i, it := range items {
		if i > 0 {
			c.buf.WriteByte(',')
		}
		if err := c.value(it, depth+1); err != nil {
			return err
		}
	}
	c.buf.WriteByte(']')
	return nil
}

// callSource returns the text of a call expression as the model wrote it.
func (c *converter) callSource(pc *pyCall) string {
	if pc.Pos.Offset >= 0 && pc.EndPos.Offset <= len(c.src) && pc.Pos.Offset < pc.EndPos.Offset {
		return c.src[pc.Pos.Offset:pc.EndPos.Offset]
	}
	return pc.Name + "(…)"
}

// pyUnquote decodes a Python string literal. It reports whether the literal
// used single quotes.
func pyUnquote(lit string) (string, bool) {
	q := lit[0]
	body := lit[1 : len(lit)-1]
	if len(lit) >= 6 && (strings.HasPrefix(lit, `"""`) || strings.HasPrefix(lit, `'''`)) {
		body = lit[3 : len(lit)-3]
	}
	if strings.IndexByte(body, '\\') < 0 {
		return body, q == '\''
	}
	return pystr.Unescape(body), q == '\''
}

// leadingZero reports whether the number n has a leading zero before
// another digit (007, -00.5), which no JSON number has.
func leadingZero(n string) bool {
	n = strings.TrimLeft(n, "+-")
	return len(n) > 1 && n[0] == '0' && n[1] >= '0' && n[1] <= '9'
}

// normalizeNumber turns a Python or JSON5 number into JSON number syntax.
func normalizeNumber(n string) (string, bool) {
	orig := n
	if strings.HasPrefix(n, "+") {
		n = n[1:]
	}
	neg := strings.HasPrefix(n, "-")
	if neg {
		n = n[1:]
	}
	if len(n) > 2 && (n[1] == 'x' || n[1] == 'X') {
		if v, err := strconv.ParseUint(n[2:], 16, 64); err == nil {
			n = strconv.FormatUint(v, 10)
		}
	} else {
		mant, exp, hasExp := strings.Cut(strings.ToLower(n), "e")
		if strings.HasPrefix(mant, ".") {
			mant = "0" + mant
		}
		if strings.HasSuffix(mant, ".") {
			mant += "0"
		}
		n = mant
		if hasExp {
			if strings.HasPrefix(exp, "+") {
				exp = exp[1:]
			}
			n += "e" + exp
		}
		if !hasExp && strings.ToLower(orig) != orig {
			n = strings.ToLower(n)
		}
	}
	if neg {
		n = "-" + n
	}
	return n, n != orig
}

// writeJSONString writes s as a JSON string, escaping only what JSON requires
// so that text such as "<" and "&" stays readable.
func writeJSONString(buf *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	buf.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			buf.WriteString(s[start:i])
			switch c {
			case '"', '\\':
				buf.WriteByte('\\')
				buf.WriteByte(c)
			case '\n':
				buf.WriteString(`\n`)
			case '\r':
				buf.WriteString(`\r`)
			case '\t':
				buf.WriteString(`\t`)
			case '\b':
				buf.WriteString(`\b`)
			case '\f':
				buf.WriteString(`\f`)
			default:
				buf.WriteString(`\u00`)
				buf.WriteByte(hex[c>>4])
				buf.WriteByte(hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf.WriteString(s[start:i])
			buf.WriteString(`\ufffd`)
			i++
			start = i
			continue
		}
		i += size
	}
	buf.WriteString(s[start:])
	buf.WriteByte('"')
}

// WriteJSONString appends s to buf as a JSON string literal. Invalid UTF-8 is
// replaced by U+FFFD; "<", ">" and "&" are not escaped.
func WriteJSONString(buf *bytes.Buffer, s string) { writeJSONString(buf, s) }
