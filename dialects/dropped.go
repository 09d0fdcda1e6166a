package dialects

import (
	"fmt"

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

// words calls f with each word of b (see above); with all, the syntax
// ones too.
func words(b []byte, all bool, f func(w string) bool) bool {
	for i := 0; i < len(b); {
		if !wordByte(b[i]) {
			i++
			continue
		}
		j := i
		for j < len(b) && wordByte(b[j]) {
			j++
		}
		w := b[i:j]
		skip := w[0] >= '0' && w[0] <= '9' || // a number, 0x1F and 1e5 included
			i > 0 && b[i-1] == '\\' || // an escape
			len(w) <= 2 && j < len(b) && (b[j] == '\'' || b[j] == '"') && (i == 0 || !quoteByte(b[i-1])) || // a string prefix
			literalWords[string(w)]
		if (all || !skip) && !f(string(w)) {
			return false
		}
		i = j
	}
	return true
}

// droppedWord returns the first word of src that repair left out of out,
// or "" when every word of src is still in out. Comments and the info
// word of a code fence are syntax that repair removes and records (kinds
// comment and code_fence), not words of the call.
func droppedWord(src, out []byte) string {
	have := map[string]bool{}
	words(out, true, func(w string) bool { have[w] = true; return true })
	var lost string
	words(jsonscan.WithoutRemovableSyntax(src), false, func(w string) bool {
		if !have[w] {
			lost = w
			return false
		}
		return true
	})
	return lost
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

// CheckWordsKept returns the TLP-003 error of a repair that turned src
// into out while leaving one of src's words out (see droppedWord), with
// src as its raw text; nil when every word is still there. An engine that
// repairs call text itself, rather than through ParseJSON or Finish, holds
// the repair to the same rule with it.
func CheckWordsKept(src string, out []byte) error {
	w := droppedWord([]byte(src), out)
	if w == "" {
		return nil
	}
	e := toolcall.NewError(toolcall.CodeRepairFailed, dropError(w))
	e.Raw = src
	return e
}
