package pythonic_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/schema"
)

// row is one case of a dialect's table.
type row struct {
	name      string
	text      string
	tools     string // JSON array of tool definitions, "" for none
	open      bool   // Options.ReasoningOpen
	calls     []want
	content   string
	reasoning string
	errs      []toolcall.Code
	repairs   []toolcall.RepairKind // kinds that must be recorded
	marked    bool
	// chunks is how a stream would deliver text; the stream engine will
	// replay them. Their concatenation must be text.
	chunks []string
}

type want struct{ name, args string }

// weatherTools declares get_weather(city, unit) and get_time().
const weatherTools = `[
 {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object",
   "properties": {"city": {"type": "string"}, "unit": {"type": "string"}}, "required": ["city"]}}},
 {"type": "function", "function": {"name": "get_time", "parameters": {"type": "object", "properties": {}}}}]`

func toolSet(t testing.TB, js string) *schema.Set {
	t.Helper()
	if js == "" {
		return nil
	}
	tools, err := toolcall.ParseTools([]byte(js))
	if err != nil {
		t.Fatalf("tools: %v", err)
	}
	set, err := schema.NewSet(tools...)
	if err != nil {
		t.Fatalf("tools: %v", err)
	}
	return set
}

func runRows(t *testing.T, d dialects.Dialect, rows []row) {
	t.Helper()
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			opts := &dialects.Options{Tools: toolSet(t, r.tools), ReasoningOpen: r.open}
			// Streamed in every cut, the row must give the same answer.
			if err := streamtest.Check(d, r.text, r.chunks, opts); err != nil {
				t.Errorf("stream: %v", err)
			}
			res := dialects.Parse(d, r.text, opts)
			if res.Dialect != d.Name() {
				t.Errorf("dialect %q, want %q", res.Dialect, d.Name())
			}
			checkCalls(t, res.Calls, r.calls)
			if res.Content != r.content {
				t.Errorf("content %q, want %q", res.Content, r.content)
			}
			if res.Reasoning != r.reasoning {
				t.Errorf("reasoning %q, want %q", res.Reasoning, r.reasoning)
			}
			var codes []toolcall.Code
			for _, e := range res.Errors {
				codes = append(codes, e.Code)
			}
			if !slices.Equal(codes, r.errs) {
				t.Errorf("errors %v, want codes %v", res.Errors, r.errs)
			}
			for _, k := range r.repairs {
				if !hasRepair(res.Repairs, k) {
					t.Errorf("repairs %v, want one of kind %s", res.Repairs, k)
				}
			}
			if len(r.repairs) == 0 && len(res.Repairs) > 0 {
				t.Errorf("unexpected repairs %v", res.Repairs)
			}
			if got := d.Extract(r.text, opts).Marked; got != r.marked {
				t.Errorf("marked %v, want %v", got, r.marked)
			}
		})
	}
}

func checkCalls(t *testing.T, got []toolcall.Call, want []want) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d calls %s, want %d", len(got), describe(got), len(want))
	}
	for i, w := range want {
		if got[i].Name != w.name {
			t.Errorf("call %d: name %q, want %q", i, got[i].Name, w.name)
		}
		if string(got[i].Arguments) != w.args {
			t.Errorf("call %d: arguments %s, want %s", i, got[i].Arguments, w.args)
		}
		if !json.Valid(got[i].Arguments) {
			t.Errorf("call %d: arguments are not JSON", i)
		}
		if got[i].ID == "" {
			t.Errorf("call %d: no id", i)
		}
	}
}

func hasRepair(rs []toolcall.Repair, k toolcall.RepairKind) bool {
	for _, r := range rs {
		if r.Kind == k {
			return true
		}
	}
	return false
}

func describe(calls []toolcall.Call) string {
	var b strings.Builder
	for _, c := range calls {
		b.WriteString(c.Name)
		b.Write(c.Arguments)
		b.WriteByte(' ')
	}
	return b.String()
}

func calls(pairs ...string) []want {
	var out []want
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, want{pairs[i], pairs[i+1]})
	}
	return out
}

func codes(cs ...toolcall.Code) []toolcall.Code { return cs }

func kinds(ks ...toolcall.RepairKind) []toolcall.RepairKind { return ks }
