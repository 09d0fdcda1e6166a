package dialects_test

import (
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
