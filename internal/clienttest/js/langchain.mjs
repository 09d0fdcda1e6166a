// Runs LangChain JS chat models and prints, as one JSON array, what
// LangChain's own parsing made of each answer.
//
// The input and output are harness.mjs's, with the case's provider
// "openai" (ChatOpenAI on chat completions) | "anthropic" (ChatAnthropic)
// | "ollama" (ChatOllama) and mode "whole" | "stream".
// "whole" reads model.bindTools(tools).invoke()'s message; "stream" concats
// the chunks of .stream() into one message and reads the same fields.
// Calls are the message's tool_calls, their arguments the args LangChain
// decoded, written back as JSON; the finish is the API's own, as the
// provider keeps it in response_metadata (finish_reason, stop_reason,
// done_reason; a streamed ChatAnthropic message in additional_kwargs).
import { ChatAnthropic } from '@langchain/anthropic';
import { ChatOllama } from '@langchain/ollama';
import { ChatOpenAI } from '@langchain/openai';
import { runCases } from './harness.mjs';

// No tracing: nothing leaves the machine.
process.env.LANGSMITH_TRACING = 'false';
process.env.LANGCHAIN_TRACING_V2 = 'false';

// model returns the chat model of the case's provider, pointed at baseURL.
function model(c) {
  switch (c.provider) {
    case 'openai':
      return new ChatOpenAI({ model: c.model, apiKey: 'unused', maxRetries: 0, timeout: 30000, streamUsage: true, configuration: { baseURL: c.baseURL + '/v1' } });
    case 'anthropic':
      return new ChatAnthropic({ model: c.model, apiKey: 'unused', maxRetries: 0, maxTokens: 1024, anthropicApiUrl: c.baseURL, clientOptions: { timeout: 30000 } });
    case 'ollama':
      return new ChatOllama({ model: c.model, baseUrl: c.baseURL, maxRetries: 0 });
  }
  throw new Error('unknown provider ' + c.provider);
}

// finishOf is the API's own finish, where each provider keeps it:
// ChatAnthropic keeps a streamed message_delta's stop_reason in
// additional_kwargs.
const finishOf = (m) => m.response_metadata?.finish_reason || m.response_metadata?.stop_reason
  || m.additional_kwargs?.stop_reason || m.response_metadata?.done_reason || '';

// report reads an AI message: its text content, its reasoning where the
// provider keeps one, and its parsed tool calls.
function report(m) {
  let content = '';
  let reasoning = m.additional_kwargs?.reasoning_content || '';
  if (typeof m.content === 'string') content = m.content;
  else {
    for (const b of m.content || []) {
      if (b.type === 'text') content += b.text;
      else if (b.type === 'thinking') reasoning += b.thinking;
    }
  }
  const calls = (m.tool_calls || []).map((tc) => ({ id: tc.id || '', name: tc.name || '', arguments: JSON.stringify(tc.args ?? null) }));
  const invalid = m.invalid_tool_calls || [];
  if (invalid.length) throw new Error('invalid tool calls: ' + JSON.stringify(invalid));
  return { calls, content, reasoning, finish: finishOf(m), usage: !!m.usage_metadata };
}

async function run(c) {
  const tools = c.tools || [];
  const bound = model(c).bindTools(tools);
  if (c.mode === 'whole') {
    return report(await bound.invoke(c.prompt));
  }
  if (c.mode === 'stream') {
    let all = null;
    for await (const chunk of await bound.stream(c.prompt)) {
      all = all === null ? chunk : all.concat(chunk);
    }
    if (all === null) throw new Error('the stream had no chunk');
    return report(all);
  }
  throw new Error('unknown mode ' + c.mode);
}

await runCases(run, (e) => ({ status: typeof e?.status === 'number' ? e.status : (typeof e?.status_code === 'number' ? e.status_code : -1), error: String(e?.message || e) }));
