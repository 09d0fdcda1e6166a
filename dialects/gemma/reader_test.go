package gemma_test

import (
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/gemma"
	"github.com/dialectkit/toolcall/internal/streamtest"
)

// TestReaderStreams feeds outputs to the Reader one byte at a time and
// checks when each call is returned: as soon as its block's end is
// decided (live: the number of bytes written by then), or only at Close
// (live -1) when the block stands in reasoning that may yet close; and
// that every cutting reads what the whole text reads (CheckReader).
func TestReaderStreams(t *testing.T) {
	closed := &dialects.Options{ReasoningClosed: true}
	const (
		first  = "Sure.\n<|tool_call>call:f{a:1}<tool_call|>"
		second = "\n<|tool_call>call:g{}<tool_call|>"
	)
	rows := []struct {
		name  string
		d     *gemma.Dialect
		opts  *dialects.Options
		text  string
		calls []string // names of the calls read
		live  []int    // per call, the bytes written when it was returned; -1: at Close
	}{
		{"a call goes out when its close token is written", gemma.Gemma4, closed,
			first + second, []string{"f", "g"}, []int{len(first), len(first + second)}},
		{"a close token inside a string waits for the token that ends the block",
			gemma.Gemma4, closed,
			`<|tool_call>call:f{a:<|"|>x <tool_call|> y<|"|>}<tool_call|> done`, []string{"f"},
			[]int{len(`<|tool_call>call:f{a:<|"|>x <tool_call|> y<|"|>}<tool_call|>`)}},
		{"a call without its close token goes out when the next block opens",
			gemma.FunctionGemma, nil,
			"<start_function_call>call:f{a:1}<start_function_call>call:g{}<end_function_call>", []string{"f", "g"},
			[]int{len("<start_function_call>call:f{a:1}<start_function_call>"), len("<start_function_call>call:f{a:1}<start_function_call>call:g{}<end_function_call>")}},
		{"a call in a thought channel that closes is reasoning", gemma.Gemma4, closed,
			"<|channel>thought\nI could <|tool_call>call:f{}<tool_call|> but no.<channel|>Done.", nil, nil},
		{"a call in a thought channel that never closes waits for the end", gemma.Gemma4, closed,
			"<|channel>thought\nhm <|tool_call>call:f{}<tool_call|> then", []string{"f"}, []int{-1}},
		{"a call in a <think> block that never closes waits for the end", gemma.FunctionGemma, &dialects.Options{ReasoningOpen: true},
			"hm <start_function_call>call:f{}<end_function_call> then", []string{"f"}, []int{-1}},
		{"a call after a closed <think> block goes out at once", gemma.Gemma4, closed,
			"<think>I could <|tool_call>call:f{}<tool_call|></think>" + first + " ok", []string{"f"},
			[]int{len("<think>I could <|tool_call>call:f{}<tool_call|></think>" + first)}},
		{"a call in inline code is text", gemma.Gemma4, closed,
			"Write `<|tool_call>call:f{}<tool_call|>` to call f.", nil, nil},
		{"inline code opened before a call shows it though it never closes", gemma.Gemma4, closed,
			"Write `<|tool_call>call:f{}<tool_call|> to call f.", nil, nil},
		{"a call in a fence labelled with a language is text", gemma.Gemma4, closed,
			"```python\n<|tool_call>call:f{}<tool_call|>\n```", nil, nil},
		{"a call on the line of a fence the prose presents as an example is text, whatever follows on its line",
			gemma.Gemma4, closed, "Example:\n```<|tool_call>call:f{}<tool_call|>```\nDone.", nil, nil},
		{"each call of a block goes out as the next call of the block begins", gemma.Gemma4, closed,
			"<|tool_call>call:a{x:1}call:b{y:<|\"|>z<|\"|>}<tool_call|> done", []string{"a", "b"},
			[]int{len("<|tool_call>call:a{x:1}call:"), len("<|tool_call>call:a{x:1}call:b{y:<|\"|>z<|\"|>}<tool_call|>")}},
		{"calls of a block apart by separators", gemma.FunctionGemma, nil,
			"<start_function_call>call:a{x:1},\ncall:b{}; call:c{}<end_function_call>", []string{"a", "b", "c"},
			[]int{len("<start_function_call>call:a{x:1},\ncall:"), len("<start_function_call>call:a{x:1},\ncall:b{}; call:"),
				len("<start_function_call>call:a{x:1},\ncall:b{}; call:c{}<end_function_call>")}},
		{"a call prefix inside a string is text: the call goes out as the next call begins", gemma.Gemma4, closed,
			"<|tool_call>call:a{s:<|\"|>x}call:y<|\"|>}call:b{}<tool_call|>", []string{"a", "b"},
			[]int{len("<|tool_call>call:a{s:<|\"|>x}call:y<|\"|>}call:"), len("<|tool_call>call:a{s:<|\"|>x}call:y<|\"|>}call:b{}<tool_call|>")}},
		{"call prefixes inside strings of several values", gemma.FunctionGemma, nil,
			"<start_function_call>call:a{s:<escape>}call:x<escape>,t:<escape>, }call:y<escape>}call:b{}<end_function_call>", []string{"a", "b"},
			[]int{len("<start_function_call>call:a{s:<escape>}call:x<escape>,t:<escape>, }call:y<escape>}call:"),
				len("<start_function_call>call:a{s:<escape>}call:x<escape>,t:<escape>, }call:y<escape>}call:b{}<end_function_call>")}},
		{"a string still open holds no call", gemma.Gemma4, closed,
			"<|tool_call>call:a{s:<|\"|>x}call:y, }call:z", []string{"a"}, []int{-1}},
		{"a block never closed: the calls another follows go out, the last at the end", gemma.Gemma4, closed,
			"<|tool_call>call:a{x:1}call:b{y:", []string{"a", "b"}, []int{len("<|tool_call>call:a{x:1}call:"), -1}},
		{"calls of a block in reasoning that may yet close wait", gemma.Gemma4, closed,
			"<|channel>thought\nhm <|tool_call>call:a{}call:b{}<tool_call|> then", []string{"a", "b"}, []int{-1, -1}},
		{"a backtick inside a call opens no inline code", gemma.Gemma4, closed,
			"<|tool_call>call:f{s:<|\"|>use `ls<|\"|>}<tool_call|> and <|tool_call>call:g{}<tool_call|>", []string{"f", "g"},
			[]int{len("<|tool_call>call:f{s:<|\"|>use `ls<|\"|>}<tool_call|>"), len("<|tool_call>call:f{s:<|\"|>use `ls<|\"|>}<tool_call|> and <|tool_call>call:g{}<tool_call|>")}},
	}
	for _, tt := range rows {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			if opts == nil {
				opts = &dialects.Options{}
			}
			if err := streamtest.CheckReader(tt.d, tt.text, opts); err != nil {
				t.Fatal(err)
			}
			x := tt.d.Extract(tt.text, opts)
			var names []string
			for _, c := range x.Calls {
				names = append(names, c.Name)
			}
			if len(names) != len(tt.calls) {
				t.Fatalf("calls %v, want %v", names, tt.calls)
			}
			for i := range names {
				if names[i] != tt.calls[i] {
					t.Fatalf("calls %v, want %v", names, tt.calls)
				}
			}
			live := make([]int, len(tt.calls))
			r := tt.d.NewReader(opts)
			for i := 0; i < len(tt.text); i++ {
				for _, p := range r.Write(tt.text[i : i+1]) {
					if p.Kind == dialects.PieceCall {
						live[p.Index] = i + 1
					}
				}
			}
			for _, p := range r.Close() {
				if p.Kind == dialects.PieceCall {
					live[p.Index] = -1
				}
			}
			for i := range live {
				if live[i] != tt.live[i] {
					t.Errorf("call %d returned after %d bytes, want %d (-1: at Close)", i, live[i], tt.live[i])
				}
			}
		})
	}
}

