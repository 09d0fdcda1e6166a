package codemode

import (
	"unicode"
	"unicode/utf8"
)

// tokKind is the kind of a Python token.
type tokKind uint8

const (
	tEOF tokKind = iota
	tName
	tNumber
	tString
	tOp
	tNewline
	tIndent
	tDedent
	tError
)

// token is one Python token: its kind, its text (for names and operators)
// and its byte span in the lexer's source.
type token struct {
	kind       tokKind
	text       string
	start, end int
	// kw marks a name that is a keyword.
	kw bool
}

// lexer turns Python source into tokens on demand, following the rules of
// Python's tokenizer that decide what a statement is: indentation (INDENT
// and DEDENT), logical lines (NEWLINE, with lines joined inside brackets and
// after a backslash), comments, string literals of every prefix and quote,
// and numbers. It never runs past limit bytes of source, and it counts the
// bytes it examines against a shared budget.
type lexer struct {
	src     string
	pos     int
	limit   int
	budget  *int
	indents []int
	// brackets are the open brackets, innermost last.
	brackets []byte
	// atLineStart: the next token starts a logical line, so indentation
	// is measured first.
	atLineStart bool
	// lineHasTokens: the current logical line produced a token, so a
	// NEWLINE ends it.
	lineHasTokens bool
	pending       []token
	done          bool
	// base is an indentation every line may carry that is not Python's
	// (the indentation of a fence inside a list item): up to base leading
	// spaces of a line are not counted.
	base int
}

func newLexer(src string, budget *int) *lexer {
	return &lexer{src: src, limit: len(src), budget: budget, indents: []int{0}, atLineStart: true}
}

// spend takes n bytes of work from the budget and reports whether any was
// left.
func (lx *lexer) spend(n int) bool {
	if lx.budget == nil {
		return true
	}
	*lx.budget -= n
	return *lx.budget >= 0
}

func (lx *lexer) errTok(at int) token {
	lx.done = true
	return token{kind: tError, start: at, end: at}
}

// next returns the next token. After an error or the end it keeps
// returning that token.
func (lx *lexer) next() token {
	if len(lx.pending) > 0 {
		t := lx.pending[0]
		lx.pending = lx.pending[1:]
		return t
	}
	if lx.done {
		return token{kind: tError, start: lx.pos, end: lx.pos}
	}
	start := lx.pos
	t := lx.scan()
	if !lx.spend(lx.pos - start + 1) {
		return lx.errTok(lx.pos)
	}
	return t
}

func (lx *lexer) scan() token {
	for {
		if lx.atLineStart && len(lx.brackets) == 0 {
			if t, ok := lx.indentation(); ok {
				return t
			}
			if lx.done {
				return token{kind: tError, start: lx.pos, end: lx.pos}
			}
		}
		// Skip spaces, comments and joined lines inside a logical line.
		for lx.pos < lx.limit {
			c := lx.src[lx.pos]
			switch {
			case c == ' ' || c == '\t' || c == '\f':
				lx.pos++
				continue
			case c == '#':
				for lx.pos < lx.limit && lx.src[lx.pos] != '\n' {
					lx.pos++
				}
				continue
			case c == '\\':
				if n := newlineAt(lx.src, lx.pos+1, lx.limit); n > 0 {
					lx.pos += 1 + n
					continue
				}
				return lx.errTok(lx.pos)
			}
			break
		}
		if lx.pos >= lx.limit {
			return lx.end()
		}
		c := lx.src[lx.pos]
		if c == '\r' || c == '\n' {
			n := newlineAt(lx.src, lx.pos, lx.limit)
			at := lx.pos
			lx.pos += n
			if len(lx.brackets) > 0 {
				continue
			}
			lx.atLineStart = true
			if lx.lineHasTokens {
				lx.lineHasTokens = false
				return token{kind: tNewline, start: at, end: at + n}
			}
			continue
		}
		lx.lineHasTokens = true
		return lx.token()
	}
}

// newlineAt returns the length of the line break at i (1 or 2), or 0.
func newlineAt(s string, i, limit int) int {
	if i >= limit {
		return 0
	}
	switch s[i] {
	case '\n':
		return 1
	case '\r':
		if i+1 < limit && s[i+1] == '\n' {
			return 2
		}
		return 1
	}
	return 0
}

