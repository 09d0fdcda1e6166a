// Package cutoff holds the one rule for an output the end of the text cut
// inside a call, shared by every dialect engine: the one constructor of its
// TLP-014 error, and how a marker cut at the end of the output is read.
//
// The rule (docs/dialects.md, "A call cut off"): a call is complete once
// the syntax that holds its arguments has closed — a JSON value's last
// bracket, a Python call's closing parenthesis, the closing tag of the
// element that holds tagged parameters. An output that ends before that
// point (inside a marker, a header, a key, a tag or a value) is TLP-014 in
// every dialect, whatever else is wrong with the text written so far: the
// model was stopped, and what it meant cannot be known. The markers around
// a complete call (a closing tag around JSON, a section's end, an end of
// message token) may be missing at the end of the output, whole or in
// part: servers stop generation on them and strip them, and no argument
// byte is lost.
package cutoff

import (
	"strings"

	"github.com/dialectkit/toolcall"
)

// Error is the TLP-014 error of a call the output ends inside of; where
// says where the output ends ("inside a call header").
func Error(where string) *toolcall.Error {
	return toolcall.NewError(toolcall.CodeTruncated, "the output ends "+where)
}

// Convert makes e, the error of a call whose text the output ends inside
// of, TLP-014: whatever failed there, the call was cut off. The message
// keeps what failed. A nil e stays nil.
func Convert(e *toolcall.Error) *toolcall.Error {
	if e == nil || e.Code == toolcall.CodeTruncated {
		return e
	}
	c := Error("inside the call: " + e.Message)
	c.Offset, c.Raw, c.Tool, c.CallIndex, c.CallID = e.Offset, e.Raw, e.Tool, e.CallIndex, e.CallID
	return c
}

// Marker reports whether rest, the text from some offset to the end of the
// output, is, past leading whitespace, a non-empty proper prefix of one of
// markers: the output ends inside that marker.
func Marker(rest string, markers ...string) bool {
	rest = strings.TrimLeft(rest, " \t\r\n")
	if rest == "" {
		return false
	}
	for _, m := range markers {
		if len(rest) < len(m) && strings.HasPrefix(m, rest) {
			return true
		}
	}
	return false
}
