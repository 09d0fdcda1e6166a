package render

import (
	"strconv"
	"strings"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects/markers"
	"github.com/dialectkit/toolcall/dialects/tagged"
)

// spec describes one renderer before it is compiled.
type spec struct {
	name string
	// lits are the dialect's own literals: escaped in JSON and Python
	// strings, and never allowed in raw text.
	lits []string
	// raw are the literals that end a raw-text value (tagged parameters,
	// Gemma's delimited strings); nil for dialects whose values are all
	// JSON or Python.
	raw    []string
	calls  callsFunc
	prompt *prompt
	result resultFunc
	// quote is the quote of Python string literals; 0 for '.
	quote byte
}

func (s spec) compile(shared []string) *renderer {
	r := &renderer{name: s.name, calls: s.calls, prompt: s.prompt, result: s.result,
		guard: newGuard(s.lits, s.raw, shared), quote: s.quote}
	if s.raw != nil {
		r.raw = newGuard(s.raw, shared)
	}
	if r.prompt == nil {
		r.prompt = generic("To call a tool, write the call exactly in this format:", listLines)
	}
	if r.result == nil {
		r.result = labelled
	}
	return r
}

// lit is the spelling of a descriptor marker a model writes: the first
// one, with the spaces that stand for optional whitespace left out.
func lit(spellings []string) string {
	if len(spellings) == 0 {
		return ""
	}
	return strings.ReplaceAll(spellings[0], " ", "")
}

// markerLits are a markers dialect's literals: its markers and the first
// spelling of every start and end.
func markerLits(d *markers.Dialect) []string {
	desc := d.Descriptor()
	out := append([]string(nil), d.Markers()...)
	if desc.Section != nil {
		out = append(out, lit(desc.Section.Start), lit(desc.Section.End))
	}
	for _, f := range desc.Forms {
		out = append(out, lit(f.Start), lit(f.End), lit(f.NameEnd), lit(f.NamePrefix), lit(f.IDSep))
	}
	out = append(out, desc.Answer...)
	return append(out, desc.Strip...)
}

// Gemma's string delimiters, and the MCP server name MiroThinker calls
// are addressed to.
const (
	gemma4Quote = `<|"|>`
	fgEscape    = "<escape>"
	mcpServer   = "tools"
)

// jsonArray is the frame of calls written as one JSON array between open
// and close.
func jsonArray(open, close string) frame {
	return frame{open: open + "[", close: "]" + close, sep: ", "}
}

