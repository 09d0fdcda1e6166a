package render

// The system-prompt texts. Where a family's chat template has its own tool
// prompt, the text follows it (wording, tool-list format, wrapper tags);
// {tools} is the tool list and {example} one call in the dialect's syntax.
// Families without a prompt of their own get generic, which names the
// dialect's markers in words. docs/render.md lists which is which.

// generic is the prompt of a family whose template has no tool wording of
// its own.
func generic(how string, list listStyle) *prompt {
	return &prompt{list: list, text: "# Tools\n\n" +
		"You may call one or more tools to assist with the user query. Here are the tools available:\n\n" +
		"{tools}\n\n" + how + "\n{example}"}
}

var (
	// Qwen2.5 / Qwen3 / Hermes 2 Pro.
	hermesPrompt = &prompt{list: listLines, text: `# Tools

You may call one or more functions to assist with the user query.

You are provided with function signatures within <tools></tools> XML tags:
<tools>
{tools}
</tools>

For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags, for example:
{example}`}

	// Qwen3-Coder.
	qwen3CoderPrompt = &prompt{list: listQwenXML, text: `# Tools

You have access to the following functions:

{tools}

If you choose to call a function ONLY reply in the following format with NO suffix:

{example}

<IMPORTANT>
Reminder:
- Function calls MUST follow the specified format: an inner function block must be nested within tool_call XML tags
- Required parameters MUST be specified
- You may provide optional reasoning for your function call in natural language BEFORE the function call, but NOT after
- If there is no function call available, answer the question like normal with your current knowledge and do not tell the user about function calls
</IMPORTANT>`}

	// Seed-OSS.
	seedPrompt = &prompt{list: listFunctionLines, text: `## Function

You are provided with the following functions:
<tools>
{tools}
</tools>

To call a function, write it inside seed:tool_call tags, one function element per call and one parameter element per argument, for example:
{example}`}

	// GLM-4.5 / 4.6.
	glmPrompt = &prompt{list: listLines, text: `# Tools

You may call one or more functions to assist with the user query.

You are provided with function signatures within <tools></tools> XML tags:
<tools>
{tools}
</tools>

For each function call, output the function name and arguments within the following XML format:
{example}`}

	// MiniMax-M2.
	minimaxM2Prompt = &prompt{list: listLines, text: `# Tools
You may call one or more tools to assist with the user query.
Here are the tools available in JSONSchema format:

<tools>
{tools}
</tools>

When making tool calls, use XML format to invoke tools and pass parameters:

{example}`}

	// MiniMax-Text-01 / M1.
	minimaxM1Prompt = &prompt{list: listFunctionLines, text: `## Tools
You are provided with these tools:
<tools>
{tools}
</tools>

If you need to call tools, please respond with <tool_calls></tool_calls> XML tags, and provide tool-name and json-object of arguments, following the format below:
{example}`}

	// Mistral v11+ ([AVAILABLE_TOOLS] as the template writes it).
	mistralPrompt = &prompt{list: listArray, text: `[AVAILABLE_TOOLS]{tools}[/AVAILABLE_TOOLS]

To call tools, write the [TOOL_CALLS] token, the tool's name, the [ARGS] token and the arguments as a JSON object, once per call, for example:
{example}`}

	// Mistral before v11.
	mistralLegacyPrompt = &prompt{list: listArray, text: `[AVAILABLE_TOOLS]{tools}[/AVAILABLE_TOOLS]

To call tools, write the [TOOL_CALLS] token followed by a JSON list of calls, each with its name and arguments, for example:
{example}`}

	// Llama 3.1–3.3 JSON tool calling (the custom-tool user prompt).
	llama3Prompt = &prompt{list: listIndented, text: `Given the following functions, please respond with a JSON for a function call with its proper arguments that best answers the given prompt.

Respond in the format {"name": function name, "parameters": dictionary of argument name and its value}. Do not use variables.

{tools}

For example:
{example}`}

	// Llama 3.1 built-in tools.
	builtinPrompt = &prompt{list: listIndented, text: `Environment: ipython

You can call the following tools by writing <|python_tag|> followed by TOOL.call(argument=value, ...), with Python literal values:

{tools}

For example:
{example}`}

	// Llama 3.2 pythonic.
	pythonicPrompt = &prompt{list: listIndented, text: `You are an expert in composing functions. You are given a question and a set of possible functions. Based on the question, you will need to make one or more function/tool calls to achieve the purpose. If none of the functions can be used, point it out. If the given question lacks the parameters required by the function, also point it out. You should only return the function call in tools call sections.

If you decide to invoke any of the function(s), you MUST put it in the format of a Python list of calls with keyword arguments, for example:
{example}
You SHOULD NOT include any other text in the response.

Here is a list of functions in JSON format that you can invoke.

{tools}`}

	// Llama 4.
	llama4Prompt = &prompt{list: listIndented, text: `You are a helpful assistant and an expert in function composition. You can answer general questions using your internal knowledge OR invoke functions when necessary. Follow these strict guidelines:

1. FUNCTION CALLS:
- ONLY use functions that are EXPLICITLY listed in the function list below
- If a function is not in the list, respond ONLY with internal knowledge or "I don't have access to that information"
- If ALL required parameters are present AND the query EXACTLY matches a listed function's purpose: output ONLY the function call(s)
- Use exact format: a Python list of calls with keyword arguments between <|python_start|> and <|python_end|>, for example:
{example}

2. RESPONSE RULES:
- For pure function requests matching a listed function: ONLY output the function call(s)
- For knowledge questions: ONLY output text
- For missing parameters: ONLY request the specific missing parameters

Here is a list of functions in JSON format that you can invoke.

{tools}`}

	// OLMo 3.
	olmo3Prompt = &prompt{list: listFunctionArray, text: `You are a helpful function-calling AI assistant. You are provided with function signatures within <functions></functions> XML tags. You may call one or more functions to assist with the user query. Output any function calls within function_calls XML tags, one Python call per line. Do not make assumptions about what values to plug into functions.<functions>{tools}</functions>

For example:
{example}`}

	// Liquid LFM2.
	lfm2Prompt = &prompt{list: listFunctionArray, text: `List of tools: <|tool_list_start|>{tools}<|tool_list_end|>

To call tools, write a Python list of calls between the tool call start and end tokens, for example:
{example}`}

	// Granite 3.x.
	granitePrompt = &prompt{list: listFunctionLines, text: `You are a helpful AI assistant with access to the following tools. When a tool is required to answer the user's query, respond with the tool call token followed by a JSON list of tools used. If a tool does not exist in the provided list of tools, notify the user that you do not have the ability to fulfill the request.

Available tools:
{tools}

For example:
{example}`}

	// Phi-4-mini / FireFunction v2.
	functoolsPrompt = &prompt{list: listFunctionArray, text: `You are a helpful assistant with some tools.<|tool|>{tools}<|/tool|>

To call tools, answer with the word functools followed by a JSON list of calls, each with its name and arguments, for example:
{example}`}

	// AI21 Jamba.
	jambaPrompt = &prompt{list: listFunctionLines, text: `# Tools

## Functions

You can call the following functions:

{tools}

To call functions, write a JSON list of calls inside <tool_calls></tool_calls> tags, for example:
{example}`}

	// NVIDIA Nemotron Nano v2.
	nemotronPrompt = &prompt{list: listFunctionArray, text: `<AVAILABLE_TOOLS>{tools}</AVAILABLE_TOOLS>

If you decide to call any tool(s), write a JSON list of calls, each with its name and arguments, inside <TOOLCALL></TOOLCALL> tags, for example:
{example}`}

	// Salesforce xLAM.
	xlamPrompt = &prompt{list: listFunctionArray, text: `[BEGIN OF TASK INSTRUCTION]
You are an expert in composing functions. You are given a question and a set of possible functions. Based on the question, you will need to make one or more function/tool calls to achieve the purpose. If none of the functions can be used, point it out and refuse to answer. If the given question lacks the parameters required by the function, also point it out.
[END OF TASK INSTRUCTION]

[BEGIN OF AVAILABLE TOOLS]
{tools}
[END OF AVAILABLE TOOLS]

[BEGIN OF FORMAT INSTRUCTION]
The output MUST strictly adhere to the following JSON format, and NO other text MUST be included. Please make sure the parameter type is correct:
{example}
[END OF FORMAT INSTRUCTION]`}

	// InternLM2 / 2.5.
	internPrompt = &prompt{list: listFunctionArray, text: `You can use the following tools:
{tools}

To use a tool, open an action with the plugin token, write a JSON object with the tool's name and parameters, and end the action, for example:
{example}`}

	// Cohere Command R7B / Command A.
	coherePrompt = &prompt{list: listFunctionLines, text: "## Available Tools\n" +
		"Here is a list of tools that you have available to you.\n" +
		"You can ONLY use the tools listed here. When a tool is not listed below, it is NOT available and you should NEVER attempt to use it.\n" +
		"Each tool is represented as a JSON object with fields like \"name\", \"description\" and \"parameters\" (per JSON Schema).\n\n" +
		"```json\n{tools}\n```\n\n" +
		"To call tools, write an action: a JSON list of calls, each with a tool_call_id, the tool_name and its parameters, for example:\n{example}"}

	// llama.cpp's generic format.
	genericJSONPrompt = &prompt{list: listSections, text: "Respond in JSON format, either with `tool_call` (a request to call tools) or with `response` reply to the user's request.\n\n" +
		"Available tools:\n{tools}\n\nFor example:\n{example}"}

	// Gemini-style prompting.
	geminiPrompt = &prompt{list: listSections, text: `You can call the following functions:
{tools}

To call a function, answer with a JSON object whose function_call member holds the function's name and args, for example:
{example}`}

	// Bare JSON (json, native, ollama). The tools are listed as sections,
	// not as JSON objects, which a bare-JSON parser would read as calls.
	jsonPrompt = &prompt{list: listSections, text: `# Tools

You may call one or more tools to assist with the user query. Here are the tools available:

{tools}

To call a tool, answer with a JSON object holding its name and arguments, and nothing else, for example:
{example}`}

	// Fenced JSON.
	markdownPrompt = &prompt{list: listSections, text: "# Tools\n\n" +
		"You may call one or more tools to assist with the user query. Here are the tools available:\n\n" +
		"{tools}\n\nTo call a tool, answer with a JSON object holding its name and arguments in a json code block, for example:\n{example}"}

	// DeepSeek-V3 / R1.
	deepseekV3Prompt = &prompt{list: listSections, text: `## Tools

### Function

You have the following functions available:

{tools}

To call functions, write a tool-calls section with one call per function: its type, its name and its arguments in a json code block, for example:
{example}`}

	// DeepSeek-V3.1.
	deepseekV31Prompt = &prompt{list: listSections, text: `## Tools
You have access to the following tools:

{tools}

IMPORTANT: ALWAYS adhere to this exact format for tool use:
{example}

Where the tool's name must be an exact match to one of the available tools, its arguments must be valid JSON that strictly follows the tool's Parameters Schema, and several calls are chained directly without separators or spaces.`}

	// Moonshot Kimi-K2.
	kimiPrompt = &prompt{list: listArray, text: `# Tools

{tools}

To call tools, write a tool-calls section holding one call per tool, each with its id functions.NAME:INDEX and its arguments as JSON, for example:
{example}`}

	// gpt-oss (harmony developer message).
	harmonyPrompt = &prompt{list: listTypeScript, text: `# Tools

## functions

{tools}

Calls to these tools must go to the commentary channel: 'functions'. For example:
{example}`}

	// Functionary v3.1 (Llama 3.1 custom functions).
	functionaryV31Prompt = &prompt{list: listFunctionLines, text: `You have access to the following functions:

{tools}

Think very carefully before calling functions.
If you choose to call a function ONLY reply in the following format:
{example}

Reminder:
- Function calls MUST follow the specified format: the function's name in the opening function tag and its arguments as a JSON dict
- Required parameters MUST be specified
- Put the entire function call reply on one line`}

	// Functionary v3.2.
	functionaryV32Prompt = &prompt{list: listTypeScript, text: `You are capable of executing available function(s) if required.
Only execute function(s) when absolutely necessary.
Ask for the required input to:recipient==all
Use JSON for function arguments.
Respond in this format: the recipient after three greater-than signs on its own line, then the content.
Available functions:
// Supported function definitions that should be called when necessary.
{tools}

For example:
{example}`}

	// MiroThinker (MCP tool use).
	miroPrompt = &prompt{list: listMCP, text: `In this environment you have access to a set of tools you can use to answer the user's question.

You only have access to the tools provided below. You can only use one tool per message, and will receive the result of that tool in the user's next response. You use tools step-by-step to accomplish a given task, with each tool-use informed by the result of the previous tool-use.

# Tool-Use Formatting Instructions

Tool-use is formatted using XML-style tags: a use_mcp_tool element holding the server_name, the tool_name and the arguments as a JSON object that follows the tool's input schema. For example:
{example}

Here are the functions available in JSONSchema format:

{tools}`}

	// Gemma 4.
	gemma4Prompt = &prompt{list: listGemma4, text: `{tools}

To call a function, write call:NAME followed by its arguments as key:value pairs in braces, strings between string tokens, inside a tool call block, for example:
{example}`}

	// FunctionGemma.
	functionGemmaPrompt = &prompt{list: listFunctionGemma, text: `You are a model that can do function calling with the following functions
{tools}

For example:
{example}`}
)

// dsmlPrompt is DeepSeek-V3.2's DSML tool prompt for the section element
// name (function_calls, or tool_calls for V4).
func dsmlPrompt(section string) *prompt {
	return &prompt{list: listFunctionLines, text: `## Tools

You have access to a set of tools you can use to answer the user's question.
You can invoke functions by writing a DSML ` + section + ` block like the following as part of your reply to the user:
{example}

String and scalar parameters should be specified as is without any escaping or quotes, while lists and objects should use JSON format. The "string" attribute should be set to "true" for string type parameters and "false" for other types (numbers, booleans, arrays, objects).

Here are the functions available in JSONSchema format:
<functions>
{tools}
</functions>`}
}
