// Package fuzzcheck is the shared harness of the robustness tests: the
// properties every parse result must have, a fuzz target, a set of hostile
// inputs, a concurrency check and a goroutine-leak check that any dialect
// package plugs into with one line:
//
//	func FuzzParse(f *testing.F)           { fuzzcheck.FuzzDialects(f, markers.All()...) }
//	func TestHostileHarness(t *testing.T)  { fuzzcheck.HostileDialects(t, markers.All()...) }
//	func TestConcurrentParse(t *testing.T) { fuzzcheck.ConcurrentDialects(t, markers.All()...) }
//
// The properties are what a caller that runs the calls relies on: every
// error carries a code from the catalogue, every call has a name, an id and
// arguments that are one compact JSON object, calls validated against
// declared tools name one of them and satisfy its schema, limits hold, and
// parsing the same text twice gives the same answer. CheckGoroutines checks
// that a test leaves no goroutine behind. docs/security.md lists what the
// targets and inputs cover.
package fuzzcheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/lenient"
)

// known is the error catalogue, looked up by code.
var known = func() map[toolcall.Code]bool {
	m := map[toolcall.Code]bool{}
	for _, c := range toolcall.Codes() {
		m[c] = true
	}
	return m
}()

// KnownCode reports whether c is in the error catalogue (toolcall.Codes).
func KnownCode(c toolcall.Code) bool { return known[c] }

// CheckError reports what is wrong with one error of a result: it must be
// non-nil, carry a catalogued code, and print that code first.
func CheckError(e *toolcall.Error) error {
	if e == nil {
		return fmt.Errorf("nil error in the result")
	}
	if !known[e.Code] {
		return fmt.Errorf("error with code %q, not in the catalogue: %v", e.Code, e)
	}
	if !strings.HasPrefix(e.Error(), string(e.Code)+": ") {
		return fmt.Errorf("error text %q does not start with its code", e.Error())
	}
	return nil
}

// CheckResult reports the first property res breaks, or nil. text is the
// output that was parsed and opts the options it was parsed with (nil for
// the defaults): with declared tools every call must name one and satisfy
// its schema, and every call's arguments must nest no deeper than the
// lenient depth limit.
func CheckResult(res *toolcall.Result, text string, opts *dialects.Options) error {
	if res == nil {
		return fmt.Errorf("nil result")
	}
	if opts == nil {
		opts = &dialects.Options{}
	}
	if res.Calls == nil {
		return fmt.Errorf("nil Calls: a result always has a call list, possibly empty")
	}
	for _, e := range res.Errors {
		if err := CheckError(e); err != nil {
			return err
		}
	}
	failed := map[int]bool{}
	for _, e := range res.Errors {
		if e.CallIndex >= 0 {
			failed[e.CallIndex] = true
		}
	}
	last := -1
	for i, c := range res.Calls {
		if err := checkCall(c, opts); err != nil {
			return fmt.Errorf("call %d (%s): %w", i, c.Name, err)
		}
		if c.Index <= last {
			return fmt.Errorf("call %d has index %d after index %d: calls are not in order", i, c.Index, last)
		}
		last = c.Index
		if failed[c.Index] {
			return fmt.Errorf("call %d has index %d, which an error claims too", i, c.Index)
		}
	}
	for _, r := range res.Repairs {
		if r.Kind == "" {
			return fmt.Errorf("repair without a kind: %+v", r)
		}
	}
	// Text the result hands back as content or reasoning comes from the
	// output; a parser that grows it is inventing text.
	if !utf8.ValidString(text) {
		return nil // invalid bytes may be replaced by longer U+FFFD
	}
	if len(res.Content) > len(text) || len(res.Reasoning) > len(text) {
		return fmt.Errorf("content (%d bytes) or reasoning (%d bytes) longer than the %d-byte output",
			len(res.Content), len(res.Reasoning), len(text))
	}
	return nil
}

