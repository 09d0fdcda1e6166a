package gemma_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/gemma"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/schema"
)

type wantCall struct{ name, args string }

type row struct {
	name          string
	text          string
	tools         bool
	reasoningOpen bool
	chunks        []string
	calls         []wantCall
	content       string
	reasoning     string
	codes         []toolcall.Code
	repairs       []toolcall.RepairKind
}

func declared(t testing.TB) *schema.Set {
	t.Helper()
	s, err := schema.NewSet(
		toolcall.Tool{Name: "get_weather", Parameters: json.RawMessage(
			`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"},"metric":{"type":"boolean"}},"required":["city"]}`)},
		toolcall.Tool{Name: "execute_terminal", Parameters: json.RawMessage(
			`{"type":"object","properties":{"command":{"type":"string"}}}`)},
	)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func run(t *testing.T, d dialects.Dialect, rows []row) {
	for _, tt := range rows {
		t.Run(tt.name, func(t *testing.T) {
			opts := &dialects.Options{ReasoningOpen: tt.reasoningOpen}
			if tt.tools {
				opts.Tools = declared(t)
			}
			// Streamed in every cut, the row must give the same answer.
			if err := streamtest.Check(d, tt.text, tt.chunks, opts); err != nil {
				t.Errorf("stream: %v", err)
			}
			res := dialects.Parse(d, tt.text, opts)
			if res.Dialect != d.Name() {
				t.Errorf("dialect %q", res.Dialect)
			}
			if len(res.Calls) != len(tt.calls) {
				t.Fatalf("got %d calls %+v (errors %v), want %d", len(res.Calls), res.Calls, res.Errors, len(tt.calls))
			}
			for i, w := range tt.calls {
				if res.Calls[i].Name != w.name || string(res.Calls[i].Arguments) != w.args {
					t.Errorf("call %d = %s %s, want %s %s", i, res.Calls[i].Name, res.Calls[i].Arguments, w.name, w.args)
				}
			}
			if res.Content != tt.content {
				t.Errorf("content %q, want %q", res.Content, tt.content)
			}
			if res.Reasoning != tt.reasoning {
				t.Errorf("reasoning %q, want %q", res.Reasoning, tt.reasoning)
			}
			if len(res.Errors) != len(tt.codes) {
				t.Fatalf("errors %v, want codes %v", res.Errors, tt.codes)
			}
			for i, c := range tt.codes {
				if res.Errors[i].Code != c {
					t.Errorf("error %d = %v, want code %s", i, res.Errors[i], c)
				}
			}
			var kinds []toolcall.RepairKind
			for _, r := range res.Repairs {
				kinds = append(kinds, r.Kind)
			}
			if !sameKinds(kinds, tt.repairs) {
				t.Errorf("repairs %v, want kinds %v", res.Repairs, tt.repairs)
			}
			if tt.chunks != nil && strings.Join(tt.chunks, "") != tt.text {
				t.Errorf("chunks do not join to the text")
			}
		})
	}
}

func sameKinds(got, want []toolcall.RepairKind) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i] != want[i] {
			return false
		}
	}
	return true
}

