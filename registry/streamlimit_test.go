package registry_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
)

// TestStreamMaxBytes: Options.MaxStreamBytes caps what a stream reads,
// named, under detection and with a fallback chain. The result is the
// parse of the text up to the limit with a TLP-009 error at the limit; a
// call the limit cuts off is no call. Zero is the default limit, a
// negative value none.
func TestStreamMaxBytes(t *testing.T) {
	call := "<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": 1}}\n</tool_call>"
	text := "Sure.\n" + call + "\nAnd then " + call + " done."
	for _, tt := range []struct {
		name     string
		opts     registry.Options
		limit    int
		calls    int
		tooLarge bool
		cutCall  bool // the limit cuts a call: TLP-014, not a call
	}{
		{"named, past the first call", registry.Options{Dialect: "hermes"}, len("Sure.\n"+call) + 4, 1, true, false},
		{"named, inside the second call", registry.Options{Dialect: "hermes"}, len(text) - 20, 1, true, true},
		{"named, inside the first call", registry.Options{Dialect: "hermes"}, 30, 0, true, true},
		{"detected, past the first call", registry.Options{}, len("Sure.\n"+call) + 4, 1, true, false},
		{"detected, inside the second call", registry.Options{}, len(text) - 20, 1, true, true},
		{"with a fallback chain", registry.Options{Dialect: "mistral", Fallback: []string{"hermes"}}, len(text) - 20, 1, true, true},
		{"the whole text fits", registry.Options{Dialect: "hermes"}, len(text), 2, false, false},
		{"the default", registry.Options{Dialect: "hermes"}, 0, 2, false, false},
		{"no cap", registry.Options{Dialect: "hermes"}, -1, 2, false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			opts.ReasoningClosed = true
			opts.MaxStreamBytes = tt.limit
			read := text
			if tt.limit > 0 && tt.limit < len(text) {
				read = text[:tt.limit]
			}
			want := registry.Parse(read, &opts)
			if tt.tooLarge {
				want.Errors = append(want.Errors, toolcall.NewError(toolcall.CodeTooLarge, ""))
			}
			for i, cut := range streamtest.Cuts(text, nil, true) {
				p := registry.Stream(&opts)
				evs := streamtest.Feed(p, cut)
				res := evs[len(evs)-1].Result
				if len(res.Calls) != tt.calls {
					t.Fatalf("cut %d: %d calls, want %d: %+v", i, len(res.Calls), tt.calls, res)
				}
				var large []*toolcall.Error
				truncated := false
				for _, e := range res.Errors {
					if errors.Is(e, toolcall.ErrTooLarge) {
						large = append(large, e)
					}
					truncated = truncated || e.Code == toolcall.CodeTruncated
				}
				if truncated != tt.cutCall {
					t.Fatalf("cut %d: a TLP-014 error: %v, want %v: %v", i, truncated, tt.cutCall, res.Errors)
				}
				if !tt.tooLarge {
					if len(large) != 0 || p.Text() != text {
						t.Fatalf("cut %d: read %d of %d bytes, errors %v", i, len(p.Text()), len(text), res.Errors)
					}
					continue
				}
				if len(large) != 1 || large[0].Offset != tt.limit || !strings.Contains(large[0].Message, "stream limit") {
					t.Fatalf("cut %d: errors %v, want one TLP-009 at %d", i, res.Errors, tt.limit)
				}
				if p.Text() != read {
					t.Fatalf("cut %d: read %q", i, p.Text())
				}
				// Streamed events agree with the result of the text read.
				if err := streamtest.Compare(res, p, evs); err != nil {
					t.Fatalf("cut %d: %v", i, err)
				}
				if len(res.Errors) != len(want.Errors) || res.Content != want.Content || res.Dialect != want.Dialect {
					t.Fatalf("cut %d: %+v, want the parse of the text read %+v", i, res, want)
				}
			}
		})
	}
}