// checkCall checks one valid call.
func checkCall(c toolcall.Call, opts *dialects.Options) error {
	if c.Name == "" {
		return fmt.Errorf("empty name")
	}
	if c.ID == "" {
		return fmt.Errorf("empty id")
	}
	args := []byte(c.Arguments)
	if !json.Valid(args) || !utf8.Valid(args) {
		return fmt.Errorf("arguments %q are not valid JSON", clip(args))
	}
	if args[0] != '{' {
		return fmt.Errorf("arguments %q are not a JSON object", clip(args))
	}
	var compact bytes.Buffer
	if json.Compact(&compact, args) == nil && !bytes.Equal(compact.Bytes(), args) {
		return fmt.Errorf("arguments %q are not compact", clip(args))
	}
	if limit := depthLimit(opts); limit > 0 {
		if d := Depth(args); d > limit {
			return fmt.Errorf("arguments nest %d deep, past the depth limit of %d", d, limit)
		}
	}
	if opts.Tools == nil || opts.Tools.Len() == 0 {
		return nil
	}
	tool, ok := opts.Tools.Lookup(c.Name)
	if !ok {
		return fmt.Errorf("the name is not a declared tool")
	}
	out, _, verr := tool.Validate(args, opts.Validation)
	if verr != nil {
		return fmt.Errorf("arguments accepted but invalid for the tool: %v", verr)
	}
	if !bytes.Equal(out, args) {
		return fmt.Errorf("validating the accepted arguments again changes them: %q → %q", clip(args), clip(out))
	}
	return nil
}

// depthLimit is the lenient depth limit in force: 0 means the default,
// a negative value none.
func depthLimit(opts *dialects.Options) int {
	switch limit := opts.Lenient.MaxDepth; {
	case limit == 0:
		return lenient.DefaultMaxDepth
	case limit < 0:
		return 0
	default:
		return limit
	}
}

// Depth returns the deepest nesting of objects and arrays in valid JSON.
func Depth(b []byte) int {
	depth, deepest := 0, 0
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

// SameResult reports the first difference between two results of the same
// parse, or nil. Generated call ids differ between runs and are not
// compared; everything else must be equal.
func SameResult(a, b *toolcall.Result) error {
	if a.Dialect != b.Dialect {
		return fmt.Errorf("dialect %q, then %q", a.Dialect, b.Dialect)
	}
	if a.Content != b.Content || a.Reasoning != b.Reasoning {
		return fmt.Errorf("content or reasoning differ between two parses")
	}
	if len(a.Calls) != len(b.Calls) {
		return fmt.Errorf("%d calls, then %d", len(a.Calls), len(b.Calls))
	}
	for i := range a.Calls {
		x, y := a.Calls[i], b.Calls[i]
		if x.Name != y.Name || x.Index != y.Index || !bytes.Equal(x.Arguments, y.Arguments) {
			return fmt.Errorf("call %d: %s %s #%d, then %s %s #%d", i, x.Name, clip(x.Arguments), x.Index, y.Name, clip(y.Arguments), y.Index)
		}
	}
	if len(a.Errors) != len(b.Errors) {
		return fmt.Errorf("%d errors, then %d", len(a.Errors), len(b.Errors))
	}
	for i := range a.Errors {
		x, y := a.Errors[i], b.Errors[i]
		if x.Code != y.Code || x.CallIndex != y.CallIndex || x.Offset != y.Offset || x.Message != y.Message {
			return fmt.Errorf("error %d: %v, then %v", i, x, y)
		}
	}
	if len(a.Repairs) != len(b.Repairs) {
		return fmt.Errorf("%d repairs, then %d", len(a.Repairs), len(b.Repairs))
	}
	for i := range a.Repairs {
		if a.Repairs[i] != b.Repairs[i] {
			return fmt.Errorf("repair %d: %v, then %v", i, a.Repairs[i], b.Repairs[i])
		}
	}
	return nil
}

// clip shortens b for a failure message.
func clip(b []byte) string {
	const n = 120
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + fmt.Sprintf("…(%d bytes)", len(b))
}
