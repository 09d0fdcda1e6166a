package registry_test

import (
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/stream"
)

// TestTagsInStringsAreText pins that structure inside a string is text: a
// reasoning tag written inside a JSON argument string neither opens nor
// closes a reasoning block, so the call keeps its whole value, in every
// family that reads JSON arguments, named and under detection, one-shot
// and streamed.
func TestTagsInStringsAreText(t *testing.T) {
	tools := cutTools(t)
	const value = `{"force":false,"path":"a TAG b"}`
	rows := []struct{ dialect, text string }{
		{"hermes", `<tool_call>{"name": "delete_file", "arguments": {"force": false, "path": "a TAG b"}}</tool_call>`},
		{"json", `{"name": "delete_file", "arguments": {"force": false, "path": "a TAG b"}}`},
		{"markdown_json", "```json\n" + `{"name": "delete_file", "arguments": {"force": false, "path": "a TAG b"}}` + "\n```"},
		{"mistral", `[TOOL_CALLS][{"name": "delete_file", "arguments": {"force": false, "path": "a TAG b"}}]`},
		{"deepseek_v31", `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>delete_file<｜tool▁sep｜>{"force": false, "path": "a TAG b"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>`},
	}
	for _, tag := range []string{"<think>", "</think>"} {
		want := strings.Replace(value, "TAG", tag, 1)
		for _, row := range rows {
			text := strings.Replace(row.text, "TAG", tag, 1)
			for _, named := range []bool{true, false} {
				opts := &registry.Options{Tools: tools}
				if named {
					opts.Dialect = row.dialect
				}
				res := registry.Parse(text, opts)
				if len(res.Calls) != 1 || string(res.Calls[0].Arguments) != want || res.Reasoning != "" {
					t.Errorf("%s %s (named %v): calls %v, errors %v, reasoning %q; want one call with %s", row.dialect, tag, named, res.Calls, res.Errors, res.Reasoning, want)
					continue
				}
				if err := streamtest.CheckCuts(res, func() *stream.Parser { return registry.Stream(opts) }, text, nil, true); err != nil {
					t.Errorf("%s %s (named %v) streamed: %v", row.dialect, tag, named, err)
				}
			}
		}
	}
}

// TestStrayCloseAfterOpeningCall pins one answer in every family: an output
// that opens with a call opened inside no reasoning block, so a closing
// reasoning tag later in it is text, and the call stands (named, one-shot
// and streamed).
func TestStrayCloseAfterOpeningCall(t *testing.T) {
	tools := cutTools(t)
	const after = "\nDone. </think> ok"
	for _, row := range []struct{ dialect, text string }{
		{"hermes", `<tool_call>{"name": "delete_file", "arguments": {"path": "a"}}</tool_call>`},
		{"json", `{"name": "delete_file", "arguments": {"path": "a"}}`},
		{"markdown_json", "```json\n" + `{"name": "delete_file", "arguments": {"path": "a"}}` + "\n```"},
		{"mistral", `[TOOL_CALLS][{"name": "delete_file", "arguments": {"path": "a"}}]`},
		{"pythonic", `[delete_file(path="a")]`},
		{"qwen3_coder", "<tool_call>\n<function=delete_file>\n<parameter=path>\na\n</parameter>\n</function>\n</tool_call>"},
	} {
		text := row.text + after
		opts := &registry.Options{Dialect: row.dialect, Tools: tools}
		res := registry.Parse(text, opts)
		if len(res.Calls) != 1 || string(res.Calls[0].Arguments) != `{"path":"a"}` || res.Reasoning != "" || res.Content != "Done. </think> ok" {
			t.Errorf("%s: calls %v, errors %v, content %q, reasoning %q; want the call, the rest content", row.dialect, res.Calls, res.Errors, res.Content, res.Reasoning)
			continue
		}
		if err := streamtest.CheckCuts(res, func() *stream.Parser { return registry.Stream(opts) }, text, nil, true); err != nil {
			t.Errorf("%s streamed: %v", row.dialect, err)
		}
	}
}
