package lenient

import (
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"unicode/utf8"
)

// verdict is what one pass of the validator learns about a text.
type verdict uint8

const (
	// verdictInvalid: the text is not JSON (RFC 8259, UTF-8).
	verdictInvalid verdict = iota
	// verdictValid: JSON, within the depth limit, no object repeats a key.
	verdictValid
	// verdictDuplicates: JSON within the depth limit, and some object
	// repeats a key.
	verdictDuplicates
	// verdictTooDeep: the text nests deeper than the limit at the bracket
	// returned; whether it is JSON was not decided.
	verdictTooDeep
	// verdictTrailing: not JSON, because text follows a whole value at the
	// offset returned; the value before it is JSON but for its depth and
	// its keys, which were not decided.
	verdictTrailing
)

// invalid reports whether the text is not JSON.
func (v verdict) invalid() bool { return v == verdictInvalid || v == verdictTrailing }

// strPlain marks the bytes a JSON string may hold as they are: everything
// but the quote, the backslash, control characters and non-ASCII bytes
// (which are checked as UTF-8).
var strPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// isJSONSpace marks JSON's four whitespace bytes.
var isJSONSpace = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

// validate checks b as JSON in one pass: syntax, UTF-8, the depth limit
// (0: none) and keys repeated within one object. It replaces a syntax
// check, a UTF-8 check, a depth walk and a duplicate-key walk. It keeps
// its containers on the heap past a few dozen levels, so any depth is
// safe. For verdictTooDeep, at is the offset of the first bracket past
// the limit; for verdictTrailing, where the text after the value starts;
// for verdictInvalid, the offset where the text stops being JSON (the
// opening quote of a string that is not, len(b) when b ends too soon).
func validate(b []byte, maxDepth int) (v verdict, at int) {
	if len(b) >= maxCompactOffset {
		return validateLarge(b, maxDepth)
	}
	var (
		frameBuf [16]vframe
		keyBuf   [16]vkey
		sets     []map[string]struct{} // by frame, for objects with many keys
	)
	frames, keys := frameBuf[:0], keyBuf[:0]
	dup := false
	n := len(b)
	i := 0

value:
	for i < n && isJSONSpace[b[i]] {
		i++
	}
	if i >= n {
		return verdictInvalid, i
	}
	switch c := b[i]; c {
	case '{', '[':
		if maxDepth > 0 && len(frames) >= maxDepth {
			return verdictTooDeep, i
		}
		i++
		for i < n && isJSONSpace[b[i]] {
			i++
		}
		if i >= n {
			return verdictInvalid, i
		}
		if c == '[' {
			frames = append(frames, vframe{first: uint32(len(keys))})
			if b[i] == ']' {
				i++
				frames = frames[:len(frames)-1]
				goto after
			}
			goto value
		}
		frames = append(frames, vframe{object: true, first: uint32(len(keys))})
		if b[i] == '}' {
			i++
			frames = frames[:len(frames)-1]
			goto after
		}
		goto key
	case '"':
		end, _, ok := validString(b, i)
		if !ok {
			return verdictInvalid, i
		}
		i = end
	case 't':
		if n-i < 4 || string(b[i:i+4]) != "true" {
			return verdictInvalid, i
		}
		i += 4
	case 'f':
		if n-i < 5 || string(b[i:i+5]) != "false" {
			return verdictInvalid, i
		}
		i += 5
	case 'n':
		if n-i < 4 || string(b[i:i+4]) != "null" {
			return verdictInvalid, i
		}
		i += 4
	default:
		end, ok := validNumber(b, i)
		if !ok {
			return verdictInvalid, i
		}
		i = end
	}

after:
	for i < n && isJSONSpace[b[i]] {
		i++
	}
	if len(frames) == 0 {
		if i != n {
			return verdictTrailing, i
		}
		if dup {
			return verdictDuplicates, 0
		}
		return verdictValid, 0
	}
	if i >= n {
		return verdictInvalid, i
	}
	if top := &frames[len(frames)-1]; top.object {
		switch b[i] {
		case ',':
			i++
			for i < n && isJSONSpace[b[i]] {
				i++
			}
			goto key
		case '}':
			i++
			keys = keys[:top.first]
			if top.set {
				sets[len(frames)-1] = nil
			}
			frames = frames[:len(frames)-1]
			goto after
		}
		return verdictInvalid, i
	}
	switch b[i] {
	case ',':
		i++
		goto value
	case ']':
		i++
		keys = keys[:frames[len(frames)-1].first]
		frames = frames[:len(frames)-1]
		goto after
	}
	return verdictInvalid, i

key:
	if i >= n || b[i] != '"' {
		return verdictInvalid, i
	}
	{
		end, escaped, ok := validString(b, i)
		if !ok {
			return verdictInvalid, i
		}
		k := vkey{start: uint32(i + 1), end: uint32(end - 1)}
		if escaped {
			k.end |= escapedKey
		}
		f := &frames[len(frames)-1]
		mine := keys[f.first:]
		switch {
		case len(mine) == 0:
			// The first key of an object cannot repeat one.
			keys = append(keys, k)
		case !f.set && len(mine) < setKeys:
			if k.seenIn(b, mine) {
				dup = true
			} else {
				keys = append(keys, k)
			}
		default:
			if keyInSet(b, &sets, f, len(frames), mine, k) {
				dup = true
			}
		}
		i = end
	}
	for i < n && isJSONSpace[b[i]] {
		i++
	}
	if i >= n || b[i] != ':' {
		return verdictInvalid, i
	}
	i++
	goto value
}

