package registry_test

import (
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/stream"
)

// TestStrayClosersBeforeProseDetected: closing brackets too many right
// after a call's arguments or call list, followed by prose on their line,
// are the call's punctuation (extra_closing) under detection as with the
// dialect named, and the stream gives the one-shot answer both ways.
func TestStrayClosersBeforeProseDetected(t *testing.T) {
	for _, tc := range []struct{ dialect, text, content string }{
		{"mistral", `[TOOL_CALLS]f[ARGS]{"a":1}} and then more text`, "and then more text"},
		{"mistral", `[TOOL_CALLS][{"name":"f","arguments":{"a":1}}]] and then more text`, "and then more text"},
		{"llama3_json", `<|python_tag|>{"name":"f","parameters":{"a":1}}} and then text`, "and then text"},
		{"granite", `<|tool_call|>[{"name":"f","arguments":{"a":1}}]] and then text`, "and then text"},
		{"functools", `functools[{"name":"f","arguments":{"a":1}}]] and then text`, "and then text"},
		{"gigachat3", `<|function_call|>{"name":"f","arguments":{"a":1}}} and then text`, "and then text"},
		{"functionary_v3_1", `<function=f>{"a":1}} and then text`, "and then text"},
		{"gemini", `Sure: {"function_call":{"name":"f","args":{"a":1}}}} Done.`, "Sure: Done."},
		{"hermes", `<tool_call>{"name":"f","arguments":{"a":1}}}} and then text`, "and then text"},
		{"pythonic", `[f(a=1)]] and then text`, "and then text"},
		{"lfm2", `<|tool_call_start|>[f(a=1)]] and then text`, "and then text"},
	} {
		for _, named := range []string{tc.dialect, ""} {
			opts := &registry.Options{Dialect: named}
			res := registry.Parse(tc.text, opts)
			if res.Dialect != tc.dialect || len(res.Calls) != 1 || res.Calls[0].Name != "f" || string(res.Calls[0].Arguments) != `{"a":1}` ||
				res.Content != tc.content || len(res.Errors) > 0 || !repaired(res, toolcall.RepairExtraClosing) {
				t.Errorf("%q (named %q): dialect %s, calls %v, content %q, repairs %v, errors %v; want one call f, content %q, extra_closing",
					tc.text, named, res.Dialect, res.Calls, res.Content, res.Repairs, res.Errors, tc.content)
			}
			if err := streamtest.CheckCuts(res, func() *stream.Parser { return registry.Stream(opts) }, tc.text, nil, false); err != nil {
				t.Errorf("%q (named %q): %v", tc.text, named, err)
			}
		}
	}
}

func repaired(res *toolcall.Result, k toolcall.RepairKind) bool {
	for _, r := range res.Repairs {
		if r.Kind == k {
			return true
		}
	}
	return false
}

// TestLeadingEnvelopeBeforeProseDetected: an object that opens the output
// in a bare dialect's own envelope, followed by prose, is a call under
// detection as with the dialect named, as the json dialect reads a leading
// object; after a word it is content. The stream gives the one-shot answer
// both ways.
func TestLeadingEnvelopeBeforeProseDetected(t *testing.T) {
	for _, tc := range []struct {
		dialect, text, content string
		calls                  int
	}{
		{"gemini", `{"function_call": {"name": "f", "args": {"a": 1}}} and then text`, "and then text", 1},
		{"gemini", "{\"function_call\": {\"name\": \"f\", \"args\": {\"a\": 1}}}\nDone.", "Done.", 1},
		{"generic_json", "{\"tool_call\": {\"name\": \"f\", \"arguments\": {\"a\": 1}}}\nDone.", "Done.", 1},
		{"gemini", `Use {"function_call": {"name": "f", "args": {"a": 1}}} to call f.`, `Use {"function_call": {"name": "f", "args": {"a": 1}}} to call f.`, 0},
	} {
		for _, named := range []string{tc.dialect, ""} {
			opts := &registry.Options{Dialect: named}
			res := registry.Parse(tc.text, opts)
			if len(res.Calls) != tc.calls || tc.calls > 0 && (res.Dialect != tc.dialect || res.Calls[0].Name != "f" || string(res.Calls[0].Arguments) != `{"a":1}`) ||
				res.Content != tc.content || len(res.Errors) > 0 {
				t.Errorf("%q (named %q): dialect %s, calls %v, content %q, errors %v; want %d call(s), content %q",
					tc.text, named, res.Dialect, res.Calls, res.Content, res.Errors, tc.calls, tc.content)
			}
			if err := streamtest.CheckCuts(res, func() *stream.Parser { return registry.Stream(opts) }, tc.text, nil, false); err != nil {
				t.Errorf("%q (named %q): %v", tc.text, named, err)
			}
		}
	}
}