func TestGemma4(t *testing.T) {
	run(t, gemma.Gemma4, []row{
		// A string in JSON quotes ends at a quote no backslash escapes
		// (jsonscan.Escaped).
		{name: "a quote after an escaped backslash ends a quoted string", text: "<|tool_call>call:note{text:\"a\\\\\",n:1}<tool_call|>",
			calls: []wantCall{{"note", `{"text":"a\\","n":1}`}}},
		{name: "an escaped quote does not", text: "<|tool_call>call:note{text:\"a\\\",b\",n:1}<tool_call|>",
			calls: []wantCall{{"note", `{"text":"a\",b","n":1}`}}},
		{name: "a close token inside a string the block closes later is string text",
			text:   "<|tool_call>call:note{text:<|\"|>end it with <tool_call|> here<|\"|>}<tool_call|>",
			chunks: []string{"<|tool_call>call:note{text:<|\"|>end it with <tool_call|>", " here<|\"|>}<tool_call|>"},
			calls:  []wantCall{{"note", `{"text":"end it with <tool_call|> here"}`}}},
		{name: "a block broken off inside a string where the next block begins is cut off",
			text:  "<|tool_call>call:note{text:<|\"|>wrap it in <|tool_call>call:get_weather{city:<|\"|>Rome<|\"|>}<tool_call|>",
			calls: []wantCall{{"get_weather", `{"city":"Rome"}`}},
			codes: []toolcall.Code{toolcall.CodeTruncated}},
		{name: "a string left open where a thought channel begins is cut off",
			text:      "<|tool_call>call:note{text:<|\"|>half<|channel>thought\nhm<channel|>Done.",
			reasoning: "hm", content: "Done.",
			codes: []toolcall.Code{toolcall.CodeTruncated}},
		{name: "a call shown in inline code is content", text: "The syntax is `<|tool_call>call:get_weather{city:<|\"|>Paris<|\"|>}<tool_call|>`, but I won't call it now.", content: "The syntax is `<|tool_call>call:get_weather{city:<|\"|>Paris<|\"|>}<tool_call|>`, but I won't call it now."},
		{name: "a call shown in an example fence is content", text: "For example:\n```\n<|tool_call>call:get_weather{city:<|\"|>Paris<|\"|>}<tool_call|>\n```\nbut I won't call it.", content: "For example:\n```\n<|tool_call>call:get_weather{city:<|\"|>Paris<|\"|>}<tool_call|>\n```\nbut I won't call it."},
		{name: "single call",
			text:  `<|tool_call>call:get_weather{location:<|"|>London<|"|>}<tool_call|>`,
			calls: []wantCall{{"get_weather", `{"location":"London"}`}}},
		{name: "parallel calls",
			text:   `<|tool_call>call:get_weather{city:<|"|>Paris<|"|>}<tool_call|><|tool_call>call:get_time{zone:<|"|>CET<|"|>,offset:1}<tool_call|>`,
			chunks: []string{`<|tool_call>call:get_weather{city:<|"|>Paris<|`, `"|>}<tool_c`, `all|><|tool_call>call:get_time{zone:<|"|>CET<|"|>,offset:1}<tool_call|>`},
			calls:  []wantCall{{"get_weather", `{"city":"Paris"}`}, {"get_time", `{"zone":"CET","offset":1}`}}},
		{name: "two calls in one block",
			text:  `<|tool_call>call:a{x:1}call:b{y:true}<tool_call|>`,
			calls: []wantCall{{"a", `{"x":1}`}, {"b", `{"y":true}`}}},
		{name: "no call", text: "The capital of France is Paris.", content: "The capital of France is Paris."},
		{name: "surrounding text",
			text:    "Let me check.\n<|tool_call>call:get_weather{city:<|\"|>Oslo<|\"|>}<tool_call|>\nDone.",
			calls:   []wantCall{{"get_weather", `{"city":"Oslo"}`}},
			content: "Let me check.\nDone."},
		{name: "text glued to the markers stays glued",
			text:    `See<|tool_call>call:f{}<tool_call|>more`,
			calls:   []wantCall{{"f", `{}`}},
			content: "Seemore"},
		{name: "value types and nesting",
			text:  `<|tool_call>call:f{a:{b:[1,2.5,<|"|>x<|"|>]},c:false,d:null,e:-3e2,f:[]}<tool_call|>`,
			calls: []wantCall{{"f", `{"a":{"b":[1,2.5,"x"]},"c":false,"d":null,"e":-3e2,"f":[]}`}}},
		{name: "delimited strings are raw text",
			text:  `<|tool_call>call:write{text:<|"|>say "hi" \n C:\dir {x:1}, é 日本<|"|>}<tool_call|>`,
			calls: []wantCall{{"write", `{"text":"say \"hi\" \\n C:\\dir {x:1}, é 日本"}`}}},
		{name: "double-quoted strings take JSON escapes",
			text:  `<|tool_call>call:write{"text": "say \"hi\"\nline \\ \u00e9 \ud83d\ude00"}<tool_call|>`,
			calls: []wantCall{{"write", `{"text":"say \"hi\"\nline \\ é 😀"}`}}},
		{name: "multi-byte characters split across chunks",
			text:   `<|tool_call>call:write{text:<|"|>café 日本<|"|>}<tool_call|>`,
			chunks: []string{"<|tool_call>call:write{text:<|\"|>caf\xc3", "\xa9 \xe6\x97", "\xa5本<|\"|>}<tool_call|>"},
			calls:  []wantCall{{"write", `{"text":"café 日本"}`}}},
		{name: "thinking then call",
			text:      "<|channel>thought\nI need the weather.<channel|><|tool_call>call:get_weather{city:<|\"|>Rome<|\"|>}<tool_call|>",
			calls:     []wantCall{{"get_weather", `{"city":"Rome"}`}},
			reasoning: "I need the weather."},
		{name: "a call drafted in a closed thought channel is reasoning",
			text:      "<|channel>thought\nChecking <|tool_call>call:get_weather{city:<|\"|>Rome<|\"|>}<tool_call|> now.<channel|>Answer.",
			reasoning: "Checking <|tool_call>call:get_weather{city:<|\"|>Rome<|\"|>}<tool_call|> now.", content: "Answer."},
		{name: "a call drafted in a channel the template opened is reasoning",
			text:          "Checking <|tool_call>call:get_weather{city:<|\"|>Rome<|\"|>}<tool_call|> now.<channel|>Answer.",
			reasoningOpen: true,
			reasoning:     "Checking <|tool_call>call:get_weather{city:<|\"|>Rome<|\"|>}<tool_call|> now.", content: "Answer."},
		{name: "a call in a thought channel that never closes is a call",
			text:      "<|channel>thought\nChecking <|tool_call>call:get_weather{city:<|\"|>Rome<|\"|>}<tool_call|>",
			calls:     []wantCall{{"get_weather", `{"city":"Rome"}`}},
			reasoning: "Checking"},
		{name: "template opened thinking",
			text:          "Still thinking.<channel|>Answer.",
			reasoningOpen: true,
			reasoning:     "Still thinking.", content: "Answer."},
		{name: "thought label only at the start of a channel",
			text:      "<|channel>thoughtful remark<channel|>ok",
			reasoning: "thoughtful remark", content: "ok"},
		{name: "missing closing delimiter",
			text:    `<|tool_call>call:bash{command:<|"|>ls -la}<tool_call|>`,
			calls:   []wantCall{{"bash", `{"command":"ls -la"}`}},
			repairs: []toolcall.RepairKind{toolcall.RepairTruncatedString}},
		{name: "missing object close",
			text:    `<|tool_call>call:bash{command:<|"|>ls<|"|><tool_call|>`,
			calls:   []wantCall{{"bash", `{"command":"ls"}`}},
			repairs: []toolcall.RepairKind{toolcall.RepairMissingClosingBrace}},
		{name: "single-quoted values",
			text:    `<|tool_call>call:say{text:'it's here',to:'Bob'}<tool_call|>`,
			calls:   []wantCall{{"say", `{"text":"it's here","to":"Bob"}`}},
			repairs: []toolcall.RepairKind{toolcall.RepairSingleQuotes, toolcall.RepairUnescapedQuotes, toolcall.RepairSingleQuotes}},
		{name: "raw terminal value with brackets",
			text:    `<|tool_call>call:run{code:print({"a": 1})}<tool_call|>`,
			calls:   []wantCall{{"run", `{"code":"print({\"a\": 1})"}`}},
			repairs: []toolcall.RepairKind{toolcall.RepairUnquotedString}},
		{name: "raw terminal value with a comma",
			text:    `<|tool_call>call:run{cmd:echo a, b}<tool_call|>`,
			calls:   []wantCall{{"run", `{"cmd":"echo a, b"}`}},
			repairs: []toolcall.RepairKind{toolcall.RepairUnquotedString}},
		{name: "bare word and number spellings",
			text:    `<|tool_call>call:f{unit:celsius,half:.5,plus:+3,zip:007,flag:True}<tool_call|>`,
			calls:   []wantCall{{"f", `{"unit":"celsius","half":0.5,"plus":3,"zip":"007","flag":true}`}},
			repairs: []toolcall.RepairKind{toolcall.RepairUnquotedString, toolcall.RepairNumberFormat, toolcall.RepairNumberFormat, toolcall.RepairUnquotedString, toolcall.RepairPythonLiteral}},
		{name: "commas repaired",
			text:    "<|tool_call>call:f{a:1,,b:[1,2,],\nc:<|\"|>x<|\"|>\nd:2}<tool_call|>",
			calls:   []wantCall{{"f", `{"a":1,"b":[1,2],"c":"x","d":2}`}},
			repairs: []toolcall.RepairKind{toolcall.RepairTrailingComma, toolcall.RepairTrailingComma, toolcall.RepairMissingComma}},
		{name: "truncated output is not a call",
			text:  `<|tool_call>call:f{a:{b:[1,2`,
			codes: []toolcall.Code{toolcall.CodeTruncated}},
		{name: "output cut after the name is not a call",
			text:  `<|tool_call>call:get_wea`,
			codes: []toolcall.Code{toolcall.CodeTruncated}},
		{name: "complete call without its closing marker",
			text:  `<|tool_call>call:f{a:{b:[1,2]}}`,
			calls: []wantCall{{"f", `{"a":{"b":[1,2]}}`}}},
		{name: "missing close tag before the next block",
			text:  `<|tool_call>call:a{x:1}<|tool_call>call:b{y:2}<tool_call|>`,
			calls: []wantCall{{"a", `{"x":1}`}, {"b", `{"y":2}`}}},
		{name: "extra closing brace",
			text:    `<|tool_call>call:f{a:1}}<tool_call|>`,
			calls:   []wantCall{{"f", `{"a":1}`}},
			repairs: []toolcall.RepairKind{toolcall.RepairExtraClosing}},
		{name: "empty arguments and no arguments",
			text:    `<|tool_call>call:get_time{}<tool_call|><|tool_call>call:ping<tool_call|>`,
			calls:   []wantCall{{"get_time", `{}`}, {"ping", `{}`}},
			repairs: []toolcall.RepairKind{toolcall.RepairEmptyArguments}},
		{name: "beyond repair beside a good call",
			text:  `<|tool_call>call:f{a:<|"|>x<|"|> y}<tool_call|><|tool_call>call:g{b:2}<tool_call|>`,
			calls: []wantCall{{"g", `{"b":2}`}},
			codes: []toolcall.Code{toolcall.CodeMalformedCall}},
		{name: "block without a call",
			text:  `<|tool_call>just some words<tool_call|>`,
			codes: []toolcall.Code{toolcall.CodeMalformedCall}},
		{name: "empty block",
			text:  `<|tool_call><tool_call|>`,
			codes: []toolcall.Code{toolcall.CodeMalformedCall}},
		{name: "nesting deeper than the limit",
			text:  `<|tool_call>call:f{a:` + strings.Repeat("[", 100) + `}<tool_call|>`,
			codes: []toolcall.Code{toolcall.CodeTooDeep}},
		{name: "schema types top-level values",
			text:    `<|tool_call>call:get_weather{city:10115,days:<|"|>3<|"|>,metric:<|"|>true<|"|>}<tool_call|>`,
			tools:   true,
			calls:   []wantCall{{"get_weather", `{"city":"10115","days":3,"metric":true}`}},
			repairs: []toolcall.RepairKind{toolcall.RepairCoercion, toolcall.RepairCoercion}},
		{name: "namespaced name reduced to the declared tool",
			text:    `<|tool_call>call:tool:execute_terminal{command:<|"|>ls<|"|>}<tool_call|>`,
			tools:   true,
			calls:   []wantCall{{"execute_terminal", `{"command":"ls"}`}},
			repairs: []toolcall.RepairKind{toolcall.RepairNameNormalized}},
		{name: "unknown tool",
			text:  `<|tool_call>call:launch{}<tool_call|>`,
			tools: true,
			codes: []toolcall.Code{toolcall.CodeUnknownTool}},
		{name: "stray close tag is markup",
			text:    "Done.<tool_call|>",
			content: "Done."},
		// A <think> block is reasoning, as in every dialect; a call block
		// inside a closed one is the model thinking.
		{name: "a call inside a closed think block is reasoning",
			text:      "<think>I could write <|tool_call>call:get_weather{city:<|\"|>Rome<|\"|>}<tool_call|> but no.</think>I will not.",
			chunks:    []string{"<think>I could write <|tool", "_call>call:get_weather{city:<|\"|>Rome<|\"|>}<tool_call|> but no.</th", "ink>I will not."},
			tools:     true,
			content:   "I will not.",
			reasoning: "I could write <|tool_call>call:get_weather{city:<|\"|>Rome<|\"|>}<tool_call|> but no."},
		{name: "a call after a closed think block is a call",
			text:      "<think>\nThe user wants Rome.\n</think>\n\n<|tool_call>call:get_weather{city:<|\"|>Rome<|\"|>}<tool_call|>",
			tools:     true,
			calls:     []wantCall{{"get_weather", `{"city":"Rome"}`}},
			reasoning: "The user wants Rome."},
		{name: "think blocks join as a split at think joins them",
			text:      "Hi <think> a </think> there<think>b</think>.",
			content:   "Hi there.",
			reasoning: "ab"},
		{name: "a think block that never closes: its call counts",
			text:      "<think>Rome, then. <|tool_call>call:get_weather{city:<|\"|>Rome<|\"|>}<tool_call|>",
			tools:     true,
			calls:     []wantCall{{"get_weather", `{"city":"Rome"}`}},
			reasoning: "Rome, then."},
		{name: "a closing think tag alone ends a block the template opened",
			text:      "I could call <|tool_call>call:get_weather{city:<|\"|>Rome<|\"|>}<tool_call|> but no.</think>Fine.",
			tools:     true,
			content:   "Fine.",
			reasoning: "I could call <|tool_call>call:get_weather{city:<|\"|>Rome<|\"|>}<tool_call|> but no."},
		{name: "a think block in the thought channel stays as written",
			text:      "<|channel>thought\nPlan <think>x</think> done<channel|>Yes.",
			content:   "Yes.",
			reasoning: "Plan <think>x</think> done"},
		{name: "a think tag in an argument is argument text",
			text:  "<|tool_call>call:get_weather{city:<|\"|><think>Rome</think><|\"|>}<tool_call|>",
			tools: true,
			calls: []wantCall{{"get_weather", `{"city":"<think>Rome</think>"}`}}},
	})
}