// indentation measures the indentation of the line at pos, skipping blank
// and comment-only lines, and returns an INDENT or DEDENT token when the
// level changes.
func (lx *lexer) indentation() (token, bool) {
	for {
		col, i := 0, lx.pos
		for skip := 0; skip < lx.base && i < lx.limit && lx.src[i] == ' '; skip++ {
			i++
		}
		for i < lx.limit {
			switch lx.src[i] {
			case ' ':
				col++
			case '\t':
				col = (col/8 + 1) * 8
			case '\f':
				col = 0
			default:
				goto measured
			}
			i++
		}
	measured:
		if i >= lx.limit {
			lx.pos = i
			lx.atLineStart = false
			return token{}, false
		}
		c := lx.src[i]
		if c == '#' || c == '\n' || c == '\r' {
			// A blank or comment-only line does not count.
			for i < lx.limit && lx.src[i] != '\n' && lx.src[i] != '\r' {
				i++
			}
			i += newlineAt(lx.src, i, lx.limit)
			if !lx.spend(i - lx.pos) {
				lx.errTok(i)
				return token{}, false
			}
			lx.pos = i
			continue
		}
		lx.pos = i
		lx.atLineStart = false
		top := lx.indents[len(lx.indents)-1]
		switch {
		case col > top:
			lx.indents = append(lx.indents, col)
			return token{kind: tIndent, start: i, end: i}, true
		case col < top:
			for len(lx.indents) > 1 && lx.indents[len(lx.indents)-1] > col {
				lx.indents = lx.indents[:len(lx.indents)-1]
				lx.pending = append(lx.pending, token{kind: tDedent, start: i, end: i})
			}
			if lx.indents[len(lx.indents)-1] != col {
				// An unindent that matches no outer level.
				lx.pending = append(lx.pending, lx.errTok(i))
			}
			t := lx.pending[0]
			lx.pending = lx.pending[1:]
			return t, true
		}
		return token{}, false
	}
}

// end returns the tokens that close the source: NEWLINE for an unfinished
// line, a DEDENT per open level, then EOF. Open brackets are an error.
func (lx *lexer) end() token {
	if len(lx.brackets) > 0 {
		return lx.errTok(lx.pos)
	}
	lx.done = true
	at := lx.pos
	if lx.lineHasTokens {
		lx.lineHasTokens = false
		lx.pending = append(lx.pending, token{kind: tNewline, start: at, end: at})
	}
	for len(lx.indents) > 1 {
		lx.indents = lx.indents[:len(lx.indents)-1]
		lx.pending = append(lx.pending, token{kind: tDedent, start: at, end: at})
	}
	lx.pending = append(lx.pending, token{kind: tEOF, start: at, end: at})
	t := lx.pending[0]
	lx.pending = lx.pending[1:]
	return t
}

// ops are Python's operators and delimiters, longest first within each
// leading character.
var ops = []string{
	"**=", "//=", ">>=", "<<=", "...", "!=",
	"->", ":=", "**", "//", "<<", ">>", "<=", ">=", "==",
	"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=",
	"+", "-", "*", "/", "%", "@", "&", "|", "^", "~", "<", ">",
	"(", ")", "[", "]", "{", "}", ",", ":", ".", ";", "=",
}

func (lx *lexer) token() token {
	start := lx.pos
	c := lx.src[start]
	switch {
	case c == '.' && start+1 < lx.limit && isDigit(lx.src[start+1]):
		return lx.number()
	case isDigit(c):
		return lx.number()
	case c == '"' || c == '\'':
		return lx.str(start, start)
	}
	r, size := rune(c), 1
	if c >= utf8.RuneSelf {
		r, size = utf8.DecodeRuneInString(lx.src[start:lx.limit])
	}
	if isIdentStart(r) {
		i := start + size
		for i < lx.limit {
			r, n := rune(lx.src[i]), 1
			if r >= utf8.RuneSelf {
				r, n = utf8.DecodeRuneInString(lx.src[i:lx.limit])
			}
			if !isIdentPart(r) {
				break
			}
			i += n
		}
		word := lx.src[start:i]
		if i < lx.limit && (lx.src[i] == '"' || lx.src[i] == '\'') && isStringPrefix(word) {
			return lx.str(start, i)
		}
		lx.pos = i
		return token{kind: tName, text: word, start: start, end: i, kw: keywords[word]}
	}
	for _, op := range ops {
		if op[0] == c && len(op) <= lx.limit-start && lx.src[start:start+len(op)] == op {
			lx.pos = start + len(op)
			switch op {
			case "(", "[", "{":
				if len(lx.brackets) >= maxBrackets {
					return lx.errTok(start)
				}
				lx.brackets = append(lx.brackets, op[0])
			case ")", "]", "}":
				open := map[byte]byte{')': '(', ']': '[', '}': '{'}[op[0]]
				if len(lx.brackets) == 0 || lx.brackets[len(lx.brackets)-1] != open {
					return lx.errTok(start)
				}
				lx.brackets = lx.brackets[:len(lx.brackets)-1]
			}
			return token{kind: tOp, text: op, start: start, end: lx.pos}
		}
	}
	return lx.errTok(start)
}

