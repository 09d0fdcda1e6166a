package markers

import (
	"strings"

	"github.com/dialectkit/toolcall/internal/jsonscan"
	"github.com/dialectkit/toolcall/internal/textlayer"
)

// extentStatus says how the extent of a JSON value ended.
type extentStatus int

const (
	// extentComplete: the value's brackets all closed.
	extentComplete extentStatus = iota
	// extentCut: the output ended, or a closing marker came, before the
	// value closed. Closers finish the value.
	extentCut
	// extentSwallowed: an unterminated string ran over a closing marker to
	// the end of the output, so where the value was meant to end is unknown.
	extentSwallowed
)

// extent is the span of one JSON value in the output.
type extent struct {
	end    int // offset just past the value, or where it was cut
	status extentStatus
	// closers is what to append to s[start:end] to close a cut value: a
	// closing quote, a null for a dangling key, then the open brackets.
	closers string
	// inString reports that the cut fell inside a string.
	inString bool
	// atMarker reports that a marker, not the end of the output, cut it.
	atMarker bool
	// depth is the deepest nesting of brackets seen.
	depth int
	// whole is, in a list, the end of its last element that closed, or 0:
	// what comes after cannot change how those elements read.
	whole int
}

// scanValue finds the extent of the JSON (or almost-JSON) value that starts
// with the '{' or '[' at s[start], in one linear pass. It matches brackets
// and skips strings in double quotes, and in single quotes where a string
// may start (after '{', '[', ',' or ':'), as loose literals write them.
//
// bounds, when not nil, are markers that end a call: one found outside a
// string while the value is still open cuts the value there (the model
// forgot a bracket before closing the call). A marker inside a string is
// part of the string; but if that string never terminates, the value has
// swallowed its own closing marker and is reported as such.
func scanValue(s string, start int, bounds *markerSet) extent {
	var stackBuf [32]byte
	stack := stackBuf[:0]
	var (
		depth      int
		quote      byte // the open string's quote, 0 outside strings
		swallowed  bool
		whole      int  // the end of the list's last element that closed
		expectKey  bool // the next string in the open object is a key
		stringKey  bool // the open string is a key
		lastWasKey bool // the last token outside strings was a key
		last       byte // last significant byte outside strings
	)
	for i := start; i < len(s); i++ {
		c := s[i]
		if quote != 0 {
			// Inside a single-quoted string of a loose literal (a
			// double-quoted one is passed over whole, below).
			switch {
			case c == '\\':
				i++
			case c == quote:
				quote, last, lastWasKey = 0, c, stringKey
			case bounds != nil && bounds.first[c] && !swallowed:
				if _, ok := bounds.matchAt(s, i); ok {
					swallowed = true
				}
			}
			continue
		}
		if i > start && bounds != nil && bounds.first[c] {
			if _, ok := bounds.matchAt(s, i); ok {
				e := cutExtent(s, start, i, stack, 0, lastWasKey, last)
				e.atMarker, e.depth = true, depth
				return e
			}
		}
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		case '{', '[':
			stack = append(stack, c)
			depth = max(depth, len(stack))
			expectKey = c == '{'
		case '}', ']':
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return extent{end: i + 1, status: extentComplete, depth: depth}
			}
			if len(stack) == 1 && stack[0] == '[' {
				whole = i + 1
			}
			expectKey = false
		case ',':
			expectKey = stack[len(stack)-1] == '{'
		case ':':
			expectKey = false
		case '"':
			// The string ends where jsonscan says; a marker in it is
			// text, but one in a string that never ends was swallowed.
			stringKey = expectKey && stack[len(stack)-1] == '{'
			j := jsonscan.StringEndIn(s, i)
			swallowed = swallowed || bounds.in(s, i+1, j)
			if j == len(s) {
				quote, i = c, j
				continue
			}
			i, last, lastWasKey = j, c, stringKey
			continue
		case '\'':
			if last == '{' || last == '[' || last == ',' || last == ':' {
				quote, stringKey = c, expectKey && stack[len(stack)-1] == '{'
			}
		}
		last, lastWasKey = c, false
	}
	var e extent
	switch {
	case quote != 0 && swallowed:
		e = extent{end: len(s), status: extentSwallowed, whole: whole}
	case quote != 0:
		e = cutExtent(s, start, len(s), stack, quote, stringKey, last)
	default:
		e = cutExtent(s, start, len(s), stack, 0, lastWasKey, last)
	}
	e.depth = depth
	return e
}

// cutExtent builds the extent of a value cut at end: the text up to end
// without trailing blanks and a dangling comma, and the closers that make
// it whole. quote is the quote of a string left open, 0 if none; key says
// that the open string, or the last token, was an object key, which gets a
// null value.
func cutExtent(s string, start, end int, stack []byte, quote byte, key bool, last byte) extent {
	var b strings.Builder
	if quote != 0 {
		// A dangling backslash would escape the closing quote.
		n := 0
		for j := end - 1; j > start && s[j] == '\\'; j-- {
			n++
		}
		if n%2 == 1 {
			end--
		}
		b.WriteByte(quote)
		if key {
			b.WriteString(":null")
		}
	} else {
		for end > start && textlayer.IsSpace(s[end-1]) {
			end--
		}
		switch {
		case end > start && s[end-1] == ',':
			end--
		case last == ':':
			b.WriteString("null")
		case key:
			b.WriteString(":null")
		}
	}
	for j := len(stack) - 1; j >= 0; j-- {
		if stack[j] == '{' {
			b.WriteByte('}')
		} else {
			b.WriteByte(']')
		}
	}
	return extent{end: end, status: extentCut, closers: b.String(), inString: quote != 0}
}

// skipBlank returns the offset of the first non-blank byte at or after i.
func skipBlank(s string, i int) int {
	for i < len(s) && textlayer.IsSpace(s[i]) {
		i++
	}
	return i
}

// valueStart reports whether a JSON call value starts at s[i]: an object,
// or an array whose first element is an object (or that is empty). A
// bracket followed by anything else is prose or a marker, such as
// "[TOOL_RESULTS]".
func valueStart(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	switch s[i] {
	case '{':
		return true
	case '[':
		j := skipBlank(s, i+1)
		return j == len(s) || s[j] == '{' || s[j] == ']'
	}
	return false
}
