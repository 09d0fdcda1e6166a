package markers

import (
	"strings"

	"github.com/dialectkit/toolcall/dialects"
)

// The dialects of this package, one descriptor each. The syntax of every
// one is in docs/dialects/markers.md and the catalogue it follows.
var (
	// Mistral is Mistral's [TOOL_CALLS]: a JSON array of calls (7B v0.3,
	// Nemo, Small ≤ 3.1), or [TOOL_CALLS]NAME[ARGS]{…} repeated per call
	// (v11+ tokenizers: Small 3.2, Magistral, Devstral, Ministral 3), with
	// [ARGS] possibly stripped and an optional [CALL_ID]; Magistral reasons
	// in [THINK]…[/THINK].
	Mistral = MustNew(Descriptor{
		Name: "mistral",
		Forms: []Form{{
			Start:       []string{"[TOOL_CALLS]"},
			End:         []string{"[/TOOL_CALLS]"},
			Values:      true,
			NameEnd:     []string{"[ARGS]"},
			NameAtValue: true,
			IDSep:       []string{"[CALL_ID]"},
		}},
		Reasoning: []dialects.ReasoningTags{{Open: "[THINK]", Close: "[/THINK]"}},
		// Not ReasoningClosed: the dialect covers Magistral and Ministral 3,
		// whose output may begin inside [THINK]: Ollama's Ministral parser
		// starts a thinking-capable model in its thinking state and reads
		// "thinking here[/THINK]" as reasoning. No distinct dialect name
		// separates the older models, whose templates open nothing.
		Strip: []string{"</s>"},
	})

	// Llama3JSON is Llama 3.1–3.3 (and Llama 4) JSON tool calling: bare
	// {"name": …, "parameters": {…}} objects, optionally after
	// <|python_tag|>, separated by semicolons.
	Llama3JSON = MustNew(Descriptor{
		Name:  "llama3_json",
		Forms: []Form{{Start: []string{"<|python_tag|>"}, Values: true}},
		Strip: []string{"<|eom_id|>", "<|eot_id|>"},
		Bare:  true,
		// Llama 3.x and 4 templates end the generation prompt with the
		// assistant header and open no reasoning block (Ollama's
		// llama3-instruct template; no Ollama renderer or parser for Llama
		// starts in reasoning), as for llama3_builtin and llama4_pythonic.
		ReasoningClosed: true,
	})

	// Granite is IBM Granite 3.x: <|tool_call|>[…] (3.0) or the literal
	// text "<tool_call>" followed by an array (3.1); no closing tag, and
	// the marker may be missing before a bare array. "<tool_call>" followed
	// by an object is Hermes, not Granite. Granite 3.2+ thinks in
	// <think>…</think> and wraps the answer in <response>…</response>.
	Granite = MustNew(Descriptor{
		Name: "granite",
		Forms: []Form{
			{Start: []string{"<|tool_call|>"}, Values: true},
			{Start: []string{"<tool_call>"}, Opener: "[", Shared: true, Values: true},
		},
		Reasoning: []dialects.ReasoningTags{dialects.Think},
		// Granite's templates open no reasoning block.
		ReasoningClosed: true,
		Strip:           []string{"<|end_of_text|>", "<response>", "</response>"},
		Bare:            true,
	})

	// Granite20bFC is granite-20b-functioncalling: <function_call> before
	// each call object, closed by </function_call> in some prompts.
	Granite20bFC = MustNew(Descriptor{
		Name:  "granite_20b_fc",
		Forms: []Form{{Start: []string{"<function_call>"}, End: []string{"</function_call>"}, Values: true}},
		Strip: []string{"<|endoftext|>"},
		// granite-20b-functioncalling and the Granite and Gemma prompts
		// that use the same form: their templates open no reasoning block
		// (Ollama's granite-instruct, gemma-instruct and gemma3-instruct
		// templates end with the model's turn header, "Answer:" or
		// "<start_of_turn>model").
		ReasoningClosed: true,
	})

	// Functools is Phi-4-mini and FireFunction v2: functools[{…}].
	Functools = MustNew(Descriptor{
		Name:  "functools",
		Forms: []Form{{Start: []string{"functools"}, Opener: "[", Shared: true, Values: true}},
		Strip: []string{"<|eot_id|>", "<|end|>"},
		// Phi-4-mini (Ollama's phi-3 template: "<|assistant|>") and
		// FireFunction v2 (a Llama 3 template) open no reasoning block; the
		// functools[ prefix is theirs alone.
		ReasoningClosed: true,
	})

	// ToolCallsArray is <tool_calls>[…]</tool_calls>: AI21 Jamba, Tencent
	// Hunyuan-A13B (whose answer is framed by <answer>…</answer>),
	// ServiceNow Apriel.
	ToolCallsArray = MustNew(Descriptor{
		Name:      "tool_calls_array",
		Forms:     []Form{{Start: []string{"<tool_calls>"}, End: []string{"</tool_calls>"}, Values: true}},
		Reasoning: []dialects.ReasoningTags{dialects.Think},
		Strip:     []string{"<answer>", "</answer>"},
	})

	// MiniMaxM1 is MiniMax-Text-01 and MiniMax-M1: one call object per line
	// inside <tool_calls>…</tool_calls>.
	MiniMaxM1 = MustNew(Descriptor{
		Name:      "minimax_m1",
		Forms:     []Form{{Start: []string{"<tool_calls>"}, End: []string{"</tool_calls>"}, Values: true}},
		Reasoning: []dialects.ReasoningTags{dialects.Think},
		// MiniMax-M1's chat template ends the generation prompt with
		// "<beginning_of_sentence>ai name=assistant\n" and writes no
		// reasoning tag (M1 writes its own <think>); MiniMax-Text-01 does
		// not reason.
		ReasoningClosed: true,
	})

	// NemotronV2 is NVIDIA Nemotron Nano v2: <TOOLCALL>[…]</TOOLCALL>.
	NemotronV2 = MustNew(Descriptor{
		Name:      "nemotron_v2",
		Forms:     []Form{{Start: []string{"<TOOLCALL>"}, End: []string{"</TOOLCALL>"}, Values: true}},
		Reasoning: []dialects.ReasoningTags{dialects.Think},
	})

	// XLAM is Salesforce xLAM: a bare JSON array of calls, possibly in a
	// code fence, after reasoning, after [TOOL_CALLS] or inside
	// <tool_call>…</tool_call>, the three frames also after prose; or
	// xLAM's own {"thought": "…", "tool_calls": […]} object. It has no
	// markers.
	XLAM = MustNew(Descriptor{
		Name:             "xlam",
		Bare:             true,
		BarePrefix:       []string{"[TOOL_CALLS]"},
		BareWrappers:     []Wrapper{{Start: "<tool_call>", End: "</tool_call>"}},
		FramedAfterProse: true,
		Envelopes:        []string{"tool_calls"},
		ContentKey:       "thought",
		Reasoning:        []dialects.ReasoningTags{dialects.Think},
		// xLAM's templates open no reasoning block.
		ReasoningClosed: true,
		Markers:         []string{},
	})

	// Apertus is Swiss AI Apertus: <|tools_prefix|>[{"NAME": {…}}]<|tools_suffix|>,
	// the tool name as the key; it reasons in <|inner_prefix|>…<|inner_suffix|>.
	Apertus = MustNew(Descriptor{
		Name:      "apertus",
		Forms:     []Form{{Start: []string{"<|tools_prefix|>"}, End: []string{"<|tools_suffix|>"}, Values: true}},
		NameIsKey: true,
		Reasoning: []dialects.ReasoningTags{{Open: "<|inner_prefix|>", Close: "<|inner_suffix|>"}},
		// Apertus-8B-Instruct's chat template ends the generation prompt
		// with <|assistant_start|>; <|inner_prefix|> is the model's own.
		ReasoningClosed: true,
	})

	// InternLM2 is InternLM2/2.5 and Intern-S1:
	// <|action_start|><|plugin|>{…}<|action_end|>.
	InternLM2 = MustNew(Descriptor{
		Name:  "internlm2",
		Forms: []Form{{Start: []string{"<|action_start|> <|plugin|>"}, End: []string{"<|action_end|>"}, Values: true}},
		Strip: []string{"<|im_end|>"},
	})

	// GigaChat3 is Sber GigaChat 3 (<|function_call|>{…}) and 3.1
	// (<|message_sep|>\n\nfunction call<|role_sep|>\n{…}, the separator
	// missing when the call opens the answer).
	GigaChat3 = MustNew(Descriptor{
		Name: "gigachat3",
		Forms: []Form{
			{Start: []string{"<|function_call|>"}, Values: true},
			{Start: []string{"<|message_sep|> function call<|role_sep|>", "function call<|role_sep|>"}, Values: true},
		},
		// The tokens, not the words "function call" before <|role_sep|>.
		Markers: []string{"<|function_call|>", "<|message_sep|>", "<|role_sep|>"},
		// GigaChat3-10B-A1.8B's and GigaChat3.1-10B-A1.8B's chat templates
		// end the generation prompt with "assistant<|role_sep|>" and write
		// no reasoning tag anywhere.
		ReasoningClosed: true,
	})

	// Cohere is Command R7B, Command A and Cohere2MoE:
	// <|START_ACTION|>[{"tool_call_id": …, "tool_name": …, "parameters": {…}}]<|END_ACTION|>,
	// thinking in <|START_THINKING|>…<|END_THINKING|>, the answer framed by
	// <|START_RESPONSE|>/<|START_TEXT|> tokens that are not content; and
	// Command R/R+'s older "Action: ```json […]```". The label "Action:"
	// may also stand right before an action block or open it: it is the
	// block's framing.
	Cohere = MustNew(Descriptor{
		Name: "cohere",
		Forms: []Form{
			{Start: []string{"Action: <|START_ACTION|> Action:", "Action: <|START_ACTION|>", "<|START_ACTION|> Action:", "<|START_ACTION|>"},
				End: []string{"<|END_ACTION|>"}, Values: true},
			{Start: []string{"Action:"}, Values: true, Shared: true},
		},
		Reasoning: []dialects.ReasoningTags{{Open: "<|START_THINKING|>", Close: "<|END_THINKING|>"}},
		// Not ReasoningClosed: Command R7B and Command A write their own
		// <|START_THINKING|>, but Cohere2MoE's chat template ends the
		// generation prompt inside a reasoning block, so its output holds
		// only the closing <|END_THINKING|>.
		// The turn's framing is not content either: the chatbot turn's
		// tokens, which a model may repeat, and Cohere2MoE's end of
		// sequence, </s>.
		// An output that opens with the answer's frame did not open in
		// reasoning.
		Answer: []string{"<|START_RESPONSE|>", "<|START_TEXT|>"},
		// Cohere's special tokens announce it, calls or not; the label
		// "Action:" is a word too, the weakest.
		Markers: []string{"<|START_ACTION|>", "<|START_RESPONSE|>", "<|END_THINKING|>", "Action:"},
		Strip: []string{"<|END_RESPONSE|>", "<|END_TEXT|>",
			"<|START_OF_TURN_TOKEN|>", "<|CHATBOT_TOKEN|>", "<|END_OF_TURN_TOKEN|>", "</s>"},
	})

	// GenericJSON is llama.cpp's grammar-constrained fallback:
	// {"tool_call": {…}}, {"tool_calls": […]} or {"response": "…"}.
	GenericJSON = MustNew(Descriptor{
		Name:       "generic_json",
		Bare:       true,
		Envelopes:  []string{"tool_call", "tool_calls"},
		ContentKey: "response",
	})

	// Gemini is Gemini-style prompting: {"function_call": {"name": …, "args": {…}}}.
	Gemini = MustNew(Descriptor{
		Name:      "gemini",
		Bare:      true,
		Envelopes: []string{"function_call", "functionCall"},
	})

	// FunctionaryV31 is functionary v3.1 (Llama 3.1 template):
	// <function=NAME>{…}</function>, and raw code after <|python_tag|> as a
	// call to python.
	FunctionaryV31 = MustNew(Descriptor{
		Name: "functionary_v3_1",
		Forms: []Form{
			{Start: []string{"<function="}, NameEnd: []string{">"}, End: []string{"</function>"}},
			{Start: []string{"<|python_tag|>"}, RawName: "python", RawKey: "code", End: []string{"<|eom_id|>", "<|eot_id|>"}},
		},
		Strip: []string{"<|eom_id|>", "<|eot_id|>"},
		// Functionary v3.1 is a Llama 3.1 fine-tune on Llama 3.1's template
		// (the one template rule that names the dialect wants both
		// "<function=" and <|python_tag|>), which opens no reasoning block.
		// Reasoning families that write <function=NAME> (Qwen3-Coder,
		// Qwen3.5, Seed-OSS) write parameters, not a JSON body: they are
		// qwen3_coder and seed_oss.
		ReasoningClosed: true,
	})

	// FunctionaryV32 is functionary-medium-v3.2: >>>NAME\n{…} repeated,
	// >>>all\n for plain text, python with raw code. The prompt writes the
	// first >>>, so the output may begin with NAME\n.
	FunctionaryV32 = MustNew(Descriptor{
		Name: "functionary_v3_2",
		Forms: []Form{{
			Start:        []string{">>>"},
			NameEnd:      []string{"\n"},
			NameAtValue:  true,
			ContentNames: []string{"all"},
			RawNames:     map[string]string{"python": "code"},
			Implicit:     true,
		}},
		Strip: []string{"<|eot_id|>"},
		// The generation prompt writes the first ">>>", not a reasoning
		// block (Llama 3.1's template with functionary's turn header).
		ReasoningClosed: true,
	})

	// Inkling is <|message_model|>NAME<|content_invoke_tool_json|>{"name": …, "args": {…}}<|end_message|>.
	Inkling = MustNew(Descriptor{
		Name: "inkling",
		Forms: []Form{{
			Start:      []string{"<|message_model|>"},
			NameEnd:    []string{"<|content_invoke_tool_json|>"},
			End:        []string{"<|end_message|>"},
			CallObject: true,
			Shared:     true,
		}},
		Strip: []string{"<|message_model|>", "<|end_message|>"},
	})

	// DeepSeekV3 is DeepSeek-V3, R1, R1-0528 and Cogito v2:
	// <｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME\n```json\n{…}\n```<｜tool▁call▁end｜>
	// inside <｜tool▁calls▁begin｜>…<｜tool▁calls▁end｜>.
	DeepSeekV3 = MustNew(Descriptor{
		Name:    "deepseek_v3",
		Section: &Section{Start: deepseekSectionStart, End: deepseekTokens("tool▁calls▁end")},
		Forms: []Form{{
			Start:       deepseekTokens("tool▁call▁begin"),
			End:         deepseekTokens("tool▁call▁end"),
			NamePrefix:  prefixed("function ", deepseekTokens("tool▁sep")),
			NameEnd:     []string{"\n"},
			NameAtValue: true,
		}},
		Reasoning: []dialects.ReasoningTags{dialects.Think},
		Strip:     deepseekStrip,
		Markers:   deepseekTokens("tool▁calls▁begin", "tool▁call▁begin", "tool▁sep"),
	})

	// DeepSeekV31 is DeepSeek-V3.1, V3.1-Terminus and V3.2-Exp:
	// <｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>.
	DeepSeekV31 = MustNew(Descriptor{
		Name:    "deepseek_v31",
		Section: &Section{Start: deepseekSectionStart, End: deepseekTokens("tool▁calls▁end")},
		Forms: []Form{{
			Start:   deepseekTokens("tool▁call▁begin"),
			End:     deepseekTokens("tool▁call▁end"),
			NameEnd: deepseekTokens("tool▁sep"),
		}},
		Reasoning: []dialects.ReasoningTags{dialects.Think},
		Strip:     deepseekStrip,
		Markers:   deepseekTokens("tool▁calls▁begin", "tool▁call▁begin", "tool▁sep"),
	})

	// KimiK2 is Moonshot Kimi-K2: <|tool_call_begin|>functions.NAME:IDX<|tool_call_argument_begin|>{…}<|tool_call_end|>
	// inside <|tool_calls_section_begin|>…<|tool_calls_section_end|>. The
	// whole id is kept as the call id.
	KimiK2 = MustNew(Descriptor{
		Name: "kimi_k2",
		Section: &Section{
			Start: []string{"<|tool_calls_section_begin|>", "<|tool_call_section_begin|>"},
			End:   []string{"<|tool_calls_section_end|>", "<|tool_call_section_end|>"},
		},
		Forms: []Form{{
			Start:   []string{"<|tool_call_begin|>"},
			End:     []string{"<|tool_call_end|>"},
			NameEnd: []string{"<|tool_call_argument_begin|>"},
			Header:  KimiID,
		}},
		Reasoning: []dialects.ReasoningTags{dialects.Think},
		Strip:     []string{"<|im_end|>"},
		// Kimi-K2's, Kimi-K2-Instruct's and Kimi-K2-Thinking's chat
		// templates end the generation prompt with
		// <|im_assistant|>assistant<|im_middle|>: K2 Thinking writes its
		// own <think> (llama.cpp's Kimi-K2 parser reads an optional <think>
		// after that prompt).
		ReasoningClosed: true,
	})
)

