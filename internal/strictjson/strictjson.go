// Package strictjson holds what the dialects know of strict JSON values in
// model text: whether a value's text is strict JSON (Check), within the
// depth a value holding calls may reach, and whether a marker lies inside
// a string of such a value, where it is text and not markup (IndexTag,
// InsideString, RunsPast, TagFinder). Structure inside a string is text in
// every dialect: a reasoning tag or a call tag written in an argument
// neither opens nor closes anything.
//
// Where a depth is asked for, it is the lenient depth limit of the parse
// (dialects.Options.Lenient.MaxDepth: 0 for the default, negative for
// none), the limit a dialect passes on.
package strictjson

import (
	"unsafe"

	"github.com/dialectkit/toolcall/lenient"
)

// Checked says what is known of a JSON value's text.
type Checked uint8

const (
	// Unchecked: nothing is known (text nested past the depth limit is
	// read as it is).
	Unchecked Checked = iota
	// Strict: strict JSON, UTF-8 included, checked or repaired.
	Strict
	// StrictUnique: strict JSON in which no object repeats a key.
	StrictUnique
)

// Limit is the deepest a value holding calls may nest, for the lenient
// depth limit maxDepth: the arguments' limit plus the call object and an
// envelope around it, or -1 (none) when the limit is off.
func Limit(maxDepth int) int {
	if maxDepth == 0 {
		maxDepth = lenient.DefaultMaxDepth
	}
	if maxDepth < 0 {
		return -1
	}
	return maxDepth + 4
}

// Check reports, for text that is strict JSON (no surrounding whitespace)
// within the depth a value holding calls may reach (Limit(maxDepth)), what
// is known of it (Strict or StrictUnique) and ok; ok is false for any
// other text, which must be parsed with repair. A dialect that checks a
// value this way, to measure it in the same pass, hands the Checked on
// instead of parsing the value again.
func Check(text string, maxDepth int) (Checked, bool) {
	check := lenient.Options{MaxSize: -1, MaxDepth: Limit(maxDepth)}
	unique, err := lenient.CheckKeys(unsafe.Slice(unsafe.StringData(text), len(text)), &check)
	switch {
	case err != nil:
		return Unchecked, false
	case unique:
		return StrictUnique, true
	}
	return Strict, true
}

// Outside reports whether strict JSON may have c outside its strings:
// punctuation, space, numbers and the letters of true, false and null.
func Outside(c byte) bool { return strictOutside[c] }

var strictOutside = func() (t [256]bool) {
	for _, c := range []byte(",: \t\r\n0123456789+-.eEtrufalsn") {
		t[c] = true
	}
	return t
}()
