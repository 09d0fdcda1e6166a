package jsonscan

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
	i     int        // where to read on (0: Start)
	depth int        // brackets open at i
	quote byte       // the quote of the string i is inside, or 0
	str   StringScan // the double-quoted string i is inside
	end   int        // the value's end once it closed, or 0
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
			// Double-quoted: jump from quote to quote (StringScan).
			j, closed := v.str.Next(s)
			if !closed {
				v.i = len(s)
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
			v.quote, v.str = c, NewStringScan(i)
		case '\'':
			// A quote inside a word ("it's") is not a string opener in
			// almost-JSON, but inside a JSON value a single quote only
			// appears in strings or as a string opener.
			if !(i > v.Start && isAlnum(s[i-1])) {
				v.quote = c
			}
		}
		i++
	}
	v.i = i
	return len(s), false
}

// isAlnum reports whether c is an ASCII letter or digit.
func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
