// Package wordskept holds the one check that repair dropped no word of a
// call, applied to every repair of call text: the parse of a call's JSON
// value, the repair of its arguments, and the engines that repair call
// text themselves.
package wordskept

import (
	"fmt"
	"unsafe"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/jsonscan"
)

// Nothing disappears: repair may add, quote, re-spell and remove syntax,
// but it may not remove the words of a call. A word is a run of ASCII
// letters, digits and '_' that starts with a letter or '_'; the literal
// spellings repair rewrites (True, None, NaN, …), string prefixes (u'…',
// r"…") and the letters of an escape (\n, \u00e9) are syntax, not words.

// literalWords are the words repair rewrites into JSON literals.
var literalWords = map[string]bool{
	"true": true, "false": true, "null": true, "True": true, "False": true, "None": true,
	"TRUE": true, "FALSE": true, "NULL": true, "undefined": true, "NaN": true, "nan": true,
	"Infinity": true, "inf": true, "Inf": true,
}

func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= '0' && c <= '9'
}

// nextWord returns the bounds of the first word of b at or after i, and
// whether it is syntax rather than a word of the call (see above); start
// is len(b) when there is none.
func nextWord(b []byte, i int) (start, end int, syntax bool) {
	for i < len(b) && !wordByte(b[i]) {
		i++
	}
	if i == len(b) {
		return i, i, false
	}
	j := i + 1
	for j < len(b) && wordByte(b[j]) {
		j++
	}
	w := b[i:j]
	syntax = w[0] >= '0' && w[0] <= '9' || // a number, 0x1F and 1e5 included
		i > 0 && b[i-1] == '\\' || // an escape
		len(w) <= 2 && j < len(b) && (b[j] == '\'' || b[j] == '"') && (i == 0 || !quoteByte(b[i-1])) || // a string prefix
		literalWords[string(w)]
	return i, j, syntax
}

// droppedWord returns the first word of src that repair left out of out,
// or "" when every word of src is still in out. Comments and the info
// word of a code fence are syntax that repair removes and records (kinds
// comment and code_fence), not words of the call.
//
// Repair keeps the order of what it keeps, so the words of src are first
// looked for in order in out, without allocating: most arguments are
// settled by that one walk over both. Only when it fails (repair dropped
// or moved something) is every word of out put in a set.
func droppedWord(src, out []byte) string {
	src = jsonscan.WithoutRemovableSyntax(src)
	if inOrder(src, out) {
		return ""
	}
	have := map[string]bool{}
	for i := 0; ; {
		s, e, _ := nextWord(out, i)
		if s == len(out) {
			break
		}
		// The keys share out's bytes, which nothing changes while the set
		// is in use.
		have[unsafe.String(&out[s], e-s)] = true
		i = e
	}
	for i := 0; ; {
		s, e, syntax := nextWord(src, i)
		if s == len(src) {
			return ""
		}
		if w := src[s:e]; !syntax && !have[string(w)] {
			return string(w)
		}
		i = e
	}
}

// inOrder reports whether every word of src (syntax aside) is found in
// out after the one found for the word before it.
func inOrder(src, out []byte) bool {
	o := 0
	for i := 0; ; {
		s, e, syntax := nextWord(src, i)
		if s == len(src) {
			return true
		}
		i = e
		if syntax {
			continue
		}
		w := src[s:e]
		for {
			os, oe, _ := nextWord(out, o)
			if os == len(out) {
				return false
			}
			o = oe
			if string(out[os:oe]) == string(w) {
				break
			}
		}
	}
}

// dropError is the error of a repair that would drop word from a call: the
// text is not what the model wrote, and what it meant cannot be known.
func dropError(word string) string {
	if len(word) > 32 {
		word = word[:32]
	}
	return fmt.Sprintf("repair would drop the word %q from the call", word)
}

func quoteByte(c byte) bool { return c == '"' || c == '\'' || c == '\\' }

// Check returns the TLP-003 error of a repair that turned src into out
// while leaving one of src's words out (see droppedWord); nil when every
// word is still there. The caller sets the error's raw text. Repair hands
// valid JSON back as it came (out the same slice as src): no word of it
// can be missing, and it is not read.
func Check(src, out []byte) *toolcall.Error {
	if len(src) > 0 && len(out) == len(src) && &out[0] == &src[0] {
		return nil
	}
	w := droppedWord(src, out)
	if w == "" {
		return nil
	}
	return toolcall.NewError(toolcall.CodeRepairFailed, dropError(w))
}
