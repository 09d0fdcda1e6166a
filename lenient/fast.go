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

// fastKeys is how many keys the fast path keeps to tell that no object
// repeats one; past it, the output is checked.
const fastKeys = 16

// fastKey is a key the fast path wrote: its text in s.out, quotes
// included, and the object it belongs to.
type fastKey struct {
	start, end, object int32
}

// fast reads s.src on the fast path into s.out and s.rec, which must be
// fresh. It reports taken false when the input needs the scanner; s.out,
// s.stack and the record are then reset for it. What the fast path writes
// is valid JSON, nested no deeper than the depth limit, by construction
// (TestFastPathAgrees checks it); unique reports that it also compared
// every key with the others of its object and found none repeated, so
// that the output needs no check.
func (s *scanner) fast() (taken, unique bool) {
	if ok, unique := s.fastRead(); ok {
		return true, unique
	}
	s.out = s.out[:0]
	s.stack = s.stack[:0]
	s.rec.reset(s.rec.base)
	return false, false
}

func (s *scanner) fastRead() (ok, unique bool) {
	src := s.src
	n := len(src)
	limit := fastMaxDepth
	if s.maxDepth > 0 && s.maxDepth < limit {
		limit = s.maxDepth
	}
	var stack [fastMaxDepth]byte
	depth := 0
	// The keys written so far, in s.fastKeys, and the object each open
	// container is (its ordinal).
	var object [fastMaxDepth]int32
	objects := int32(0)
	nkeys := 0
	checked := true // every key so far is kept, with no escape in it
	keyStart := 0
	plain := false
	commaAt := -1 // a comma whose member or element has not come yet
	i := jsonSpace(src, 0)
	if i >= n || src[i] != '{' && src[i] != '[' {
		return false, false
	}

value:
	if i >= n {
		return false, false
	}
	switch c := src[i]; c {
	case '{', '[':
		if depth >= limit {
			return false, false
		}
		stack[depth] = c
		objects++
		object[depth] = objects
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
		end, _, ok := s.fastString(i)
		if !ok {
			return false, false
		}
		i = end
	case 't', 'f', 'n', 'T', 'F', 'N':
		end, lit := literalWord(src, i)
		if lit == "" {
			return false, false
		}
		if c == 'T' || c == 'F' || c == 'N' {
			s.rec.add(toolcall.RepairPythonLiteral, i)
		}
		s.out = append(s.out, lit...)
		i = end
	default:
		end, ok := validNumber(src, i)
		if !ok || end < n && !fastDelimiter[src[end]] {
			return false, false
		}
		s.out = append(s.out, src[i:end]...)
		i = end
	}

after:
	i = jsonSpace(src, i)
	if depth == 0 {
		return i == n, checked && s.fastUnique(nkeys)
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
				return false, false
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
	return false, false

key:
	// i is at a byte that is neither whitespace nor '}'.
	keyStart = len(s.out)
	switch c := src[i]; {
	case c == '"' || c == '\'':
		end, p, ok := s.fastString(i)
		if !ok {
			return false, false
		}
		i, plain = end, p
	case isLetter(c) || c == '_' || c == '$':
		end := i + 1
		for end < n && (isLetter(src[end]) || isDigit(src[end]) || src[end] == '_' || src[end] == '$') {
			end++
		}
		s.rec.add(toolcall.RepairUnquotedKey, i)
		s.out = append(s.out, '"')
		s.out = append(s.out, src[i:end]...)
		s.out = append(s.out, '"')
		i, plain = end, true
	default:
		return false, false
	}
	if checked && plain && nkeys < fastKeys {
		s.fastKeys[nkeys] = fastKey{int32(keyStart), int32(len(s.out)), object[depth-1]}
		nkeys++
	} else {
		checked = false
	}
	i = jsonSpace(src, i)
	if i >= n || src[i] != ':' {
		return false, false
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
	return true, checked && s.fastUnique(nkeys)
}

// fastUnique reports whether no two of the first n keys in s.fastKeys
// belong to one object and have the same text.
func (s *scanner) fastUnique(n int) bool {
	keys := s.fastKeys[:n]
	for i, k := range keys {
		for _, m := range keys[:i] {
			if m.object == k.object && m.end-m.start == k.end-k.start &&
				string(s.out[m.start:m.end]) == string(s.out[k.start:k.end]) {
				return false
			}
		}
	}
	return true
}

// fastString writes the string whose quote is at i, double or single, and
// returns the offset after its closing quote. It reports false for a
// string the fast path does not read: one the input cuts off, one with a
// control character or invalid UTF-8, a double-quoted one with an escape
// JSON does not know, a single-quoted one with any backslash.
func (s *scanner) fastString(i int) (end int, plain, ok bool) {
	src := s.src
	if src[i] == '"' {
		end, escaped, ok := validString(src, i)
		if !ok {
			return 0, false, false
		}
		s.out = append(s.out, src[i:end]...)
		return end, !escaped, true
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
			return j + 1, quotes == 0, true
		case c == '"':
			quotes++
			j++
		case c == '\\' || c < 0x20:
			return 0, false, false
		case c < utf8.RuneSelf:
			j++
		default:
			r, size := utf8.DecodeRune(src[j:])
			if r == utf8.RuneError && size == 1 {
				return 0, false, false
			}
			j += size
		}
	}
	return 0, false, false
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
