package caps

import (
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
)

func TestOf(t *testing.T) {
	for _, tc := range []struct{ v, def, want int }{
		{0, 7, 7}, {-1, 7, -1}, {-9, 7, -1}, {3, 7, 3},
	} {
		if got := Of(tc.v, tc.def); got != tc.want {
			t.Errorf("Of(%d, %d) = %d, want %d", tc.v, tc.def, got, tc.want)
		}
	}
}

// TestTooMany: the summary counts the calls past the cap, or says the rest
// was not read when the last of them is an engine's stop; it holds their
// text, and views of one text that overlap are joined once.
func TestTooMany(t *testing.T) {
	out := "<a><b><c>"
	stop := toolcall.NewError(toolcall.CodeTooMany, "stop")
	stop.Raw = out[6:]
	failed := toolcall.NewError(toolcall.CodeInvalidJSON, "bad")
	failed.Raw = out[3:]
	for _, tc := range []struct {
		name     string
		past     []Past
		msg, raw string
		offset   int
	}{
		{"read", []Past{{Offset: 5, Name: "f", Arguments: "{}"}, {Offset: 9, Name: "g", Arguments: "{}"}},
			"the output holds 4 calls, the limit is 2: the last 2 were not read", "f {}\ng {}\n", 5},
		{"stopped", []Past{{Offset: 3, Err: failed}, {Offset: 6, Err: stop}},
			"the output holds more than 2 calls, the limit: the rest were not read", "<b><c>\n", 3},
	} {
		e := TooMany(2, tc.past)
		if e.Code != toolcall.CodeTooMany || e.Message != tc.msg || e.Raw != tc.raw || e.Offset != tc.offset {
			t.Errorf("%s: %s %q raw %q at %d", tc.name, e.Code, e.Message, e.Raw, e.Offset)
		}
	}
}

// TestErrors: past the error cap one summary caused by ErrUnlisted stands
// for the rest, and messages are cut on a character boundary.
func TestErrors(t *testing.T) {
	res := &toolcall.Result{}
	for range 5 {
		res.Errors = append(res.Errors, toolcall.NewError(toolcall.CodeInvalidJSON, strings.Repeat("é", 4)))
	}
	Errors(res, 3, 5)
	if len(res.Errors) != 3 || res.Errors[2].Err != ErrUnlisted {
		t.Fatalf("%d errors, last %v", len(res.Errors), res.Errors[len(res.Errors)-1])
	}
	if m := res.Errors[0].Message; m != "éé…" {
		t.Errorf("message cut to %q", m)
	}
	res = &toolcall.Result{Errors: []*toolcall.Error{toolcall.NewError(toolcall.CodeInvalidJSON, "long message")}}
	Errors(res, -1, -1)
	if len(res.Errors) != 1 || res.Errors[0].Message != "long message" {
		t.Errorf("no caps changed %v", res.Errors)
	}
}
