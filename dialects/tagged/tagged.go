// Package tagged holds the dialects that write a tool call as a marker, the
// tool name and one tagged element per parameter (XML-like):
//
//	<tool_call>
//	<function=get_weather>
//	<parameter=city>
//	Tokyo
//	</parameter>
//	</function>
//	</tool_call>
//
// Every dialect here is a Descriptor, a handful of literals read by one
// engine; the few syntaxes that need more (glimmer's message headers) add a
// small hook. A new dialect of this shape is a Descriptor passed to New.
//
// Parameter values are raw text. They are returned as dialects.Param, and
// dialects.Finish types them by the declared tool's schema
// (schema.TypeText): "00123" stays a string for a string property, "5"
// becomes 5 for an integer one; without tools, text that is JSON is JSON.
// Dialects that declare a value's kind (DeepSeek DSML's string="true",
// Kimi-K3's type="…") set Param.IsString or Param.IsJSON. Nested MiniMax-M3
// elements are built into JSON by the engine and handed over as IsJSON.
package tagged

import "github.com/dialectkit/toolcall/dialects"

// minimaxM3Prefix is the namespace marker MiniMax-M3 writes before every tag.
const minimaxM3Prefix = "]<]minimax[>["

// The dialects of this package, by catalogue name.
var (
	// Qwen3Coder is Qwen3-Coder's XML (also Qwen3.5, Nemotron-3-Nano,
	// Step-3.5-Flash, MiMo-V2): <tool_call><function=NAME><parameter=KEY>VALUE
	// </parameter></function></tool_call>. The <tool_call> wrapper may be
	// missing.
	Qwen3Coder = MustNew(Descriptor{
		Name:       "qwen3_coder",
		Markers:    []string{"<function=", "<parameter=", "<tool_call>"},
		Evidence:   []string{"<parameter="},
		ScopeStart: "<tool_call>", ScopeEnd: "</tool_call>", ScopeOptional: true,
		ToolStart: "<function", ToolName: NameShorthand, ToolEnd: "</function>",
		KeyStart: "<parameter", Key: NameShorthand, ValEnd: "</parameter>",
		Reasoning: dialects.Think,
		// A JSON object in place of the parameter elements (the body
		// Functionary and Hermes write after <function=NAME>) is read as
		// the arguments rather than failed: peers read the call, and
		// detection reads it as Hermes.
		JSONArguments: true,
	})

	// SeedOSS is ByteDance Seed-OSS: Qwen3-Coder's calls inside
	// <seed:tool_call>, reasoning in <seed:think>.
	SeedOSS = MustNew(Descriptor{
		Name:       "seed_oss",
		Markers:    []string{"<seed:tool_call>", "<function=", "<parameter="},
		Evidence:   []string{"<seed:tool_call>"},
		ScopeStart: "<seed:tool_call>", ScopeEnd: "</seed:tool_call>",
		ToolStart: "<function", ToolName: NameShorthand, ToolEnd: "</function>",
		KeyStart: "<parameter", Key: NameShorthand, ValEnd: "</parameter>",
		Reasoning:     dialects.ReasoningTags{Open: "<seed:think>", Close: "</seed:think>"},
		JSONArguments: true, // as Qwen3Coder
		// Seed-OSS's chat template ends the generation prompt with
		// "assistant\n"; only with a thinking budget of 0 does it write a
		// block, and it closes it (<seed:think>…</seed:think>).
		ReasoningClosed: true,
	})

	// GLM45 is Zhipu GLM-4.5/4.6/4.7/5 and Poolside Laguna:
	// <tool_call>NAME\n<arg_key>KEY</arg_key>\n<arg_value>VALUE</arg_value>\n</tool_call>,
	// with or without the newlines. It also reads Laguna's variants: JSON
	// arguments after the name, a JSON call object inside <tool_call>, the
	// <user> wrapper, and a JSON call object ending the output.
	GLM45 = MustNew(Descriptor{
		Name:      "glm45",
		Markers:   []string{"<arg_key>", "<arg_value>", "<tool_call>"},
		Evidence:  []string{"<arg_key>"},
		ToolStart: "<tool_call>", ToolName: NameText, ToolEnd: "</tool_call>",
		Params:   PairParams,
		KeyStart: "<arg_key>", KeyEnd: "</arg_key>", ValStart: "<arg_value>", ValEnd: "</arg_value>",
		Reasoning:        dialects.Think,
		EndOfTurn:        []string{"<|observation|>"},
		JSONArguments:    true,
		JSONEnvelope:     true,
		LooseWrappers:    []Wrapper{{Start: "<user>", End: "</user>"}},
		TrailingJSONCall: true,
	})

	// LongCat is Meituan LongCat-Flash: GLM-4.5's layout with its own tags,
	// <longcat_tool_call>NAME\n<longcat_arg_key>KEY</longcat_arg_key>\n
	// <longcat_arg_value>VALUE</longcat_arg_value>\n</longcat_tool_call>, or
	// a JSON call object inside the tags (LongCat-Flash-Chat's form,
	// <longcat_tool_call>{"name": …, "arguments": {…}}</longcat_tool_call>);
	// it reasons in <longcat_think>…</longcat_think>.
	LongCat = MustNew(Descriptor{
		Name:      "longcat",
		Markers:   []string{"<longcat_tool_call>", "<longcat_arg_key>", "<longcat_arg_value>", "<longcat_think>", "</longcat_think>"},
		Evidence:  []string{"<longcat_tool_call>", "<longcat_arg_key>"},
		ToolStart: "<longcat_tool_call>", ToolName: NameText, ToolEnd: "</longcat_tool_call>",
		Params:   PairParams,
		KeyStart: "<longcat_arg_key>", KeyEnd: "</longcat_arg_key>",
		ValStart: "<longcat_arg_value>", ValEnd: "</longcat_arg_value>",
		Reasoning:     dialects.ReasoningTags{Open: "<longcat_think>", Close: "</longcat_think>"},
		JSONArguments: true,
		JSONEnvelope:  true,
	})

	// HYV3 is Tencent HY v3: <tool_calls><tool_call>NAME<tool_sep><arg_key>KEY
	// </arg_key><arg_value>VALUE</arg_value></tool_call></tool_calls>.
	HYV3 = MustNew(Descriptor{
		Name:       "hy_v3",
		Markers:    []string{"<tool_sep>", "<tool_calls>", "<arg_key>"},
		Evidence:   []string{"<tool_sep>"},
		ScopeStart: "<tool_calls>", ScopeEnd: "</tool_calls>",
		ToolStart: "<tool_call>", ToolName: NameText, ToolSep: []string{"<tool_sep>"}, ToolEnd: "</tool_call>",
		Params:   PairParams,
		KeyStart: "<arg_key>", KeyEnd: "</arg_key>", ValStart: "<arg_value>", ValEnd: "</arg_value>",
		Reasoning: dialects.Think,
	})

	// MiniMaxM2 is MiniMax-M2/M2.1: <minimax:tool_call><invoke name="NAME">
	// <parameter name="KEY">VALUE</parameter></invoke></minimax:tool_call>.
	MiniMaxM2 = MustNew(Descriptor{
		Name:       "minimax_m2",
		Markers:    []string{"<minimax:tool_call>", "<invoke name="},
		Evidence:   []string{"<minimax:tool_call>"},
		ScopeStart: "<minimax:tool_call>", ScopeEnd: "</minimax:tool_call>", ScopeOptional: true,
		ToolStart: "<invoke", ToolName: "name", ToolEnd: "</invoke>",
		KeyStart: "<parameter", Key: "name", ValEnd: "</parameter>",
		Reasoning: dialects.Think,
	})

	// MiniMaxM3 is MiniMax-M3: every tag is preceded by ]<]minimax[>[, and
	// parameters are elements named after their key, nested for objects,
	// with <item> children for arrays.
	MiniMaxM3 = MustNew(Descriptor{
		Name:       "minimax_m3",
		Markers:    []string{minimaxM3Prefix},
		Evidence:   []string{minimaxM3Prefix},
		ScopeStart: minimaxM3Prefix + "<tool_call>", ScopeEnd: minimaxM3Prefix + "</tool_call>", ScopeOptional: true,
		ToolStart: minimaxM3Prefix + "<invoke", ToolName: "name", ToolEnd: minimaxM3Prefix + "</invoke>",
		Params:       ChildParams,
		ChildPrefix:  minimaxM3Prefix,
		NestedValues: true,
		Reasoning:    dialects.ReasoningTags{Open: "<mm:think>", Close: "</mm:think>"},
	})

	// MiniCPM5 is OpenBMB MiniCPM 5: <function name="NAME"><param
	// name="KEY">VALUE</param></function>. Names are resolved to the declared
	// tool they match ignoring case and separators. Tokenizer artefacts in
	// the markup (Ġ for a space, Ċ for a newline, <functionname=) are undone
	// inside calls, and <![CDATA[…]]> values unwrapped, as its reference
	// parser does.
	MiniCPM5 = MustNew(Descriptor{
		Name:      "minicpm5",
		Markers:   []string{"<function name=", "<param name=", "<functionname=", "<paramname=", "<functionĠname=", "<paramĠname="},
		Evidence:  []string{"<param name=", "<paramname=", "<paramĠname="},
		ToolStart: "<function", ToolName: "name", ToolEnd: "</function>",
		KeyStart: "<param", Key: "name", ValEnd: "</param>",
		Reasoning:      dialects.Think,
		ResolveAliases: true,
		CDATA:          true,
		normalize:      normalizeMiniCPM,
		// A JSON object in place of the parameters, the shape Hermes and
		// Functionary write inside <function name="…">, is read as the
		// arguments rather than failed.
		JSONArguments: true,
	})

	// Step3 is StepFun Step-3: steptml elements inside DeepSeek-like call
	// blocks, <｜tool_calls_begin｜>…<｜tool_call_begin｜>function<｜tool_sep｜>
	// <steptml:invoke name="NAME"><steptml:parameter name="KEY">VALUE
	// </steptml:parameter></steptml:invoke><｜tool_call_end｜>…<｜tool_calls_end｜>.
	Step3 = MustNew(Descriptor{
		Name:       "step3",
		Markers:    []string{"<steptml:invoke", "<｜tool_calls_begin｜>", "<｜tool_call_begin｜>"},
		Evidence:   []string{"<steptml:invoke"},
		ScopeStart: "<｜tool_calls_begin｜>", ScopeEnd: "<｜tool_calls_end｜>", ScopeOptional: true,
		Filler:    []string{"<｜tool_call_begin｜>", "function<｜tool_sep｜>", "<｜tool_sep｜>", "<｜tool_call_end｜>"},
		ToolStart: "<steptml:invoke", ToolName: "name", ToolEnd: "</steptml:invoke>",
		KeyStart: "<steptml:parameter", Key: "name", ValEnd: "</steptml:parameter>",
		Reasoning: dialects.Think,
	})

	// DeepSeekV32 is DeepSeek-V3.2's DSML: <｜DSML｜function_calls><｜DSML｜invoke
	// name="NAME"><｜DSML｜parameter name="KEY" string="true|false">VALUE
	// </｜DSML｜parameter></｜DSML｜invoke></｜DSML｜function_calls>.
	DeepSeekV32 = MustNew(dsml("deepseek_v32", "function_calls"))

	// DeepSeekV4 is DeepSeek-V4: DSML with <｜DSML｜tool_calls> as the
	// section.
	DeepSeekV4 = MustNew(dsml("deepseek_v4", "tool_calls"))

	// KimiK3 is Moonshot Kimi-K3: XML written with special tokens,
	// <|open|>NAME ATTRS<|sep|> … <|close|>NAME<|sep|>:
	// <|open|>tools<|sep|><|open|>call tool="NAME" index="0"<|sep|>
	// <|open|>argument key="KEY" type="TYPE"<|sep|>VALUE<|close|>argument<|sep|>
	// <|close|>call<|sep|><|close|>tools<|sep|>.
	KimiK3 = MustNew(Descriptor{
		Name:       "kimi_k3",
		Markers:    []string{"<|open|>call", "<|open|>tools<|sep|>", "<|open|>argument"},
		Evidence:   []string{"<|open|>call", "<|open|>argument"},
		TagEnd:     "<|sep|>",
		ScopeStart: "<|open|>tools<|sep|>", ScopeEnd: "<|close|>tools<|sep|>", ScopeOptional: true,
		ToolStart: "<|open|>call", ToolName: "tool", ToolEnd: "<|close|>call<|sep|>",
		KeyStart: "<|open|>argument", Key: "key", ValEnd: "<|close|>argument<|sep|>",
		TypeAttr: "type",
		// Kimi-K3's chat template (as llama.cpp's models/templates and its
		// Kimi-K3 parser have it) writes reasoning as
		// <|open|>think<|sep|>…<|close|>think<|sep|> and the answer as
		// <|open|>response<|sep|>…<|close|>response<|sep|>, and ends the
		// generation prompt with the opening of one of the two: with
		// thinking on the output starts inside reasoning and holds only its
		// close.
		Reasoning: dialects.ReasoningTags{Open: "<|open|>think<|sep|>", Close: "<|close|>think<|sep|>"},
		Strip:     []string{"<|open|>response<|sep|>", "<|close|>response<|sep|>", "<|close|>message<|sep|>", "<|end_of_msg|>"},
	})

	// MiroThinker is MiroThinker's MCP call: <use_mcp_tool><server_name>SRV
	// </server_name><tool_name>NAME</tool_name><arguments>{JSON}</arguments>
	// </use_mcp_tool>. The name is the tool_name alone; the server is not
	// part of it.
	MiroThinker = MustNew(Descriptor{
		Name:      "mirothinker",
		Markers:   []string{"<use_mcp_tool>"},
		Evidence:  []string{"<use_mcp_tool>"},
		ToolStart: "<use_mcp_tool>", ToolName: NameText, ToolEnd: "</use_mcp_tool>",
		Params:         ChildParams,
		NameChild:      "tool_name",
		ArgumentsChild: "arguments",
		IgnoreChildren: []string{"server_name"},
		Reasoning:      dialects.Think,
	})

	// Glimmer is Ollama's glimmer: messages " to=RECIPIENT<|message|>BODY"
	// ended by <|eom|> or <|eot|>, tool messages holding
	// <atem:function_calls><atem:invoke name="NAME"><atem:parameter
	// name="KEY">VALUE</atem:parameter></atem:invoke></atem:function_calls>.
	Glimmer = MustNew(Descriptor{
		Name:       "glimmer",
		Markers:    []string{"<atem:function_calls>", "<atem:invoke", " to=", glimmerMessage, glimmerStart},
		Evidence:   []string{"<atem:"},
		ScopeStart: "<atem:function_calls>", ScopeEnd: "</atem:function_calls>", ScopeOptional: true,
		ToolStart: "<atem:invoke", ToolName: "name", ToolEnd: "</atem:invoke>",
		KeyStart: "<atem:parameter", Key: "name", ValEnd: "</atem:parameter>",
		frame: glimmerMessages,
	})
)

// dsml is the descriptor of a DeepSeek DSML dialect whose section is named
// section.
func dsml(name, section string) Descriptor {
	const p = "｜DSML｜"
	return Descriptor{
		Name:       name,
		Markers:    []string{"<" + p + section + ">", "<" + p + "invoke", "<" + p + "parameter"},
		Evidence:   []string{"<" + p + section + ">"},
		ScopeStart: "<" + p + section + ">", ScopeEnd: "</" + p + section + ">",
		ToolStart: "<" + p + "invoke", ToolName: "name", ToolEnd: "</" + p + "invoke>",
		KeyStart: "<" + p + "parameter", Key: "name", ValEnd: "</" + p + "parameter>",
		StringAttr: "string",
		Reasoning:  dialects.Think,
		// An invoke whose body is a JSON object rather than parameter
		// elements is a documented variant (SGLang reads it).
		JSONArguments: true,
	}
}

// All returns every dialect of the package.
func All() []dialects.Dialect {
	return []dialects.Dialect{
		Qwen3Coder, SeedOSS, GLM45, LongCat, HYV3, MiniMaxM2, MiniMaxM3, MiniCPM5,
		Step3, DeepSeekV32, DeepSeekV4, KimiK3, MiroThinker, Glimmer,
	}
}
