// Runs chats with the official Ollama JavaScript client and prints, as one
// JSON array, what the client made of each answer.
//
// Input on stdin: a JSON array of cases
//   {name, baseURL, model, prompt, tools, mode: "whole" | "stream" | "models"}
// Output on stdout: a JSON array, one object per case, in order:
//   {name, status?, error?, calls: [{id, name, arguments}], content, reasoning, finish, models?}
// "models" lists the models (list()).
// Arguments are the client's decoded value written back as JSON: an object
// when the answer carried one, a JSON string when it carried a string.
import { Ollama } from 'ollama';

const input = JSON.parse(await new Promise((resolve, reject) => {
  let data = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (c) => { data += c; });
  process.stdin.on('end', () => resolve(data));
  process.stdin.on('error', reject);
}));

function callsOf(toolCalls) {
  return (toolCalls || []).map((tc) => ({
    id: tc.id || '',
    name: tc.function?.name || '',
    arguments: JSON.stringify(tc.function?.arguments ?? null),
  }));
}

async function run(c) {
  const client = new Ollama({ host: c.baseURL });
  const params = {
    model: c.model,
    messages: [{ role: 'user', content: c.prompt }],
    tools: c.tools,
  };
  if (c.mode === 'whole') {
    const r = await client.chat({ ...params, stream: false });
    return { calls: callsOf(r.message.tool_calls), content: r.message.content || '', reasoning: r.message.thinking || '', finish: r.done ? (r.done_reason || '') : '' };
  }
  if (c.mode === 'stream') {
    const stream = await client.chat({ ...params, stream: true });
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

const out = [];
for (const c of input) {
  try {
    out.push({ name: c.name, ...(await run(c)) });
  } catch (e) {
    out.push({ name: c.name, status: typeof e?.status_code === 'number' ? e.status_code : -1, error: String(e?.error || e?.message || e), calls: [], content: '', finish: '' });
  }
}
process.stdout.write(JSON.stringify(out) + '\n');