// specs lists a renderer for every dialect of the default registry and for
// Native.
func specs() []spec {
	name := object("name", "arguments")
	qwenResult := wrapped("<tool_response>\n", "\n</tool_response>")
	out := []spec{
		{name: Native, calls: plainJSON("name", "arguments"), prompt: jsonPrompt},
		{name: "ollama", calls: ollamaResponse, prompt: &prompt{text: jsonPrompt.text, list: jsonPrompt.list, example: plainJSON("name", "arguments")}},
		{name: "json", calls: plainJSON("name", "arguments"), prompt: jsonPrompt},
		{name: "markdown_json", calls: framed(frame{before: "```json\n", after: "\n```", sep: "\n\n"}, name), prompt: markdownPrompt},
		{name: "hermes", lits: []string{"<tool_call>", "</tool_call>"},
			calls:  framed(frame{before: "<tool_call>\n", after: "\n</tool_call>", sep: "\n"}, name),
			prompt: hermesPrompt, result: qwenResult},
		{name: "harmony", lits: []string{"<|start|>", "<|channel|>", "<|constrain|>", "<|message|>", "<|call|>", "<|end|>", "<|return|>"},
			calls: framed(frame{}, harmonyCall), prompt: harmonyPrompt},
		{name: "gemma4", lits: []string{"<|tool_call>", "<tool_call|>", "call:"}, raw: []string{"<|tool_call>", "<tool_call|>", gemma4Quote, fgEscape, "<|channel>", "<channel|>"},
			calls:  framed(frame{before: "<|tool_call>", after: "<tool_call|>"}, gemmaCall(gemma4Quote)),
			prompt: gemma4Prompt, result: gemmaResult("<|tool_response>", "<tool_response|>", gemma4Quote)},
		{name: "functiongemma", lits: []string{"<start_function_call>", "<end_function_call>", "call:"}, raw: []string{"<start_function_call>", "<end_function_call>", fgEscape, gemma4Quote},
			calls:  framed(frame{before: "<start_function_call>", after: "<end_function_call>"}, gemmaCall(fgEscape)),
			prompt: functionGemmaPrompt, result: gemmaResult("<start_function_response>", "<end_function_response>", fgEscape)},

		// The pythonic family.
		{name: "pythonic", lits: []string{"<|python_start|>", "<|python_end|>"},
			calls: framed(frame{open: "[", close: "]", sep: ", "}, pyCall), prompt: pythonicPrompt},
		{name: "llama4_pythonic", lits: []string{"<|python_start|>", "<|python_end|>"},
			calls: framed(frame{open: "<|python_start|>[", close: "]<|python_end|>", sep: ", "}, pyCall), prompt: llama4Prompt},
		{name: "olmo3", lits: []string{"<function_calls>", "</function_calls>"},
			calls: framed(frame{open: "<function_calls>", close: "</function_calls>", sep: "\n"}, pyCall), prompt: olmo3Prompt, quote: '"'},
		{name: "lfm2", lits: []string{"<|tool_call_start|>", "<|tool_call_end|>"},
			calls: framed(frame{open: "<|tool_call_start|>[", close: "]<|tool_call_end|>", sep: ", "}, pyCall), prompt: lfm2Prompt, quote: '"',
			result: wrapped("<|tool_response_start|>", "<|tool_response_end|>")},
		{name: "sarashina", lits: []string{"<|tool_calls|>"},
			calls:  framed(frame{open: "<|tool_calls|>[", close: "]", sep: ", "}, pyDictCall),
			prompt: generic("To call tools, write <|tool_calls|> followed by a list of calls, each with its name and arguments, for example:", listFunctionLines)},
		{name: "llama3_builtin", lits: []string{"<|python_tag|>", "<|eom_id|>"},
			calls: framed(frame{before: "<|python_tag|>", sep: "\n"}, builtinCall), prompt: builtinPrompt},
	}
	out = append(out, markerSpecs()...)
	out = append(out, taggedSpecs()...)
	return out
}

