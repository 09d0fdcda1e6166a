package pythonic

import (
	"bytes"
	"strings"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/pystr"
	"github.com/dialectkit/toolcall/lenient"
)

// The call scanner parses one call expression, name(args), by hand, in one
// pass: keyword and positional arguments whose values are strings (single,
// double or triple quoted), JSON numbers, True/False/None and their JSON
// spellings, and lists and dicts of those. Anything else (tuples, calls as
// values, bare words, unquoted keys, hex or Python-only number spellings, a
// syntax error) it declines, and the loose-literal grammar of the lenient
// package, the reference for Python literals, parses the call instead. On
// what it accepts it gives what the grammar gives, byte for byte: the
// differential tests and the fuzz target hold it to that.

// scanCall parses src, a whole call expression whose callee name takes its
// first nameLen bytes. ok is false when it declines.
func scanCall(src string, nameLen int) (args []lenient.PythonArg, kinds []toolcall.RepairKind, ok bool) {
	c := callScanner{src: src, i: nameLen}
	if c.i >= len(src) || src[c.i] != '(' {
		return nil, nil, false
	}
	c.i++
	c.buf.Grow(len(src))
	// Values are written one after another into one buffer; each argument
	// keeps a slice of it.
	type span struct {
		key        string
		start, end int
	}
	var spans []span
	for {
		c.space()
		if c.i >= len(c.src) {
			return nil, nil, false
		}
		if c.src[c.i] == ')' {
			c.i++
			break
		}
		key := ""
		if at := c.i; isIdentStart(c.src[at]) {
			k := c.ident()
			if j := c.skipSpaceAt(c.i); j < len(c.src) && c.src[j] == '=' {
				key = k
				c.i = j + 1
				c.space()
			} else {
				c.i = at // a positional value: a constant, or declined
			}
		}
		start := c.buf.Len()
		if !c.value(0) {
			return nil, nil, false
		}
		spans = append(spans, span{key, start, c.buf.Len()})
		c.space()
		if c.i >= len(c.src) {
			return nil, nil, false
		}
		switch c.src[c.i] {
		case ',':
			c.i++
		case ')':
		default:
			return nil, nil, false
		}
	}
	if c.skipSpaceAt(c.i) != len(c.src) {
		return nil, nil, false
	}
	out := c.buf.Bytes()
	args = make([]lenient.PythonArg, len(spans))
	for i, s := range spans {
		args[i] = lenient.PythonArg{Key: s.key, Value: out[s.start:s.end:s.end]}
	}
	return args, c.kinds, true
}

type callScanner struct {
	src   string
	i     int
	buf   bytes.Buffer
	kinds []toolcall.RepairKind
}

// maxScanDepth bounds the nesting the scanner reads; deeper values go to
// the grammar, which the depth guard has already bounded.
const maxScanDepth = 64

func (c *callScanner) note(k toolcall.RepairKind) {
	for _, have := range c.kinds {
		if have == k {
			return
		}
	}
	c.kinds = append(c.kinds, k)
}

// isPySpace is the grammar's whitespace (\s: tab, newline, form feed,
// carriage return, space).
func isPySpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f'
}

func (c *callScanner) skipSpaceAt(i int) int {
	for i < len(c.src) && isPySpace(c.src[i]) {
		i++
	}
	return i
}

func (c *callScanner) space() { c.i = c.skipSpaceAt(c.i) }

// ident reads an identifier as the grammar's lexer does (parts joined by
// single hyphens), or returns "" and reads nothing.
func (c *callScanner) ident() string {
	i := c.i
	c.i = readIdent(c.src, i)
	return c.src[i:c.i]
}

// delimiter reports whether the byte at i may follow a value.
func (c *callScanner) delimiter(i int) bool {
	if i >= len(c.src) {
		return true
	}
	switch b := c.src[i]; b {
	case ',', ')', ']', '}', ':':
		return true
	default:
		return isPySpace(b)
	}
}

func (c *callScanner) value(depth int) bool {
	if depth > maxScanDepth || c.i >= len(c.src) {
		return false
	}
	switch b := c.src[c.i]; {
	case b == '"' || b == '\'':
		return c.str()
	case b == '-' || b >= '0' && b <= '9':
		return c.number()
	case b == '[':
		return c.list(depth)
	case b == '{':
		return c.dict(depth)
	case isIdentStart(b):
		start := c.i
		word := c.ident()
		lit := ""
		switch word {
		case "True", "true":
			lit = "true"
		case "False", "false":
			lit = "false"
		case "None", "null":
			lit = "null"
		default:
			return false
		}
		// A constant followed by '(' or '.' is a call or a name.
		if !c.delimiter(c.i) {
			c.i = start
			return false
		}
		if lit != word {
			c.note(toolcall.RepairPythonLiteral)
		}
		c.buf.WriteString(lit)
		return true
	}
	return false
}