func TestFunctionGemma(t *testing.T) {
	run(t, gemma.FunctionGemma, []row{
		{name: "a block broken off inside a string where the next block begins is cut off",
			text:  `<start_function_call>call:note{text:<escape>wrap it in <start_function_call>call:get_weather{city:<escape>Rome<escape>}<end_function_call>`,
			calls: []wantCall{{"get_weather", `{"city":"Rome"}`}},
			codes: []toolcall.Code{toolcall.CodeTruncated}},
		{name: "single call",
			text:   `<start_function_call>call:get_weather{city:<escape>Paris<escape>}<end_function_call>`,
			chunks: []string{"<start_func", "tion_call>call:get_weather{city:<esc", "ape>Paris<escape>}<end_function_call>"},
			calls:  []wantCall{{"get_weather", `{"city":"Paris"}`}}},
		{name: "parallel calls",
			text:  `<start_function_call>call:get_weather{city:<escape>Paris<escape>}<end_function_call><start_function_call>call:get_weather{city:<escape>London<escape>}<end_function_call>`,
			calls: []wantCall{{"get_weather", `{"city":"Paris"}`}, {"get_weather", `{"city":"London"}`}}},
		{name: "numbers, booleans, arrays, objects",
			text:  `<start_function_call>call:update{a:1,b:3.14,c:true,items:[<escape>a<escape>,<escape>b<escape>],data:{name:<escape>test<escape>,value:42}}<end_function_call>`,
			calls: []wantCall{{"update", `{"a":1,"b":3.14,"c":true,"items":["a","b"],"data":{"name":"test","value":42}}`}}},
		{name: "no call", text: "The result is a <value> tag", content: "The result is a <value> tag"},
		{name: "surrounding text",
			text:    "Let me check.<start_function_call>call:test{}<end_function_call>Done!",
			calls:   []wantCall{{"test", `{}`}},
			content: "Let me check.Done!"},
		{name: "escaped strings",
			text:   `<start_function_call>call:write{text:<escape>line1` + "\n" + `"q" \ 日本<escape>}<end_function_call>`,
			chunks: []string{"<start_function_call>call:write{text:<escape>line1\n\"q\" \\ \xe6", "\x97\xa5本<escape>}<end_function_call>"},
			calls:  []wantCall{{"write", `{"text":"line1\n\"q\" \\ 日本"}`}}},
		{name: "malformed arguments repaired",
			text:    `<start_function_call>call:get_weather{city:<escape>Paris}<end_function_call>`,
			calls:   []wantCall{{"get_weather", `{"city":"Paris"}`}},
			repairs: []toolcall.RepairKind{toolcall.RepairTruncatedString}},
		{name: "beyond repair beside a good call",
			text:  `<start_function_call>call:f{a:<escape>x<escape> y}<end_function_call><start_function_call>call:g{}<end_function_call>`,
			calls: []wantCall{{"g", `{}`}},
			codes: []toolcall.Code{toolcall.CodeMalformedCall}},
		{name: "gemma 4 channels are text here",
			text:    "<|channel>not reasoning<channel|>",
			content: "<|channel>not reasoning<channel|>"},
		{name: "a call inside a closed think block is reasoning",
			text:      "<think>I could write <start_function_call>call:get_weather{city:<escape>Rome<escape>}<end_function_call> but no.</think>I will not.",
			chunks:    []string{"<think>I could write <start_func", "tion_call>call:get_weather{city:<escape>Rome<escape>}<end_function_call> but no.</think>", "I will not."},
			content:   "I will not.",
			reasoning: "I could write <start_function_call>call:get_weather{city:<escape>Rome<escape>}<end_function_call> but no."},
		{name: "the template opened a think block",
			text:          "Rome, I think. <start_function_call>call:get_weather{city:<escape>Rome<escape>}<end_function_call> no.</think>Fine.",
			reasoningOpen: true,
			content:       "Fine.",
			reasoning:     "Rome, I think. <start_function_call>call:get_weather{city:<escape>Rome<escape>}<end_function_call> no."},
		{name: "a call after a closed think block is a call",
			text:      "<think>Rome.</think><start_function_call>call:get_weather{city:<escape>Rome<escape>}<end_function_call>",
			calls:     []wantCall{{"get_weather", `{"city":"Rome"}`}},
			reasoning: "Rome."},
	})
}

