package markers_test

import (
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/markers"
	"github.com/dialectkit/toolcall/internal/fuzzcheck"
)

// TestHostileHarness runs the shared hostile inputs (internal/fuzzcheck)
// through every dialect of the package: each must end in valid calls or
// coded errors, never a panic, a hang or a call lost without an error. It
// logs the time and memory each input took.
func TestHostileHarness(t *testing.T) { fuzzcheck.HostileDialects(t, markers.All()...) }

// TestDeepBareCallIsAnError is the regression test of a hostile-input
// finding: a dialect without markers read a call nested past the depth
// limit as content, so the call vanished without an error. It is now the
// call's TLP-013; a deep value that is not a call stays content.
func TestDeepBareCallIsAnError(t *testing.T) {
	deep := strings.Repeat("[", 10_000) + strings.Repeat("]", 10_000)
	for _, tc := range []struct {
		d    *markers.Dialect
		text string
	}{
		{markers.Llama3JSON, `{"name": "f", "parameters": {"a": ` + deep + `}}`},
		{markers.XLAM, `[{"name": "f", "arguments": {"a": ` + deep + `}}]`},
		{markers.Gemini, `{"function_call": {"name": "f", "args": {"a": ` + deep + `}}}`},
		{markers.GenericJSON, `{"tool_call": {"name": "f", "arguments": {"a": ` + deep + `}}}`},
	} {
		res := dialects.Parse(tc.d, tc.text, nil)
		if len(res.Calls) != 0 || len(res.Errors) != 1 || res.Errors[0].Code != toolcall.CodeTooDeep {
			t.Errorf("%s: calls %d, errors %v; want one TLP-013", tc.d.Name(), len(res.Calls), res.Errors)
		}
		data := dialects.Parse(tc.d, `{"data": {"rows": `+deep+`}}`, nil)
		if len(data.Calls) != 0 || len(data.Errors) != 0 {
			t.Errorf("%s: deep data gave calls %d, errors %v", tc.d.Name(), len(data.Calls), data.Errors)
		}
	}
}
