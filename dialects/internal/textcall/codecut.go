package textcall

import (
	"strings"

	"github.com/dialectkit/toolcall/internal/pystr"
)

// CodeCut reports whether Python code that runs to the end of the output
// ends inside something it opened: a bracket ((, [, {) not closed, a
// string literal (quoted once or three times) not ended, or a line
// continuation (a final backslash). Such code was cut off by the end of
// the output (a length limit, a dropped connection): it is not the code
// the model meant, and running it would run a prefix. Comments are
// skipped; a quote or bracket in a comment opens nothing.
func CodeCut(code string) bool {
	depth := 0
	for i := 0; i < len(code); i++ {
		switch c := code[i]; c {
		case '#':
			nl := strings.IndexByte(code[i:], '\n')
			if nl < 0 {
				return depth > 0
			}
			i += nl
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth > 0 {
				depth--
			}
		case '\'', '"':
			end := stringEnd(code, i)
			if end < 0 {
				return true
			}
			i = end - 1
		case '\\':
			if strings.TrimRight(code[i+1:], " \t\r\n") == "" {
				return true
			}
			i++ // an escaped character outside a string
		}
	}
	return depth > 0
}

// stringEnd returns the end of the Python string literal whose opening
// quote is code[at] (pystr.Lit), or -1 when the code ends inside it. A
// string in single quotes ends at an unescaped line break too (Broken: a
// syntax error, not a cut: the rest of the code is still there).
func stringEnd(code string, at int) int {
	var l pystr.Lit
	for i := at + l.Open(code, at, true); i < len(code); i++ {
		switch l.Feed(code[i]) {
		case pystr.Closed:
			return i + 1
		case pystr.Broken:
			return i
		}
	}
	return -1
}
