package dialects

import "github.com/dialectkit/toolcall/internal/jsonscan"

// ValueEnd finds the end of the JSON (or almost-JSON) value that starts
// with the '{' or '[' at s[start]. It matches brackets, skipping over
// strings in double or single quotes, and returns the offset just past the
// matching close and true; or len(s) and false when the text ends before
// the value closes. It does not validate: it only finds the extent, in one
// linear pass.
func ValueEnd(s string, start int) (end int, complete bool) {
	v := ValueScan{Start: start}
	return v.Next(s)
}

// ValueScan is ValueEnd for a reader that has only the start of the text
// yet: Next is given the text, longer at each call, and reads each byte
// once over all the calls. The zero value with Start set is ready.
type ValueScan struct {
	// Start is the offset of the value's opening bracket.
	Start int
	i     int  // where to read on (0: Start)
	depth int  // brackets open at i
	quote byte // the quote of the string i is inside, or 0
	end   int  // the value's end once it closed, or 0
}

// Next returns ValueEnd(s, v.Start) as far as s reads: the end of the
// value and true once it closes, or len(s) and false.
func (v *ValueScan) Next(s string) (end int, complete bool) {
	if v.end > 0 {
		return v.end, true
	}
	i := max(v.i, v.Start)
	for i < len(s) {
		switch v.quote {
		case '"':
			// Double-quoted: jump from quote to quote (a vectorised
			// search), counting the backslashes before each. i is inside
			// the string, after no backslash that escapes it.
			j := jsonscan.StringEndIn(s, i-1)
			if j >= len(s) {
				v.i = len(s)
				for v.i > i && s[v.i-1] == '\\' {
					v.i-- // resume before a run of backslashes
				}
				return len(s), false
			}
			i, v.quote = j+1, 0
			continue
		case '\'':
			for i < len(s) && s[i] != '\'' && s[i] != '\n' {
				if s[i] == '\\' {
					if i+1 == len(s) {
						v.i = i
						return len(s), false
					}
					i++
				}
				i++
			}
			if i == len(s) {
				v.i = i
				return len(s), false
			}
			if s[i] == '\'' {
				i++
			}
			v.quote = 0 // a single-quoted string ends at the end of its line
			continue
		}
		switch c := s[i]; c {
		case '{', '[':
			v.depth++
		case '}', ']':
			v.depth--
			if v.depth == 0 {
				v.end = i + 1
				return i + 1, true
			}
		case '"':
			v.quote = c
		case '\'':
			// A quote inside a word ("it's") is not a string opener in
			// almost-JSON, but inside a JSON value a single quote only
			// appears in strings or as a string opener.
			if !(i > v.Start && isWordByte(s[i-1])) {
				v.quote = c
			}
		}
		i++
	}
	v.i = i
	return len(s), false
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// JSONRunsPast reports whether the JSON value that opens at s[p] holds
// offset at inside one of its strings and reads on past it, up to limit,
// as strict JSON: a marker found at at is then text of an argument, not
// markup. It returns where the value ends.
func JSONRunsPast(s string, p, at, limit int, opts *Options) (end int, ok bool) {
	if p >= at || s[p] != '{' && s[p] != '[' || !jsonscan.EndsInString(s[p:at]) {
		return 0, false
	}
	end, complete := strictValueEnd(s[:limit], p)
	if !complete || end <= at {
		return 0, false
	}
	_, ok = CheckStrict(s[p:end], opts)
	return end, ok
}

// strictValueEnd is ValueEnd for a value that must be strict JSON: it
// stops, incomplete, at the first byte outside a string that strict JSON
// never has there (a single quote, a backtick, a letter of no literal, a
// '<'), where the value is already known not to be strict. ValueEnd reads
// such a text on to its end; asked at each of n openings (one per tag, as
// JSONRunsPast is), it made n readings of the rest of the text.
func strictValueEnd(s string, start int) (end int, complete bool) {
	depth := 0
	for i := start; i < len(s); i++ {
		switch c := s[i]; {
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				return i + 1, true
			}
		case c == '"':
			j := jsonscan.StringEndIn(s, i)
			if j >= len(s) {
				return len(s), false
			}
			i = j
		case !strictOutside[c]:
			return len(s), false
		}
	}
	return len(s), false
}

// strictOutside holds the bytes strict JSON may have outside its strings:
// punctuation, space, numbers and the letters of true, false and null.
var strictOutside = func() (t [256]bool) {
	for _, c := range []byte(",: \t\r\n0123456789+-.eEtrufalsn") {
		t[c] = true
	}
	return t
}()