// markerSpecs are the dialects of the markers engine, their literals taken
// from their descriptors.
func markerSpecs() []spec {
	name := object("name", "arguments")
	m := func(d *markers.Dialect, calls callsFunc, p *prompt, res resultFunc) spec {
		return spec{name: d.Name(), lits: markerLits(d), calls: calls, prompt: p, result: res}
	}
	form := func(d *markers.Dialect, i int) markers.Form { return d.Descriptor().Forms[i] }
	section := func(d *markers.Dialect) *markers.Section { return d.Descriptor().Section }

	mistral := form(markers.Mistral, 0)
	granite := form(markers.Granite, 0)
	g20 := form(markers.Granite20bFC, 0)
	functools := form(markers.Functools, 0)
	tca := form(markers.ToolCallsArray, 0)
	m1 := form(markers.MiniMaxM1, 0)
	nemo := form(markers.NemotronV2, 0)
	apertus := form(markers.Apertus, 0)
	intern := form(markers.InternLM2, 0)
	giga := form(markers.GigaChat3, 0)
	cohere := form(markers.Cohere, 0)
	// The action block's own token, the last spelling: the others add the
	// "Action:" label a model may write around it.
	cohere.Start = cohere.Start[len(cohere.Start)-1:]
	fv31 := form(markers.FunctionaryV31, 0)
	fv32 := form(markers.FunctionaryV32, 0)
	inkling := form(markers.Inkling, 0)
	ds3, ds3s := form(markers.DeepSeekV3, 0), section(markers.DeepSeekV3)
	ds31, ds31s := form(markers.DeepSeekV31, 0), section(markers.DeepSeekV31)
	kimi, kimis := form(markers.KimiK2, 0), section(markers.KimiK2)

	return []spec{
		// Mistral v11+: [TOOL_CALLS]NAME[ARGS]{…} per call (ForOutput keeps
		// the pre-v11 JSON array for a model that writes it).
		m(markers.Mistral, framed(frame{}, header(lit(mistral.Start), lit(mistral.NameEnd), "", "")),
			mistralPrompt, wrapped("[TOOL_RESULTS]", "[/TOOL_RESULTS]")),
		m(markers.Llama3JSON, framed(frame{sep: "; "}, object("name", "parameters")), llama3Prompt, nil),
		m(markers.Granite, framed(jsonArray(lit(granite.Start), ""), name), granitePrompt, nil),
		m(markers.Granite20bFC, framed(frame{before: lit(g20.Start) + " ", sep: "\n"}, name),
			generic("To call a function, write <function_call> followed by a JSON object with its name and arguments, for example:", listFunctionLines), nil),
		m(markers.Functools, framed(jsonArray(lit(functools.Start), ""), name), functoolsPrompt, nil),
		m(markers.ToolCallsArray, framed(jsonArray(lit(tca.Start), lit(tca.End)), name), jambaPrompt, nil),
		m(markers.MiniMaxM1, framed(frame{open: lit(m1.Start) + "\n", close: "\n" + lit(m1.End), sep: "\n"}, name), minimaxM1Prompt, nil),
		m(markers.NemotronV2, framed(jsonArray(lit(nemo.Start), lit(nemo.End)), name), nemotronPrompt,
			wrapped("<TOOL_RESPONSE>", "</TOOL_RESPONSE>")),
		m(markers.XLAM, framed(jsonArray("", ""), name), xlamPrompt, nil),
		m(markers.Apertus, framed(jsonArray(lit(apertus.Start), lit(apertus.End)), keyed),
			generic("To call tools, write a JSON list of objects, each mapping a tool's name to its arguments, between <|tools_prefix|> and <|tools_suffix|>, for example:", listFunctionLines), nil),
		m(markers.InternLM2, framed(frame{before: lit(intern.Start) + "\n", after: lit(intern.End), sep: "\n"}, object("name", "parameters")),
			internPrompt, nil),
		m(markers.GigaChat3, framed(frame{before: lit(giga.Start), sep: "\n"}, name),
			generic("To call a function, write <|function_call|> followed by a JSON object with its name and arguments, for example:", listFunctionLines), nil),
		m(markers.Cohere, framed(frame{open: lit(cohere.Start) + "[\n    ", close: "\n]" + lit(cohere.End), sep: ",\n    "}, cohereCall),
			coherePrompt, cohereResult),
		m(markers.GenericJSON, genericJSON, genericJSONPrompt, genericResult),
		m(markers.Gemini, geminiCalls, geminiPrompt, geminiResult),
		m(markers.FunctionaryV31, framed(frame{after: lit(fv31.End)}, header(lit(fv31.Start), lit(fv31.NameEnd), "", "")), functionaryV31Prompt, nil),
		m(markers.FunctionaryV32, framed(frame{sep: "\n"}, header(lit(fv32.Start), lit(fv32.NameEnd), "", "")), functionaryV32Prompt, nil),
		m(markers.Inkling, framed(frame{before: lit(inkling.Start), after: lit(inkling.End)}, inklingCall(lit(inkling.NameEnd))),
			generic("To call a tool, write <|message_model|>, the tool's name, <|content_invoke_tool_json|> and a JSON object with its name and args, then <|end_message|>, for example:", listFunctionLines), nil),
		m(markers.DeepSeekV3, framed(frame{open: lit(ds3s.Start), close: lit(ds3s.End), before: lit(ds3.Start), after: lit(ds3.End), sep: "\n"},
			header(lit(ds3.NamePrefix), lit(ds3.NameEnd), "```json\n", "\n```")),
			deepseekV3Prompt, wrapped("<｜tool▁outputs▁begin｜><｜tool▁output▁begin｜>", "<｜tool▁output▁end｜><｜tool▁outputs▁end｜>")),
		m(markers.DeepSeekV31, framed(frame{open: lit(ds31s.Start), close: lit(ds31s.End), before: lit(ds31.Start), after: lit(ds31.End)},
			header("", lit(ds31.NameEnd), "", "")),
			deepseekV31Prompt, wrapped("<｜tool▁output▁begin｜>", "<｜tool▁output▁end｜>")),
		m(markers.KimiK2, framed(frame{open: lit(kimis.Start), close: lit(kimis.End), before: lit(kimi.Start), after: lit(kimi.End)},
			kimiHeader(lit(kimi.NameEnd))), kimiPrompt, kimiResult),
	}
}

