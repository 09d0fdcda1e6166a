// Runs the OpenAI Responses API with the official OpenAI SDK and prints, as
// one JSON array, what the SDK's own parsing made of each answer.
//
// The input and output are harness.mjs's, with mode "whole" | "stream" | "stream_helper",
// and usage? and events? in the output.
// "whole" reads responses.create()'s output items;
// "stream" reads the events of responses.create({stream: true}): the calls
// and text from response.completed (what an agent keeps), checked against
// the deltas, the item events and their sequence numbers;
// "stream_helper" takes finalResponse() of responses.stream(), and reports
// the function_call_arguments.done events.
// The finish is the response's status ("completed", "incomplete").
import OpenAI from 'openai';
import { runCases } from './harness.mjs';

// The tools in the Responses API's flat shape.
const toolsOf = (tools) => (tools || []).map((t) => ({
  type: 'function',
  name: t.function.name,
  description: t.function.description,
  parameters: t.function.parameters,
  strict: false,
}));

// report reads a response object's output items.
function report(r) {
  const calls = [];
  let content = '';
  let reasoning = '';
  for (const it of r.output || []) {
    if (it.type === 'message') {
      for (const p of it.content || []) if (p.type === 'output_text') content += p.text;
    } else if (it.type === 'reasoning') {
      for (const p of it.summary || []) reasoning += p.text;
      for (const p of it.content || []) reasoning += p.text;
    } else if (it.type === 'function_call') {
      calls.push({ id: it.call_id || '', name: it.name || '', arguments: it.arguments ?? '' });
    }
  }
  if (r.output_text !== undefined && r.output_text !== content) {
    throw new Error(`output_text ${JSON.stringify(r.output_text)} is not the message text ${JSON.stringify(content)}`);
  }
  return { calls, content, reasoning, finish: r.status || '', usage: !!r.usage };
}

async function run(c) {
  const client = new OpenAI({ baseURL: c.baseURL + '/v1', apiKey: 'unused', maxRetries: 0, timeout: 30000 });
  const p = { model: c.model, input: c.prompt, tools: toolsOf(c.tools) };
  if (c.mode === 'whole') {
    return report(await client.responses.create(p));
  }
  if (c.mode === 'stream') {
    const stream = await client.responses.create({ ...p, stream: true });
    let final = null;
    let content = '';
    let reasoning = '';
    const args = {};
    let seq = -1;
    for await (const ev of stream) {
      if (ev.sequence_number !== seq + 1) throw new Error(`sequence_number ${ev.sequence_number} after ${seq}`);
      seq = ev.sequence_number;
      switch (ev.type) {
        case 'response.output_text.delta': content += ev.delta; break;
        case 'response.reasoning_summary_text.delta':
        case 'response.reasoning_text.delta': reasoning += ev.delta; break;
        case 'response.function_call_arguments.delta': args[ev.item_id] = (args[ev.item_id] || '') + ev.delta; break;
        case 'response.function_call_arguments.done':
          if (args[ev.item_id] !== ev.arguments) throw new Error(`arguments deltas ${args[ev.item_id]} are not done's ${ev.arguments}`);
          break;
        case 'response.completed':
        case 'response.incomplete': final = ev.response; break;
        case 'error': throw new Error('stream error: ' + ev.message);
      }
    }
    if (!final) throw new Error('no response.completed');
    const r = report(final);
    if (r.content !== content || r.reasoning !== reasoning) {
      throw new Error(`deltas ${JSON.stringify([content, reasoning])} differ from response.completed ${JSON.stringify([r.content, r.reasoning])}`);
    }
    return r;
  }
  if (c.mode === 'stream_helper') {
    const runner = client.responses.stream(p);
    const done = [];
    runner.on('response.function_call_arguments.done', (e) => done.push(e.name || e.item_id));
    const r = report(await runner.finalResponse());
    return { ...r, events: done };
  }
  throw new Error('unknown mode ' + c.mode);
}

await runCases(run, (e) => ({ status: e instanceof OpenAI.APIError ? (e.status ?? -1) : -1, error: String(e?.message || e) }));
