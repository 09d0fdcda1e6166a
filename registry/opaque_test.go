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

// inStringPending are the families whose engines still read a call's
// markup written inside a string of a JSON data value (the finding "a
// call's text inside a string literal of a JSON data value becomes a
// call" of docs/dialects.md, "Structure inside a string is text"): the
// markers and pythonic engines do not ask strictjson.TagFinder.At at a
// marker, as tagged, harmony, hermes and jsontext do. Under detection, a
// tagged dialect's markup is read by a markers dialect (functionary_v3_1
// reads <function=…>).
var inStringPending = map[string]bool{
	"apertus": true, "cohere": true, "deepseek_v3": true, "deepseek_v31": true,
	"functionary_v3_1": true, "functionary_v3_2": true, "functools": true, "gigachat3": true,
	"granite": true, "granite_20b_fc": true, "inkling": true, "internlm2": true, "kimi_k2": true,
	"minimax_m1": true, "mistral": true, "nemotron_v2": true, "tool_calls_array": true,
	"lfm2": true, "llama3_builtin": true, "llama4_pythonic": true, "olmo3": true, "sarashina": true,
	"qwen3_coder/detected": true, "seed_oss/detected": true,
}

// TestCallTextInDataStringsIsText writes every dialect's call inside a
// string of a JSON data value, as a log line or a saved message quotes it
// (`{"log": "<tool_call>…"}`, after prose, in a json fence), and inside a
// string literal of code (`x = "…"`, a js fence): the markup is text of
// the value, never a call, an error, or arguments unwrapped from their
// escaped quotes (harmony read `{\"path\": \"a\"}` after its header as
// the call's double-encoded arguments). Named and detected, with tools
// declared and without, one-shot and streamed.
func TestCallTextInDataStringsIsText(t *testing.T) {
	tools := cutTools(t)
	call := toolcall.Call{Name: "delete_file", Arguments: json.RawMessage(`{"path":"a"}`)}
	for _, name := range registry.Names() {
		r, ok := render.For(name)
		if !ok || name == "ollama" {
			continue // ollama reads a server's response body
		}
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(r.Calls([]toolcall.Call{call})); err != nil {
			t.Fatal(err)
		}
		str := strings.TrimSpace(b.String())
		for _, dialect := range []string{name, ""} {
			key := name
			if dialect == "" {
				key += "/detected"
			}
			t.Run(key, func(t *testing.T) {
				if inStringPending[name] || inStringPending[key] {
					t.Skip("finding pending: a call's markup inside a string of a JSON data value is read (see inStringPending)")
				}
				for _, text := range []string{
					`{"log": ` + str + `}`,
					`Saved it: {"log": ` + str + `, "n": 1}`,
					"```json\n{\"log\": " + str + "}\n```",
					"x = " + str,
					"```js\nconst s = " + str + ";\n```",
				} {
					for _, set := range []*schema.Set{tools, nil} {
						opts := &registry.Options{Dialect: dialect, Tools: set}
						res := registry.Parse(text, opts)
						if len(res.Calls) > 0 || len(res.Errors) > 0 || res.Content != text {
							t.Errorf("tools %v: calls %v, errors %v, content %q; want the text as content\ntext: %q", set != nil, res.Calls, res.Errors, res.Content, text)
							continue
						}
						if err := streamtest.CheckCuts(res, func() *stream.Parser { return registry.Stream(opts) }, text, nil, true); err != nil {
							t.Errorf("tools %v streamed: %v\ntext: %q", set != nil, err, text)
						}
					}
				}
			})
		}
	}
}

// programFencePending are the dialects whose engines still break the rule
// TestProgramFenceIsNeverACall holds, by the reason each does, both in the
// markers engine: they are skipped, named and as what the rendered body is
// detected as.
var programFencePending = map[string]string{
	// Its Strip takes its framing tokens out of a fence's text: shown
	// text keeps every byte.
	"inkling": "drops its framing tokens from a program fence's text",
	// The prompt may write the first >>>: an output that opens with a
	// fence line is read as a header naming the tool "```py" (TLP-010).
	"functionary_v3_2": "reads a fence line opening the output as its implicit first header",
}

// TestProgramFenceIsNeverACall puts every dialect's call in a fence
// labelled with a programming language, after prose that presents it as
// something to run ("Here is a script you can run later:"): a program is
// code, never a tool call, whatever the prose says and whatever the fence
// holds, and its text is kept whole. Named and detected, with tools
// declared and without, one-shot and streamed.
func TestProgramFenceIsNeverACall(t *testing.T) {
	tools := cutTools(t)
	call := toolcall.Call{Name: "delete_file", Arguments: json.RawMessage(`{"path":"a"}`)}
	bodies := map[string]string{"python call": `delete_file(path="a")`, "python list": `[delete_file(path="a")]`}
	for _, name := range registry.Names() {
		if r, ok := render.For(name); ok && name != "ollama" {
			bodies[name] = r.Calls([]toolcall.Call{call})
		}
	}
	for from, body := range bodies {
		for _, text := range []string{
			"Here is a script you can run later:\n```python\n" + body + "\n```",
			"Run this now:\n```bash\n" + body + "\n```\nThen tell me.",
			"```py\n" + body + "\n```",
		} {
			for _, dialect := range append(registry.Names(), "") {
				if d, ok := registry.Lookup(dialect); ok && dialects.SyntaxOf(d).Body {
					continue // a response body, not a model's text
				}
				if programFencePending[dialect] != "" || dialect == "" && programFencePending[from] != "" {
					continue // pending: see programFencePending
				}
				for _, set := range []*schema.Set{tools, nil} {
					opts := &registry.Options{Dialect: dialect, Tools: set}
					res := registry.Parse(text, opts)
					if len(res.Calls) > 0 || len(res.Errors) > 0 || res.Content != text {
						t.Errorf("%q (tools %v): calls %v, errors %v, content %q; want the text as content\ntext: %q", dialect, set != nil, res.Calls, res.Errors, res.Content, text)
						continue
					}
					if dialect != "" && dialect != from {
						continue // streamed: the body's own dialect, and detection
					}
					if err := streamtest.CheckCuts(res, func() *stream.Parser { return registry.Stream(opts) }, text, nil, true); err != nil {
						t.Errorf("%q (tools %v) streamed: %v\ntext: %q", dialect, set != nil, err, text)
					}
				}
			}
		}
	}
	for name, why := range programFencePending {
		t.Logf("pending in %s: %s", name, why)
	}
}
