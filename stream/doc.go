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
// One engine streams every other dialect: a dialect describes where its calls and
// reasoning begin and end (dialects.Syntax), and the engine scans each delta
// once for those strings, holds back anything that could be the start of a
// marker, and parses each call region once, when it closes. At the end of
// the output the whole text is parsed once more and the events are settled
// against that parse, so the calls, content and reasoning a stream reports
// are exactly those of a one-shot parse of the same text, however the text
// was cut into deltas; total work is linear in the length of the output.
package stream