// str reads a string literal as the grammar's lexer and converter do.
func (c *callScanner) str() bool {
	s, i := c.src, c.i
	q := s[i]
	end, ok := pystr.End(s, i)
	if !ok {
		return false
	}
	triple := end-i >= 6 && s[i+1] == q && s[i+2] == q
	body := s[i+1 : end-1]
	if triple {
		body = s[i+3 : end-3]
	}
	c.i = end
	if !c.delimiter(c.i) {
		return false
	}
	if q == '\'' {
		c.note(toolcall.RepairSingleQuotes)
	}
	if triple {
		c.note(toolcall.RepairPythonLiteral)
	}
	if strings.IndexByte(body, '\\') >= 0 {
		body = pystr.Unescape(body)
	}
	lenient.WriteJSONString(&c.buf, body)
	return true
}

// number reads a number in JSON syntax (lower-case exponent without a
// plus sign, no leading zero), which the grammar keeps as written; other
// spellings are declined.
func (c *callScanner) number() bool {
	s, i := c.src, c.i
	start := i
	if s[i] == '-' {
		i++
	}
	d := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == d || s[d] == '0' && i-d > 1 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		f := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == f {
			return false
		}
	}
	if i < len(s) && s[i] == 'e' {
		i++
		if i < len(s) && s[i] == '-' {
			i++
		}
		e := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == e {
			return false
		}
	}
	if !c.delimiter(i) {
		return false
	}
	c.buf.WriteString(s[start:i])
	c.i = i
	return true
}

func (c *callScanner) list(depth int) bool {
	c.i++ // [
	c.buf.WriteByte('[')
	first := true
	for {
		c.space()
		if c.i >= len(c.src) {
			return false
		}
		if c.src[c.i] == ']' {
			c.i++
			break
		}
		if !first {
			c.buf.WriteByte(',')
		}
		first = false
		if !c.value(depth + 1) {
			return false
		}
		c.space()
		if c.i >= len(c.src) {
			return false
		}
		switch c.src[c.i] {
		case ',':
			c.i++
		case ']':
		default:
			return false
		}
	}
	c.buf.WriteByte(']')
	return c.delimiter(c.i)
}

func (c *callScanner) dict(depth int) bool {
	c.i++ // {
	c.buf.WriteByte('{')
	first := true
	for {
		c.space()
		if c.i >= len(c.src) {
			return false
		}
		if c.src[c.i] == '}' {
			c.i++
			break
		}
		if b := c.src[c.i]; b != '"' && b != '\'' {
			return false // an unquoted key
		}
		if c.i+2 < len(c.src) && c.src[c.i+1] == c.src[c.i] && c.src[c.i+2] == c.src[c.i] {
			return false // a triple-quoted key
		}
		if !first {
			c.buf.WriteByte(',')
		}
		first = false
		if !c.str() {
			return false
		}
		c.space()
		if c.i >= len(c.src) || c.src[c.i] != ':' {
			return false
		}
		c.i++
		c.buf.WriteByte(':')
		c.space()
		if !c.value(depth + 1) {
			return false
		}
		c.space()
		if c.i >= len(c.src) {
			return false
		}
		switch c.src[c.i] {
		case ',':
			c.i++
		case '}':
		default:
			return false
		}
	}
	c.buf.WriteByte('}')
	return c.delimiter(c.i)
}

// scanLiteral converts src, one whole Python literal (a call object such
// as {'name': 'f', 'arguments': {'a': 1}}), to JSON by hand, as the call
// scanner reads argument values. ok is false when it declines; the
// grammar then reads src. On what it accepts it gives what
// lenient.PythonLiteralToJSON gives.
func scanLiteral(src string) (out []byte, kinds []toolcall.RepairKind, ok bool) {
	c := callScanner{src: src}
	c.buf.Grow(len(src) + len(src)/8)
	c.space()
	if c.i >= len(src) || (src[c.i] != '{' && src[c.i] != '[') {
		return nil, nil, false
	}
	if !c.value(0) || c.skipSpaceAt(c.i) != len(src) {
		return nil, nil, false
	}
	return c.buf.Bytes(), c.kinds, true
}
