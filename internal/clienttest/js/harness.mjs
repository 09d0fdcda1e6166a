// What the client scripts share: each reads a JSON array of cases on stdin,
// runs every case with its client, and prints, as one JSON array, what the
// client made of each answer.
//
// Input on stdin: a JSON array of cases
//   {name, baseURL, model, prompt, tools, mode}
// Output on stdout: a JSON array, one object per case, in order:
//   {name, status?, error?, calls: [{id, name, arguments}], content, reasoning, finish, ...}
// A case that throws is reported with the status and error failure(e)
// gives, and no calls.

async function readStdin() {
  return new Promise((resolve, reject) => {
    let data = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (c) => { data += c; });
    process.stdin.on('end', () => resolve(data));
    process.stdin.on('error', reject);
  });
}

// runCases runs run(case) for every case on stdin and prints the reports.
export async function runCases(run, failure) {
  const input = JSON.parse(await readStdin());
  const out = [];
  for (const c of input) {
    try {
      out.push({ name: c.name, ...(await run(c)) });
    } catch (e) {
      out.push({ name: c.name, ...failure(e), calls: [], content: '', finish: '' });
    }
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}

// callsOf turns a message's tool calls into reports; argumentsOf gives the
// JSON text of one call's arguments as the client holds them.
export function callsOf(toolCalls, argumentsOf) {
  return (toolCalls || []).map((tc) => ({
    id: tc.id || '',
    name: tc.function?.name || '',
    arguments: argumentsOf(tc.function?.arguments),
  }));
}

// params are the chat request of a case.
export function params(c) {
  return {
    model: c.model,
    messages: [{ role: 'user', content: c.prompt }],
    tools: c.tools,
  };
}
