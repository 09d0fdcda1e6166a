package markers_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/schema"
)

// row is one case of a dialect table.
type row struct {
	name      string
	text      string
	calls     []want
	content   string
	reasoning string
	// errs are the codes of the errors expected, in order.
	errs []toolcall.Code
	// repairs are repair kinds that must be recorded.
	repairs []toolcall.RepairKind
	// tools, when set, are declared (with open schemas).
	tools []string
	// open sets Options.ReasoningOpen.
	open bool
	// unmarked and marked override the expected Extraction.Marked, which
	// is otherwise true exactly when calls or errors are expected.
	unmarked, marked bool
	// chunks is how a stream would deliver text; the stream engine uses it.
	chunks []string
}

// want is an expected call: name, exact arguments JSON, and id if set.
type want struct{ name, args, id string }

func c(name, args string) want { return want{name: name, args: args} }

func cid(name, args, id string) want { return want{name: name, args: args, id: id} }

// runTable parses every row with d and checks calls, content, reasoning,
// errors, repairs and markedness.
func runTable(t *testing.T, d dialects.Dialect, rows []row) {
	t.Helper()
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			opts := &dialects.Options{ReasoningOpen: r.open, Tools: toolSet(t, r.tools)}
			// Streamed in every cut, the row must give the same answer.
			if err := streamtest.Check(d, r.text, r.chunks, opts); err != nil {
				t.Errorf("stream: %v", err)
			}
			// Its Reader reads every cutting of it as the whole, also with
			// the reasoning start given either way.
			checkReader(t, d, r.text, opts)
			res := dialects.Parse(d, r.text, opts)
			checkResult(t, res, r)
			ext := d.Extract(r.text, opts)
			marked := (len(r.calls) > 0 || len(r.errs) > 0 || r.marked) && !r.unmarked
			if ext.Marked != marked {
				t.Errorf("Marked = %v, want %v", ext.Marked, marked)
			}
		})
	}
}

func checkResult(t *testing.T, res *toolcall.Result, r row) {
	t.Helper()
	if len(res.Calls) != len(r.calls) {
		t.Fatalf("got %d calls %v, want %d (errors %v)", len(res.Calls), res.Calls, len(r.calls), res.Errors)
	}
	for i, w := range r.calls {
		g := res.Calls[i]
		if g.Name != w.name {
			t.Errorf("call %d: name %q, want %q", i, g.Name, w.name)
		}
		if got, exp := compact(t, g.Arguments), compact(t, []byte(w.args)); got != exp {
			t.Errorf("call %d: arguments %s, want %s", i, got, exp)
		}
		if w.id != "" && g.ID != w.id {
			t.Errorf("call %d: id %q, want %q", i, g.ID, w.id)
		}
	}
	if res.Content != r.content {
		t.Errorf("content %q, want %q", res.Content, r.content)
	}
	if res.Reasoning != r.reasoning {
		t.Errorf("reasoning %q, want %q", res.Reasoning, r.reasoning)
	}
	var codes []toolcall.Code
	for _, e := range res.Errors {
		codes = append(codes, e.Code)
		if msg := e.Error(); e.Raw != "" && len(e.Raw) > 8 && strings.Contains(msg, e.Raw) {
			t.Errorf("error message %q prints the raw text", msg)
		}
	}
	if !slices.Equal(codes, r.errs) {
		t.Errorf("error codes %v, want %v (%v)", codes, r.errs, res.Errors)
	}
	for _, k := range r.repairs {
		if !slices.ContainsFunc(res.Repairs, func(rp toolcall.Repair) bool { return rp.Kind == k }) {
			t.Errorf("repair %s not recorded (got %v)", k, res.Repairs)
		}
	}
}

func compact(t *testing.T, b []byte) string {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		t.Fatalf("not JSON: %s: %v", b, err)
	}
	return buf.String()
}

// toolSet declares tools that accept any object.
func toolSet(t testing.TB, names []string) *schema.Set {
	if len(names) == 0 {
		return nil
	}
	var tools []toolcall.Tool
	for _, n := range names {
		tools = append(tools, toolcall.Tool{Name: n, Parameters: json.RawMessage(`{"type": "object"}`)})
	}
	set, err := schema.NewSet(tools...)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// cut splits s at the given byte offsets, for chunk lists that split
// markers or multi-byte characters.
func cut(s string, at ...int) []string {
	var out []string
	last := 0
	for _, a := range at {
		out = append(out, s[last:a])
		last = a
	}
	return append(out, s[last:])
}

// checkChunks keeps the streaming data consistent: the chunks of a row
// must join into its text, and a few rows per table must have them.
func checkChunks(t *testing.T, rows []row) {
	t.Helper()
	n := 0
	for _, r := range rows {
		if r.chunks == nil {
			continue
		}
		n++
		if got := strings.Join(r.chunks, ""); got != r.text {
			t.Errorf("%s: chunks join to %q, not the text %q", r.name, got, r.text)
		}
	}
	if n < 2 {
		t.Errorf("only %d rows have chunks; want at least 2", n)
	}
}

// checkReader holds d's Reader to its contract on text (streamtest.CheckReader),
// with opts and with the reasoning start given open and closed.
func checkReader(t *testing.T, d dialects.Dialect, text string, opts *dialects.Options) {
	t.Helper()
	inc, ok := d.(dialects.Incremental)
	if !ok {
		t.Fatalf("%s has no Reader", d.Name())
	}
	for _, o := range []dialects.Options{*opts, {Tools: opts.Tools, ReasoningOpen: true}, {Tools: opts.Tools, ReasoningClosed: true}} {
		if err := streamtest.CheckReader(inc, text, &o); err != nil {
			t.Errorf("reader (open %v, closed %v): %v", o.ReasoningOpen, o.ReasoningClosed, err)
		}
	}
}
