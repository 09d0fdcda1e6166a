package dialects_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
)

func rawCalls(n int, args string) *dialects.Extraction {
	ext := &dialects.Extraction{}
	for i := range n {
		ext.Calls = append(ext.Calls, dialects.RawCall{Name: "f", Arguments: args, Offset: i})
	}
	return ext
}

// Calls and errors per output are capped, with one TLP-026 error saying how
// many were left out; messages are cut.
func TestPerOutputCaps(t *testing.T) {
	count := func(res *toolcall.Result, c toolcall.Code) int {
		n := 0
		for _, e := range res.Errors {
			if e.Code == c {
				n++
			}
		}
		return n
	}
	res := dialects.Finish("x", rawCalls(2000, `{}`), nil)
	if len(res.Calls) != dialects.DefaultMaxCalls || count(res, toolcall.CodeTooMany) != 1 {
		t.Errorf("default cap: %d calls, errors %v", len(res.Calls), res.Errors)
	}
	if !strings.Contains(res.Errors[0].Message, "2000 calls") {
		t.Errorf("message %q does not say how many", res.Errors[0].Message)
	}
	res = dialects.Finish("x", rawCalls(50, `{}`), &dialects.Options{MaxCalls: 10})
	if len(res.Calls) != 10 || count(res, toolcall.CodeTooMany) != 1 {
		t.Errorf("cap 10: %d calls, errors %v", len(res.Calls), res.Errors)
	}
	res = dialects.Finish("x", rawCalls(2000, `{}`), &dialects.Options{MaxCalls: -1})
	if len(res.Calls) != 2000 || len(res.Errors) != 0 {
		t.Errorf("no cap: %d calls, %d errors", len(res.Calls), len(res.Errors))
	}
	res = dialects.Finish("x", rawCalls(500, `[1]`), nil)
	if len(res.Errors) != dialects.DefaultMaxErrors || res.Errors[len(res.Errors)-1].Code != toolcall.CodeTooMany ||
		!strings.Contains(res.Errors[len(res.Errors)-1].Message, "437 more errors") {
		t.Errorf("error cap: %d errors, last %v", len(res.Errors), res.Errors[len(res.Errors)-1])
	}
	ext := rawCalls(1, `{}`)
	ext.Calls[0].Name = strings.Repeat("ж", 3000)
	res = dialects.Finish("x", ext, &dialects.Options{MaxErrorMessage: 100})
	if len(res.Errors) != 1 || len(res.Errors[0].Message) > 100+len("…") {
		t.Errorf("message cap: %v", res.Errors)
	}
}

// The summary error past the error cap holds the text of the errors it
// stands for, and text they share once: errors that each hold their
// region of the output (one region here, found wrong at every marker) made
// a summary of n times the region before.
func TestErrorCapJoinsSharedText(t *testing.T) {
	text := strings.Repeat("<m>{[ ", 300)
	errorsIn := func(raw func(i int) string) *dialects.Extraction {
		ext := &dialects.Extraction{}
		for i := range 300 {
			e := toolcall.NewError(toolcall.CodeMalformedCall, "not a call")
			e.Offset, e.Raw = 6*i, raw(i)
			ext.Calls = append(ext.Calls, dialects.RawCall{Offset: e.Offset, Err: e})
		}
		return ext
	}
	summary := func(res *toolcall.Result) *toolcall.Error {
		if len(res.Errors) != dialects.DefaultMaxErrors {
			t.Fatalf("%d errors, want %d", len(res.Errors), dialects.DefaultMaxErrors)
		}
		e := res.Errors[len(res.Errors)-1]
		if !errors.Is(e, dialects.ErrUnlisted) || errors.Is(res.Errors[0], dialects.ErrUnlisted) {
			t.Fatalf("the summary %v is not the one error caused by ErrUnlisted", e)
		}
		return e
	}
	rest := dialects.DefaultMaxErrors - 1
	// The one region, held by every error: in the summary once.
	if got := summary(dialects.Finish(text, errorsIn(func(int) string { return text }), nil)).Raw; got != text {
		t.Errorf("shared region: summary raw of %d bytes, want the region's %d", len(got), len(text))
	}
	// Each error holds the rest of the output from its marker: the rest
	// from the first error not listed, once.
	if got := summary(dialects.Finish(text, errorsIn(func(i int) string { return text[6*i:] }), nil)).Raw; got != text[6*rest:] {
		t.Errorf("overlapping rests: summary raw of %d bytes, want %d", len(got), len(text)-6*rest)
	}
	// Texts of their own, equal or not: each in full, in order.
	own := func(i int) string { return strings.Clone(text[:6]) }
	if got := summary(dialects.Finish(text, errorsIn(own), nil)).Raw; got != strings.Repeat("<m>{[ ", 300-rest) {
		t.Errorf("separate texts: summary raw %q", got)
	}
}
