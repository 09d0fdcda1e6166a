// Package ollamawire reads Ollama's native tool calls: the message.tool_calls of
// an /api/chat response, given as the raw JSON the server sent (one response
// object, or an NDJSON stream of them) or as ChatResponse values, this
// package's own small types (client/ollamaclient converts the ollama client's
// api.ChatResponse to them). It does not import the ollama client.
//
// The raw JSON path decodes the wire format itself instead of going through
// the ollama client's api.ChatResponse, because api.ToolCallFunctionArguments cannot decode
// arguments sent as a JSON string (its decoder aborts, and with it the whole
// stream), and because reading the raw bytes keeps the model's key order at
// every level. Arguments may arrive as an object, as a JSON string holding an
// object, double-encoded, empty or null; all of them become a JSON object.
//
// Extraction only reads the wire format: names, repair and schema validation
// are the shared dialects.Finish step, so the result is the same as for every
// other dialect.
package ollamawire

import (
	"errors"
	"strings"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/cutoff"
	"github.com/dialectkit/toolcall/internal/textlayer"
)

// Name is the dialect's catalogue name.
const Name = "ollama"

// Dialect is the native Ollama tool_calls dialect. Its Extract reads the raw
// JSON of an /api/chat response or stream. The zero value is ready to use
// and safe for concurrent use.
type Dialect struct{}

var (
	_ dialects.Marked      = Dialect{}
	_ dialects.Incremental = Dialect{}
)

// Name returns "ollama".
func (Dialect) Name() string { return Name }

// Markers are the JSON keys that mark an Ollama chat response, strongest
// first: calls live under "tool_calls", "created_at" is in every response
// the server sends, and "message" holds the assistant turn.
func (Dialect) Markers() []string {
	return []string{`"tool_calls"`, `"created_at"`, `"message"`}
}

// Syntax declares the dialect opaque to the text stream engine: its input is
// an API response body (dialects.Syntax.Body), parsed whole; streamed
// responses go through Decode, and streamed native calls through
// stream.Accumulator.
func (Dialect) Syntax() dialects.Syntax { return dialects.Syntax{Opaque: true, Body: true} }

// Extract reads the raw JSON of an /api/chat response (one object, an NDJSON
// stream, or a JSON array of responses) and returns its calls, content and
// reasoning.
//
// Problems with the input itself (a line that is not JSON, an in-stream
// error line, a stream without done:true) have no call of their own; the
// Extraction type has no other place for them, so each is appended after the
// real calls as a RawCall carrying only Err. Finish then reports it with a
// call index past the last real call. ParseJSON reports the same problems
// with CallIndex -1 and is the better entry point when the dialect is known.
func (Dialect) Extract(text string, opts *dialects.Options) *dialects.Extraction {
	return extract(text)
}

// NewReader returns a Reader that holds the body and reads it as Extract
// does once it ends (dialects.Holding): a response body is decided only by
// its end, so a stream of one yields its pieces at Close.
func (Dialect) NewReader(*dialects.Options) dialects.Reader { return dialects.Holding(extract) }

func extract(text string) *dialects.Extraction {
	s := decode(text)
	ext := s.Extraction
	ext.Errors = s.Errors
	ext.Content = textlayer.TrimSpace(ext.Content) // textlayer.Edges, as every dialect's
	return &ext
}

// Status is what the final response of a stream says about the turn.
type Status struct {
	// Model is the model name the server reported.
	Model string `json:"model,omitempty"`
	// Done reports that a response marked done:true was read.
	Done bool `json:"done"`
	// DoneReason is why generation stopped: "stop", "length", "load", …
	DoneReason string `json:"done_reason,omitempty"`
	// PromptEvalCount and EvalCount are the prompt and output token counts.
	PromptEvalCount int `json:"prompt_eval_count,omitempty"`
	EvalCount       int `json:"eval_count,omitempty"`
	// The timings the server reported, with Ollama's JSON names (nanoseconds).
	TotalDuration      time.Duration `json:"total_duration,omitempty"`
	LoadDuration       time.Duration `json:"load_duration,omitempty"`
	PromptEvalDuration time.Duration `json:"prompt_eval_duration,omitempty"`
	EvalDuration       time.Duration `json:"eval_duration,omitempty"`
}

