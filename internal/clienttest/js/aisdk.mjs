// Runs the AI SDK (the package "ai" and its providers) and prints, as one
// JSON array, what the SDK's own parsing made of each answer.
//
// The input and output are harness.mjs's, with the case's provider
// "openai-compatible" | "openai.chat" | "openai.responses" | "anthropic"
// and mode "whole" | "stream".
// "whole" reads generateText()'s result; "stream" consumes streamText()'s
// full stream and reads the same result fields once it ends. The tools are
// declared without execute, so the calls are returned, not run, and the
// SDK stops after the first step.
// Arguments are the call's input the SDK decoded, written back as JSON;
// the finish is the SDK's own finishReason ("tool-calls", "stop",
// "length"), whichever API the provider speaks.
import { generateText, jsonSchema, streamText, tool } from 'ai';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { runCases } from './harness.mjs';

// Warnings go to the console otherwise; nothing else is logged or sent.
globalThis.AI_SDK_LOG_WARNINGS = false;

// model returns the language model of the case's provider, pointed at
// baseURL.
function model(c) {
  const baseURL = c.baseURL + '/v1';
  switch (c.provider) {
    case 'openai-compatible':
      return createOpenAICompatible({ name: 'local', baseURL, apiKey: 'unused' }).chatModel(c.model);
    case 'openai.chat':
      return createOpenAI({ baseURL, apiKey: 'unused' }).chat(c.model);
    case 'openai.responses':
      return createOpenAI({ baseURL, apiKey: 'unused' }).responses(c.model);
    case 'anthropic':
      return createAnthropic({ baseURL, apiKey: 'unused' })(c.model);
  }
  throw new Error('unknown provider ' + c.provider);
}

// The tools, declared by their JSON schema and without execute.
const toolsOf = (tools) => Object.fromEntries((tools || []).map((t) => [
  t.function.name,
  tool({ description: t.function.description, inputSchema: jsonSchema(t.function.parameters) }),
]));

// report reads a result's fields, awaiting them: generateText's are
// values, streamText's promises.
async function report(r) {
  const calls = (await r.toolCalls).map((tc) => ({ id: tc.toolCallId || '', name: tc.toolName || '', arguments: JSON.stringify(tc.input ?? null) }));
  return { calls, content: (await r.text) || '', reasoning: (await r.reasoningText) || '', finish: (await r.finishReason) || '', usage: (await r.usage)?.outputTokens !== undefined };
}

async function run(c) {
  const p = {
    model: model(c),
    prompt: c.prompt,
    tools: toolsOf(c.tools),
    maxRetries: 0,
    maxOutputTokens: 1024,
    abortSignal: AbortSignal.timeout(30000),
    experimental_telemetry: { isEnabled: false },
  };
  if (c.mode === 'whole') {
    return report(await generateText(p));
  }
  if (c.mode === 'stream') {
    let failure = null;
    const r = streamText({ ...p, onError: ({ error }) => { failure = error; } });
    for await (const part of r.fullStream) {
      if (part.type === 'error') failure = part.error;
    }
    if (failure) throw failure;
    return report(r);
  }
  throw new Error('unknown mode ' + c.mode);
}

await runCases(run, (e) => ({ status: typeof e?.statusCode === 'number' ? e.statusCode : -1, error: String(e?.message || e) }));
