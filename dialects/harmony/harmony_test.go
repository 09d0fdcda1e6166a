package harmony_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/harmony"
	"github.com/dialectkit/toolcall/internal/corpustest"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/schema"
)

type wantCall struct{ name, args string }

// anyCode in a table's codes accepts any error code: the lenient pipeline
// decides whether code is beyond repair (TLP-003) or repairs to a
// non-object (TLP-012).
const anyCode toolcall.Code = ""

func toolSet(t testing.TB, names ...string) *schema.Set {
	t.Helper()
	var tools []toolcall.Tool
	for _, n := range names {
		tools = append(tools, toolcall.Tool{Name: n, Parameters: json.RawMessage(
			`{"type":"object","properties":{"city":{"type":"string"},"path":{"type":"string"}}}`)})
	}
	s, err := schema.NewSet(tools...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestDialect(t *testing.T) {
	tests := []struct {
		name          string
		text          string
		tools         []string
		reasoningOpen bool
		chunks        []string
		calls         []wantCall
		content       string
		reasoning     string
		codes         []toolcall.Code
		repairs       []toolcall.RepairKind
	}{
		{name: "a call shown in inline code is content", text: "The syntax is `<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"Paris\"}<|call|>`, but I won't call it now.", content: "The syntax is `<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"Paris\"}<|call|>`, but I won't call it now."},
		{name: "a call shown in an example fence is content", text: "For example:\n```\n<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"Paris\"}<|call|>\n```\nbut I won't call it.", content: "For example:\n```\n<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"Paris\"}<|call|>\n```\nbut I won't call it."},
		{name: "single call",
			text:  `<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Tokyo"}<|call|>`,
			calls: []wantCall{{"get_weather", `{"city":"Tokyo"}`}}},
		{name: "recipient in the role",
			text:  `<|start|>assistant to=functions.get_weather<|channel|>commentary <|constrain|>json<|message|>{"city": "Oslo"}<|call|>`,
			calls: []wantCall{{"get_weather", `{"city":"Oslo"}`}}},
		{name: "output starts mid-header with the recipient",
			text:   ` to=functions.get_weather<|channel|>commentary <|constrain|>json<|message|>{"city": "Lima"}`,
			chunks: []string{" to=functions.get", "_weather<|chan", "nel|>commentary <|constrain|>json<|message|>{\"city\": \"Li", "ma\"}"},
			calls:  []wantCall{{"get_weather", `{"city":"Lima"}`}}},
		{name: "analysis then call",
			text:      "<|channel|>analysis<|message|>User wants the weather; call the tool.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"Rome\"}<|call|>",
			chunks:    []string{"<|channel|>analy", "sis<|message|>User wants the weather; call the tool.<|", "end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"Rome\"}<|call|>"},
			calls:     []wantCall{{"get_weather", `{"city":"Rome"}`}},
			reasoning: "User wants the weather; call the tool."},
		{name: "parallel calls",
			text: `<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris"}<|call|>` +
				`<|start|>assistant<|channel|>commentary to=functions.get_time <|constrain|>json<|message|>{"zone": "CET"}<|call|>`,
			calls: []wantCall{{"get_weather", `{"city":"Paris"}`}, {"get_time", `{"zone":"CET"}`}}},
		// A call's body is its arguments: a header token inside one of
		// their strings is text, and a body the next message's header
		// breaks off is cut, never a shorter call.
		{name: "a channel token inside an argument string is text",
			text:   `<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "a <|channel|>commentary b"}<|call|>`,
			chunks: []string{"<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"a <|chan", "nel|>commentary b\"}<|call|>"},
			calls:  []wantCall{{"get_weather", `{"city":"a <|channel|>commentary b"}`}}},
		{name: "a start token inside an argument string is text",
			text:  `<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "<|start|>assistant"}<|call|>`,
			calls: []wantCall{{"get_weather", `{"city":"<|start|>assistant"}`}}},
		{name: "arguments broken off by the next header are cut",
			text:    `<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Par<|start|>assistant<|channel|>final<|message|>Done.`,
			content: "Done.",
			codes:   []toolcall.Code{toolcall.CodeTruncated}},
		{name: "whole arguments before the next header stay a call",
			text:    `<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris"}<|start|>assistant<|channel|>final<|message|>Done.`,
			calls:   []wantCall{{"get_weather", `{"city":"Paris"}`}},
			content: "Done."},
		{name: "no call", text: "The capital of France is Paris.", content: "The capital of France is Paris."},
		{name: "a stray constrain marker in a sentence is a word", text: "Hello <|constrain|> world", content: "Hello <|constrain|> world"},
		{name: "a stray message marker in a sentence is a word", text: "Hello <|message|> world", content: "Hello <|message|> world"},
		{name: "tokens named in a sentence keep the text whole",
			text:    "In harmony, the <|channel|> token names the channel and <|message|> starts the text.",
			content: "In harmony, the <|channel|> token names the channel and <|message|> starts the text.",
			chunks:  []string{"In harmony, the <|chan", "nel|> token names the channel and <|message|>", " starts the text."}},
		// Tokens named without blanks around them: a group of tokens in a
		// sentence, a list of tokens (inprose.TokenNamed).
		{name: "a group of tokens named in a sentence keeps the text whole",
			text:    "The format is <|channel|>final<|message|> then the answer.",
			content: "The format is <|channel|>final<|message|> then the answer.",
			chunks:  []string{"The format is <|chan", "nel|>final<|message|>", " then the answer."}},
		{name: "a whole message named in a sentence keeps the text whole",
			text:    "Use <|start|>assistant<|channel|>final<|message|>Hello<|end|> to answer.",
			content: "Use <|start|>assistant<|channel|>final<|message|>Hello<|end|> to answer."},
		{name: "a group of tokens before a comma in a sentence",
			text:    "In harmony, a reply looks like <|channel|>analysis<|message|>...<|end|>, then a final one.",
			content: "In harmony, a reply looks like <|channel|>analysis<|message|>...<|end|>, then a final one."},
		{name: "tokens listed in prose keep the text whole",
			text:    "Tokens: <|start|>, <|channel|>, <|message|>, <|end|>.",
			content: "Tokens: <|start|>, <|channel|>, <|message|>, <|end|>."},
		{name: "messages glued to their text are read",
			text:      "<|channel|>analysis<|message|>We need to answer.<|end|><|start|>assistant<|channel|>final<|message|>The answer is 4.<|return|>",
			content:   "The answer is 4.",
			reasoning: "We need to answer."},
		{name: "a call after prose on its line is a call",
			text:    "Let me check the weather <|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"Oslo\"}<|call|>",
			calls:   []wantCall{{"get_weather", `{"city":"Oslo"}`}},
			content: "Let me check the weather"},
		{name: "a token named in a sentence inside a final message",
			text:    "<|channel|>final<|message|>Use <|start|> and <|end|> tokens to frame messages.<|return|>",
			content: "Use <|start|> and <|end|> tokens to frame messages."},
		{name: "reasoning and final answer",
			text:      "<|channel|>analysis<|message|>Simple question.<|end|><|start|>assistant<|channel|>final<|message|>Paris.<|return|>",
			content:   "Paris.",
			reasoning: "Simple question."},
		{name: "preamble on commentary is content",
			text:    "<|channel|>commentary<|message|>Let me check the weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather<|message|>{\"city\": \"Bern\"}<|call|>",
			calls:   []wantCall{{"get_weather", `{"city":"Bern"}`}},
			content: "Let me check the weather."},
		{name: "surrounding text",
			text:    "Let me check.\n<|start|>assistant<|channel|>commentary to=functions.get_weather<|message|>{\"city\": \"Kyiv\"}<|call|>\nDone.",
			calls:   []wantCall{{"get_weather", `{"city":"Kyiv"}`}},
			content: "Let me check.\nDone."},
		{name: "malformed arguments repaired",
			text:    `<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{'city': 'Tokyo'}<|call|>`,
			calls:   []wantCall{{"get_weather", `{"city":"Tokyo"}`}},
			repairs: []toolcall.RepairKind{toolcall.RepairSingleQuotes}},
		{name: "arguments beyond repair beside a good call",
			text: `<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>not json at all<|call|>` +
				`<|channel|>commentary to=functions.get_time <|constrain|>json<|message|>{"zone": "UTC"}<|call|>`,
			calls: []wantCall{{"get_time", `{"zone":"UTC"}`}},
			codes: []toolcall.Code{toolcall.CodeRepairFailed}},
		{name: "arguments that are not an object",
			text:  `<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>["Paris"]<|call|>`,
			codes: []toolcall.Code{toolcall.CodeNotObject}},
		{name: "escaped strings pass byte for byte",
			text:  `<|channel|>commentary to=functions.write <|constrain|>json<|message|>{"text":"say \"hi\"\n\\ \u00e9 日本"}<|call|>`,
			calls: []wantCall{{"write", `{"text":"say \"hi\"\n\\ \u00e9 日本"}`}}},
		{name: "multi-byte content split across chunks",
			text:    "<|channel|>final<|message|>Température: 21 °C — ensoleillé.<|return|>",
			chunks:  []string{"<|channel|>final<|message|>Temp\xc3", "\xa9rature: 21 \xc2", "\xb0C — ensoleillé.<|return|>"},
			content: "Température: 21 °C — ensoleillé."},
		{name: "end token instead of call",
			text:  `<|channel|>commentary to=sql_select <|constrain|>json<|message|>{"sql":"SELECT 1"}<|end|>`,
			calls: []wantCall{{"sql_select", `{"sql":"SELECT 1"}`}}},
		{name: "constraint written without its token",
			text:  `<|channel|>commentary to=functions.get_weather json<|message|>{"city": "Riga"}<|call|>`,
			calls: []wantCall{{"get_weather", `{"city":"Riga"}`}}},
		{name: "missing end token before the next header",
			text:      `<|channel|>analysis<|message|>Need weather.<|channel|>commentary to=functions.get_weather<|message|>{"city": "Oslo"}<|call|>`,
			calls:     []wantCall{{"get_weather", `{"city":"Oslo"}`}},
			reasoning: "Need weather."},
		{name: "recipient after a spaced to=",
			text:  `<|channel|>commentary to= functions.get_weather<|message|>{"city": "Baku"}<|call|>`,
			calls: []wantCall{{"get_weather", `{"city":"Baku"}`}}},
		{name: "constraint token without a space",
			text:  `<|channel|>commentary to=functions.get_weather<|constrain|>json<|message|>{"city": "Baku"}<|call|>`,
			calls: []wantCall{{"get_weather", `{"city":"Baku"}`}}},
		{name: "built-in tool recipient",
			text:  `<|channel|>analysis to=browser.search code<|message|>{"query": "weather Tokyo"}<|call|>`,
			calls: []wantCall{{"browser.search", `{"query":"weather Tokyo"}`}}},
		{name: "python tool with code body is not an object",
			text:  "<|channel|>analysis to=python code<|message|>print(1 + 1)<|call|>",
			codes: []toolcall.Code{anyCode}},
		{name: "sanitised name mapped back to the declared tool",
			text:    `<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{"path": "a.txt"}<|call|>`,
			tools:   []string{"read-file", "write-file"},
			calls:   []wantCall{{"read-file", `{"path":"a.txt"}`}},
			repairs: []toolcall.RepairKind{toolcall.RepairNameNormalized}},
		{name: "dotted declared name mapped back",
			text:    `<|channel|>commentary to=functions.Github_Search <|constrain|>json<|message|>{}<|call|>`,
			tools:   []string{"github.search"},
			calls:   []wantCall{{"github.search", `{}`}},
			repairs: []toolcall.RepairKind{toolcall.RepairNameNormalized}},
		{name: "ambiguous sanitised name is not guessed",
			text:  `<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{}<|call|>`,
			tools: []string{"read-file", "read.file"},
			codes: []toolcall.Code{toolcall.CodeUnknownTool}},
		{name: "declared name with the namespace kept",
			text:  `<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Quito"}<|call|>`,
			tools: []string{"get_weather"},
			calls: []wantCall{{"get_weather", `{"city":"Quito"}`}}},
		{name: "unknown tool",
			text:  `<|channel|>commentary to=functions.launch <|constrain|>json<|message|>{}<|call|>`,
			tools: []string{"get_weather"},
			codes: []toolcall.Code{toolcall.CodeUnknownTool}},
		{name: "truncated header",
			text:  `<|channel|>analysis<|message|>Calling.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json`,
			codes: []toolcall.Code{toolcall.CodeTruncated}, reasoning: "Calling."},
		{name: "truncated in the role part of the header",
			text:  `<|start|>assistant to=functions.get_weather`,
			codes: []toolcall.Code{toolcall.CodeTruncated}},
		{name: "truncated before the arguments",
			text:  `<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>`,
			codes: []toolcall.Code{toolcall.CodeTruncated}},
		{name: "a header that names two recipients is ambiguous, not a call to the first",
			text:  `<|start|>assistant to=functions.delete_all<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Rome"}<|call|>`,
			codes: []toolcall.Code{toolcall.CodeMalformedCall}},
		{name: "the same recipient twice is one recipient",
			text:  `<|start|>assistant to=functions.get_weather<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Rome"}<|call|>`,
			calls: []wantCall{{"get_weather", `{"city":"Rome"}`}}},
		{name: "header cut by an end token",
			text:  `<|start|>assistant to=functions.get_weather<|end|>Done.`,
			codes: []toolcall.Code{toolcall.CodeMalformedCall}, content: "Done."},
		{name: "empty arguments",
			text:    `<|channel|>commentary to=functions.get_time<|message|><|call|>`,
			calls:   []wantCall{{"get_time", `{}`}},
			repairs: []toolcall.RepairKind{toolcall.RepairEmptyArguments}},
		{name: "reply addressed to the assistant is not a call",
			text:    `<|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>{"temp": 20}<|end|>`,
			content: `{"temp": 20}`},
		{name: "template opened the analysis",
			text:          "Thinking it over.<|end|><|start|>assistant<|channel|>final<|message|>Yes.<|return|>",
			reasoningOpen: true,
			content:       "Yes.", reasoning: "Thinking it over."},
		{name: "prose before a header is content",
			text:    "Sure, here is the call:\n<|channel|>commentary to=functions.get_weather<|message|>{\"city\": \"Doha\"}<|call|>",
			calls:   []wantCall{{"get_weather", `{"city":"Doha"}`}},
			content: "Sure, here is the call:"},
		{name: "start followed by prose only",
			text:    "<|start|>I cannot help with that, sorry.",
			content: "I cannot help with that, sorry."},
		{name: "several reasoning messages",
			text:      "<|channel|>analysis<|message|>First.<|end|><|start|>assistant<|channel|>analysis<|message|>Second.<|end|>",
			reasoning: "First.\nSecond."},
		// A <think> block is reasoning, as in every dialect; harmony markup
		// inside a closed one, a call included, is the model thinking.
		{name: "a call inside a closed think block is reasoning",
			text:      "<think>I could write <|start|>assistant<|channel|>commentary to=functions.delete_file <|constrain|>json<|message|>{\"path\": \"build\"}<|call|> but the file is needed.</think>I will keep the file.",
			chunks:    []string{"<think>I could write <|start|>", "assistant<|channel|>commentary to=functions.delete_file <|constrain|>json<|message|>{\"path\": \"build\"}", "<|call|> but the file is needed.</think>", "I will keep the file."},
			tools:     []string{"delete_file"},
			content:   "I will keep the file.",
			reasoning: "I could write <|start|>assistant<|channel|>commentary to=functions.delete_file <|constrain|>json<|message|>{\"path\": \"build\"}<|call|> but the file is needed."},
		{name: "a closing tag inside a JSON string of a think block is text",
			text:      "<think>I could send {\"path\": \"a</think>b\"} but no.</think>I will keep the file.",
			chunks:    []string{"<think>I could send {\"path\": \"a</thi", "nk>b\"} but", " no.</think>I will keep the file."},
			content:   "I will keep the file.",
			reasoning: "I could send {\"path\": \"a</think>b\"} but no."},
		{name: "a call after a closed think block is a call",
			text:      "<think>The user wants the weather.</think>\n<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"Rome\"}<|call|>",
			calls:     []wantCall{{"get_weather", `{"city":"Rome"}`}},
			reasoning: "The user wants the weather."},
		{name: "a think block in a final answer is reasoning",
			text:      "<|channel|>final<|message|>Done <think>should I call <|start|>assistant to=functions.rm<|channel|>commentary<|message|>{}<|call|>? no</think> here.<|return|>",
			content:   "Done\nhere.",
			reasoning: "should I call <|start|>assistant to=functions.rm<|channel|>commentary<|message|>{}<|call|>? no"},
		{name: "a think block in an analysis body stays as written",
			text:      "<|channel|>analysis<|message|>Plan: <think>maybe <|start|>assistant to=functions.rm<|channel|>commentary<|message|>{}<|call|></think> no.<|end|><|start|>assistant<|channel|>final<|message|>Kept.",
			content:   "Kept.",
			reasoning: "Plan: <think>maybe <|start|>assistant to=functions.rm<|channel|>commentary<|message|>{}<|call|></think> no."},
		{name: "a think block that never closes ends at the next message",
			text:      "<think>The user wants the weather.\n<|channel|>commentary to=functions.get_weather<|message|>{\"city\": \"Rome\"}<|call|>",
			calls:     []wantCall{{"get_weather", `{"city":"Rome"}`}},
			reasoning: "The user wants the weather."},
		{name: "a think tag in a call's arguments is argument text",
			text:  "<|channel|>commentary to=functions.write_file<|message|>{\"path\": \"a.md\", \"text\": \"<think>x</think>\"}<|call|>",
			calls: []wantCall{{"write_file", `{"path":"a.md","text":"<think>x</think>"}`}}},
		{name: "a think block cuts a call's header",
			text:    "<|start|>assistant to=functions.rm<think>no, not that</think> I will not.",
			content: "I will not.", reasoning: "no, not that",
			codes: []toolcall.Code{toolcall.CodeMalformedCall}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := &dialects.Options{ReasoningOpen: tt.reasoningOpen}
			if tt.tools != nil {
				opts.Tools = toolSet(t, tt.tools...)
			}
			// Streamed in every cut, the row must give the same answer.
			if err := streamtest.Check(harmony.Dialect, tt.text, tt.chunks, opts); err != nil {
				t.Errorf("stream: %v", err)
			}
			// The Reader, fed every cutting, reads as it reads the text
			// whole, with the reasoning start given or not.
			for _, o := range []*dialects.Options{opts, {Tools: opts.Tools, ReasoningOpen: true}, {Tools: opts.Tools, ReasoningClosed: true}} {
				if err := streamtest.CheckReader(harmony.Dialect.(dialects.Incremental), tt.text, o); err != nil {
					t.Errorf("reader (open %v, closed %v): %v", o.ReasoningOpen, o.ReasoningClosed, err)
				}
			}
			res := dialects.Parse(harmony.Dialect, tt.text, opts)
			checkResult(t, res, tt.calls, tt.content, tt.reasoning, tt.codes, tt.repairs)
			if tt.chunks != nil && strings.Join(tt.chunks, "") != tt.text {
				t.Errorf("chunks do not join to the text")
			}
		})
	}
}

func checkResult(t *testing.T, res *toolcall.Result, calls []wantCall, content, reasoning string, codes []toolcall.Code, repairs []toolcall.RepairKind) {
	t.Helper()
	if res.Dialect != harmony.Name {
		t.Errorf("dialect %q", res.Dialect)
	}
	if len(res.Calls) != len(calls) {
		t.Fatalf("got %d calls %+v (errors %v), want %d", len(res.Calls), res.Calls, res.Errors, len(calls))
	}
	for i, w := range calls {
		if res.Calls[i].Name != w.name || string(res.Calls[i].Arguments) != w.args {
			t.Errorf("call %d = %s %s, want %s %s", i, res.Calls[i].Name, res.Calls[i].Arguments, w.name, w.args)
		}
	}
	if res.Content != content {
		t.Errorf("content %q, want %q", res.Content, content)
	}
	if res.Reasoning != reasoning {
		t.Errorf("reasoning %q, want %q", res.Reasoning, reasoning)
	}
	if len(res.Errors) != len(codes) {
		t.Fatalf("errors %v, want codes %v", res.Errors, codes)
	}
	for i, c := range codes {
		if c != anyCode && res.Errors[i].Code != c {
			t.Errorf("error %d = %v, want code %s", i, res.Errors[i], c)
		}
	}
	for _, k := range repairs {
		found := false
		for _, r := range res.Repairs {
			found = found || r.Kind == k
		}
		if !found {
			t.Errorf("repairs %v lack %s", res.Repairs, k)
		}
	}
}

func TestMarked(t *testing.T) {
	for text, want := range map[string]bool{
		"plain prose":                          false,
		"<|channel|>final<|message|>hi":        true,
		"stray <|end|>":                        true,
		"<|notamarker|> and <| more":           false,
		" to=functions.x<|message|>{}<|call|>": true,
	} {
		if got := harmony.Dialect.Extract(text, nil).Marked; got != want {
			t.Errorf("Marked(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestHostileInput feeds inputs that must neither panic nor take long.
func TestHostileInput(t *testing.T) {
	inputs := map[string]string{
		"repeated start":   strings.Repeat("<|start|>", 100000),
		"repeated channel": strings.Repeat("<|channel|>commentary to=functions.f<|message|>", 50000),
		"repeated prefix":  strings.Repeat("<|", 200000),
		"unclosed header":  "<|start|>assistant" + strings.Repeat(" to=x", 100000),
		"binary":           "\x00\xff<|channel|>\xfe\x00<|message|>\x80\x81<|call|>",
		"deep arguments":   "<|channel|>commentary to=functions.f<|message|>" + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + "<|call|>",
		"huge body":        "<|channel|>final<|message|>" + strings.Repeat("a", 4<<20),
		// Calls whose arguments hold a backtick, on one line: each is
		// told to the shown scan, which must not read the line again.
		"backtick calls on one line": strings.Repeat(" to=functions.f<|channel|>commentary<|message|>{\"a\":\"`\"}<|call|>", 15000),
		// A token prose may name, then blanks: what decides is read once.
		"blanks after a token": "word <|message|>" + strings.Repeat(" ", 1<<20),
	}
	for name, text := range inputs {
		t.Run(name, func(t *testing.T) {
			res := dialects.Parse(harmony.Dialect, text, nil)
			if res == nil {
				t.Fatal("nil result")
			}
			// Fed in 1-byte deltas, the Reader reads it as it reads it
			// whole.
			r := harmony.Dialect.(dialects.Incremental).NewReader(&dialects.Options{})
			calls := 0
			count := func(ps []dialects.Piece) {
				for _, p := range ps {
					if p.Kind == dialects.PieceCall {
						calls++
					}
				}
			}
			for i := range len(text) {
				count(r.Write(text[i : i+1]))
			}
			count(r.Close())
			if whole := harmony.Dialect.Extract(text, nil); calls != len(whole.Calls) {
				t.Errorf("1-byte deltas read %d calls, the whole text %d", calls, len(whole.Calls))
			}
			for _, e := range res.Errors {
				if e.Code == "" {
					t.Errorf("uncoded error %v", e)
				}
			}
		})
	}
}

func TestCorpus(t *testing.T) {
	vs, err := corpustest.Dialects()
	if err != nil {
		t.Fatal(err)
	}
	mine := corpustest.ForDialect(vs, harmony.Name)
	passed := corpustest.Run(t, mine, func(v corpustest.Vector, tools *schema.Set) *toolcall.Result {
		return dialects.Parse(harmony.Dialect, v.Text, &dialects.Options{Tools: tools})
	})
	t.Logf("harmony: %d/%d corpus vectors pass", passed, len(mine))
}

// TestReaderCorpus holds the Reader to its contract on every corpus vector
// of the dialect: every cutting reads as the whole text does, with the
// reasoning start given or not.
func TestReaderCorpus(t *testing.T) {
	for _, file := range []string{"dialects.dev.jsonl", "dialects.ollama.jsonl", "dialects.own.jsonl"} {
		vs, err := corpustest.Load(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range corpustest.ForDialect(vs, harmony.Name) {
			tools, err := v.ToolSet()
			if err != nil {
				t.Fatalf("%s: %v", v.ID, err)
			}
			for _, o := range []*dialects.Options{{Tools: tools}, {Tools: tools, ReasoningOpen: true}} {
				if err := streamtest.CheckReader(harmony.Dialect.(dialects.Incremental), v.Text, o); err != nil {
					t.Errorf("%s %s: reader (open %v): %v", file, v.ID, o.ReasoningOpen, err)
				}
			}
		}
	}
}

const benchText = `<|channel|>analysis<|message|>The user wants the weather in Tokyo.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Tokyo", "unit": "celsius", "days": 3}<|call|>`

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		dialects.Parse(harmony.Dialect, benchText, nil)
	}
}

// BenchmarkBaselineUnmarshal decodes the same call's arguments with
// encoding/json, the yardstick for BenchmarkParse.
func BenchmarkBaselineUnmarshal(b *testing.B) {
	args := []byte(`{"city": "Tokyo", "unit": "celsius", "days": 3}`)
	b.ReportAllocs()
	for b.Loop() {
		var v map[string]any
		if err := json.Unmarshal(args, &v); err != nil {
			b.Fatal(err)
		}
	}
}
