package registry_test

import (
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/stream"
)

// TestBacktickInsideCall pins that inline code is prose's: a backtick
// inside a call (an argument "use `ls") opens no inline code, so that two
// calls each holding one unpaired backtick are both calls, named and
// detected, and the stream agrees and reports the second call as soon as
// it closes, not at the end. Inline code in the prose around the calls
// stays inline code.
func TestBacktickInsideCall(t *testing.T) {
	for _, tc := range []struct {
		dialect string
		a, b    string // the calls: a's value is "use `ls", b's "p` here"
	}{
		{"hermes", `<tool_call>{"name": "a", "arguments": {"s": "use ` + "`" + `ls"}}</tool_call>`,
			`<tool_call>{"name": "b", "arguments": {"s": "p` + "`" + ` here"}}</tool_call>`},
		{"mistral", `[TOOL_CALLS][{"name": "a", "arguments": {"s": "use ` + "`" + `ls"}}]`,
			`[TOOL_CALLS][{"name": "b", "arguments": {"s": "p` + "`" + ` here"}}]`},
		{"deepseek_v31", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>a<｜tool▁sep｜>{\"s\": \"use `ls\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
			"<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>b<｜tool▁sep｜>{\"s\": \"p` here\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>"},
		{"functionary_v3_1", "<function=a>{\"s\": \"use `ls\"}</function>", "<function=b>{\"s\": \"p` here\"}</function>"},
		// A call whose arguments stand in a fence: its backticks are the
		// fence's, and the call stays a call.
		{"deepseek_v3", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>a\n```json\n{\"s\": \"use `ls\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
			"<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>b\n```json\n{\"s\": \"p` here\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>"},
		{"qwen3_coder", "<tool_call>\n<function=a>\n<parameter=s>\nuse `ls\n</parameter>\n</function>\n</tool_call>",
			"<tool_call>\n<function=b>\n<parameter=s>\np` here\n</parameter>\n</function>\n</tool_call>"},
		{"glm45", "<tool_call>a<arg_key>s</arg_key><arg_value>use `ls</arg_value></tool_call>",
			"<tool_call>b<arg_key>s</arg_key><arg_value>p` here</arg_value></tool_call>"},
		{"pythonic", "[a(s=\"use `ls\")]", "[b(s=\"p` here\")]"},
		{"gemma4", "<|tool_call>call:a{s:<|\"|>use `ls<|\"|>}<tool_call|>", "<|tool_call>call:b{s:<|\"|>p` here<|\"|>}<tool_call|>"},
		{"harmony", "<|start|>assistant<|channel|>commentary to=functions.a <|constrain|>json<|message|>{\"s\": \"use `ls\"}<|call|>",
			"<|start|>assistant<|channel|>commentary to=functions.b <|constrain|>json<|message|>{\"s\": \"p` here\"}<|call|>"},
		{"json", `{"name": "a", "arguments": {"s": "use ` + "`" + `ls"}}`, `{"name": "b", "arguments": {"s": "p` + "`" + ` here"}}`},
	} {
		d, ok := registry.Lookup(tc.dialect)
		if !ok {
			t.Fatalf("no dialect %q", tc.dialect)
		}
		for _, text := range []string{
			tc.a + "\n" + tc.b,
			tc.a + "\n" + tc.b + "\nDone.",
			// Inline code in the prose around the calls is inline code.
			"I run `ls` first.\n" + tc.a + "\n" + tc.b + "\nThen `pwd`.",
		} {
			for _, named := range []string{tc.dialect, ""} {
				res := registry.Parse(text, &registry.Options{Dialect: named})
				if len(res.Calls) != 2 || len(res.Errors) > 0 {
					t.Errorf("%s (named %q): %q gave calls %v, errors %v; want a and b", tc.dialect, named, text, res.Calls, res.Errors)
					continue
				}
				for i, want := range []string{"use `ls", "p` here"} {
					if got := string(res.Calls[i].Arguments); !strings.Contains(got, want) {
						t.Errorf("%s (named %q): call %d arguments %s, want s %q", tc.dialect, named, i, got, want)
					}
				}
				if named == "" {
					if err := streamtest.CheckCuts(res, func() *stream.Parser { return registry.Stream(&registry.Options{}) }, text, nil, true); err != nil {
						t.Errorf("%s detected stream %q: %v", tc.dialect, text, err)
					}
				}
			}
			if err := streamtest.Check(d, text, nil, nil); err != nil {
				t.Errorf("%s stream %q: %v", tc.dialect, text, err)
			}
		}
		// Liveness: the backticks hold nothing back. The second call is
		// reported before Close as soon as the same text without
		// backticks reports it.
		rest := "\nDone."
		head := tc.a + "\n" + tc.b
		if live(d, strings.ReplaceAll(head, "`", "x"), rest) && !live(d, head, rest) {
			t.Errorf("%s: the call after a backtick in a value waits for the end of the output", tc.dialect)
		}
	}
}

// live reports whether streaming head and then rest in dialect d reports
// the second call (index 1) before Close.
func live(d dialects.Dialect, head, rest string) bool {
	p := stream.NewParser(d, &stream.Options{})
	for _, c := range []string{head, rest} {
		for _, ev := range p.Write(c) {
			if ev.Kind == stream.Call && ev.Index == 1 {
				return true
			}
		}
	}
	return false
}

// TestBacktickAroundCall pins where a call's backticks end and prose's
// inline code begins: code that opens in prose before a call's marker
// shows the call whatever backticks the call holds, a marker inside code
// opens no call whose backticks would then be its own, and code after a
// call with a backtick in a value is code. The stream agrees.
func TestBacktickAroundCall(t *testing.T) {
	d, _ := registry.Lookup("hermes")
	for _, tc := range []struct {
		text  string
		calls []string
	}{
		{"Use `<tool_call>` to open a call, then <tool_call>{\"name\":\"f\",\"arguments\":{\"a\":1}}</tool_call>", []string{"f"}},
		{"Write `<tool_call>{\"name\":\"f\",\"arguments\":{\"s\":\"a `b\"}}</tool_call>` to call f.", nil},
		{"Write `<tool_call>{\"name\":\"f\",\"arguments\":{\"s\":\"x` y\"}}</tool_call>` to call f.", nil},
		{"see `foo <tool_call>{\"name\":\"f\",\"arguments\":{\"s\":\"a` b\"}}</tool_call>", nil},
		{"<tool_call>{\"name\":\"f\",\"arguments\":{\"s\":\"a `b\"}}</tool_call> and `<tool_call>{\"name\":\"g\",\"arguments\":{}}</tool_call>` is shown", []string{"f"}},
		{"<tool_call>{\"name\":\"f\",\"arguments\":{\"s\":\"use `ls\"}}</tool_call> then write `x` here", []string{"f"}},
		{"<tool_call>{\"name\":\"f\",\"arguments\":{\"s\":\"use `ls\"}}</tool_call>\nWrite `<tool_call>{\"name\":\"g\",\"arguments\":{}}</tool_call>` to call g.", []string{"f"}},
	} {
		for _, named := range []string{"hermes", ""} {
			res := registry.Parse(tc.text, &registry.Options{Dialect: named})
			var got []string
			for _, c := range res.Calls {
				got = append(got, c.Name)
			}
			if strings.Join(got, ",") != strings.Join(tc.calls, ",") || len(res.Errors) > 0 {
				t.Errorf("named %q: %q gave calls %v, errors %v; want %v", named, tc.text, got, res.Errors, tc.calls)
			}
		}
		if err := streamtest.Check(d, tc.text, nil, nil); err != nil {
			t.Errorf("stream %q: %v", tc.text, err)
		}
	}
}

// TestBacktickRunPairing pins that the stream pairs backtick runs as the
// one-shot parse does, as CommonMark pairs code spans: a run of one or two
// backticks opens inline code whatever stands around it, and only the next
// run of its length closes it, so a call after code closed is a call, and
// the stream announces no call the one-shot result shows. Named and
// detected, cut at every point. A run that opens code before a call and
// has not closed when the call's region closes shows the call: a call is
// decided by what precedes it (shown.ShownScan.ShownAt).
func TestBacktickRunPairing(t *testing.T) {
	call := `<tool_call>{"name":"f","arguments":{}}</tool_call>`
	for _, tc := range []struct {
		text  string
		calls []string
	}{
		{"a` ``x " + call + "`` and more", nil},
		{"a` `x " + call + "` and more", []string{"f"}}, // a` opens, the next run closes
		{"a`` b` c`` `x " + call + "` and more", nil},
		{"a ```b` `x " + call + "` and more", []string{"f"}}, // a run of three is a fence's
		{"a ```b` ``x " + call + "` and more", nil},
		{"a `b`c d` `y " + call + "` and more", []string{"f"}},
		{"a ` `` ` `x " + call + "` and more", nil},
		{"a `b\n\nc` `x " + call + "` and more", []string{"f"}},
		{"a `b\n\nc` x " + call + "` and more", nil},
		{"a `b\n\n" + call + "` and more", []string{"f"}},
		{"a` ``x " + call + " and more", nil},
		{"a `b` " + call + " and `c`", []string{"f"}},
		{"a `b`c " + call + " and more", []string{"f"}},
		{"a `b``c " + call + " and more", nil}, // a run of another length closes nothing
	} {
		for _, named := range []string{"hermes", ""} {
			res := registry.Parse(tc.text, &registry.Options{Dialect: named})
			var got []string
			for _, c := range res.Calls {
				got = append(got, c.Name)
			}
			if strings.Join(got, ",") != strings.Join(tc.calls, ",") || len(res.Errors) > 0 {
				t.Errorf("named %q: %q gave calls %v, errors %v; want %v", named, tc.text, got, res.Errors, tc.calls)
			}
			if err := streamtest.CheckCuts(res, func() *stream.Parser { return registry.Stream(&registry.Options{Dialect: named}) }, tc.text, nil, false); err != nil {
				t.Errorf("named %q: stream %q: %v", named, tc.text, err)
			}
		}
	}
}
