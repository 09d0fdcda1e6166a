// Runs the Anthropic Messages API with the official Anthropic SDK and
// prints, as one JSON array, what the SDK's own parsing made of each answer.
//
// The input and output are harness.mjs's, with mode "whole" | "stream" | "stream_helper",
// and usage? and events? in the output.
// "whole" reads messages.create()'s content blocks;
// "stream" accumulates the events of messages.create({stream: true});
// "stream_helper" takes finalMessage() of messages.stream(), and reports
// its inputJson events' tool names.
// Arguments are the tool_use input the SDK decoded, written back as JSON;
// the finish is the stop_reason.
import Anthropic from '@anthropic-ai/sdk';
import { runCases } from './harness.mjs';

// The tools in the Messages API's shape.
const toolsOf = (tools) => (tools || []).map((t) => ({
  name: t.function.name,
  description: t.function.description,
  input_schema: t.function.parameters,
}));

function report(m) {
  const calls = [];
  let content = '';
  let reasoning = '';
  for (const b of m.content || []) {
    if (b.type === 'text') content += b.text;
    else if (b.type === 'thinking') reasoning += b.thinking;
    else if (b.type === 'tool_use') calls.push({ id: b.id || '', name: b.name || '', arguments: JSON.stringify(b.input ?? null) });
  }
  return { calls, content, reasoning, finish: m.stop_reason || '', usage: !!m.usage };
}

async function run(c) {
  const client = new Anthropic({ baseURL: c.baseURL, apiKey: 'unused', maxRetries: 0, timeout: 30000 });
  const p = { model: c.model, max_tokens: 1024, messages: [{ role: 'user', content: c.prompt }], tools: toolsOf(c.tools) };
  if (c.mode === 'whole') {
    return report(await client.messages.create(p));
  }
  if (c.mode === 'stream') {
    const stream = await client.messages.create({ ...p, stream: true });
    const blocks = [];
    let finish = '';
    let usage = false;
    for await (const ev of stream) {
      switch (ev.type) {
        case 'content_block_start':
          if (ev.index !== blocks.length) throw new Error(`block ${ev.index} started after ${blocks.length}`);
          blocks.push({ ...ev.content_block, json: '' });
          break;
        case 'content_block_delta': {
          const b = blocks[ev.index];
          if (ev.delta.type === 'text_delta') b.text += ev.delta.text;
          if (ev.delta.type === 'thinking_delta') b.thinking += ev.delta.thinking;
          if (ev.delta.type === 'input_json_delta') b.json += ev.delta.partial_json;
          break;
        }
        case 'content_block_stop': {
          const b = blocks[ev.index];
          if (b.type === 'tool_use') b.input = b.json === '' ? {} : JSON.parse(b.json);
          break;
        }
        case 'message_delta':
          finish = ev.delta.stop_reason || '';
          usage = !!ev.usage;
          break;
      }
    }
    return { ...report({ content: blocks }), finish, usage };
  }
  if (c.mode === 'stream_helper') {
    const runner = client.messages.stream(p);
    const done = [];
    runner.on('contentBlock', (b) => { if (b.type === 'tool_use') done.push(b.name); });
    const r = report(await runner.finalMessage());
    return { ...r, events: done };
  }
  throw new Error('unknown mode ' + c.mode);
}

await runCases(run, (e) => ({ status: e instanceof Anthropic.APIError ? (e.status ?? -1) : -1, error: String(e?.message || e) }));
