package gemma_test

import (
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
