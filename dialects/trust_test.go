package dialects_test

import (
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/callobject"
	"github.com/dialectkit/toolcall/internal/coded"
)

// A call object that gives its name or its arguments twice is TLP-019;
// arguments that repeat a key keep the last value, recorded.
func TestAmbiguousEnvelope(t *testing.T) {
	for _, tc := range []struct {
		text string
		code toolcall.Code
		args string
	}{
		{`{"name": "read", "name": "rm", "arguments": {}}`, toolcall.CodeMalformedCall, ""},
		{`{"name": "read", "arguments": {"p": 1}, "arguments": {"p": 2}}`, toolcall.CodeMalformedCall, ""},
		{`{"name": "read", "tool_name": "rm", "arguments": {}}`, toolcall.CodeMalformedCall, ""},
		{`{"name": "read", "tool_name": "read", "arguments": {}}`, "", `{}`},
		{`{"type": "function", "function": {"name": "read", "name": "rm", "arguments": {}}}`, toolcall.CodeMalformedCall, ""},
		{`{"name": "read", "arguments": {"p": 1, "p": 2}}`, "", `{"p":2}`},
		{`{"name": "read", "arguments": "{\"p\": 1, \"p\": 2}"}`, "", `{"p":2}`},
	} {
		for _, strict := range []bool{false, true} {
			opts := &dialects.Options{DisableRepair: strict}
			rc, ok := callobject.Read(tc.text, 0, opts)
			if !ok {
				t.Fatalf("%s: not a call", tc.text)
			}
			call, repairs, e := dialects.FinishCall(&rc, 0, opts)
			if tc.code != "" {
				if e == nil || coded.Code(e) != tc.code {
					t.Errorf("%s: got %s %s, %v; want %s", tc.text, call.Name, call.Arguments, e, tc.code)
				}
				continue
			}
			if e != nil || string(call.Arguments) != tc.args {
				t.Errorf("%s (strict %v): got %s, %v; want %s", tc.text, strict, call.Arguments, e, tc.args)
			}
			if tc.args != "{}" && !hasKind(repairs, toolcall.RepairDuplicateKey) {
				t.Errorf("%s: repairs %v, want duplicate_key", tc.text, repairs)
			}
		}
	}
}

func hasKind(repairs []toolcall.Repair, k toolcall.RepairKind) bool {
	for _, r := range repairs {
		if r.Kind == k {
			return true
		}
	}
	return false
}
