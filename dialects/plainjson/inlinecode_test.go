package plainjson_test

import (
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/plainjson"
)

// An envelope on the line after an opening backtick stands in inline code,
// which goes on across a line break to the end of its paragraph: text.
// After a blank line the paragraph, and the inline code, have ended.
func TestInlineCodeSpansLines(t *testing.T) {
	call := `{"name": "delete_file", "arguments": {"path": "build"}}`
	for _, c := range []struct {
		text  string
		calls int
	}{
		{"You could write `<tool_call>\n" + call + "\n</tool_call>` here, but I will not.", 0},
		{"You could write `x\n\n" + call, 1},
	} {
		opts := &dialects.Options{ReasoningClosed: true}
		if x := plainjson.Dialect.Extract(c.text, opts); len(x.Calls) != c.calls {
			t.Errorf("%q: %d calls, want %d", c.text, len(x.Calls), c.calls)
		}
	}
}