func TestMarked(t *testing.T) {
	tests := []struct {
		d    dialects.Dialect
		text string
		want bool
	}{
		{gemma.Gemma4, "plain prose <b>", false},
		{gemma.Gemma4, "<|channel>thought\nx<channel|>", true},
		{gemma.Gemma4, "<|tool_call>", true},
		{gemma.FunctionGemma, "<|tool_call>call:f{}<tool_call|>", false},
		{gemma.FunctionGemma, "<start_function_call>", true},
	}
	for _, tt := range tests {
		if got := tt.d.Extract(tt.text, nil).Marked; got != tt.want {
			t.Errorf("%s Marked(%q) = %v, want %v", tt.d.Name(), tt.text, got, tt.want)
		}
	}
}

func TestMarkers(t *testing.T) {
	for _, d := range gemma.All() {
		m, ok := d.(dialects.Marked)
		if !ok || len(m.Markers()) == 0 {
			t.Errorf("%s has no markers", d.Name())
		}
	}
}

// TestHostileInput feeds inputs that must neither panic nor take long.
func TestHostileInput(t *testing.T) {
	inputs := map[string]string{
		"repeated open":        strings.Repeat("<|tool_call>", 100000),
		"repeated call":        strings.Repeat("<|tool_call>call:f{a:1}<tool_call|>", 20000),
		"repeated delimiters":  "<|tool_call>call:f{a:" + strings.Repeat(`<|"|>`, 100000) + "}",
		"unclosed strings":     "<|tool_call>call:f{" + strings.Repeat(`a:'x,`, 50000),
		"repeated channel":     strings.Repeat("<|channel>", 100000) + strings.Repeat("<channel|>", 100000),
		"deep nesting":         "<|tool_call>call:f{a:" + strings.Repeat("{b:", 10000) + strings.Repeat("}", 10000) + "}",
		"deep arrays":          "<|tool_call>call:f{a:" + strings.Repeat("[", 10000),
		"many bare members":    "<|tool_call>call:f{" + strings.Repeat("k:(,", 50000) + "}<tool_call|>",
		"many keys no colon":   "<|tool_call>call:f{" + strings.Repeat("word ", 100000) + "}",
		"binary":               "\x00\xff<|tool_call>call:\xfe{\x00:\x80\x81}<tool_call|>",
		"invalid utf-8 string": "<|tool_call>call:f{a:<|\"|>\xff\xfe<|\"|>,b:\"\xc3\"}<tool_call|>",
		"huge block":           "<|tool_call>call:f{a:<|\"|>" + strings.Repeat("x", 2<<20) + "<|\"|>}<tool_call|>",
		"many less-than signs": strings.Repeat("<", 500000),
	}
	for name, text := range inputs {
		for _, d := range gemma.All() {
			t.Run(d.Name()+"/"+name, func(t *testing.T) {
				res := dialects.Parse(d, text, nil)
				for _, e := range res.Errors {
					if e.Code == "" {
						t.Errorf("uncoded error %v", e)
					}
				}
				for _, c := range res.Calls {
					if !json.Valid(c.Arguments) {
						t.Errorf("call %s arguments are not JSON", c.Name)
					}
				}
			})
		}
	}
}

func BenchmarkParseGemma4(b *testing.B) {
	text := `<|tool_call>call:get_weather{city:<|"|>Tokyo<|"|>,unit:<|"|>celsius<|"|>,days:3}<tool_call|>`
	b.ReportAllocs()
	for b.Loop() {
		dialects.Parse(gemma.Gemma4, text, nil)
	}
}

func BenchmarkParseFunctionGemma(b *testing.B) {
	text := `<start_function_call>call:get_weather{city:<escape>Tokyo<escape>,unit:<escape>celsius<escape>,days:3}<end_function_call>`
	b.ReportAllocs()
	for b.Loop() {
		dialects.Parse(gemma.FunctionGemma, text, nil)
	}
}

// BenchmarkBaselineUnmarshal decodes the same call's arguments, as JSON,
// with encoding/json: the yardstick for the parse benchmarks.
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
