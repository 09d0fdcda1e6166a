package lenient

import (
	"unicode/utf8"

	"github.com/dialectkit/toolcall"
)

// The fast path: one pass, in the manner of validate, over a container
// that is JSON but for the damage models most often leave in small
// arguments — single-quoted strings, unquoted keys, trailing commas,
// Python's True, False and None, and containers the end of the input left
// open. Such damage needs no look-ahead: every quote closes where JSON
// would close it, and what follows each token is what JSON allows there.
// The scanner's rules reach the same reading, at several times the cost
// (they look ahead at every quote and read each string twice). The fast
// path writes what the scanner writes and records the same repairs at the
// same offsets, in the same order; TestFastPathAgrees and FuzzFastPath
// hold it to that. On anything else it gives up, and the scanner reads the
// input from the start.

// fastMaxDepth is the deepest nesting the fast path reads; deeper text
// goes to the scanner, which enforces the depth limit.
const fastMaxDepth = 32

// fast reads s.src on the fast path into s.out and s.rec, which must be
// fresh. It reports false when the input needs the scanner; s.out,
// s.stack and the record are then reset for it.
func (s *scanner) fast() bool {
	if s.fastRead() {
		return true
	}
	s.out = s.out[:0]
	s.stack = s.stack[:0]
	s.rec.reset(s.rec.base)
	return false
}

func (s *scanner) fastRead() bool {
	src := s.src
	n := len(src)
	limit := fastMaxDepth
	if s.maxDepth > 0 && s.maxDepth < limit {
		limit = s.maxDepth
	}
	var stack [fastMaxDepth]byte
	depth := 0
	commaAt := -1 // a comma whose member or element has not come yet
	i := jsonSpace(src, 0)
	if i >= n || src[i] != '{' && src[i] != '[' {
		return false
	}

value:
	if i >= n {
		return false
	}
	switch c := src[i]; c {
	case '{', '[':
		if depth >= limit {
			return false
		}
		stack[depth] = c
		depth++
		s.out = append(s.out, c)
		i = jsonSpace(src, i+1)
		if i >= n {
			goto eof
		}
		if c == '[' {
			if src[i] == ']' {
				depth--
				s.out = append(s.out, ']')
				i++
				goto after
			}
			goto value
		}
		if src[i] == '}' {
			depth--
			s.out = append(s.out, '}')
			i++
			goto after
		}
		goto key
	case '"', '\'':
		end, ok := s.fastString(i)
		if !ok {
			return false
		}
		i = end
	case 't', 'f', 'n', 'T', 'F', 'N':
		end, lit := literalWord(src, i)
		if lit == "" {
			return false
		}
		if c == 'T' || c == 'F' || c == 'N' {
			s.rec.add(toolcall.RepairPythonLiteral, i)
		}
		s.out = append(s.out, lit...)
		i = end
	default:
		end, ok := validNumber(src, i)
		if !ok || end < n && !fastDelimiter[src[end]] {
			return false
		}
		s.out = append(s.out, src[i:end]...)
		i = end
	}

after:
	i = jsonSpace(src, i)
	if depth == 0 {
		return i == n
	}
	if i >= n {
		goto eof
	}
	switch c := src[i]; {
	case c == ',':
		commaAt = i
		i = jsonSpace(src, i+1)
		if i >= n {
			goto eof
		}
		if c := src[i]; c == '}' || c == ']' {
			if c != closerOf(stack[depth-1]) {
				return false
			}
			s.rec.add(toolcall.RepairTrailingComma, commaAt)
			commaAt = -1
			depth--
			s.out = append(s.out, c)
			i++
			goto after
		}
		commaAt = -1
		s.out = append(s.out, ',')
		if stack[depth-1] == '{' {
			goto key
		}
		goto value
	case c == closerOf(stack[depth-1]):
		depth--
		s.out = append(s.out, c)
		i++
		goto after
	}
	return false

key:
	// i is at a byte that is neither whitespace nor '}'.
	switch c := src[i]; {
	case c == '"' || c == '\'':
		end, ok := s.fastString(i)
		if !ok {
			return false
		}
		i = end
	case isLetter(c) || c == '_' || c == '$':
		end := i + 1
		for end < n && (isLetter(src[end]) || isDigit(src[end]) || src[end] == '_' || src[end] == '$') {
			end++
		}
		s.rec.add(toolcall.RepairUnquotedKey, i)
		s.out = append(s.out, '"')
		s.out = append(s.out, src[i:end]...)
		s.out = append(s.out, '"')
		i = end
	default:
		return false
	}
	i = jsonSpace(src, i)
	if i >= n || src[i] != ':' {
		return false
	}
	s.out = append(s.out, ':')
	i = jsonSpace(src, i+1)
	goto value

eof:
	// The input ends inside containers, after a whole value, an opener or
	// a comma: each container is closed where the input ends, innermost
	// first, as the scanner closes them.
	if commaAt >= 0 {
		s.rec.add(toolcall.RepairTrailingComma, commaAt)
	}
	for ; depth > 0; depth-- {
		if stack[depth-1] == '{' {
			s.rec.add(toolcall.RepairMissingClosingBrace, n)
			s.out = append(s.out, '}')
		} else {
			s.rec.add(toolcall.RepairMissingClosingBracket, n)
			s.out = append(s.out, ']')
		}
	}
	return true
}

