package dialects_test

import (
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/callobject"
	"github.com/dialectkit/toolcall/internal/coded"
	"github.com/dialectkit/toolcall/schema"
)

// Tool names match a declared tool exactly or by ASCII case only; without
// tools a name must still be an identifier.
func TestCheckNameTrust(t *testing.T) {
	tools, err := schema.NewSet(
		toolcall.Tool{Name: "list_files"},
		toolcall.Tool{Name: "kill"},
		toolcall.Tool{Name: "mcp/read"},
	)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		tools *schema.Set
		want  string
		code  toolcall.Code
	}{
		{"list_files", tools, "list_files", ""},
		{"LIST_FILES", tools, "list_files", ""},
		{"li\u017Ft_files", tools, "", toolcall.CodeUnknownTool}, // ſ (long s) is not s
		{"\u212Aill", tools, "", toolcall.CodeUnknownTool},       // Kelvin sign is not K
		{"mcp/read", tools, "mcp/read", ""},                      // a declared name matches as declared
		{"get_weather", nil, "get_weather", ""},
		{"Получить_погоду", nil, "Получить_погоду", ""},
		{"../etc/passwd", nil, "", toolcall.CodeInvalidName},
		{"bin/rm", nil, "", toolcall.CodeInvalidName},
		{"a..b", nil, "", toolcall.CodeInvalidName},
		{"Summary:", nil, "", toolcall.CodeInvalidName},
		{"-rf", nil, "", toolcall.CodeInvalidName},
		{"tool:shell", nil, "tool:shell", ""},
		{"functions.get_time", nil, "functions.get_time", ""},
	} {
		got, _, e := dialects.CheckName(tc.name, tc.tools)
		switch {
		case tc.code != "" && (e == nil || coded.Code(e) != tc.code):
			t.Errorf("%q: got %q, %v; want %s", tc.name, got, e, tc.code)
		case tc.code == "" && (e != nil || got != tc.want):
			t.Errorf("%q: got %q, %v; want %q", tc.name, got, e, tc.want)
		}
	}
}

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