// Stream is everything read from one /api/chat response or stream, before
// repair and validation: the raw calls with content and reasoning, how the
// stream ended, and what was wrong with the input itself.
type Stream struct {
	// Extraction holds the raw calls in order, the content concatenated over
	// all responses, and the thinking text as reasoning. Marked is set when
	// at least one value looked like an Ollama chat response.
	dialects.Extraction
	// Status is read from the response marked done (and the model name from
	// the first response that has one).
	Status
	// Responses is the number of response objects read.
	Responses int
	// ServerError is the message of an {"error": …} line, verbatim. It can
	// hold model output (Ollama quotes the text it failed to parse), so it is
	// kept out of Errors' messages; log it with care.
	ServerError string
	// Errors are problems with the input as a whole, in input order: lines
	// that are not JSON (TLP-016), a server error line (TLP-019, TLP-020 or
	// TLP-015), truncation (TLP-014). Their CallIndex is -1.
	Errors []*toolcall.Error
}

// Decode reads the raw JSON of an /api/chat response: one object, an NDJSON
// stream of them, or a JSON array of them. It never fails as a whole; what
// could not be read is in Stream.Errors, and everything else is kept.
func Decode(data []byte) *Stream { return decode(string(data)) }

// Truncated reports that the output was cut off: the stream ended without a
// response marked done, inside a response, or the model hit its length limit.
func (s *Stream) Truncated() bool {
	for _, e := range s.Errors {
		if e.Code == toolcall.CodeTruncated {
			return true
		}
	}
	return false
}

// Err joins Stream.Errors into one error, or returns nil when there are none.
func (s *Stream) Err() error {
	switch len(s.Errors) {
	case 0:
		return nil
	case 1:
		return s.Errors[0]
	}
	errs := make([]error, len(s.Errors))
	for i, e := range s.Errors {
		errs[i] = e
	}
	return errors.Join(errs...)
}

// Result finishes the stream's calls with the shared dialects.Finish step
// (names, repair, schema validation, ids) and adds the stream's own errors
// after the calls' errors.
func (s *Stream) Result(opts *dialects.Options) *toolcall.Result {
	ext := s.Extraction
	ext.Errors = s.Errors
	return dialects.Finish(Name, &ext, opts)
}

// ParseJSON parses the raw JSON of an /api/chat response or NDJSON stream
// into calls. It is Decode followed by Stream.Result.
func ParseJSON(data []byte, opts *dialects.Options) *toolcall.Result {
	return Decode(data).Result(opts)
}

// response is one response object, read from JSON or from an
// api.ChatResponse, in the shape the accumulator needs. Its calls go to the
// accumulator one by one (accumulator.call) before the response is added.
type response struct {
	offset   int
	model    string
	content  string
	thinking string
	// hasDone is false for a value without a "done" field (a bare message or
	// a hand-written object), which says nothing about truncation.
	hasDone     bool
	status      Status
	hasError    bool
	serverError string
}

// pendingCall is a call as read, with its function.index if it has one.
type pendingCall struct {
	raw      dialects.RawCall
	index    int
	hasIndex bool
}

// accumulator folds responses into a Stream in arrival order.
type accumulator struct {
	s         *Stream
	content   []string
	reasoning []string
	// sawDoneField is set once a response carried a "done" field: only then
	// does a missing done:true mean the stream was cut.
	sawDoneField bool
	// truncReported avoids a second truncation error when the stream was
	// already found cut inside a response.
	truncReported bool
	// respStart is where the calls of the response being read start in
	// s.Calls; keys and keyed are their function.index values and whether
	// every one of them has one.
	respStart int
	keys      []int
	keyed     bool
	// stream and keyBuf back s and keys, so that a turn with a few calls
	// costs one allocation for both.
	stream Stream
	keyBuf [8]int
}

func newAccumulator() *accumulator {
	a := &accumulator{}
	a.s = &a.stream
	a.s.Calls = []dialects.RawCall{}
	a.keys = a.keyBuf[:0]
	return a
}

func (a *accumulator) fail(e *toolcall.Error) { a.s.Errors = append(a.s.Errors, e) }

// call adds a call of the response being read.
func (a *accumulator) call(pc pendingCall) {
	if len(a.s.Calls) == a.respStart {
		a.keys, a.keyed = a.keys[:0], true
	}
	if cap(a.s.Calls) == 0 {
		a.s.Calls = make([]dialects.RawCall, 0, 4)
	}
	a.s.Calls = append(a.s.Calls, pc.raw)
	a.keys = append(a.keys, pc.index)
	a.keyed = a.keyed && pc.hasIndex
}