// keyInSet is validate's check of key k in an object with many keys,
// frame f at depth depth, whose keys so far are mine: it keeps their texts
// in a set, made once, and reports whether k is in it already.
func keyInSet(b []byte, sets *[]map[string]struct{}, f *vframe, depth int, mine []vkey, k vkey) bool {
	if !f.set {
		f.set = true
		for len(*sets) < depth {
			*sets = append(*sets, nil)
		}
		set := make(map[string]struct{}, 2*len(mine))
		for _, m := range mine {
			set[m.text(b)] = struct{}{}
		}
		(*sets)[depth-1] = set
	}
	set := (*sets)[depth-1]
	text := k.text(b)
	if _, ok := set[text]; ok {
		return true
	}
	set[text] = struct{}{}
	return false
}

// maxCompactOffset bounds the text validate reads with 32-bit offsets;
// larger text is checked by validateLarge.
const maxCompactOffset = 1 << 31

// escapedKey marks, in vkey.end, a key that holds a backslash escape.
const escapedKey = 1 << 31

// vframe is one open container of validate: an object or array, and
// where its keys start in validate's list of keys.
type vframe struct {
	first  uint32
	object bool
	set    bool // its keys are in a set too
}

// vkey is a key of an open object: its text in b, quotes excluded; the
// top bit of end marks a key with escapes, compared decoded.
type vkey struct {
	start, end uint32
}

// span returns the key as the duplicate scan's keySpan.
func (k vkey) span() keySpan {
	return keySpan{start: int(k.start), end: int(k.end &^ escapedKey), escaped: k.end&escapedKey != 0}
}

// text returns the key's text, decoded when it holds escapes.
func (k vkey) text(b []byte) string { return keyText(b, k.span()) }

// seenIn reports whether keys already holds k.
func (k vkey) seenIn(b []byte, keys []vkey) bool {
	if k.end&escapedKey == 0 {
		key := b[k.start:k.end]
		for _, m := range keys {
			// Most keys differ in length or first byte: no call for those.
			if m.end == k.end-k.start+m.start && (len(key) == 0 || b[m.start] == key[0]) &&
				string(b[m.start:m.end]) == string(key) {
				return true
			}
			if m.end&escapedKey != 0 && sameKey(b, m.span(), k.span()) {
				return true
			}
		}
		return false
	}
	for _, m := range keys {
		if sameKey(b, m.span(), k.span()) {
			return true
		}
	}
	return false
}

// validateLarge is validate for text of 2 GB or more, by the separate
// checks validate replaces.
func validateLarge(b []byte, maxDepth int) (verdict, int) {
	if at := depthExceeded(b, maxDepth); at >= 0 {
		return verdictTooDeep, at
	}
	if !json.Valid(b) || !utf8.Valid(b) {
		return verdictInvalid, 0
	}
	if len(duplicateKeys(b)) > 0 {
		return verdictDuplicates, 0
	}
	return verdictValid, 0
}

// validString checks the JSON string whose opening quote is at b[i]. It
// returns the offset after the closing quote and whether the string holds
// a backslash escape.
func validString(b []byte, i int) (end int, escaped, ok bool) {
	n := len(b)
	i++
	for {
		// Eight bytes at a time while none of them needs a look: no
		// quote, backslash, control character or non-ASCII byte.
		// The lowest byte the test marks is the first that needs a look,
		// which ends the run without a byte loop.
		for i+8 <= n {
			if m := special8(binary.LittleEndian.Uint64(b[i:])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		for i < n && strPlain[b[i]] {
			i++
		}
		if i >= n {
			return 0, false, false
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1, escaped, true
		case c == '\\':
			escaped = true
			if i+1 >= n {
				return 0, false, false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > n || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) || !isHex(b[i+5]) {
					return 0, false, false
				}
				i += 6
			default:
				return 0, false, false
			}
		case c < 0x20:
			return 0, false, false
		default:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				return 0, false, false
			}
			i += size
		}
	}
}

// plain8 reports whether none of the eight bytes of x is a quote, a
// backslash, below 0x20 or above 0x7F.
func plain8(x uint64) bool { return special8(x) == 0 }

// special8 marks the high bit of each byte of x that is a quote, a
// backslash, below 0x20 or above 0x7F. A byte above a marked one may be
// marked wrongly (a borrow runs up from the marked byte); the lowest mark
// is always right.
func special8(x uint64) uint64 {
	const (
		lo   = 0x0101010101010101
		hi   = 0x8080808080808080
		quot = lo * '"'
		bs   = lo * '\\'
	)
	// A byte is zero in x^quot exactly where x holds a quote; the classic
	// test for a zero byte, and for a byte below 0x20, marks its high bit.
	q := x ^ quot
	s := x ^ bs
	t := (q - lo) &^ q
	t |= (s - lo) &^ s
	t |= (x - lo*0x20) &^ x
	t |= x
	return t & hi
}

// validNumber checks the JSON number at b[i] and returns the offset after
// it.
func validNumber(b []byte, i int) (int, bool) {
	n := len(b)
	if i < n && b[i] == '-' {
		i++
	}
	if i >= n {
		return 0, false
	}
	switch {
	case b[i] == '0':
		i++
	case '1' <= b[i] && b[i] <= '9':
		i++
		for i < n && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	default:
		return 0, false
	}
	if i < n && b[i] == '.' {
		i++
		start := i
		for i < n && '0' <= b[i] && b[i] <= '9' {
			i++
		}
		if i == start {
			return 0, false
		}
	}
	if i < n && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < n && (b[i] == '+' || b[i] == '-') {
			i++
		}
		start := i
		for i < n && '0' <= b[i] && b[i] <= '9' {
			i++
		}
		if i == start {
			return 0, false
		}
	}
	return i, true
}
