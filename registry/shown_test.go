package registry_test

import (
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/internal/textlayer"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/schema"
)

// TestShownCallsAreNotCalls pins the rule for calls shown rather than made,
// in every family: a call in inline code, or in a fence that the prose
// before it presents as an example, is content, kept whole; the same call
// on its own, or in a fence with nothing around it, is a call. The stream
// agrees with the one-shot parse on every form.
func TestShownCallsAreNotCalls(t *testing.T) {
	set, err := schema.NewSet(toolcall.Tool{Name: "f"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dialect, call string
		fenced        bool // a fence with nothing around it is still read as the call
	}{
		{"hermes", `<tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>`, true},
		{"qwen3_coder", "<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call>", true},
		{"glm45", "<tool_call>f<arg_key>a</arg_key><arg_value>1</arg_value></tool_call>", true},
		{"mistral", `[TOOL_CALLS][{"name": "f", "arguments": {"a": 1}}]`, true},
		{"functionary_v3_1", `<function=f>{"a": 1}</function>`, true},
		{"llama3_json", `<|python_tag|>{"name": "f", "parameters": {"a": 1}}`, true},
		{"pythonic", `[f(a=1)]`, true},
		{"lfm2", `<|tool_call_start|>[f(a=1)]<|tool_call_end|>`, true},
		{"harmony", `<|start|>assistant<|channel|>commentary to=functions.f <|constrain|>json<|message|>{"a": 1}<|call|>`, true},
		{"gemma4", `<|tool_call>call:f{a:1}<tool_call|>`, true},
		{"json", `{"name": "f", "arguments": {"a": 1}}`, true},
		{"markdown_json", "```json\n{\"name\": \"f\", \"arguments\": {\"a\": 1}}\n```", true},
		// A call whose own syntax holds a fence: inline code goes on
		// through the fence line (shown.ShownScan).
		{"deepseek_v3", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{\"a\": 1}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>", false},
	} {
		d, ok := registry.Lookup(tc.dialect)
		if !ok {
			t.Fatalf("no dialect %q", tc.dialect)
		}
		fence := "```\n" + tc.call + "\n```"
		if strings.HasPrefix(tc.call, "```") {
			fence = tc.call
		}
		shown := []string{
			"The syntax is `" + tc.call + "`.",
			"The syntax is `" + tc.call + "`, but I won't call it now.",
			"For example:\n" + fence + "\nbut I won't call it.",
			"Here is an example of the format:\n\n" + fence,
		}
		called := []string{tc.call}
		if !strings.Contains(tc.call, "\n") {
			shown = append(shown, "You could write `"+tc.call+"` yourself.",
				// Quoted inside a sentence (shown.ShownScan).
				`Write "`+tc.call+`" to call f.`,
				"The model answers \u201C"+tc.call+"\u201D here.",
				"Say \u2018"+tc.call+"\u2019, then stop.",
				`I would write "`+tc.call+`".`,
				// Whatever the punctuation before the quote, and whether
				// or not the quote is glued to it (textlayer.QuoteBegins).
				`He said, "`+tc.call+`" and left.`,
				`(see "`+tc.call+`") and stop.`,
				`He said,"`+tc.call+`" and left.`,
				`You can call see("`+tc.call+`") now.`,
				`He said, '`+tc.call+`' and left.`,
				// Code spans pair as CommonMark pairs them, whatever
				// stands around a run (textlayer.CodeSpanRun).
				"You could write a`"+tc.call+"`s yourself.",
				"You could write ``x` "+tc.call+"`` yourself.")
			// A quoted phrase before the call, or after it, leaves it a call.
			called = append(called, "I will look up \"f\" now.\n"+tc.call, tc.call+"\nThat was \"f\" for you.")
		}
		if strings.IndexByte("<[{", tc.call[0]) >= 0 {
			// A call's syntax right inside the quotes: a quotation that
			// may span lines, end its line, or use ASCII single quotes.
			shown = append(shown, `Write "`+tc.call+`" to call f.`,
				`I would write "`+tc.call+`"`,
				"I would write \u201C"+tc.call+"\u201D\nThen I stop.",
				`Write '`+tc.call+`' to call f.`,
				`I would write '`+tc.call+`'`)
		}
		if opens, _, _ := textlayer.SyntaxOpens(tc.call, 0); opens {
			// Glued to what precedes it, a quote opens a quotation of a
			// call written over several lines too: the call's syntax,
			// open at each line break, carries the quotation over, and
			// so does a bracket of the quoted text.
			shown = append(shown, `He said,"`+tc.call+`" and left.`, "He typed \"(see\n"+tc.call+")\" into the box.")
		}
		// Apostrophes and quoted phrases around a call on its own line
		// leave it a call.
		called = append(called, "It's time, let's look up 'Paris'.\n"+tc.call, tc.call+"\nThat's it: the users' call is done.",
			// Code closed before the call, whatever follows its closing
			// run, and a quotation closed before it.
			"Let me run `ls`x first.\n"+tc.call, "Let me run a`ls` first.\n"+tc.call,
			"He said, \"go\" and \u201Cnow\u201D.\n"+tc.call, `The value {"a": "x."} is set.`+"\n"+tc.call,
			// Quote marks that end a quoted text, or stand in a word,
			// open nothing, glued or not.
			"It is 12\" long, said \"he\".\n"+tc.call, "He said,\"go\" (see \"x\").\n"+tc.call)
		if tc.fenced {
			called = append(called, fence)
		}
		for _, tools := range []*schema.Set{nil, set} {
			opts := &dialects.Options{Tools: tools}
			for _, text := range shown {
				for _, named := range []string{tc.dialect, ""} {
					res := registry.Parse(text, &registry.Options{Dialect: named, Tools: tools})
					if len(res.Calls) > 0 || len(res.Errors) > 0 {
						t.Errorf("%s (named %q, tools %v): %q gave calls %v, errors %v", tc.dialect, named, tools != nil, text, res.Calls, res.Errors)
					}
					if named != "" && res.Content != text {
						t.Errorf("%s (tools %v): %q: content %q, want the text whole", tc.dialect, tools != nil, text, res.Content)
					}
					if named == "" {
						// Under detection the stream agrees too.
						dopts := &registry.Options{Tools: tools}
						for i, cut := range streamtest.Cuts(text, nil, true) {
							p := registry.Stream(dopts)
							if err := streamtest.Compare(res, p, streamtest.Feed(p, cut)); err != nil {
								t.Errorf("%s detected stream %q, cut %d: %v", tc.dialect, text, i, err)
								break
							}
						}
					}
				}
				if err := streamtest.Check(d, text, nil, opts); err != nil {
					t.Errorf("%s stream %q: %v", tc.dialect, text, err)
				}
			}
			for _, text := range called {
				res := dialects.Parse(d, text, opts)
				if len(res.Calls) != 1 || res.Calls[0].Name != "f" {
					t.Errorf("%s (tools %v): %q gave calls %v, errors %v; want the call", tc.dialect, tools != nil, text, res.Calls, res.Errors)
				}
				if err := streamtest.Check(d, text, nil, opts); err != nil {
					t.Errorf("%s stream %q: %v", tc.dialect, text, err)
				}
			}
		}
	}
}