// TestReasoningStreams feeds outputs to the Reader one byte at a time, up
// to a point, and checks the reasoning and content returned by then: the
// reasoning of a channel or <think> block the template opened goes out as
// it arrives, as every family's does, and only what a later tag may still
// change waits (dialects.TemplateBlockEnd).
func TestReasoningStreams(t *testing.T) {
	open := &dialects.Options{ReasoningOpen: true}
	rows := []struct {
		name              string
		d                 *gemma.Dialect
		opts              *dialects.Options
		prefix, rest      string // what has arrived, and the rest of the output
		reasoning, answer string // what went out by the end of prefix
	}{
		{"the channel the template opened streams", gemma.Gemma4, open,
			"I need the weather in Rome.\nLet me", " check.<channel|><|tool_call>call:get_weather{city:<|\"|>Rome<|\"|>}<tool_call|>",
			"I need the weather in Rome.\nLet me", ""},
		{"its name is held while it may be one, then dropped", gemma.Gemma4, open,
			"thought\nFirst", " this.<channel|>Done.", "First", ""},
		{"a call drafted in it is held, the reasoning before it is not", gemma.Gemma4, open,
			"Maybe <|tool_call>call:f{}<tool_call|> or", " not.<channel|>No call.", "Maybe", ""},
		{"a </think> in it ends the reasoning's first part, and the channel reads on", gemma.Gemma4, open,
			"A plan.</think> More", " of it.<channel|>Done.", "A plan. More", ""},
		{"after it, the answer waits while a </think> may still end a block the template opened", gemma.Gemma4, open,
			"Plan.<channel|>The answer", " is 4.", "Plan.", ""},
		{"a <think> before any </think> settles that: the answer streams", gemma.Gemma4, open,
			"Plan <think>x</think> done.<channel|>The answer", " is 4.", "Plan <think>x</think> done.", "The answer"},
		{"functiongemma: the <think> block the template opened streams", gemma.FunctionGemma, open,
			"Let me see", ".</think>Done.", "Let me see", ""},
		{"a channel the output opens streams", gemma.Gemma4, &dialects.Options{},
			"<|channel>thought\nLet me see", ".<channel|>Done.", "Let me see", ""},
	}
	for _, tt := range rows {
		t.Run(tt.name, func(t *testing.T) {
			if err := streamtest.CheckReader(tt.d, tt.prefix+tt.rest, tt.opts); err != nil {
				t.Fatal(err)
			}
			r := tt.d.NewReader(tt.opts)
			reasoning, answer, _ := streamtest.SentSoFar(r, tt.prefix)
			if reasoning != tt.reasoning || answer != tt.answer {
				t.Errorf("after %q: reasoning %q, content %q; want %q, %q", tt.prefix, reasoning, answer, tt.reasoning, tt.answer)
			}
		})
	}
}

