package tagged_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/tagged"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/render"
)

// TestTemplateReasoningStreams feeds every tagged dialect outputs that
// start in the reasoning block the template opened (Options.ReasoningOpen)
// one byte at a time, up to a point, and checks what was returned by then:
// the block's reasoning goes out as it arrives, before its closing tag;
// from a call drafted in it on, the reasoning waits (the call counts if
// the block never closes); after the block, content and calls go out as
// in any stretch, unless a closing tag of the other wrapper may still end
// a block the template opened (dialects.TemplateBlockEnd). Every output
// is held to the contract cut every way (streamtest.CheckReader).
func TestTemplateReasoningStreams(t *testing.T) {
	open := &dialects.Options{ReasoningOpen: true}
	call := toolcall.Call{ID: "call_1", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Rome"}`)}
	for _, d := range tagged.All() {
		t.Run(d.Name(), func(t *testing.T) {
			syn := d.(interface{ Syntax() dialects.Syntax }).Syntax()
			r, ok := render.For(d.Name())
			if !ok {
				t.Fatalf("no renderer for %s", d.Name())
			}
			made := r.Calls([]toolcall.Call{call})
			closing := dialects.Think.Close
			if len(syn.Reasoning) > 0 {
				closing = syn.Reasoning[0].Close
			}
			// With a second wrapper, a closing tag of it before any opening
			// one ends a block the template opened too: what follows the
			// first block waits until the tags settle that. Messages framed
			// by headers (glimmer's, Syntax.Opaque) are trimmed and joined
			// when a message ends: the answer goes out then, and the call
			// with the message that holds it.
			after := len(syn.Reasoning) == 1
			answer, then, calls := "", "", 0
			switch {
			case syn.Opaque:
				calls = 1
			case after:
				answer, then, calls = "The answer", "Then", 1
			}
			rows := []struct {
				name, prefix, rest string
				reasoning, content string // returned by the end of prefix
				calls              int
			}{
				{"it streams", "I need the weather in Rome.\nLet me", " check." + closing + "Done.",
					"I need the weather in Rome.\nLet me", "", 0},
				{"its leading and trailing blanks are held", " \n Plan  ", "it." + closing + "ok", "Plan", "", 0},
				{"from a call drafted in it, it waits", "Maybe " + made + " or", " not." + closing + "No call.", "Maybe", "", 0},
				{"the answer after it streams", "Plan." + closing + "The answer", " is 4.", "Plan.", answer, 0},
				{"a call after it goes out when its region closes", "Plan." + closing + "\n" + made + "\nThen", " done.", "Plan.", then, calls},
			}
			for _, tt := range rows {
				t.Run(tt.name, func(t *testing.T) {
					text := tt.prefix + tt.rest
					if err := streamtest.CheckReader(d.(dialects.Incremental), text, open); err != nil {
						t.Fatal(err)
					}
					rd := d.(dialects.Incremental).NewReader(open)
					reasoning, content, n := streamtest.SentSoFar(rd, tt.prefix)
					if reasoning != tt.reasoning || content != tt.content || n != tt.calls {
						t.Errorf("after %q: reasoning %q, content %q, %d calls; want %q, %q, %d", tt.prefix, reasoning, content, n, tt.reasoning, tt.content, tt.calls)
					}
				})
			}
		})
	}
}

// TestImplicitReasoningTagInString holds the start of an output with
// neither Options.ReasoningOpen nor ReasoningClosed to the rule of
// dialects.ImplicitReasoning: a reasoning tag inside a string of a JSON
// value is text, so it neither opens nor closes a block, whether the
// value is whole or still being written; a stream and a one-shot read
// agree (streamtest.CheckReader).
func TestImplicitReasoningTagInString(t *testing.T) {
	rows := []struct {
		name               string
		d                  dialects.Dialect
		text               string
		reasoning, content string
	}{
		{"an opening tag in a string: a closing tag after it ends the template's block",
			tagged.LongCat, `I weigh {"t": "<think>"} and then.</longcat_think>Answer.`,
			`I weigh {"t": "<think>"} and then.`, "Answer."},
		{"a closing tag in a string: an opening tag after it makes the text content",
			tagged.LongCat, `Say {"t": "</longcat_think>"} now <think>hm</think>Answer.`,
			"hm", `Say {"t": "</longcat_think>"} now Answer.`},
		{"a tag in a value that never closes is a tag",
			tagged.LongCat, `I weigh {"t": "<think> and</longcat_think>on`,
			"and</longcat_think>on", `I weigh {"t": "`},
	}
	opts := &dialects.Options{}
	for _, tt := range rows {
		t.Run(tt.name, func(t *testing.T) {
			if err := streamtest.CheckReader(tt.d.(dialects.Incremental), tt.text, opts); err != nil {
				t.Fatal(err)
			}
			x := tt.d.Extract(tt.text, opts)
			if strings.TrimSpace(x.Reasoning) != tt.reasoning || strings.TrimSpace(x.Content) != tt.content {
				t.Fatalf("reasoning %q content %q, want %q %q", x.Reasoning, x.Content, tt.reasoning, tt.content)
			}
		})
	}
}

// TestGlimmerUnclosedThink holds glimmer to the rule of every tagged
// dialect for a <think> block the output opens and never closes: its
// text is reasoning, and what the model does in it counts (in glimmer, a
// message ends it, as it ends the block the template opened), however
// the output is cut.
func TestGlimmerUnclosedThink(t *testing.T) {
	rows := []struct {
		name, text, reasoning, content string
		calls                          int
	}{
		{"the block runs to the end", "<think>I should check the weather", "I should check the weather", "", 0},
		{"content before it", "Hi.<think>I should check", "I should check", "Hi.", 0},
		{"after a closed block", "<think>hm</think>Hi.<think>more", "hm\nmore", "Hi.", 0},
		{"after a message", " to=user<|message|>Hi.<|eot|><think>more", "more", "Hi.", 0},
		{"a message ends it", "<think>hm\n<|start|>assistant to=user<|message|>after<|eot|>", "hm", "after", 0},
		{"the word before a header is its text", "<think>hm to=user<|message|>after<|eot|>", "hm", "after", 0},
		{"a tool message in it is a call", "<think>hm to=f<|message|><atem:function_calls><atem:invoke name=\"f\"></atem:invoke></atem:function_calls><|eom|> to=user<|message|>after<|eot|>", "hm", "after", 1},
		{"a message to self in it", "<think>hm to=self<|message|>x<|eom|>after", "hm\nx", "after", 0},
		{"a tag inside a string of a JSON value is text", "Note {\"a\": \"<think>\"} ok", "", "Note {\"a\": \"<think>\"} ok", 0},
	}
	opts := &dialects.Options{ReasoningClosed: true}
	for _, tt := range rows {
		t.Run(tt.name, func(t *testing.T) {
			if err := streamtest.CheckReader(tagged.Glimmer, tt.text, opts); err != nil {
				t.Fatal(err)
			}
			x := tagged.Glimmer.Extract(tt.text, opts)
			if x.Reasoning != tt.reasoning || x.Content != tt.content || len(x.Calls) != tt.calls {
				t.Errorf("reasoning %q content %q calls %d, want %q %q %d", x.Reasoning, x.Content, len(x.Calls), tt.reasoning, tt.content, tt.calls)
			}
		})
	}
}

// TestGlimmerTemplateReasoning holds glimmer's reasoning to one text
// however it went out: the block the template opened streams as it
// arrives, and a message to self after it is joined to it by a line
// break when its message ends, as the one-shot read joins them.
func TestGlimmerTemplateReasoning(t *testing.T) {
	open := &dialects.Options{ReasoningOpen: true}
	rows := []struct {
		name, text, reasoning, content string
	}{
		{"a message to self after the block", "I need the weather.\nLet me check.</think>to=self<|message|>More.<|eom|>Done.",
			"I need the weather.\nLet me check.\nMore.", "Done."},
		{"the block alone", "  Plan it.  </think> to=user<|message|>Hi.<|eot|>", "Plan it.", "Hi."},
		{"the block never closes", "Plan it. And on", "Plan it. And on", ""},
	}
	for _, tt := range rows {
		t.Run(tt.name, func(t *testing.T) {
			if err := streamtest.CheckReader(tagged.Glimmer, tt.text, open); err != nil {
				t.Fatal(err)
			}
			x := tagged.Glimmer.Extract(tt.text, open)
			if x.Reasoning != tt.reasoning || x.Content != tt.content {
				t.Errorf("reasoning %q content %q, want %q %q", x.Reasoning, x.Content, tt.reasoning, tt.content)
			}
		})
	}
}
