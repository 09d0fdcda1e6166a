package registry_test

import (
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/stream"
)

// TestAmbiguityIsMalformed pins one answer, in every family that can write
// it, for a call that says two things: two names, two argument fields that
// disagree, a name attribute given twice, a "function" object naming
// another tool than its envelope are TLP-019, never a choice of one; a
// repeated argument keeps its last value, recorded as duplicate_key. Each
// row is parsed named and streamed.
func TestAmbiguityIsMalformed(t *testing.T) {
	tools := cutTools(t)
	for _, tc := range []struct {
		name, dialect, text string
		args                string // the call's arguments; "" for TLP-019
		dup                 bool   // a duplicate_key repair is recorded
	}{
		{name: "function object naming another tool", dialect: "json",
			text: `{"type": "function", "name": "delete_file", "function": {"name": "list_files", "arguments": {"path": "a"}}}`},
		{name: "function object naming the same tool", dialect: "json",
			text: `{"type": "function", "name": "delete_file", "function": {"name": "delete_file", "arguments": {"path": "a"}}}`,
			args: `{"path":"a"}`},
		{name: "arguments around a function object that disagree", dialect: "hermes",
			text: `<tool_call>{"arguments": {"path": "b"}, "function": {"name": "delete_file", "arguments": {"path": "a"}}}</tool_call>`},
		{name: "arguments and parameters that disagree", dialect: "hermes",
			text: `<tool_call>{"name": "delete_file", "arguments": {"path": "a"}, "parameters": {"path": "b"}}</tool_call>`},
		{name: "arguments and parameters that agree", dialect: "hermes",
			text: `<tool_call>{"name": "delete_file", "arguments": {"path": "a"}, "parameters": {"path":"a"}}</tool_call>`,
			args: `{"path":"a"}`},
		{name: "arguments and args that disagree", dialect: "mistral",
			text: `[TOOL_CALLS][{"name": "delete_file", "arguments": {"path": "a"}, "args": {"path": "b"}}]`},
		{name: "two name attributes", dialect: "minimax_m2",
			text: "<minimax:tool_call>\n<invoke name=\"delete_file\" name=\"list_files\">\n<parameter name=\"path\">a</parameter>\n</invoke>\n</minimax:tool_call>"},
		{name: "a parameter tag naming two parameters", dialect: "minimax_m2",
			text: "<minimax:tool_call>\n<invoke name=\"delete_file\">\n<parameter name=\"path\" name=\"force\">a</parameter>\n</invoke>\n</minimax:tool_call>"},
		{name: "a tagged parameter given twice", dialect: "qwen3_coder",
			text: "<tool_call>\n<function=delete_file>\n<parameter=path>\na\n</parameter>\n<parameter=path>\nb\n</parameter>\n</function>\n</tool_call>",
			args: `{"path":"b"}`, dup: true},
		{name: "a key/value pair given twice", dialect: "glm45",
			text: "<tool_call>delete_file\n<arg_key>path</arg_key>\n<arg_value>a</arg_value>\n<arg_key>path</arg_key>\n<arg_value>b</arg_value>\n</tool_call>",
			args: `{"path":"b"}`, dup: true},
		{name: "a JSON argument given twice", dialect: "hermes",
			text: `<tool_call>{"name": "delete_file", "arguments": {"path": "a", "path": "b"}}</tool_call>`,
			args: `{"path":"b"}`, dup: true},
	} {
		opts := &registry.Options{Dialect: tc.dialect, Tools: tools}
		res := registry.Parse(tc.text, opts)
		if tc.args == "" {
			if len(res.Calls) > 0 || len(res.Errors) != 1 || res.Errors[0].Code != toolcall.CodeMalformedCall {
				t.Errorf("%s: calls %v, errors %v; want TLP-019 alone", tc.name, res.Calls, res.Errors)
			}
		} else {
			if len(res.Calls) != 1 || string(res.Calls[0].Arguments) != tc.args || len(res.Errors) > 0 {
				t.Errorf("%s: calls %v, errors %v; want one call with %s", tc.name, res.Calls, res.Errors, tc.args)
			}
			dup := false
			for _, r := range res.Repairs {
				dup = dup || r.Kind == toolcall.RepairDuplicateKey
			}
			if dup != tc.dup {
				t.Errorf("%s: repairs %v, duplicate_key recorded %v, want %v", tc.name, res.Repairs, dup, tc.dup)
			}
		}
		if err := streamtest.CheckCuts(res, func() *stream.Parser { return registry.Stream(opts) }, tc.text, nil, true); err != nil {
			t.Errorf("%s streamed: %v", tc.name, err)
		}
	}
}