// All returns every dialect of the package.
func All() []dialects.Dialect {
	return []dialects.Dialect{
		Mistral, Llama3JSON, Granite, Granite20bFC, Functools, ToolCallsArray, MiniMaxM1,
		NemotronV2, XLAM, Apertus, InternLM2, GigaChat3, Cohere, GenericJSON, Gemini,
		FunctionaryV31, FunctionaryV32, Inkling, DeepSeekV3, DeepSeekV31, KimiK2,
	}
}

// KimiID reads a Kimi call id, functions.NAME:IDX, into the tool name and
// the id (kept whole). The "functions." prefix may be missing
// ("api.tools.search:0" names api.tools.search), the index may not: an id
// without one ("functions.get_weather.0") is not a call id, as every peer
// that reads Kimi ids by pattern has it, and yields no name.
func KimiID(header string) (name, id string) {
	name = strings.TrimPrefix(header, "functions.")
	i := strings.LastIndexByte(name, ':')
	if i < 0 || i+1 == len(name) || !digits(name[i+1:]) {
		return "", header
	}
	return name[:i], header
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// deepseekTokens spells DeepSeek special tokens with fullwidth bars
// (U+FF5C, as the tokenizer writes them) and with ASCII bars (as some
// templates and servers print them).
func deepseekTokens(names ...string) []string {
	out := make([]string, 0, 2*len(names))
	for _, n := range names {
		out = append(out, "<｜"+n+"｜>", "<|"+n+"|>")
	}
	return out
}

func prefixed(prefix string, ms []string) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = prefix + m
	}
	return out
}

// deepseekSectionStart is the calls-section token and the misspellings
// llama.cpp accepts for it (models emit them when the token is split).
var deepseekSectionStart = append(deepseekTokens("tool▁calls▁begin", "tool_calls_begin", "tool▁calls"),
	"<｜tool calls begin｜>", `<｜tool\_calls\_begin｜>`)

// deepseekStrip are DeepSeek tokens that frame text without being content:
// end of sentence, and the tool-output wrappers a model sometimes echoes
// (their text is kept as content).
var deepseekStrip = deepseekTokens("end▁of▁sentence", "tool▁outputs▁begin", "tool▁outputs▁end",
	"tool▁output▁begin", "tool▁output▁end")