// geminiCalls writes one {"function_call": {…}} object per call, one per
// line.
func geminiCalls(w *writer, calls []toolcall.Call) {
	framed(frame{sep: "\n"}, enveloped("function_call", object("name", "args")))(w, calls)
}

// taggedSpecs are the dialects of the tagged engine, written from their
// descriptors.
func taggedSpecs() []spec {
	qwenResult := wrapped("<tool_response>\n", "\n</tool_response>")
	step3 := tagged.Step3.Descriptor()
	dsml := wrapped("<function_results>\n<result>", "</result>\n</function_results>")
	return []spec{
		taggedSpec(tagged.Qwen3Coder, taggedLayout{lines: true, padValues: true, scopePerCall: true}, qwen3CoderPrompt, qwenResult),
		taggedSpec(tagged.SeedOSS, taggedLayout{lines: true, scopePerCall: true}, seedPrompt, nil),
		taggedSpec(tagged.GLM45, taggedLayout{lines: true, jsonFallback: true}, glmPrompt, qwenResult),
		longcatSpec(),
		taggedSpec(tagged.HYV3, taggedLayout{},
			generic("To call tools, write them inside <tool_calls></tool_calls>: each call is <tool_call>, the name, <tool_sep>, then an <arg_key>/<arg_value> pair per argument, and </tool_call>. For example:", listLines), nil),
		taggedSpec(tagged.MiniMaxM2, taggedLayout{lines: true}, minimaxM2Prompt, wrapped("<response>", "</response>")),
		taggedSpec(tagged.MiniMaxM3, taggedLayout{},
			generic("To call tools, write an invoke element per call inside a tool_call element, one child element per argument, every tag preceded by ]<]minimax[>[, for example:", listLines), nil),
		taggedSpec(tagged.MiniCPM5, taggedLayout{},
			generic("To call a function, write a function element with its name and one param element per argument, for example:", listFunctionLines), nil),
		taggedSpec(tagged.Step3, taggedLayout{lines: true,
			before: func(toolcall.Call, int) string { return step3.Filler[0] + step3.Filler[1] },
			after:  step3.Filler[3]},
			generic("To call tools, write a steptml:invoke element per call, with one steptml:parameter element per argument, in a tool-calls section, for example:", listLines), nil),
		taggedSpec(tagged.DeepSeekV32, taggedLayout{lines: true}, dsmlPrompt("function_calls"), dsml),
		taggedSpec(tagged.DeepSeekV4, taggedLayout{lines: true}, dsmlPrompt("tool_calls"), dsml),
		taggedSpec(tagged.KimiK3, taggedLayout{toolAttrs: func(i int) string { return ` index="` + strconv.Itoa(i) + `"` }},
			generic("To call tools, write a tools element holding a call element per call, with one typed argument element per argument, for example:", listArray), nil),
		taggedSpec(tagged.MiroThinker, taggedLayout{lines: true, server: mcpServer}, miroPrompt, nil),
		taggedSpec(tagged.Glimmer, taggedLayout{lines: true, scopePerCall: true, after: "<|eom|>",
			before: func(c toolcall.Call, _ int) string { return "<|start|>assistant to=" + c.Name + "<|message|>" }},
			generic("To call a tool, address a message to it and write an atem:invoke element with one atem:parameter element per argument, for example:", listLines), nil),
	}
}

