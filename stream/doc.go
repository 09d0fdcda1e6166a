// Package stream parses tool calls while the model is still writing them.
//
// It has two parts. An Accumulator assembles native tool-call deltas
// (OpenAI-style delta.tool_calls fragments, Ollama's streamed calls),
// correlated by index. A Parser reads raw model text in any registered
// dialect as it arrives and turns it into events: content and reasoning as
// they become certain, a call as it starts, its argument text so far, and
// each call once it is complete and validated.
//
// A dialect whose engine reads its output in one pass
// (dialects.Incremental) is streamed by that engine: each delta goes to
// the dialect's Reader, each piece the Reader returns is an event at once
// (a Reader returns only what no later byte can change), and Close closes
// the Reader and builds the result from the pieces, with no profile and no
// second reading of the text; the result is dialects.Parse's, since the
// dialect's Extract is dialects.Read of the same Reader.
//
// A dialect that has only Extract is read whole with it at Close
// (dialects.Holding): such a stream emits nothing before Close. Implement
// dialects.Incremental to stream. A detecting stream (NewDetecting) and a
// fallback chain (Options.Fallback) read the output with the candidates'
// own Parsers. Either way the calls, content and reasoning a stream
// reports are exactly those of a one-shot parse of the same text, however
// the text was cut into deltas.
package stream