// fastString writes the string whose quote is at i, double or single, and
// returns the offset after its closing quote. It reports false for a
// string the fast path does not read: one the input cuts off, one with a
// control character or invalid UTF-8, a double-quoted one with an escape
// JSON does not know, a single-quoted one with any backslash.
func (s *scanner) fastString(i int) (int, bool) {
	src := s.src
	if src[i] == '"' {
		end, _, ok := validString(src, i)
		if !ok {
			return 0, false
		}
		s.out = append(s.out, src[i:end]...)
		return end, true
	}
	start := i + 1
	j := start
	quotes := 0
	for j < len(src) {
		c := src[j]
		switch {
		case c == '\'':
			s.rec.add(toolcall.RepairSingleQuotes, i)
			s.out = append(s.out, '"')
			if quotes == 0 {
				s.out = append(s.out, src[start:j]...)
			} else {
				for _, c := range src[start:j] {
					if c == '"' {
						s.out = append(s.out, '\\')
					}
					s.out = append(s.out, c)
				}
			}
			s.out = append(s.out, '"')
			return j + 1, true
		case c == '"':
			quotes++
			j++
		case c == '\\' || c < 0x20:
			return 0, false
		case c < utf8.RuneSelf:
			j++
		default:
			r, size := utf8.DecodeRune(src[j:])
			if r == utf8.RuneError && size == 1 {
				return 0, false
			}
			j += size
		}
	}
	return 0, false
}

// literalWord returns the JSON literal spelled at i — true, false, null,
// or Python's True, False, None — and the offset after it, or "" when the
// word there is no such literal or runs on.
func literalWord(src []byte, i int) (int, string) {
	var word, lit string
	switch src[i] {
	case 't':
		word, lit = "true", "true"
	case 'f':
		word, lit = "false", "false"
	case 'n':
		word, lit = "null", "null"
	case 'T':
		word, lit = "True", "true"
	case 'F':
		word, lit = "False", "false"
	case 'N':
		word, lit = "None", "null"
	}
	end := i + len(word)
	if end > len(src) || string(src[i:end]) != word || end < len(src) && !fastDelimiter[src[end]] {
		return 0, ""
	}
	return end, lit
}

// fastDelimiter marks the bytes the fast path accepts right after a number
// or a literal: JSON's whitespace, a comma, a closer.
var fastDelimiter = [256]bool{' ': true, '\t': true, '\n': true, '\r': true, ',': true, '}': true, ']': true}

// jsonSpace returns the first position at or after i that is not one of
// JSON's four whitespace bytes.
func jsonSpace(src []byte, i int) int {
	for i < len(src) && isJSONSpace[src[i]] {
		i++
	}
	return i
}
