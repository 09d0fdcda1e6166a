// Runs chats with the official Ollama JavaScript client and prints, as one
// JSON array, what the client made of each answer.
//
// The input and output are harness.mjs's, with mode "whole" | "stream" | "models",
// and models? in the output.
// "models" lists the models (list()).
import { Ollama } from 'ollama';
import { callsOf as reportCalls, params, runCases } from './harness.mjs';

// Arguments are the client's decoded value written back as JSON: an object
// when the answer carried one, a JSON string when it carried a string.
const callsOf = (toolCalls) => reportCalls(toolCalls, (a) => JSON.stringify(a ?? null));

async function run(c) {
  const client = new Ollama({ host: c.baseURL });
  const p = params(c);
  if (c.mode === 'whole') {
    const r = await client.chat({ ...p, stream: false });
    return { calls: callsOf(r.message.tool_calls), content: r.message.content || '', reasoning: r.message.thinking || '', finish: r.done ? (r.done_reason || '') : '' };
  }
  if (c.mode === 'stream') {
    const stream = await client.chat({ ...p, stream: true });
    const calls = [];
    let content = '';
    let reasoning = '';
    let finish = '';
    let done = false;
    for await (const part of stream) {
      calls.push(...callsOf(part.message?.tool_calls));
      content += part.message?.content || '';
      reasoning += part.message?.thinking || '';
      if (part.done) {
        done = true;
        finish = part.done_reason || '';
      }
    }
    if (!done) throw new Error('the stream ended without done');
    return { calls, content, reasoning, finish };
  }
  if (c.mode === 'models') {
    // A path the proxy passes through unchanged.
    const r = await client.list();
    return { calls: [], content: '', finish: '', models: r.models.map((m) => m.name) };
  }
  throw new Error('unknown mode ' + c.mode);
}

await runCases(run, (e) => ({ status: typeof e?.status_code === 'number' ? e.status_code : -1, error: String(e?.error || e?.message || e) }));
