package dialects

import "github.com/dialectkit/toolcall/internal/jsonscan"

// JSONRunsPast reports whether the JSON value that opens at s[p] holds
// offset at inside one of its strings and reads on past it, up to limit,
// as strict JSON: a marker found at at is then text of an argument, not
// markup. It returns where the value ends.
func JSONRunsPast(s string, p, at, limit int, opts *Options) (end int, ok bool) {
	if p >= at || s[p] != '{' && s[p] != '[' || !quoteOnLine(s, p, at) || !jsonscan.EndsInString(s[p:at]) {
		return 0, false
	}
	end, complete := strictValueEnd(s[:limit], p)
	if !complete || end <= at {
		return 0, false
	}
	_, ok = CheckStrict(s[p:end], opts)
	return end, ok
}

// quoteOnLine reports whether a double quote stands in s[from:at] after
// its last line break. A string of strict JSON holds no raw line break, so
// a string that holds offset at opens there: without such a quote, at is
// inside no string of a strict value (the test costs the bytes back to
// the nearest quote or line break, where finding the brackets a value may
// open at costs the bytes back to them, each read to at).
func quoteOnLine(s string, from, at int) bool {
	for i := at - 1; i >= from; i-- {
		switch s[i] {
		case '"':
			return true
		case '\n':
			return false
		}
	}
	return false
}

// strictValueEnd is jsonscan.ValueEnd for a value that must be strict JSON: it
// stops, incomplete, at the first byte outside a string that strict JSON
// never has there (a single quote, a backtick, a letter of no literal, a
// '<'), where the value is already known not to be strict. jsonscan.ValueEnd reads
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
