package registry_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/render"
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

// TestAmbiguityAcrossFamilies renders a call in every dialect and makes it
// say two things in each way the dialect can write: a second argument
// field (`parameters` or `arguments`, and `args`) that disagrees with the
// first, a "function" object naming another tool beside the envelope's
// name, a name attribute given twice. Each is TLP-019 alone, named and
// detected, one-shot and streamed; never a choice of one.
func TestAmbiguityAcrossFamilies(t *testing.T) {
	tools := cutTools(t)
	call := toolcall.Call{Name: "delete_file", Arguments: json.RawMessage(`{"path":"a"}`)}
	rows := 0
	for _, name := range registry.Names() {
		r, ok := render.For(name)
		if !ok || name == "ollama" {
			continue // ollama reads a server's response body
		}
		made := r.Calls([]toolcall.Call{call})
		type row struct{ what, text string }
		var texts []row
		// A JSON envelope: its arguments object closes the envelope.
		const args = `{"path": "a"}}`
		if i := strings.Index(made, args); i >= 0 && strings.Contains(made, `"delete_file"`) {
			other := `"parameters"`
			if strings.Contains(made, `"parameters": {"path"`) {
				other = `"arguments"`
			}
			with := func(extra string) string { return made[:i] + `{"path": "a"}, ` + extra + "}" + made[i+len(args):] }
			texts = append(texts,
				row{other + " disagreeing", with(other + `: {"path": "b"}`)},
				row{"args disagreeing", with(`"args": {"path": "b"}`)})
			if !strings.Contains(made, `{"delete_file": `) {
				// (A dialect that writes the name as the key reads a
				// second key as a second call.)
				texts = append(texts, row{"a function object naming another tool", with(`"function": {"name": "list_files", "arguments": {"path": "a"}}`)})
			}
		}
		for _, attr := range []string{`name="delete_file"`, `tool="delete_file"`} {
			if strings.Contains(made, attr) && name != "glimmer" {
				// (glimmer's message header names the tool again: its
				// reading is pinned in dialects/tagged.)
				texts = append(texts, row{"a name attribute given twice", strings.Replace(made, attr, attr+" "+strings.Replace(attr, "delete_file", "list_files", 1), 1)})
			}
		}
		for _, tc := range texts {
			for _, dialect := range []string{name, ""} {
				rows++
				opts := &registry.Options{Dialect: dialect, Tools: tools}
				res := registry.Parse(tc.text, opts)
				if len(res.Calls) > 0 || len(res.Errors) != 1 || res.Errors[0].Code != toolcall.CodeMalformedCall || res.Content != "" {
					t.Errorf("%s, %s, as %q: calls %v, errors %v, content %q; want TLP-019 alone\ntext: %q", name, tc.what, dialect, res.Calls, res.Errors, res.Content, tc.text)
					continue
				}
				if err := streamtest.CheckCuts(res, func() *stream.Parser { return registry.Stream(opts) }, tc.text, nil, true); err != nil {
					t.Errorf("%s, %s, as %q streamed: %v", name, tc.what, dialect, err)
				}
			}
		}
	}
	if rows < 100 {
		t.Errorf("only %d rows rendered", rows)
	}
}

// TestRepeatedArgumentAcrossFamilies renders a call whose arguments give
// one key twice in every dialect (a JSON key, a tagged parameter, a
// key/value pair, a Python keyword): the last value is kept, recorded as
// duplicate_key, named and detected, with repair on and off, one-shot and
// streamed. (The dialects whose arguments follow a header — mistral,
// deepseek, kimi_k2, harmony, functionary, the pythonic family, gemma —
// failed them as TLP-003: the check that repair drops no word read the
// dropped value as lost.)
func TestRepeatedArgumentAcrossFamilies(t *testing.T) {
	tools := cutTools(t)
	call := toolcall.Call{Name: "delete_file", Arguments: json.RawMessage(`{"path":"a","force":true,"path":"b"}`)}
	for _, name := range registry.Names() {
		r, ok := render.For(name)
		if !ok || name == "ollama" {
			continue // ollama reads a server's response body
		}
		text := r.Calls([]toolcall.Call{call})
		for _, dialect := range []string{name, ""} {
			for _, repairOff := range []bool{false, true} {
				opts := &registry.Options{Dialect: dialect, Tools: tools}
				opts.DisableRepair = repairOff
				res := registry.Parse(text, opts)
				if len(res.Calls) != 1 || string(res.Calls[0].Arguments) != `{"path":"b","force":true}` || len(res.Errors) > 0 {
					t.Errorf("%s as %q (repair off %v): calls %v, errors %v; want one call with the last path\ntext: %q", name, dialect, repairOff, res.Calls, res.Errors, text)
					continue
				}
				dup := false
				for _, rp := range res.Repairs {
					dup = dup || rp.Kind == toolcall.RepairDuplicateKey
				}
				if !dup {
					t.Errorf("%s as %q (repair off %v): repairs %v, no duplicate_key", name, dialect, repairOff, res.Repairs)
				}
				if err := streamtest.CheckCuts(res, func() *stream.Parser { return registry.Stream(opts) }, text, nil, true); err != nil {
					t.Errorf("%s as %q (repair off %v) streamed: %v", name, dialect, repairOff, err)
				}
			}
		}
	}
}
