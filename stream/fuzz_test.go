package stream_test

import (
	"math/rand/v2"
	"testing"

	"github.com/dialectkit/toolcall/internal/corpustest"
	"github.com/dialectkit/toolcall/internal/fuzzcheck"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
)

// FuzzStream cuts arbitrary output at random points and streams it in a
// dialect the input picks (any registered one, or none: detection), with
// the reasoning start unknown, open or closed. It compares the event
// stream with the one-shot parse: the final result must be the one-shot
// result, every call event the final call of its index, the content and
// reasoning deltas the final text, the dialect detected the result's, and
// nothing streamed may disagree with the end (streamtest.Compare).
func FuzzStream(f *testing.F) {
	vs, err := corpustest.Dialects()
	if err != nil {
		f.Fatal(err)
	}
	for i, v := range vs {
		if i%7 == 0 {
			f.Add(v.Text, uint64(i), uint8(i))
		}
	}
	f.Add("<think>a</think>b<tool_call>{\"name\":\"f\",\"arguments\":{}}</tool_call>", uint64(1), uint8(0))
	names := append([]string{""}, registry.Names()...)
	pick := func(name string, flags uint8) uint8 {
		for i, n := range names {
			if n == name {
				return uint8(i) | flags
			}
		}
		f.Fatalf("no dialect %q", name)
		return 0
	}
	const closedFlag, openFlag = 0x80, 0x40
	// Classes where a settled event was once contradicted at the end.
	f.Add("<function=python>import shutil</function>\nshutil.rmtree('/tmp/x')</function>", uint64(3), pick("functionary_v3_1", 0))
	f.Add("A(", uint64(1), pick("llama4_pythonic", closedFlag))
	f.Add("Hello(x", uint64(2), pick("pythonic", closedFlag))
	f.Add("xf(a=1)", uint64(5), pick("pythonic", closedFlag))
	// Calls quoted inside a sentence are shown, not made.
	f.Add("Write \"<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": [\"x\", 1]}}</tool_call>\" to call f.", uint64(4), pick("hermes", 0))
	f.Add("The model answers \u201C[TOOL_CALLS]f[ARGS]{}\u201D here.\n[TOOL_CALLS]f[ARGS]{}", uint64(6), pick("", 0))
	f.Add("<start_function_call>call:f{a:1}<end_function_call> and <start_function_call>", uint64(4), pick("functiongemma", 0))
	f.Add("thinking here</think>answer <tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>", uint64(6), pick("", openFlag))
	f.Add("  \n[{\"name\": \"f\", \"arguments\": {}}]", uint64(7), pick("xlam", 0))
	f.Add("  \n<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>", uint64(8), pick("hermes", 0))
	f.Add("[TOOL_CALLS] [{\"name\": \"f\", \"arguments\": {\"a\": 1}}]}>x", uint64(9), pick("mistral", 0))
	f.Add("<function_calls>f(a=1).x(b=2)</function_calls>", uint64(10), pick("olmo3", 0))
	f.Add("<tool_call>{\"name\":\"f\",\"arguments\":{}}</tool_call>x</think>y", uint64(11), pick("hermes", 0))
	// Families whose templates open no reasoning block: a call after text
	// is live, and a later closing tag is text.
	f.Add("Sure.\n<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|> ok</think> x", uint64(12), pick("kimi_k2", 0))
	f.Add("Sure.\n<seed:tool_call>\n<function=f>\n</function>\n</seed:tool_call> ok</seed:think> x", uint64(13), pick("", 0))
	f.Add("Sure. <|tools_prefix|>[{\"f\": {}}]<|tools_suffix|> ok<|inner_suffix|> x", uint64(14), pick("apertus", 0))
	// Reasoning the template opened, after whitespace, under detection:
	// every candidate trims it (Hermes kept it, after the stream had shown
	// it trimmed).
	f.Add(" 0</think> <tool_call>", uint64(336), pick("", 0))
	// Leading whitespace under detection: the detected content is trimmed,
	// whatever the dialect keeps.
	f.Add("\n\nSure!\n<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>", uint64(20), pick("", closedFlag))
	f.Add(" \u00a0Sure!\n<tool_call>\n<function=f>\n</function>\n</tool_call>", uint64(21), pick("", 0))
	f.Add("Hello\u00a0world(a=1)", uint64(22), pick("pythonic", closedFlag))
	f.Add(" \n Sure!  \n[TOOL_CALLS] [{\"name\": \"f\", \"arguments\": {}}]", uint64(23), pick("mistral", 0))
	f.Add("\n\n Hi \n\n[f(a=1)]\n", uint64(24), pick("pythonic", closedFlag))
	f.Add("  \u00a0Hi", uint64(25), pick("llama3_json", 0))
	// Sections read part by part, at each start marker after a call.
	f.Add("[TOOL_CALLS]f[ARGS]{\"a\": 1}[TOOL_CALLS]g[ARGS]{\"b\": \"[TOOL_CALLS]\"}[TOOL_CALLS]\"[/TOOL_CALLS]", uint64(17), pick("mistral", closedFlag))
	f.Add("[TOOL_CALLS]f[ARGS]{\"a\": 1} [TOOL_CALLS][{\"name\": \"g\", \"arguments\": {}}]x[TOOL_CALLS]h[ARGS]{", uint64(18), pick("mistral", closedFlag))
	f.Add("<minimax:tool_call><invoke name=\"f\"><parameter name=\"a\">1</parameter></invoke><minimax:tool_call>\"</minimax:tool_call>", uint64(19), pick("minimax_m1", closedFlag))
	// Held outputs whose calls are probed before the end.
	f.Add("get_weather\n{\"city\": \"Paris\"}\n>>>all\nDone.", uint64(12), pick("functionary_v3_2", closedFlag))
	f.Add(" to=get_weather<|message|><atem:function_calls>\n<atem:invoke name=\"f\">\n<atem:parameter name=\"a\">1</atem:parameter></atem:invoke>\n<atem:invoke name=\"g\"></atem:invoke>\n</atem:function_calls><|eom|>", uint64(13), pick("glimmer", closedFlag))
	f.Add("<|START_RESPONSE|>On it.<|END_RESPONSE|>\n<|START_ACTION|>[{\"tool_name\": \"f\", \"parameters\": {}}, {\"tool_name\": \"g\", \"parameters\": {}}]<|END_ACTION|>\n<|START_TEXT|>Done.<|END_TEXT|>", uint64(14), pick("cohere", closedFlag))
	f.Add("Here: [{\"name\": \"f\", \"arguments\": {}}, {\"name\": \"g\", \"arguments\": {}}] done", uint64(15), pick("", closedFlag))
	f.Add("Sure.\n[f(a=1), g(b=2)]\nDone.", uint64(16), pick("pythonic", closedFlag))
	// With the reasoning start unknown, calls a later closing tag would not
	// unmake are probed; those it would unmake wait.
	f.Add("Let me check.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{\"a\": 1}<｜tool▁call▁end｜><｜tool▁calls▁end｜> More</think>Answer.", uint64(17), pick("deepseek_v31", 0))
	f.Add("Let me check.\n<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>\nMore</think>y", uint64(18), pick("hermes", 0))
	f.Add("Let me check.<function_calls>f(a=1)</function_calls> more</think>ok", uint64(19), pick("olmo3", 0))
	// An output that opens with a call settles the reasoning start; one
	// whose family never opens a block reads a stray closing tag as text.
	f.Add(" \n<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>x</think>y", uint64(30), pick("hermes", 0))
	f.Add("[{\"name\": \"f\", \"arguments\": {}}] x</think>y", uint64(31), pick("json", 0))
	f.Add("<TOOL_CALL>{\"name\": \"f\", \"arguments\": {}}</TOOL_CALL></think>y", uint64(32), pick("", 0))
	f.Add("Let me check</think> the weather.<|tool_call|>[{\"name\": \"f\", \"arguments\": {}}]", uint64(33), pick("granite", 0))
	f.Add("[f(a=1)] more</think>y", uint64(34), pick("olmo3", 0))
	f.Add("Let me check.\n<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{\"a\": 1}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>\nDone.", uint64(35), pick("deepseek_v3", 0))
	f.Add("Write `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{}\n```<｜tool▁call▁end｜>` ok", uint64(36), pick("deepseek_v3", 0))
	f.Add("```\n<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>\nok", uint64(37), pick("deepseek_v3", 0))
	// A held output's call inside a <think> block the dialect's syntax
	// does not name (its parse honours it all the same).
	f.Add("<think>I could write >>>f\n{\"a\": 1} but no.</think>I will not.", uint64(22), pick("functionary_v3_2", closedFlag))
	// Channel dialects read a closed <think> block as every dialect does;
	// under detection, reasoning streamed from the block stays reasoning.
	f.Add("<think>I could write <|start|>assistant<|channel|>commentary to=functions.f<|message|>{}<|call|> but no.</think>I will not.", uint64(23), pick("", 0))
	f.Add("<think>I could write <|start|>assistant<|channel|>commentary to=functions.f<|message|>{}<|call|> but no.</think>I will not.", uint64(24), pick("harmony", openFlag))
	f.Add("<think>a <|tool_call>call:f{}<tool_call|> b</think>\n<|tool_call>call:g{}<tool_call|>", uint64(25), pick("gemma4", 0))
	f.Add("x <start_function_call>call:f{}<end_function_call></think>y", uint64(26), pick("functiongemma", openFlag))
	// Inline code that holds a fence line: the marker after it may lie in
	// the code until the closing backtick comes.
	f.Add("Write `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>` here.", uint64(27), pick("deepseek_v3", 0))
	f.Add("Write `x\n```\ny\n```\n<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>` here.", uint64(28), pick("", closedFlag))
	// Framing tokens prose names without blanks around them.
	f.Add("The format is <|channel|>final<|message|> then the answer.", uint64(29), pick("", 0))
	// Under detection, with tools declared (the seed's second bit): a
	// closing tag before any call is text in a family whose template opens
	// no block, and blocks are joined differently by family.
	const withTools = 1 << 62
	f.Add("ok then</think>ok then<|python_start|>[calculate(x=10, y=20)]<|python_end|>", uint64(withTools|40), pick("", 0))
	f.Add("ok then</think>ok thenLet me check.\n<function=get_weather>{\"location\": \"Tokyo\"}</function>\nDone.", uint64(withTools|41), pick("", 0))
	f.Add("a<think>r</think>b <tool_call>{\"name\": \"get_weather\", \"arguments\": {}}</tool_call>", uint64(withTools|42), pick("", closedFlag))
	f.Add("<think>r</think><think>s</think>b <tool_call>\n<function=get_weather>\n</function>\n</tool_call>", uint64(withTools|43), pick("", closedFlag))
	// With a fallback chain (the seed's top bit set).
	const withFallback = 1 << 63
	f.Add("Hi there.\n<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": 1}}\n</tool_call>\nbye", uint64(withFallback|17), pick("mistral", closedFlag))
	f.Add("Hi there. {\"name\": \"f\", \"arguments\": {\"a\": 1}} bye", uint64(withFallback|1<<56|18), pick("mistral", closedFlag))
	f.Add("Calling now: [f(a=1)] ok", uint64(withFallback|2<<56|19), pick("llama3_json", 0))
	f.Add("<think>hm</think>Ok.\n[TOOL_CALLS] [{\"name\": \"f\", \"arguments\": {}}]", uint64(withFallback|3<<56|20), pick("hermes", 0))
	tools := fuzzcheck.CorpusTools(f)
	fallbacks := [][]string{{"json", "pythonic", "hermes"}, {"json"}, {"pythonic"}, {"mistral", "qwen3_coder"}, {"hermes", "markdown_json"}}
	f.Fuzz(func(t *testing.T, text string, seed uint64, pick uint8) {
		if len(text) > 4096 {
			return
		}
		opts := &registry.Options{Dialect: names[int(pick)%len(names)]}
		opts.ReasoningClosed = pick&0x80 != 0
		opts.ReasoningOpen = pick&0xc0 == 0x40
		if opts.Dialect != "" && seed>>63 != 0 {
			// A fallback chain (the seed's top bit): the stream must
			// still never contradict Parse with the same chain.
			opts.Fallback = fallbacks[int(seed>>56&0x7f)%len(fallbacks)]
		}
		if seed>>62&1 != 0 {
			// The corpus tools declared (the seed's second bit): names
			// are checked against them, and a call to none fails.
			opts.Tools = tools
		}
		want := registry.Parse(text, opts)
		rng := rand.New(rand.NewPCG(seed, 1))
		var cut []string
		for rest := text; rest != ""; {
			n := 1 + rng.IntN(min(len(rest), 16))
			cut, rest = append(cut, rest[:n]), rest[n:]
		}
		p := registry.Stream(opts)
		if err := streamtest.Compare(want, p, streamtest.Feed(p, cut)); err != nil {
			t.Fatalf("dialect %q: %v", opts.Dialect, err)
		}
	})
}
