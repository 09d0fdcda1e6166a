package tagged_test

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

// row is one case of a dialect table: the output, how it may arrive in a
// stream (chunks, for the stream engine), and what parsing it must give.
type row struct {
	name      string
	text      string
	chunks    []string // deltas the stream engine will be fed; joined they are text
	tools     string   // declared tools as a JSON array, if any
	open      bool     // the template opened reasoning
	calls     []want
	content   string
	reasoning string
	errs      []toolcall.Code       // error codes, in order
	repairs   []toolcall.RepairKind // repair kinds that must be recorded
}

// want is an expected call: a name and its arguments as JSON.
type want struct{ name, args string }

func call(name, args string) want { return want{name, args} }

// runTable parses every row with d and checks calls, content, reasoning,
// errors and repairs.
func runTable(t *testing.T, d dialects.Dialect, rows []row) {
	t.Helper()
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			// Streamed in every cut, the row must give the same answer.
			if err := streamtest.Check(d, r.text, r.chunks, r.options(t)); err != nil {
				t.Errorf("stream: %v", err)
			}
			checkReader(t, d, r.text, r.options(t))
			res := dialects.Parse(d, r.text, r.options(t))
			if len(res.Calls) != len(r.calls) {
				t.Fatalf("got %d calls %s, want %d (errors %v)", len(res.Calls), callList(res.Calls), len(r.calls), res.Errors)
			}
			for i, w := range r.calls {
				got := res.Calls[i]
				if got.Name != w.name {
					t.Errorf("call %d: name %q, want %q", i, got.Name, w.name)
				}
				if !jsonEqual(t, got.Arguments, w.args) {
					t.Errorf("call %d: arguments %s, want %s", i, got.Arguments, w.args)
				}
				if got.ID == "" {
					t.Errorf("call %d: no id", i)
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
				if e.Offset < 0 {
					t.Errorf("error %v has no offset", e)
				}
			}
			if !slices.Equal(codes, r.errs) {
				t.Errorf("errors %v, want codes %v", res.Errors, r.errs)
			}
			for _, k := range r.repairs {
				if !slices.ContainsFunc(res.Repairs, func(rp toolcall.Repair) bool { return rp.Kind == k }) {
					t.Errorf("repairs %v lack %s", res.Repairs, k)
				}
			}
			if res.Dialect != d.Name() {
				t.Errorf("dialect %q, want %q", res.Dialect, d.Name())
			}
		})
	}
}

func (r row) options(t *testing.T) *dialects.Options {
	t.Helper()
	opts := &dialects.Options{ReasoningOpen: r.open}
	if r.tools != "" {
		tools, err := toolcall.ParseTools([]byte(r.tools))
		if err != nil {
			t.Fatalf("tools: %v", err)
		}
		set, err := schema.NewSet(tools...)
		if err != nil {
			t.Fatalf("tools: %v", err)
		}
		opts.Tools = set
	}
	return opts
}

// testChunks checks that the stream rows of a table are consistent: their
// chunks join into the text.
func testChunks(t *testing.T, rows []row) {
	t.Helper()
	n := 0
	for _, r := range rows {
		if r.chunks == nil {
			continue
		}
		n++
		if strings.Join(r.chunks, "") != r.text {
			t.Errorf("%s: chunks do not join into the text", r.name)
		}
	}
	if n < 2 {
		t.Errorf("table has %d streaming rows, want at least 2", n)
	}
}

func jsonEqual(t *testing.T, got []byte, want string) bool {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Errorf("arguments %s are not JSON: %v", got, err)
		return false
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad expected JSON %s: %v", want, err)
	}
	gb, _ := json.Marshal(g)
	wb, _ := json.Marshal(w)
	return string(gb) == string(wb)
}

func callList(calls []toolcall.Call) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, c := range calls {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c.Name)
		b.Write(c.Arguments)
	}
	b.WriteByte(']')
	return b.String()
}

// weatherTool is a declared tool used by typed rows.
const weatherTool = `[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{
	"city":{"type":"string"},"zip":{"type":"string"},"days":{"type":"integer"},"metric":{"type":"boolean"},
	"options":{"type":"object"},"tags":{"type":"array","items":{"type":"string"}}},"required":["city"]}}}]`

// checkReader holds the dialect's Reader to its rules on text (every
// cutting reads as the whole text does), with opts and with the
// reasoning start given either way.
func checkReader(t *testing.T, d dialects.Dialect, text string, opts *dialects.Options) {
	t.Helper()
	inc, ok := d.(dialects.Incremental)
	if !ok {
		t.Fatalf("%s is not incremental", d.Name())
	}
	for _, o := range []dialects.Options{*opts, {Tools: opts.Tools, ReasoningOpen: true}, {Tools: opts.Tools, ReasoningClosed: true}} {
		if err := streamtest.CheckReader(inc, text, &o); err != nil {
			t.Errorf("reader (open %v, closed %v): %v", o.ReasoningOpen, o.ReasoningClosed, err)
		}
	}
}