// TestCallStartsEarly feeds a Reader an output up to a point and checks
// whether it has announced a call (PieceCallStart) by then: as soon as the
// name of a block's first call is read where the block's open token makes
// it a call whatever follows, and never where reasoning may still close
// over it, the start of the output is not settled, or it may be shown.
func TestCallStartsEarly(t *testing.T) {
	closed := &dialects.Options{ReasoningClosed: true}
	open := &dialects.Options{ReasoningOpen: true}
	rows := []struct {
		name         string
		d            *gemma.Dialect
		opts         *dialects.Options
		prefix, rest string // what has arrived, and the rest of the output
		want         string // the call announced and not yet whole, "" for none
	}{
		{"gemma4: the name and its brace have come", gemma.Gemma4, closed,
			"Sure.\n<|tool_call>call:get_weather{", "city:<|\"|>Rome<|\"|>}<tool_call|>", "get_weather"},
		{"gemma4: the name may go on", gemma.Gemma4, closed,
			"<|tool_call>call:get_weath", "er{city:<|\"|>Rome<|\"|>}<tool_call|>", ""},
		{"gemma4: right after the thought channel", gemma.Gemma4, closed,
			"<|channel>thought\nRome.<channel|><|tool_call>call:get_weather{city:", "<|\"|>Rome<|\"|>}<tool_call|>", "get_weather"},
		{"gemma4: after text on its line", gemma.Gemma4, closed,
			"Checking now.<|tool_call>call:get_weather{", "city:<|\"|>Rome<|\"|>}<tool_call|>", "get_weather"},
		{"gemma4: the second block, after the first went out", gemma.Gemma4, closed,
			"<|tool_call>call:a{}<tool_call|>\n<|tool_call>call:b{x:", "1}<tool_call|>", "b"},
		{"gemma4: the second call of a block, after the first went out", gemma.Gemma4, closed,
			"<|tool_call>call:a{x:1}call:b{", "y:2}<tool_call|>", "b"},
		{"gemma4: the second call of a block, its name not whole", gemma.Gemma4, closed,
			"<|tool_call>call:a{x:1}call:bb", "{y:2}<tool_call|>", ""},
		{"functiongemma: the name and its brace have come", gemma.FunctionGemma, nil,
			"<start_function_call>call:get_weather{city:", "<escape>Rome<escape>}<end_function_call>", "get_weather"},
		{"gemma4: in a thought channel that may yet close", gemma.Gemma4, closed,
			"<|channel>thought\nMaybe <|tool_call>call:f{", "}<tool_call|> not.<channel|>", ""},
		{"gemma4: in the channel the template opened", gemma.Gemma4, open,
			"Maybe <|tool_call>call:f{", "}<tool_call|> not.<channel|>", ""},
		{"gemma4: after that channel, while a </think> may still follow", gemma.Gemma4, open,
			"Plan.<channel|><|tool_call>call:f{", "}<tool_call|></think>", ""},
		{"gemma4: the start of the output not settled", gemma.Gemma4, &dialects.Options{},
			"Sure.\n<|tool_call>call:f{", "}<tool_call|>", ""},
		{"functiongemma: in a <think> block that may yet close", gemma.FunctionGemma, nil,
			"<think>Maybe <start_function_call>call:f{", "}<end_function_call></think>", ""},
		{"gemma4: inside inline code", gemma.Gemma4, closed,
			"Write `<|tool_call>call:f{", "}<tool_call|>` to call f.", ""},
		{"gemma4: a token in a sentence, a blank after it", gemma.Gemma4, closed,
			"Put <|tool_call> call:f{", "} here", ""},
		{"gemma4: a head that is not call:NAME{", gemma.Gemma4, closed,
			"<|tool_call>call:a b{", "}<tool_call|>", ""},
	}
	for _, tt := range rows {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			if opts == nil {
				opts = &dialects.Options{}
			}
			if err := streamtest.CheckReader(tt.d, tt.prefix+tt.rest, opts); err != nil {
				t.Fatal(err)
			}
			r := tt.d.NewReader(opts)
			started := map[int]string{}
			for i := 0; i < len(tt.prefix); i++ {
				for _, p := range r.Write(tt.prefix[i : i+1]) {
					switch p.Kind {
					case dialects.PieceCallStart:
						started[p.Index] = p.Name
					case dialects.PieceCall:
						delete(started, p.Index)
					}
				}
			}
			got := ""
			for _, name := range started {
				got = name
			}
			if len(started) > 1 || got != tt.want {
				t.Errorf("after %q: announced %v, want %q", tt.prefix, started, tt.want)
			}
			var call *dialects.RawCall
			for _, p := range append(r.Write(tt.rest), r.Close()...) {
				if p.Kind == dialects.PieceCall && call == nil {
					call = p.Call
				}
			}
			if tt.want != "" && (call == nil || call.Name != tt.want) {
				t.Errorf("announced %q, then the call %+v", tt.want, call)
			}
		})
	}
}

