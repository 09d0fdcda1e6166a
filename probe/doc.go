// Package probe finds out how a model calls tools, from its chat template
// and by asking it, and says what to configure for it.
//
// Run asks the server about the model (Ollama's /api/show: template,
// capabilities, family, parameters, built-in parser; llama.cpp's /props:
// the chat template) and reads the template's markers with
// registry.DetectTemplate. Then it asks a battery of prompts (DefaultBattery:
// a single call, parallel calls, nested and typed arguments, no call wanted,
// a long string argument, a tool whose name needs care) twice over: with the
// tools declared natively, to see whether calls arrive in tool_calls or leak
// into the text and in which dialect; and with the tools presented in the
// system prompt in each candidate dialect (TextDialect, through package
// render), to see which dialect the model follows most reliably. Every
// prompt runs through the retry loop, so the report also says whether and
// at which attempt a failure recovered.
//
// The Report holds a result per prompt and a Summary per mode, and a
// Recommendation: the dialect chain, whether to use native tools, and the
// retry settings, with a .agent/config.yml snippet. WriteText prints it for
// people; it marshals to JSON for machines.
//
// StartSim and RunSim run the same probe against built-in simulated models
// (Sims) served over the real Ollama protocol on 127.0.0.1, so that the
// whole path runs on any machine, reproducibly.
package probe
