package stream_test

import (
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/hermes"
	"github.com/dialectkit/toolcall/internal/streamtest"
)

// A stream settles against the one-shot parse also past the per-output
// caps on calls and errors.
func TestStreamHonoursPerOutputCaps(t *testing.T) {
	text := strings.Repeat(`<tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>`, 30) +
		strings.Repeat(`<tool_call>{"name": "g", "arguments": [1]}</tool_call>`, 30)
	for _, o := range []*dialects.Options{{MaxCalls: 20}, {MaxErrors: 5}, {MaxCalls: 40, MaxErrors: 3}} {
		if err := streamtest.Check(hermes.Dialect, text, nil, o); err != nil {
			t.Errorf("%+v: %v", *o, err)
		}
	}
}