// add folds one response into the stream.
func (a *accumulator) add(r *response) {
	s := a.s
	s.Responses++
	if s.Model == "" {
		s.Model = r.model
	}
	if r.content != "" {
		a.content = append(a.content, r.content)
	}
	if r.thinking != "" {
		a.reasoning = append(a.reasoning, r.thinking)
	}
	if a.keyed {
		orderCalls(s.Calls[a.respStart:], a.keys)
	}
	a.respStart, a.keyed = len(s.Calls), false
	if r.hasError {
		s.ServerError = r.serverError
		a.fail(serverError(r.serverError, r.offset))
	}
	if r.hasDone {
		a.sawDoneField = true
	}
	if r.status.Done {
		model := s.Model
		s.Status = r.status
		if s.Status.Model == "" {
			s.Status.Model = model
		}
		if r.status.DoneReason == "length" {
			e := cutoff.Error(`at the model's output length limit (done_reason "length")`)
			e.Offset = r.offset
			a.fail(e)
			a.truncReported = true
		}
	}
}

// finish completes the stream: joins the text, and reports a stream that
// ended without a response marked done. end is the input length, where the
// missing response should have been.
func (a *accumulator) finish(checkDone bool, end int) *Stream {
	s := a.s
	s.Content = strings.Join(a.content, "")
	s.Reasoning = strings.Join(a.reasoning, "")
	if checkDone && a.sawDoneField && !s.Done && !a.truncReported && s.ServerError == "" {
		e := cutoff.Error("before a response marked done")
		e.Offset = end
		a.fail(e)
	}
	return s
}

// orderCalls puts the calls of one response in function.index order; keys
// holds each call's index. It is used only when every call of the response
// has an index. The sort is stable, so equal indexes (hand-built responses
// leave them all 0) keep arrival order. Calls of different responses always
// stay in arrival order.
func orderCalls(calls []dialects.RawCall, keys []int) {
	// Insertion sort: stable, allocation-free, linear on calls already in
	// order (the usual case), and a response holds a few calls.
	for i := 1; i < len(calls); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			calls[j], calls[j-1] = calls[j-1], calls[j]
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
}

// serverError turns the message of an {"error": …} line into a coded error.
// The message is kept in Raw only: Ollama quotes the model text it failed to
// parse, so it may hold argument values.
func serverError(msg string, offset int) *toolcall.Error {
	code, what := classifyServerError(msg)
	e := toolcall.NewError(code, what)
	e.Offset = offset
	e.Raw = msg
	return e
}

// classifyServerError maps an Ollama error message to a code and a message
// that holds no model text. Ollama's builtin tool parsers fail with a few
// fixed phrases (server/routes.go sends them as the error line); capability
// errors are request rejections; anything else is a server failure.
func classifyServerError(msg string) (toolcall.Code, string) {
	for _, k := range []struct {
		phrase string
		code   toolcall.Code
		what   string
	}{
		{"failed to parse JSON", toolcall.CodeMalformedCall, "the server could not parse a tool call's JSON"},
		{"error parsing tool call", toolcall.CodeMalformedCall, "the server could not parse a tool call"},
		{"empty function name", toolcall.CodeMalformedCall, "the server found a tool call with an empty function name"},
		{"failed to parse XML", toolcall.CodeMalformedCall, "the server could not parse a tool call's XML"},
		{"XML syntax error", toolcall.CodeMalformedCall, "the server could not parse a tool call's XML"},
		{"mismatched arg_key and arg_value counts", toolcall.CodeMalformedCall, "the server found a tool call with unpaired argument keys and values"},
		{"does not support tools", toolcall.CodeRequestRejected, "the server rejected the request: the model does not support tools"},
		{"does not support thinking", toolcall.CodeRequestRejected, "the server rejected the request: the model does not support thinking"},
		{"is not supported for this model", toolcall.CodeRequestRejected, "the server rejected the request: a think value is not supported for this model"},
	} {
		if strings.Contains(msg, k.phrase) {
			return k.code, k.what
		}
	}
	return toolcall.CodeTransport, "the server reported an error"
}
