package registry_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/render"
)

// opensNoBlock reports whether the dialect's family never opens a reasoning
// block in its templates (dialects.Syntax.ReasoningClosed): without
// ReasoningOpen, a lone closing tag is text in it.
func opensNoBlock(t *testing.T, name string) bool {
	d, ok := registry.Lookup(name)
	if !ok {
		t.Fatalf("no dialect %q", name)
	}
	s, ok := d.(dialects.Streamable)
	return ok && s.Syntax().ReasoningClosed
}

// TestCallInTemplateOpenedThinkIsNotACall renders a call in every dialect
// and drafts it in reasoning the template opened: the output holds only the
// closing tag. Everything before that tag is reasoning, call markup
// included, whether ReasoningOpen says the template opened the block or the
// lone closing tag does; the markup stays in the reasoning. A call after
// the tag is a call, and so is a marked call in template-opened reasoning
// that never closes (the model forgot to close it).
func TestCallInTemplateOpenedThinkIsNotACall(t *testing.T) {
	tools := cutTools(t)
	draft := toolcall.Call{ID: "call_1", Name: "delete_file", Arguments: json.RawMessage(`{"force":true,"path":"build/out"}`)}
	real := toolcall.Call{ID: "call_2", Name: "delete_file", Arguments: json.RawMessage(`{"force":false,"path":"tmp/x"}`)}
	// bare are the dialects whose calls carry no marker: in reasoning that
	// never closes, such a call is reasoning like the prose around it.
	bare := map[string]bool{"json": true, "generic_json": true, "gemini": true, "llama3_json": true, "markdown_json": true, "xlam": true, "pythonic": true}
	for _, name := range registry.Names() {
		t.Run(name, func(t *testing.T) {
			if ownReasoningOnly[name] || name == "ollama" {
				t.Skip("reasons in a syntax of its own, or reads a server's response")
			}
			r, ok := render.For(name)
			if !ok {
				t.Skip("no renderer")
			}
			drafted := r.Calls([]toolcall.Call{draft})
			made := r.Calls([]toolcall.Call{real})
			inside := "I could write " + drafted + " but the file is needed.</think>I will keep the file."
			then := "I could write " + drafted + " but not that one.</think>\n\n" + made
			unclosed := "The user wants tmp/x removed.\n\n" + made
			for _, o := range []*registry.Options{
				regOpts(dialects.Options{Tools: tools, ReasoningOpen: true}, registry.Options{Dialect: name}),
				{Dialect: name, ReasoningOpen: true},
				{Dialect: name},
				regOpts(dialects.Options{Tools: tools, ReasoningOpen: true}, registry.Options{}),
				{},
			} {
				res, det := registry.Default().ParseDetect(inside, o)
				if !o.ReasoningOpen && opensNoBlock(t, det.Dialect) {
					continue // the closing tag is text
				}
				if len(res.Calls) > 0 {
					t.Errorf("inside (dialect %q as %q, open %v, tools %v): call %s %s\ntext: %q", o.Dialect, det.Dialect, o.ReasoningOpen, o.Tools != nil, res.Calls[0].Name, res.Calls[0].Arguments, inside)
				} else if !ownReasoningOnly[det.Dialect] && det.Dialect != "ollama" && !strings.Contains(res.Reasoning, "build/out") {
					t.Errorf("inside (dialect %q as %q, open %v, tools %v): the drafted call left the reasoning %q (content %q, errors %v)", o.Dialect, det.Dialect, o.ReasoningOpen, o.Tools != nil, res.Reasoning, res.Content, res.Errors)
				}
				if o.Dialect == "" {
					continue
				}
				res = registry.Parse(then, o)
				if len(res.Calls) != 1 || !strings.Contains(string(res.Calls[0].Arguments), "tmp/x") {
					t.Errorf("then (dialect %q, open %v, tools %v): calls %v, errors %v\ntext: %q", o.Dialect, o.ReasoningOpen, o.Tools != nil, res.Calls, res.Errors, then)
				}
				if !o.ReasoningOpen || bare[name] {
					continue
				}
				res = registry.Parse(unclosed, o)
				if len(res.Calls) != 1 || !strings.Contains(string(res.Calls[0].Arguments), "tmp/x") {
					t.Errorf("unclosed (dialect %q, tools %v): calls %v, errors %v\ntext: %q", o.Dialect, o.Tools != nil, res.Calls, res.Errors, unclosed)
				}
			}
		})
	}
}
