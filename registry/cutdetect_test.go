package registry_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/render"
	"github.com/dialectkit/toolcall/schema"
	"github.com/dialectkit/toolcall/stream"
)

// cutDetectedPending are the prefixes of TestCutCallRuleDetected that
// detection still hands to another family's reading, which fails them as
// TLP-019 or TLP-003 rather than TLP-014: the dialect rendered, and the
// one that reads its cut text. No call is read from them.
var cutDetectedPending = map[string]string{
	// <｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{… is deepseek_v3's header
	// with the type where the name stands.
	"deepseek_v31": "deepseek_v3",
	// <|start|>assistant to=NAME<|message|><a… is a harmony message whose
	// body does not read as JSON.
	"glimmer": "harmony",
	// <tool_calls><… is tool_calls_array's section holding no JSON.
	"hy_v3": "tool_calls_array",
	// <|python_tag|>NAME… is llama3_json's tag before no JSON.
	"llama3_builtin": "llama3_json",
}

// TestCutCallRuleDetected is TestCutCallRule under detection: every prefix
// of one call rendered in every dialect, with tools declared, holds no call
// when it ends before the call is complete, and its errors are TLP-014; a
// prefix that ends at or after that point is the whole call. Streamed at a
// few cuts per dialect.
func TestCutCallRuleDetected(t *testing.T) {
	tools := cutTools(t)
	call := toolcall.Call{Name: "delete_file", Arguments: json.RawMessage(`{"force":true,"path":"build/zq9"}`)}
	for _, name := range registry.Names() {
		r, ok := render.For(name)
		if !ok || name == "ollama" {
			continue // ollama reads a server's response body
		}
		full := r.Calls([]toolcall.Call{call})
		complete := len(full) - len(completeTail[name])
		opts := &registry.Options{Tools: tools}
		for p := 1; p <= len(full); p++ {
			cut := full[:p]
			res := registry.Parse(cut, opts)
			if p >= complete {
				if len(res.Calls) != 1 || string(res.Calls[0].Arguments) != string(call.Arguments) || len(res.Errors) > 0 || res.Content != "" {
					t.Errorf("%s: complete call cut at %d/%d %q, detected %q: calls %v, errors %v, content %q; want the call alone", name, p, len(full), cut, res.Dialect, res.Calls, res.Errors, res.Content)
				}
			} else {
				if len(res.Calls) > 0 {
					t.Errorf("%s: cut at %d/%d %q, detected %q: call %s %s; a cut call is no call", name, p, len(full), cut, res.Dialect, res.Calls[0].Name, res.Calls[0].Arguments)
				}
				for _, e := range res.Errors {
					if e.Tool == "code_interpreter" && !strings.Contains(cut, "(") {
						continue // a prefix of raw code is a whole program
					}
					if e.Code != toolcall.CodeTruncated && cutDetectedPending[name] != res.Dialect {
						t.Errorf("%s: cut at %d/%d %q, detected %q: %v; a cut call is TLP-014", name, p, len(full), cut, res.Dialect, e)
					}
				}
			}
			if p == complete || p == complete-1 || p == len(full)/2 {
				if err := streamtest.CheckCuts(res, func() *stream.Parser { return registry.Stream(opts) }, cut, nil, true); err != nil {
					t.Errorf("%s: cut at %d %q streamed: %v", name, p, cut, err)
				}
			}
		}
	}
}

// TestClosingTagInFencedCallString writes every dialect's closing markers
// (its Ends and CallEnds) inside a string of a fenced JSON call: the
// marker is text of the value, which is read whole, by markdown_json,
// json and hermes named (hermes reads a fenced call as its fallback does)
// and under detection, with tools declared and without, one-shot and
// streamed.
func TestClosingTagInFencedCallString(t *testing.T) {
	tools := cutTools(t)
	ends := map[string]bool{}
	for _, name := range registry.Names() {
		d, _ := registry.Lookup(name)
		syn := dialects.SyntaxOf(d)
		for _, e := range append(append([]string(nil), syn.Ends...), syn.CallEnds...) {
			if strings.TrimSpace(e) != "" && !strings.ContainsAny(e, "\"\\`") {
				ends[e] = true
			}
		}
	}
	for end := range ends {
		path := "a " + end + " b"
		value, _ := json.Marshal(map[string]string{"path": path})
		want := string(value)
		text := "```json\n{\"name\": \"delete_file\", \"arguments\": " + want + "}\n```"
		for _, dialect := range []string{"markdown_json", "json", "hermes", ""} {
			for _, set := range []*schema.Set{tools, nil} {
				opts := &registry.Options{Dialect: dialect, Tools: set}
				res := registry.Parse(text, opts)
				if len(res.Calls) != 1 || string(res.Calls[0].Arguments) != want || len(res.Errors) > 0 || res.Content != "" {
					t.Errorf("%q in a string, as %q (tools %v): calls %v, errors %v, content %q; want one call with %s", end, dialect, set != nil, res.Calls, res.Errors, res.Content, want)
					continue
				}
				if err := streamtest.CheckCuts(res, func() *stream.Parser { return registry.Stream(opts) }, text, nil, true); err != nil {
					t.Errorf("%q in a string, as %q (tools %v) streamed: %v", end, dialect, set != nil, err)
				}
			}
		}
	}
}