// maxBrackets bounds bracket nesting; CPython's own parser stops at 200.
const maxBrackets = 200

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isIdentStart(r rune) bool {
	return r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.Is(unicode.Nl, r))
}

func isIdentPart(r rune) bool {
	return isIdentStart(r) || r >= '0' && r <= '9' ||
		r >= utf8.RuneSelf && (unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) || unicode.Is(unicode.Pc, r))
}

// isStringPrefix reports whether word is a string prefix (r, b, u, f, t
// and their allowed pairs, in any case).
func isStringPrefix(word string) bool {
	if len(word) > 2 {
		return false
	}
	var seen [256]bool
	for i := 0; i < len(word); i++ {
		c := word[i] | 0x20
		if c != 'r' && c != 'b' && c != 'u' && c != 'f' && c != 't' || seen[c] {
			return false
		}
		seen[c] = true
	}
	if len(word) == 2 {
		// Only r pairs with b, f or t.
		return seen['r']
	}
	return true
}

// str reads a string literal whose prefix starts at start and quote at q.
func (lx *lexer) str(start, q int) token {
	quote := lx.src[q]
	triple := q+2 < lx.limit && lx.src[q+1] == quote && lx.src[q+2] == quote
	i := q + 1
	if triple {
		i = q + 3
	}
	for i < lx.limit {
		c := lx.src[i]
		switch {
		case c == '\\':
			i += 2
			if i > lx.limit {
				i = lx.limit
			}
			if i < lx.limit && lx.src[i-1] == '\r' && lx.src[i] == '\n' {
				i++
			}
			continue
		case c == quote:
			if !triple {
				lx.pos = i + 1
				return token{kind: tString, start: start, end: lx.pos}
			}
			if i+2 < lx.limit && lx.src[i+1] == quote && lx.src[i+2] == quote {
				lx.pos = i + 3
				return token{kind: tString, start: start, end: lx.pos}
			}
		case (c == '\n' || c == '\r') && !triple:
			return lx.errTok(start)
		}
		i++
	}
	return lx.errTok(start)
}

// number reads an integer, float or imaginary literal.
func (lx *lexer) number() token {
	start, i := lx.pos, lx.pos
	digits := func(ok func(byte) bool) int {
		n := 0
		for i < lx.limit && (ok(lx.src[i]) || lx.src[i] == '_' && i+1 < lx.limit && ok(lx.src[i+1]) && n > 0) {
			i++
			n++
		}
		return n
	}
	dec := isDigit
	if lx.src[i] == '0' && i+1 < lx.limit && (lx.src[i+1]|0x20 == 'x' || lx.src[i+1]|0x20 == 'o' || lx.src[i+1]|0x20 == 'b') {
		base := lx.src[i+1] | 0x20
		i += 2
		ok := func(c byte) bool { return c == '0' || c == '1' }
		switch base {
		case 'x':
			ok = func(c byte) bool { return isDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'f' }
		case 'o':
			ok = func(c byte) bool { return c >= '0' && c <= '7' }
		}
		if i < lx.limit && lx.src[i] == '_' {
			i++
		}
		if digits(ok) == 0 {
			return lx.errTok(start)
		}
	} else {
		digits(dec)
		if i < lx.limit && lx.src[i] == '.' {
			i++
			digits(dec)
		}
		if i < lx.limit && lx.src[i]|0x20 == 'e' {
			j := i + 1
			if j < lx.limit && (lx.src[j] == '+' || lx.src[j] == '-') {
				j++
			}
			if j < lx.limit && isDigit(lx.src[j]) {
				i = j
				digits(dec)
			}
		}
		if i < lx.limit && lx.src[i]|0x20 == 'j' {
			i++
		}
	}
	// A number runs straight into a name only in broken text ("3rd").
	if i < lx.limit {
		r, _ := utf8.DecodeRuneInString(lx.src[i:lx.limit])
		if isIdentPart(r) {
			return lx.errTok(start)
		}
	}
	lx.pos = i
	return token{kind: tNumber, start: start, end: i}
}