// variantSpecs are the older or alternative forms ForOutput picks when a
// model's output shows them.
func variantSpecs() []struct {
	spec    spec
	matches func(string) bool
} {
	mistral := markers.Mistral.Descriptor().Forms[0]
	granite31 := markers.Granite.Descriptor().Forms[1]
	name := object("name", "arguments")
	return []struct {
		spec    spec
		matches func(string) bool
	}{
		{
			// Mistral before the v11 tokenizer: [TOOL_CALLS] [{…}, …].
			spec: spec{name: "mistral", lits: markerLits(markers.Mistral),
				calls: framed(jsonArray(lit(mistral.Start), ""), name), prompt: mistralLegacyPrompt,
				result: wrapped("[TOOL_RESULTS]", "[/TOOL_RESULTS]")},
			matches: func(out string) bool {
				i := strings.Index(out, "[TOOL_CALLS]")
				return i >= 0 && !strings.Contains(out, "[ARGS]") &&
					strings.HasPrefix(strings.TrimSpace(out[i+len("[TOOL_CALLS]"):]), "[")
			},
		},
		{
			// Granite 3.1: the literal text <tool_call> before the array.
			spec: spec{name: "granite", lits: markerLits(markers.Granite),
				calls: framed(jsonArray(lit(granite31.Start), ""), name), prompt: granitePrompt},
			matches: func(out string) bool {
				return strings.Contains(out, "<tool_call>") && !strings.Contains(out, "<|tool_call|>")
			},
		},
		{
			// LongCat-Flash-Chat: a JSON call object inside the call tags.
			spec:    longcatJSONSpec(),
			matches: longcatJSON,
		},
		{
			// GigaChat 3.1: the call is a message of its own.
			spec: spec{name: "gigachat3", lits: markerLits(markers.GigaChat3),
				calls:  framed(frame{before: "<|message_sep|>\n\nfunction call<|role_sep|>\n", sep: "\n"}, name),
				prompt: generic("To call a function, start a function call message and write a JSON object with its name and arguments, for example:", listFunctionLines)},
			matches: func(out string) bool { return strings.Contains(out, "<|message_sep|>") },
		},
	}
}

// longcatSpec writes LongCat's tagged-argument form, the one its newer
// templates ask for.
func longcatSpec() spec {
	return taggedSpec(tagged.LongCat, taggedLayout{lines: true, jsonFallback: true},
		generic("For each function call, write the function name and then each argument as a <longcat_arg_key>/<longcat_arg_value> pair, within <longcat_tool_call></longcat_tool_call> tags, for example:", listLines), nil)
}

// longcatJSONSpec writes LongCat-Flash-Chat's form: one JSON call object
// within the call tags per call.
func longcatJSONSpec() spec {
	s := longcatSpec()
	d := tagged.LongCat.Descriptor()
	s.calls = framed(frame{before: d.ToolStart, after: d.ToolEnd, sep: "\n"}, object("name", "arguments"))
	s.prompt = generic("For each function call, return a JSON object with the function name and arguments within <longcat_tool_call></longcat_tool_call> tags, for example:", listLines)
	return s
}

// longcatJSON reports whether a LongCat output writes its calls as JSON
// objects inside the call tags.
func longcatJSON(out string) bool {
	start := tagged.LongCat.Descriptor().ToolStart
	for {
		i := strings.Index(out, start)
		if i < 0 {
			return false
		}
		out = strings.TrimLeft(out[i+len(start):], " \t\r\n")
		if strings.HasPrefix(out, "{") {
			return true
		}
	}
}
