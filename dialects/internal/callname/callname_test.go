package callname_test

import (
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects/internal/callname"
	"github.com/dialectkit/toolcall/internal/coded"
	"github.com/dialectkit/toolcall/schema"
)

// Tool names match a declared tool exactly or by ASCII case only; without
// tools a name must still be an identifier.
func TestCheck(t *testing.T) {
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
		got, _, e := callname.Check(tc.name, tc.tools)
		switch {
		case tc.code != "" && (e == nil || coded.Code(e) != tc.code):
			t.Errorf("%q: got %q, %v; want %s", tc.name, got, e, tc.code)
		case tc.code == "" && (e != nil || got != tc.want):
			t.Errorf("%q: got %q, %v; want %q", tc.name, got, e, tc.want)
		}
	}
}
