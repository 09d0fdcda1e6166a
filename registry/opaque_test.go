package registry_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/render"
	"github.com/dialectkit/toolcall/schema"
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
// reasoning tag later in it is text, and the call stands. Every dialect
// renders its call, named and detected, with tools declared and without,
// one-shot and streamed. (internlm2, whose start marker is written with a
// blank, and glimmer, whose messages frame its calls, read the output as
// reasoning up to the tag.)
func TestStrayCloseAfterOpeningCall(t *testing.T) {
	tools := cutTools(t)
	call := toolcall.Call{Name: "delete_file", Arguments: json.RawMessage(`{"path":"a"}`)}
	const after = "\nDone. </think> ok"
	for _, name := range registry.Names() {
		r, ok := render.For(name)
		if !ok || name == "ollama" {
			continue // ollama reads a server's response body
		}
		text := r.Calls([]toolcall.Call{call}) + after
		for _, dialect := range []string{name, ""} {
			for _, set := range []*schema.Set{tools, nil} {
				if name == "xlam" && set == nil {
					// xLAM reads no bare list followed by prose as a call
					// without tools (docs/dialects.md, "Where the bare
					// dialects differ from json"), </think> or not.
					continue
				}
				opts := &registry.Options{Dialect: dialect, Tools: set}
				res := registry.Parse(text, opts)
				if len(res.Calls) != 1 || string(res.Calls[0].Arguments) != `{"path":"a"}` || len(res.Errors) > 0 || res.Reasoning != "" || res.Content != "Done. </think> ok" {
					t.Errorf("%s as %q (tools %v): calls %v, errors %v, content %q, reasoning %q; want the call, the rest content", name, dialect, set != nil, res.Calls, res.Errors, res.Content, res.Reasoning)
					continue
				}
				if err := streamtest.CheckCuts(res, func() *stream.Parser { return registry.Stream(opts) }, text, nil, true); err != nil {
					t.Errorf("%s as %q (tools %v) streamed: %v", name, dialect, set != nil, err)
				}
			}
		}
	}
}