// TestReaderThinkTagInString holds a <think> block to the rule of
// dialects.SplitReasoning: a </think> inside a string of a JSON value the
// block writes is text of the block, not its end, in one shot and in
// every cutting.
func TestReaderThinkTagInString(t *testing.T) {
	closed := &dialects.Options{ReasoningClosed: true}
	const call = "Sure.\n<|tool_call>call:f{a:1}<tool_call|>"
	rows := []struct {
		name               string
		d                  *gemma.Dialect
		opts               *dialects.Options
		text               string
		reasoning, content string
		calls              int
	}{
		{"gemma4: the block reads on past the string", gemma.Gemma4, closed,
			`<think>Use {"end": "</think>"} as the marker.</think>` + call,
			`Use {"end": "</think>"} as the marker.`, "Sure.", 1},
		{"functiongemma: the block reads on past the string", gemma.FunctionGemma, nil,
			`<think>Say {"s": "a </think> b"} then.</think>Done.`,
			`Say {"s": "a </think> b"} then.`, "Done.", 0},
		{"a call after the string in the block is the model thinking", gemma.Gemma4, closed,
			`<think>{"x": "</think>"} <|tool_call>call:f{}<tool_call|></think>` + call,
			`{"x": "</think>"} <|tool_call>call:f{}<tool_call|>`, "Sure.", 1},
		{"a </think> after the value closed ends the block", gemma.Gemma4, closed,
			`<think>{"x": 1} </think>Done.`, `{"x": 1}`, "Done.", 0},
		{"a </think> in a value that never closes ends the block", gemma.Gemma4, closed,
			`<think>{"x": "</think> and on`, `{"x": "`, "and on", 0},
		// A call-open token inside a string of a JSON value is text, as
		// a </think> is: it opens no block, in reasoning and in content.
		{"gemma4: a call token in a string of a <think> block never closed", gemma.Gemma4, closed,
			`<think>I'd send {"x": "<|tool_call>call:f{}<tool_call|>"} maybe`,
			`I'd send {"x": "<|tool_call>call:f{}<tool_call|>"} maybe`, "", 0},
		{"functiongemma: a call token in a string of the block the template opened", gemma.FunctionGemma, &dialects.Options{ReasoningOpen: true},
			`Say {"s": "<start_function_call>"} then`, `Say {"s": "<start_function_call>"} then`, "", 0},
		{"gemma4: a call token in a string of a channel never closed", gemma.Gemma4, closed,
			"<|channel>thought\n" + `Say {"s": "a <|tool_call>call:f{}<tool_call|> b"} then`,
			`Say {"s": "a <|tool_call>call:f{}<tool_call|> b"} then`, "", 0},
		{"gemma4: a call token in a string of a closed block, then a call", gemma.Gemma4, closed,
			`<think>{"x": "<|tool_call>"}</think>` + call, `{"x": "<|tool_call>"}`, "Sure.", 1},
		{"gemma4: a call token in a string of content", gemma.Gemma4, closed,
			`Say {"s": "<|tool_call>call:f{}<tool_call|>"} ok.`, "", `Say {"s": "<|tool_call>call:f{}<tool_call|>"} ok.`, 0},
		{"functiongemma: a call token in a string of content, then a call", gemma.FunctionGemma, nil,
			`Say {"s": "<start_function_call>call:f{}<end_function_call>"} ok.` + "\n<start_function_call>call:g{}<end_function_call>",
			"", `Say {"s": "<start_function_call>call:f{}<end_function_call>"} ok.`, 1},
		{"a call token after the value closed opens a block", gemma.Gemma4, closed,
			`<think>{"x": 1} <|tool_call>call:f{}<tool_call|>`, `{"x": 1}`, "", 1},
		{"a call token in a value that never closes opens a block", gemma.Gemma4, closed,
			`<think>{"x": "<|tool_call>call:f{}<tool_call|>`, `{"x": "`, "", 1},
	}
	for _, tt := range rows {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			if opts == nil {
				opts = &dialects.Options{}
			}
			if err := streamtest.CheckReader(tt.d, tt.text, opts); err != nil {
				t.Fatal(err)
			}
			x := tt.d.Extract(tt.text, opts)
			if strings.TrimSpace(x.Reasoning) != tt.reasoning || strings.TrimSpace(x.Content) != tt.content || len(x.Calls) != tt.calls {
				t.Fatalf("reasoning %q content %q calls %d, want %q %q %d",
					x.Reasoning, x.Content, len(x.Calls), tt.reasoning, tt.content, tt.calls)
			}
		})
	}
}
