package tagged_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/tagged"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/render"
)

// TestMarkerInString writes every tagged dialect's call inside a string of
// a JSON value, in content and in reasoning: a marker inside a string is
// text (strictjson.TagFinder.At), so the output reads as it does with any
// other string there, the value text, whole, one-shot and streamed cut
// every way (streamtest.CheckReader). A value that never closes holds
// nothing: the call in it is read.
func TestMarkerInString(t *testing.T) {
	call := toolcall.Call{ID: "call_1", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Rome"}`)}
	const plain = `"a string"`
	for _, d := range tagged.All() {
		t.Run(d.Name(), func(t *testing.T) {
			syn := d.(interface{ Syntax() dialects.Syntax }).Syntax()
			r, ok := render.For(d.Name())
			if !ok {
				t.Fatalf("no renderer for %s", d.Name())
			}
			made := r.Calls([]toolcall.Call{call})
			quoted := jsonString(t, made)
			tags := dialects.Think
			if len(syn.Reasoning) > 0 {
				tags = syn.Reasoning[0]
			}
			value := `{"x": ` + plain + `}`
			open := &dialects.Options{ReasoningOpen: true}
			rows := []struct {
				name  string
				text  string
				opts  *dialects.Options
				calls int
			}{
				{"in content", "Say " + value + " ok.", nil, 0},
				{"in content, then a call", "Say " + value + " ok.\n" + made, nil, 1},
				{"in a list in content", "Say [1, " + plain + "] ok.", nil, 0},
				{"in a value over lines", "Say {\n  \"x\": " + plain + "\n} ok.", nil, 0},
				{"in a block never closed", tags.Open + "I'd send " + value + " maybe", nil, 0},
				{"in a closed block, then a call", tags.Open + "I'd send " + value + tags.Close + "\n" + made, nil, 1},
				{"in the block the template opened", "I'd send " + value + " maybe", open, 0},
				{"in the block the template opened, closed", "I'd send " + value + tags.Close + "Done.", open, 0},
			}
			for _, tt := range rows {
				t.Run(tt.name, func(t *testing.T) {
					opts := tt.opts
					if opts == nil {
						opts = &dialects.Options{}
					}
					want := dialects.Parse(d, tt.text, opts)
					text := strings.Replace(tt.text, plain, quoted, 1)
					if err := streamtest.CheckReader(d.(dialects.Incremental), text, opts); err != nil {
						t.Error(err)
					}
					res := dialects.Parse(d, text, opts)
					if len(res.Calls) != tt.calls || len(want.Calls) != tt.calls || len(res.Errors) != len(want.Errors) {
						t.Errorf("%q: %d calls %s, errors %v; want %d, errors %v", text, len(res.Calls), callList(res.Calls), res.Errors, tt.calls, want.Errors)
					}
					wantContent := strings.Replace(want.Content, plain, quoted, 1)
					wantReasoning := strings.Replace(want.Reasoning, plain, quoted, 1)
					if res.Content != wantContent || res.Reasoning != wantReasoning {
						t.Errorf("%q: content %q, reasoning %q; want %q, %q", text, res.Content, res.Reasoning, wantContent, wantReasoning)
					}
				})
			}
			// A value that never closes holds no marker in a string: the
			// call after its open string is read.
			cut := `Say {"x": "` + strings.TrimSpace(made)
			if err := streamtest.CheckReader(d.(dialects.Incremental), cut, &dialects.Options{}); err != nil {
				t.Error(err)
			}
			if res := dialects.Parse(d, cut, nil); len(res.Calls) != 1 || res.Calls[0].Name != call.Name {
				t.Errorf("%q: calls %s, errors %v; want the call", cut, callList(res.Calls), res.Errors)
			}
		})
	}
}

// jsonString returns s written as a JSON string, markup unescaped.
func jsonString(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
