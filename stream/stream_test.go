package stream_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/hermes"
	"github.com/dialectkit/toolcall/internal/coded"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/stream"
)

// trace renders events compactly: "content:Hi", "call:0:get_weather".
func trace(evs []stream.Event) []string {
	out := []string{}
	for _, ev := range evs {
		switch ev.Kind {
		case stream.Content, stream.Reasoning:
			out = append(out, ev.Kind.String()+":"+ev.Text)
		case stream.CallStart:
			out = append(out, fmt.Sprintf("call_start:%d:%s", ev.Index, ev.Name))
		case stream.CallArguments:
			out = append(out, fmt.Sprintf("call_arguments:%d", ev.Index))
		case stream.Call:
			out = append(out, fmt.Sprintf("call:%d:%s:%s", ev.Index, ev.Call.Name, ev.Call.Arguments))
		case stream.CallError:
			out = append(out, fmt.Sprintf("call_error:%d:%s", ev.Index, coded.As(ev.Err).Code))
		case stream.Detected:
			out = append(out, "detected:"+ev.Dialect)
		case stream.Done:
			out = append(out, "done:"+ev.Dialect)
		}
	}
	return out
}

// TestLiveEvents pins what each delta settles: text before a marker is
// streamed at once, a marker's prefix is held, a call is reported when its
// region closes, reasoning streams inside its block.
func TestLiveEvents(t *testing.T) {
	weather := `{"name": "get_weather", "arguments": {"city": "Paris"}}`
	tests := []struct {
		name   string
		opts   registry.Options
		chunks []string
		want   [][]string // events after each chunk, then after Close
	}{
		{
			name:   "hermes: content, held marker prefix, a call announced once its header is read, whole once its region closes (the start of its closing marker after the value waits for the rest)",
			opts:   *regOpts(closed, registry.Options{Dialect: "hermes"}),
			chunks: []string{"Let me check", ".\n<tool", "_call>\n" + weather, "\n", "</tool_", "call>", "\n"},
			want: [][]string{
				{"content:Let me check"},
				{"content:."},
				{"call_start:0:get_weather", "call_arguments:0"},
				{},
				{},
				{`call:0:get_weather:{"city":"Paris"}`},
				{},
				{"done:hermes"},
			},
		},
		{
			name:   "hermes: reasoning streams inside its block, content after it",
			opts:   registry.Options{Dialect: "hermes"},
			chunks: []string{"<think>\nThe user", " wants weather.</th", "ink>\n\nSure."},
			want: [][]string{
				{"reasoning:The user"},
				{"reasoning: wants weather."},
				{"content:Sure."},
				{"done:hermes"},
			},
		},
		{
			name:   "unknown template: text before a closing tag could be reasoning, so it waits",
			opts:   registry.Options{Dialect: "hermes"},
			chunks: []string{"Let me check.", " Done</think>", "Answer."},
			want: [][]string{
				{},
				{"reasoning:Let me check. Done"},
				{"content:Answer."},
				{"done:hermes"},
			},
		},
		{
			name:   "reasoning opened by the template streams from the first byte",
			opts:   *regOpts(optsReasoningOpen(), registry.Options{Dialect: "hermes"}),
			chunks: []string{"pondering", " more</think>", "Answer."},
			want: [][]string{
				{"reasoning:pondering"},
				{"reasoning: more"},
				{"content:Answer."},
				{"done:hermes"},
			},
		},
		{
			name:   "qwen3_coder: reasoning opened by the template streams from the first byte",
			opts:   *regOpts(optsReasoningOpen(), registry.Options{Dialect: "qwen3_coder"}),
			chunks: []string{"pondering", " more</think>", "Answer."},
			want: [][]string{
				{"reasoning:pondering"},
				{"reasoning: more"},
				{"content:Answer."},
				{"done:qwen3_coder"},
			},
		},
		{
			name:   "longcat: reasoning opened by the template streams from the first byte; the answer waits while a </think> may still end a block the template opened",
			opts:   *regOpts(optsReasoningOpen(), registry.Options{Dialect: "longcat"}),
			chunks: []string{"pondering", " more</longcat_think>", "Answer."},
			want: [][]string{
				{"reasoning:pondering"},
				{"reasoning: more"},
				{},
				{"content:Answer.", "done:longcat"},
			},
		},
		{
			name:   "deepseek_v31: markers split inside their multi-byte characters",
			opts:   *regOpts(closed, registry.Options{Dialect: "deepseek_v31"}),
			chunks: []string{"On it.\n<\xef\xbd\x9ctool\xe2", "\x96\x81calls\xe2\x96\x81begin\xef\xbd\x9c><\xef\xbd\x9ctool\xe2\x96\x81call\xe2\x96\x81begin\xef\xbd\x9c>get_weather<\xef\xbd\x9ctool\xe2\x96\x81sep\xef\xbd\x9c>{\"city\": \"Oslo\"}<\xef\xbd\x9ctool\xe2\x96\x81call\xe2\x96\x81end\xef", "\xbd\x9c><\xef\xbd\x9ctool\xe2\x96\x81calls\xe2\x96\x81end\xef\xbd\x9c>"},
			want: [][]string{
				{"content:On it."},
				{},
				{"call_start:0:get_weather", `call:0:get_weather:{"city":"Oslo"}`},
				{"done:deepseek_v31"},
			},
		},
		{
			name:   "mistral: a marker look-alike is released once it cannot be a marker",
			opts:   *regOpts(closed, registry.Options{Dialect: "mistral"}),
			chunks: []string{"see [TOOL_", "SET] here"},
			want: [][]string{
				{"content:see"},
				{"content: [TOOL_SET] here"},
				{"done:mistral"},
			},
		},
		{
			name:   "unknown template: an output that opens with a call did not open inside reasoning, so the call is live and a closing tag later is text",
			opts:   registry.Options{Dialect: "hermes"},
			chunks: []string{"<tool_call>" + weather + "</tool_call>", " x", "</think>y"},
			want: [][]string{
				{"call_start:0:get_weather", `call:0:get_weather:{"city":"Paris"}`},
				{"content:x"},
				{},
				{"content:</think>y", "done:hermes"},
			},
		},
		{
			name:   "unknown template: a marker's first bytes settle nothing until the marker is whole",
			opts:   registry.Options{Dialect: "hermes"},
			chunks: []string{"\n <tool_", "cal", "l>" + weather + "</tool_call>\n"},
			want: [][]string{
				{},
				{},
				{"call_start:0:get_weather", `call:0:get_weather:{"city":"Paris"}`},
				{"done:hermes"},
			},
		},
		{
			name:   "unknown template: a call's marker after text settles nothing, the text waits",
			opts:   registry.Options{Dialect: "hermes"},
			chunks: []string{"Sure. ", "<tool_call>" + weather + "</tool_call>", "Done</think>y"},
			want: [][]string{
				{},
				{},
				{"reasoning:Sure. <tool_call>" + weather + "</tool_call>Done", "content:y"},
				{"done:hermes"},
			},
		},
		{
			name:   "unknown template: a family whose templates never open a block streams its answer at once",
			opts:   registry.Options{Dialect: "granite"},
			chunks: []string{"Let me check", " the weather.", "</think> Done."},
			want: [][]string{
				{"content:Let me check"},
				{"content: the weather."},
				{},
				{"content:</think> Done.", "done:granite"},
			},
		},
		{
			// The template may have opened a block that the closing tag
			// ends: the call before it is reasoning, so it waits for the
			// tag or the end, and the tag makes it reasoning.
			name:   "unknown template: a call a closing tag may follow waits, and the tag makes it reasoning",
			opts:   registry.Options{Dialect: "deepseek_v31"},
			chunks: []string{"Let me check.", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{\"city\": \"Oslo\"}<｜tool▁call▁end｜>", "<｜tool▁calls▁end｜>", " More</think>", "Answer."},
			want: [][]string{
				{},
				{},
				{},
				{},
				{},
				{"reasoning:Let me check.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{\"city\": \"Oslo\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜> More", "content:Answer.", "done:deepseek_v31"},
			},
		},
		{
			// With the start unknown, text before the call waits, and so
			// does the call (a closing tag may follow and make it
			// reasoning); with the start settled both stream.
			name:   "no block opened: a fence inside a call does not hold it back",
			opts:   registry.Options{Dialect: "deepseek_v3", ReasoningClosed: true},
			chunks: []string{"Let me check.\n", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"city\": \"Oslo\"}\n```<｜tool▁call▁end｜>", "<｜tool▁calls▁end｜>\nDone."},
			want: [][]string{
				{"content:Let me check."},
				{"call_start:0:get_weather", `call:0:get_weather:{"city":"Oslo"}`},
				{},
				{"content:\nDone.", "done:deepseek_v3"},
			},
		},
		{
			name:   "unknown template: a call after text waits for the end, which shows no closing tag follows",
			opts:   registry.Options{Dialect: "deepseek_v3"},
			chunks: []string{"Let me check.\n", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"city\": \"Oslo\"}\n```<｜tool▁call▁end｜>", "<｜tool▁calls▁end｜>\nDone."},
			want: [][]string{
				{},
				{},
				{},
				{"content:Let me check.\nDone.", "call_start:0:get_weather", `call:0:get_weather:{"city":"Oslo"}`, "done:deepseek_v3"},
			},
		},
		{
			// A call is decided by what precedes it
			// (shown.ShownScan.ShownAt): the backtick run before the
			// marker opens inline code that has not closed there, so the
			// call is shown, not made, whatever follows it (whether the
			// run closes later in its paragraph has no say).
			name:   "unknown template: a call whose marker follows inline code not closed before it is text",
			opts:   registry.Options{Dialect: "deepseek_v3"},
			chunks: []string{"Write `", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"city\": \"Oslo\"}\n```<｜tool▁call▁end｜>", "<｜tool▁calls▁end｜>\nDone."},
			want: [][]string{
				{},
				{},
				{},
				{"content:Write `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"city\": \"Oslo\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>\nDone.", "done:deepseek_v3"},
			},
		},
		{
			// Hermes reads a bare list only when every element is a call:
			// its calls are certain once the list closes.
			name:   "hermes, a bare list: its calls are live once the list closes",
			opts:   registry.Options{Dialect: "hermes"},
			chunks: []string{"[" + weather + ",", " {\"name\"", ": \"get_weather\", \"arguments\": {}}]", "\nDone."},
			want: [][]string{
				{},
				{},
				{},
				{"call_start:0:get_weather", `call:0:get_weather:{"city":"Paris"}`, "call_start:1:get_weather", `call:1:get_weather:{}`, "content:Done."},
				{"done:hermes"},
			},
		},
		{
			name:   "hermes, a bare list: a call waits while the next element may be no call",
			opts:   registry.Options{Dialect: "hermes"},
			chunks: []string{"[" + weather, "{\"\"", "\"\"}]"},
			want: [][]string{
				{},
				{},
				{},
				{"content:[" + weather + "{\"\"\"\"}]", "done:hermes"},
			},
		},
		{
			name:   "unknown template: a call after text a closing tag would make reasoning waits (hermes keeps calls in reasoning)",
			opts:   registry.Options{Dialect: "hermes"},
			chunks: []string{"Let me check.\n", "<tool_call>" + weather + "</tool_call>", "\nMore", "</think>y"},
			want: [][]string{
				{},
				{},
				{},
				{"reasoning:Let me check.\n<tool_call>" + weather + "</tool_call>\nMore", "content:y"},
				{"done:hermes"},
			},
		},
		{
			name:   "functionary_v3_2: a call after a bare header line is reported once the next header begins",
			opts:   *regOpts(closed, registry.Options{Dialect: "functionary_v3_2"}),
			chunks: []string{"get_weather\n{\"city\": \"Paris\"}", "\n>>>", "all\nDone."},
			want: [][]string{
				{},
				{"call_start:0:get_weather", `call:0:get_weather:{"city":"Paris"}`},
				{},
				{"content:Done.", "done:functionary_v3_2"},
			},
		},
		{
			name:   "glimmer: a call is reported once its invoke element has closed",
			opts:   *regOpts(closed, registry.Options{Dialect: "glimmer"}),
			chunks: []string{" to=get_weather<|message|><atem:function_calls>\n<atem:invoke name=\"get_weather\">\n<atem:parameter name=\"city\">SF</atem:parameter></atem:invoke>", "\n", "</atem:function_calls><|eom|>"},
			want: [][]string{
				{},
				{},
				{"call_start:0:get_weather", `call:0:get_weather:{"city":"SF"}`},
				{"done:glimmer"},
			},
		},
		{
			name:   "cohere: the framed response streams, then a call in an action block",
			opts:   *regOpts(closed, registry.Options{Dialect: "cohere"}),
			chunks: []string{"<|START_RESPONSE|>On it.<|END_RESPONSE|>\n<|START_ACTION|>[{\"tool_name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\"}}", "]<|END_ACTION|>", "\n<|START_TEXT|>Done.<|END_TEXT|>"},
			want: [][]string{
				{"content:On it."},
				{"call_start:0:get_weather", `call:0:get_weather:{"city":"Paris"}`},
				{},
				{"content:\nDone.", "done:cohere"},
			},
		},
		{
			// A bare list is a call only if no prose follows it on its
			// line (the table of what is a call): its calls are reported
			// once the line ends; the text after them goes out once it is
			// decided, before the output ends.
			name:   "json: a bare call is reported once its line ends",
			opts:   *regOpts(closed, registry.Options{Dialect: "json"}),
			chunks: []string{"Sure.\n[" + weather, ", " + weather, "]\nDone."},
			want: [][]string{
				{"content:Sure."},
				{},
				{"call_start:0:get_weather", `call:0:get_weather:{"city":"Paris"}`, "call_start:1:get_weather", `call:1:get_weather:{"city":"Paris"}`, "content:\n\nDone."},
				{"done:json"},
			},
		},
		{
			// A first line could be a bare call header (Functionary v3.2)
			// until the next line shows it is not.
			name:   "detection: content streams, the dialect is chosen once sure, the call follows",
			opts:   *regOpts(closed, registry.Options{}),
			chunks: []string{"Checking.", "\n<tool_call>\n" + weather, "\n</tool_call>\n<tool_call>\n" + weather + "\n</tool_call>"},
			want: [][]string{
				{},
				{"content:Checking.", "detected:hermes", "call_start:0:get_weather", "call_arguments:0"},
				{`call:0:get_weather:{"city":"Paris"}`, "call_start:1:get_weather", `call:1:get_weather:{"city":"Paris"}`},
				{"done:hermes"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			p := registry.Stream(&opts)
			for i, c := range tt.chunks {
				if got := trace(p.Write(c)); !slices.Equal(got, tt.want[i]) {
					t.Errorf("after chunk %d %q: %q, want %q", i, c, got, tt.want[i])
				}
			}
			if got := trace(p.Close()); !slices.Equal(got, tt.want[len(tt.chunks)]) {
				t.Errorf("at close: %q, want %q", got, tt.want[len(tt.chunks)])
			}
			if d := p.Disagreement(); d != "" {
				t.Errorf("disagreement: %s", d)
			}
		})
	}
}

func optsReasoningOpen() dialects.Options { return dialects.Options{ReasoningOpen: true} }

// closed says the template opened no reasoning block.
var closed = dialects.Options{ReasoningClosed: true}

// TestCallAnnouncedEarly: a long call is announced by name, and its
// argument text shown, before its region closes.
func TestCallAnnouncedEarly(t *testing.T) {
	p := stream.NewParser(hermes.Dialect, &stream.Options{Parse: closed})
	var before []stream.Event
	before = append(before, p.Write(`<tool_call>{"name": "write", "arguments": {"text": "`)...)
	for range 64 {
		before = append(before, p.Write("lorem ipsum ")...)
	}
	kinds := map[stream.Kind]int{}
	for _, ev := range before {
		kinds[ev.Kind]++
	}
	if kinds[stream.CallStart] != 1 || kinds[stream.CallArguments] == 0 || kinds[stream.Call] != 0 {
		t.Fatalf("before the end: %v", trace(before))
	}
	end := append(p.Write(`"}}</tool_call>`), p.Close()...)
	var shown strings.Builder
	for _, ev := range append(before, end...) {
		if ev.Kind == stream.CallArguments {
			shown.WriteString(ev.Text)
		}
	}
	if want := `{"text": "` + strings.Repeat("lorem ipsum ", 64) + `"}`; shown.String() != want {
		t.Errorf("arguments shown %q, want %q", shown.String(), want)
	}
	if got := trace(end); len(got) != 3 || got[0] != "call_arguments:0" || !strings.HasPrefix(got[1], "call:0:write:") || got[2] != "done:hermes" {
		t.Errorf("at the end: %q", got)
	}
}

// TestMaxBytes: output past the limit is not read, and the result says so
// with a coded error while keeping what was read.
func TestMaxBytes(t *testing.T) {
	p := stream.NewParser(hermes.Dialect, &stream.Options{MaxBytes: 16})
	p.Write("Hello, this is longer than sixteen bytes")
	evs := p.Close()
	res := evs[len(evs)-1].Result
	if res.Content != "Hello, this is l" {
		t.Errorf("content %q", res.Content)
	}
	if len(res.Errors) != 1 || !errors.Is(res.Errors[0], toolcall.ErrTooLarge) {
		t.Errorf("errors %v", res.Errors)
	}
}

// TestEventsCancel: a cancelled context stops the sequence with TLP-022.
func TestEventsCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	deltas := func(yield func(string) bool) {
		yield("Hello")
		cancel()
		yield(" world")
	}
	var got []string
	var err error
	for ev, e := range stream.Events(ctx, stream.NewParser(hermes.Dialect, &stream.Options{Parse: closed}), deltas) {
		if e != nil {
			err = e
			break
		}
		got = append(got, trace([]stream.Event{ev})...)
	}
	if !slices.Equal(got, []string{"content:Hello"}) || !errors.Is(err, context.Canceled) {
		t.Errorf("events %q, error %v", got, err)
	}
	var te *toolcall.Error
	if !errors.As(err, &te) || te.Code != toolcall.CodeCanceled {
		t.Errorf("error %v is not TLP-022", err)
	}
}

// TestRead: input read in small pieces gives the one-shot result; a read
// error ends the sequence with TLP-008.
func TestRead(t *testing.T) {
	text := "Sure.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>"
	var last stream.Event
	for ev, err := range stream.Read(context.Background(), stream.NewParser(hermes.Dialect, nil), iotest.OneByteReader(strings.NewReader(text))) {
		if err != nil {
			t.Fatal(err)
		}
		last = ev
	}
	if last.Kind != stream.Done || len(last.Result.Calls) != 1 || last.Result.Content != "Sure." {
		t.Fatalf("last event %+v", last)
	}
	boom := errors.New("boom")
	var err error
	for _, e := range stream.Read(context.Background(), stream.NewParser(hermes.Dialect, nil), io.MultiReader(strings.NewReader("Hi"), iotest.ErrReader(boom))) {
		if e != nil {
			err = e
		}
	}
	if !errors.Is(err, boom) || !errors.Is(err, toolcall.ErrStream) {
		t.Errorf("error %v", err)
	}
}

// regOpts is o with the dialect options d.
func regOpts(d dialects.Options, o registry.Options) *registry.Options {
	o.SetDialectOptions(d)
	return &o
}
