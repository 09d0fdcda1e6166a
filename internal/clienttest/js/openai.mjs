// Runs chat completions with the official OpenAI SDK and prints, as one
// JSON array, what the SDK's own parsing made of each answer.
//
// The input and output are harness.mjs's, with mode "whole" | "stream" | "stream_helper" | "models",
// and events? and models? in the output.
// "stream" accumulates the deltas of create({stream: true}) by index;
// "stream_helper" takes finalChatCompletion() of chat.completions.stream();
// "models" lists the models (models.list()).
import OpenAI from 'openai';
import { callsOf as reportCalls, params, runCases } from './harness.mjs';

// Arguments are the string the SDK holds.
const callsOf = (toolCalls) => reportCalls(toolCalls, (a) => a ?? '');

async function run(c) {
  const client = new OpenAI({ baseURL: c.baseURL + '/v1', apiKey: 'unused', maxRetries: 0, timeout: 30000 });
  const p = params(c);
  if (c.mode === 'whole') {
    const r = await client.chat.completions.create(p);
    const ch = r.choices[0];
    return { calls: callsOf(ch.message.tool_calls), content: ch.message.content || '', reasoning: ch.message.reasoning_content || '', finish: ch.finish_reason || '' };
  }
  if (c.mode === 'stream') {
    const stream = await client.chat.completions.create({ ...p, stream: true, stream_options: { include_usage: true } });
    const calls = [];
    let content = '';
    let reasoning = '';
    let finish = '';
    let usage = false;
    for await (const chunk of stream) {
      if (chunk.usage) usage = true;
      for (const ch of chunk.choices) {
        const d = ch.delta || {};
        if (d.content) content += d.content;
        if (d.reasoning_content) reasoning += d.reasoning_content;
        for (const tc of d.tool_calls || []) {
          const i = tc.index;
          if (!calls[i]) calls[i] = { id: '', name: '', arguments: '' };
          if (tc.id) calls[i].id = tc.id;
          if (tc.function?.name) calls[i].name += tc.function.name;
          if (tc.function?.arguments) calls[i].arguments += tc.function.arguments;
        }
        if (ch.finish_reason) finish = ch.finish_reason;
      }
    }
    return { calls: calls.filter(Boolean), content, reasoning, finish, usage };
  }
  if (c.mode === 'stream_helper') {
    const runner = client.chat.completions.stream(p);
    const done = [];
    runner.on('tool_calls.function.arguments.done', (e) => done.push(e.name));
    // The helper's snapshot keeps the last delta of a field it does not
    // know, such as reasoning_content: the reasoning is gathered from the
    // chunks.
    let reasoning = '';
    runner.on('chunk', (chunk) => {
      for (const ch of chunk.choices || []) reasoning += ch.delta?.reasoning_content || '';
    });
    const r = await runner.finalChatCompletion();
    const ch = r.choices[0];
    return { calls: callsOf(ch.message.tool_calls), content: ch.message.content || '', reasoning, finish: ch.finish_reason || '', events: done };
  }
  if (c.mode === 'models') {
    // A path the proxy passes through unchanged.
    const models = [];
    for await (const m of client.models.list()) models.push(m.id);
    return { calls: [], content: '', finish: '', models };
  }
  throw new Error('unknown mode ' + c.mode);
}

await runCases(run, (e) => ({ status: e instanceof OpenAI.APIError ? (e.status ?? -1) : -1, error: String(e?.message || e) }));
