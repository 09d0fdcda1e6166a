package registry_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/longtest"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/render"
	"github.com/dialectkit/toolcall/schema"
)

// cutTools declares the tool the cut sweep calls.
func cutTools(t *testing.T) *schema.Set {
	t.Helper()
	set, err := schema.NewSet(toolcall.Tool{Name: "delete_file", Parameters: json.RawMessage(
		`{"type":"object","properties":{"path":{"type":"string"},"force":{"type":"boolean"}},"required":["path"]}`)})
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// cutWindow is where a cut falls inside the call's envelope or arguments:
// from the start of the output to the end of the last argument value and
// the quotes, braces and parentheses that close it (every cut before the
// returned offset is inside).
func cutWindow(full string) int {
	end := strings.LastIndex(full, "zq9")
	if end < 0 {
		return -1
	}
	end += len("zq9")
	window := end
	for i := end; i < len(full) && strings.IndexByte("\"'}]) \t\n", full[i]) >= 0; i++ {
		// The braces and parentheses that close the call's object are
		// its envelope; a list's closing bracket after them is not.
		if full[i] == '}' || full[i] == ')' || full[i] == '"' || full[i] == '\'' {
			window = i
		}
	}
	return window
}

// TestCutCallsAreNotCalls renders one call in every registered dialect and
// parses every prefix of it that ends inside the call's envelope or
// arguments: none may yield a call, named or detected, with tools declared
// or not. The full text still yields the call.
func TestCutCallsAreNotCalls(t *testing.T) {
	tools := cutTools(t)
	call := toolcall.Call{ID: "call_1", Name: "delete_file", Arguments: json.RawMessage(`{"force":true,"path":"build/zq9"}`)}
	for _, name := range registry.Names() {
		t.Run(name, func(t *testing.T) {
			r, ok := render.For(name)
			if !ok {
				t.Skip("no renderer")
			}
			full := r.Calls([]toolcall.Call{call})
			res := registry.Parse(full, regOpts(dialectsOptions(tools), registry.Options{Dialect: name}))
			if len(res.Calls) != 1 {
				t.Fatalf("full text %q: %d calls, errors %v", full, len(res.Calls), res.Errors)
			}
			window := cutWindow(full)
			if window < 0 {
				t.Fatalf("value not found in %q", full)
			}
			step := 1
			if !longtest.Enabled() && window > 48 {
				step = 3
			}
			for p := 1; p < window; p += step {
				cut := full[:p]
				for _, o := range []*registry.Options{
					regOpts(dialectsOptions(tools), registry.Options{Dialect: name}),
					&registry.Options{Dialect: name},
					regOpts(dialectsOptions(tools), registry.Options{}),
				} {
					res := registry.Parse(cut, o)
					if len(res.Calls) == 1 && res.Calls[0].Name == "code_interpreter" && !strings.Contains(cut, "(") {
						// Raw code after <|python_tag|> has no envelope
						// before its parentheses: a prefix of the call
						// is code, and code runs to the end of the block.
						continue
					}
					if len(res.Calls) > 0 {
						t.Errorf("cut at %d/%d %q (dialect %q, tools %v): call %s %s, repairs %v", p, len(full), cut, o.Dialect, o.Tools != nil, res.Calls[0].Name, res.Calls[0].Arguments, res.Repairs)
					}
				}
			}
		})
	}
}

func dialectsOptions(tools *schema.Set) dialects.Options { return dialects.Options{Tools: tools} }

// TestDuplicateEnvelopeKeys writes, in every dialect whose call is a JSON
// object naming its tool, the "name" key twice: no dialect may pick one of
// the two names; the call is TLP-019. Arguments that repeat a key keep the
// last value in every dialect.
func TestDuplicateEnvelopeKeys(t *testing.T) {
	tools := cutTools(t)
	call := toolcall.Call{ID: "call_1", Name: "delete_file", Arguments: json.RawMessage(`{"force":true,"path":"build/zq9"}`)}
	tested := 0
	for _, name := range registry.Names() {
		r, ok := render.For(name)
		if !ok || name == "ollama" {
			continue // ollama is the server's own JSON, not model text
		}
		full := r.Calls([]toolcall.Call{call})
		for _, key := range []string{`"name": "delete_file"`, `"tool_name": "delete_file"`} {
			if !strings.Contains(full, key) {
				continue
			}
			tested++
			dup := strings.Replace(full, key, key+`, `+key[:strings.Index(key, ":")]+`: "list_files"`, 1)
			for _, o := range []*registry.Options{
				&registry.Options{Dialect: name},
				regOpts(dialectsOptions(tools), registry.Options{Dialect: name}),
				&registry.Options{},
			} {
				res := registry.Parse(dup, o)
				if len(res.Calls) > 0 {
					t.Errorf("%s %q (dialect %q): call %s", name, dup, o.Dialect, res.Calls[0].Name)
				}
			}
			res := registry.Parse(dup, &registry.Options{Dialect: name})
			if len(res.Errors) == 0 || res.Errors[0].Code != toolcall.CodeMalformedCall {
				t.Errorf("%s %q: errors %v, want TLP-019", name, dup, res.Errors)
			}
		}
		if strings.Contains(full, `"force": true`) {
			dup := strings.Replace(full, `"force": true`, `"force": false, "force": true`, 1)
			res := registry.Parse(dup, regOpts(dialectsOptions(tools), registry.Options{Dialect: name}))
			if len(res.Calls) != 1 || string(res.Calls[0].Arguments) != `{"force":true,"path":"build/zq9"}` {
				t.Errorf("%s %q: calls %v, errors %v; want the last value", name, dup, res.Calls, res.Errors)
			}
		}
	}
	if tested < 10 {
		t.Errorf("only %d dialects write a JSON name field", tested)
	}
}

// TestNoInventedCalls: prose, a marker mentioned in a sentence and calls
// inside closed reasoning are never calls, named or detected.
func TestNoInventedCalls(t *testing.T) {
	for _, tc := range []struct{ dialect, text string }{
		{"", `Summary: {"status": "done"}`},
		{"", `Result {"ok": true}`},
		{"functionary_v3_2", `Result {"ok": true}`},
		{"", `Use <|python_tag|> to call tools in general.`},
		{"functionary_v3_1", `Use <|python_tag|> to call tools in general.`},
		{"llama3_builtin", `Use <|python_tag|> to call tools in general.`},
		{"llama3_json", `Use <|python_tag|> to call tools in general.`},
		// A raw-code marker listed in a sentence: what follows it starts
		// with a byte no Python statement starts with.
		{"", `I know the markers <tool_call>, <|python_tag|>, <function=f> and fences; I use none now.`},
		{"functionary_v3_1", `I know the markers <tool_call>, <|python_tag|>, <function=f> and fences; I use none now.`},
		{"llama3_builtin", `I know the markers <tool_call>, <|python_tag|>, <function=f> and fences; I use none now.`},
		{"llama3_builtin", `The tag (<|python_tag|>) starts code.`},
		{"hermes", `<think>maybe <tool_call>{"name": "f", "arguments": {}}</tool_call></think>ok`},
		{"", `<think>maybe <tool_call>{"name": "f", "arguments": {}}</tool_call></think>ok`},
		{"qwen3_coder", "<think><tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call></think>ok"},
		{"seed_oss", "<seed:think><seed:tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n</seed:tool_call></seed:think>ok"},
		{"lfm2", "<think><|tool_call_start|>[f(a=1)]<|tool_call_end|></think>ok"},
		{"pythonic", "<think>[f(a=1)]</think>ok"},
		{"glm45", "Wrap the call in <tool_call> and </tool_call> tags."},
		{"", "Wrap the call in <tool_call> and </tool_call> tags."},
		{"", "<think><|tool_call_start|>[f(a=1)]<|tool_call_end|></think>ok"},
		{"", "For example:\n```json\n{\"name\": \"f\", \"arguments\": {}}\n```\nThat is how you call it."},
		{"markdown_json", "For example:\n```json\n{\"name\": \"f\", \"arguments\": {}}\n```\nThat is how you call it."},
		{"json", "The format looks like this:\n{\"name\": \"f\", \"arguments\": {}}"},
	} {
		for _, tools := range []bool{false, true} {
			o := &registry.Options{Dialect: tc.dialect}
			if tools {
				set, err := schema.NewSet(toolcall.Tool{Name: "f"}, toolcall.Tool{Name: "Result"}, toolcall.Tool{Name: "python"}, toolcall.Tool{Name: "code_interpreter"})
				if err != nil {
					t.Fatal(err)
				}
				o.Tools = set
			}
			res := registry.Parse(tc.text, o)
			if len(res.Calls) > 0 {
				t.Errorf("%q (dialect %q, tools %v): call %s %s", tc.text, tc.dialect, tools, res.Calls[0].Name, res.Calls[0].Arguments)
			}
		}
	}
}

// A fence followed by prose stays a call: the prose after a call never
// unmakes it (TestCallFenceDecidedAtItsClose).
func TestFenceFollowedByProseIsACall(t *testing.T) {
	for _, text := range []string{
		"Here it is:\n```\n<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>\n```\nLet me know if it does not work.",
		"Here it is:\n```\n<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>\n```\nIf it does not work, run it again.",
		"```json\n{\"name\": \"f\", \"arguments\": {}}\n```\nNothing else to do.",
	} {
		res := registry.Parse(text, &registry.Options{})
		if len(res.Calls) != 1 || res.Calls[0].Name != "f" {
			t.Errorf("%q: calls %v errors %v; want the call f", text, res.Calls, res.Errors)
		}
	}
}

// A fenced call is decided when its fence closes: the line after it
// (every family reads no further than the call's own region) never
// unmakes it, so the call can go out before the next line is written.
func TestCallFenceDecidedAtItsClose(t *testing.T) {
	for _, tc := range []struct {
		text     string
		dialects []string
	}{
		{"Here it is:\n```json\n{\"name\": \"f\", \"arguments\": {}}\n```\nI am not going to run it.", []string{"", "markdown_json"}},
		{"Here it is:\n```\n<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>\n```\nbut I won't call it.", []string{"", "hermes"}},
		{"Here:\n```\n[TOOL_CALLS]f[ARGS]{}\n```\nI will not execute this.", []string{"", "mistral"}},
	} {
		for _, dialect := range tc.dialects {
			res := registry.Parse(tc.text, &registry.Options{Dialect: dialect})
			if len(res.Calls) != 1 || res.Calls[0].Name != "f" {
				t.Errorf("%q (dialect %q): calls %v errors %v; want the call f", tc.text, dialect, res.Calls, res.Errors)
			}
		}
	}
}

// regOpts is o with the dialect options d.
func regOpts(d dialects.Options, o registry.Options) *registry.Options {
	o.SetDialectOptions(d)
	return &o
}

// TestSentenceMentionsACall pins the rule for an object in prose when tools
// are declared: with prose on its line it is mentioned, not called; on a
// line of its own (or alone in a fence) it is a call.
func TestSentenceMentionsACall(t *testing.T) {
	set, err := schema.NewSet(toolcall.Tool{Name: "f"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dialect, text string
		call          bool
	}{
		{"", `I think {"name": "f", "arguments": {}} would work, but I will not call it.`, false},
		{"json", `I think {"name": "f", "arguments": {}} would work, but I will not call it.`, false},
		{"llama3_json", `I think {"name": "f", "parameters": {}} would work, but I will not call it.`, false},
		{"hermes", `I think {"name": "f", "arguments": {}} would work, but I will not call it.`, false},
		{"", "Calling it now:\n{\"name\": \"f\", \"arguments\": {}}", true},
		{"json", "Calling it now:\n{\"name\": \"f\", \"arguments\": {}}", true},
		{"llama3_json", "Calling it now:\n{\"name\": \"f\", \"parameters\": {}}", true},
		{"", "```json\n{\"name\": \"f\", \"arguments\": {}}\n```", true},
	} {
		res := registry.Parse(tc.text, &registry.Options{Dialect: tc.dialect, Tools: set})
		if got := len(res.Calls) > 0; got != tc.call {
			t.Errorf("%q (dialect %q): call %v, want %v (content %q)", tc.text, tc.dialect, got, tc.call, res.Content)
		}
	}
}

// TestRepeatedMarkersAreCapped: an output of nothing but call markers stops
// being read past the call cap, and its errors are summarised past the
// error cap, in the markers and tagged engines alike.
func TestRepeatedMarkersAreCapped(t *testing.T) {
	for _, tc := range []struct{ dialect, marker string }{
		{"mistral", "[TOOL_CALLS]"}, {"functionary_v3_1", "<function="}, {"glm45", "<tool_call>"}, {"qwen3_coder", "<tool_call>"},
	} {
		text := strings.Repeat(tc.marker, 20000)
		res := registry.Parse(text, &registry.Options{Dialect: tc.dialect})
		if len(res.Calls) > 0 || len(res.Errors) > 64 {
			t.Errorf("%s: %d calls, %d errors", tc.dialect, len(res.Calls), len(res.Errors))
		}
		if n := len(res.Errors); n == 64 && res.Errors[n-1].Code != toolcall.CodeTooMany {
			t.Errorf("%s: last error %v, want TLP-026", tc.dialect, res.Errors[n-1])
		}
	}
}

// json and the markers family's bare dialects agree on a whole call
// envelope after prose, without tools: it is a call when it ends its line
// or a colon introduces it, and content inside a line of prose (the table
// of what is a call).
func TestEnvelopeAfterSentence(t *testing.T) {
	env := `{"name": "f", "arguments": {"a": 1}}`
	for _, tc := range []struct {
		text  string
		calls int
	}{
		{"I'll help you with that. " + env, 1},
		{"I'll help you with that. " + env + " Let me search for that.", 0},
		{"I'll help you with that: " + env + " Let me search for that.", 1},
		{"Here are the results: [" + env + ", " + env + "]", 2},
		{"Calling it now:\n" + env, 1},
		{`Done. {"name": "f"}`, 0},
		{`Summary: {"status": "done"}`, 0},
	} {
		for _, d := range []string{"json", "llama3_json", "granite", "generic_json", "gemini"} {
			res := registry.Parse(tc.text, &registry.Options{Dialect: d})
			if len(res.Calls) != tc.calls {
				t.Errorf("%s: %q gave %d calls %v (errors %v), want %d", d, tc.text, len(res.Calls), res.Calls, res.Errors, tc.calls)
			}
		}
	}
}

// TestPythonicListInSentence: a call list with a word and a blank before it
// and a blank and a word after it on its line is an example in a sentence,
// its text kept whole in the content, named and detected; a list alone on
// its line, or after prose that ends a sentence, stays a call.
func TestPythonicListInSentence(t *testing.T) {
	for _, tc := range []struct {
		dialect, text string
		call          bool
	}{
		{"pythonic", `You can try it like [get_weather(city="Paris")] to see the weather.`, false},
		{"llama4_pythonic", `You can try it like [get_weather(city="Paris")] to see the weather.`, false},
		{"", `You can try it like [get_weather(city="Paris")] to see the weather.`, false},
		{"pythonic", "I will check.\n[get_weather(city=\"Paris\")]", true},
		{"", "I will check.\n[get_weather(city=\"Paris\")]", true},
		{"pythonic", `Let me check: [get_weather(city="Paris")]`, true},
		{"", `[get_weather(city="Paris")]`, true},
	} {
		res := registry.Parse(tc.text, &registry.Options{Dialect: tc.dialect})
		if got := len(res.Calls) > 0; got != tc.call {
			t.Errorf("%q (dialect %q): call %v, want %v (content %q)", tc.text, tc.dialect, got, tc.call, res.Content)
		}
		if !tc.call && (res.Content != tc.text || len(res.Errors) > 0) {
			t.Errorf("%q (dialect %q): content %q, errors %v; want the text whole, no error", tc.text, tc.dialect, res.Content, res.Errors)
		}
	}
}

// TestProseIsNeverCode: text after a raw-code marker that is not a Python
// program is never handed to the code interpreter, named or detected; a
// built-in call followed by prose is that call, the prose content.
func TestProseIsNeverCode(t *testing.T) {
	for _, dialect := range []string{"llama3_builtin", "functionary_v3_1", ""} {
		for _, text := range []string{
			"<|python_tag|>import math\nI will tell you the result soon.",
			"<|python_tag|>print(1<|eom_id|>",
		} {
			res := registry.Parse(text, &registry.Options{Dialect: dialect})
			if len(res.Calls) > 0 {
				t.Errorf("%q (dialect %q): call %s %s", text, dialect, res.Calls[0].Name, res.Calls[0].Arguments)
			}
		}
	}
	for _, dialect := range []string{"llama3_builtin", ""} {
		text := "<|python_tag|>brave_search.call(query=\"weather Paris\")\nI will tell you the result soon."
		res := registry.Parse(text, &registry.Options{Dialect: dialect})
		if len(res.Calls) != 1 || res.Calls[0].Name != "brave_search" || res.Content != "I will tell you the result soon." {
			t.Errorf("%q (dialect %q): calls %v content %q errors %v", text, dialect, res.Calls, res.Content, res.Errors)
		}
	}
}

// TestFramingTokensInSentence: harmony's and glimmer's special tokens
// named in prose (with blanks around them, or written as a group or a list
// in a sentence: inprose.TokenNamed) are words of the sentence, the text
// kept whole, named, detected and streamed.
func TestFramingTokensInSentence(t *testing.T) {
	for _, text := range []string{
		"In harmony, the <|channel|> token names the channel and <|message|> starts the text.",
		"Use <|start|> and <|end|> tokens to frame messages.",
		"Hello <|constrain|> world",
		// Without blanks around the tokens: a group in a sentence, a list.
		"The format is <|channel|>final<|message|> then the answer.",
		"Use <|start|>assistant<|channel|>final<|message|>Hello<|end|> to answer.",
		"In harmony, a reply looks like <|channel|>analysis<|message|>...<|end|>, then a final one.",
		"Tokens: <|start|>, <|channel|>, <|message|>, <|end|>.",
		"Glimmer frames a reply as <|start|>assistant<|message|>Hi<|eom|> in one line.",
	} {
		for _, dialect := range []string{"harmony", "glimmer", ""} {
			res := registry.Parse(text, &registry.Options{Dialect: dialect})
			if res.Content != text || len(res.Calls) > 0 || len(res.Errors) > 0 {
				t.Errorf("%q (dialect %q): content %q, calls %v, errors %v; want the text whole", text, dialect, res.Content, res.Calls, res.Errors)
			}
			opts := registry.Options{Dialect: dialect}
			for _, cut := range streamtest.Cuts(text, nil, true) {
				p := registry.Stream(&opts)
				if err := streamtest.Compare(res, p, streamtest.Feed(p, cut)); err != nil {
					t.Errorf("%q (dialect %q), %d deltas: %v", text, dialect, len(cut), err)
					break
				}
			}
		}
	}
}
