package toolcall

import (
	"strconv"
	"strings"
)

// Code is a stable error code. docs/errors.md describes every code: what it
// means, its usual cause, how to resolve it, and an example.
type Code string

// The error catalogue. Codes 001–009 keep the meaning of the original
// specification; later conditions take codes from 010 up. Codes are never
// renumbered.
const (
	CodeMissingFunction  Code = "TLP-001" // function missing, or its name empty
	CodeInvalidJSON      Code = "TLP-002" // arguments are not valid JSON (repair off, or still invalid)
	CodeRepairFailed     Code = "TLP-003" // repair was attempted and failed
	CodeSchema           Code = "TLP-004" // arguments do not match the tool's schema
	CodeUnknownTool      Code = "TLP-005" // the name matches no declared tool
	CodeRetriesExhausted Code = "TLP-006" // the retry budget ran out
	CodeRepairTimeout    Code = "TLP-007" // repair ran past its time budget
	CodeStream           Code = "TLP-008" // streaming accumulation error
	CodeTooLarge         Code = "TLP-009" // arguments larger than the size limit
	CodeInvalidName      Code = "TLP-010" // the name has characters a tool name cannot have
	CodeNameTooLong      Code = "TLP-011" // the name is longer than 64 characters
	CodeNotObject        Code = "TLP-012" // arguments are valid JSON but not an object
	CodeTooDeep          Code = "TLP-013" // nesting deeper than the depth limit
	CodeTruncated        Code = "TLP-014" // the model's output was cut off (length limit, stream ended early)
	CodeTransport        Code = "TLP-015" // the model server could not be reached or failed
	CodeInvalidInput     Code = "TLP-016" // the input to the library or the CLI is not well-formed
	CodeInvalidTool      Code = "TLP-017" // a tool definition or its schema is invalid
	CodeUnknownDialect   Code = "TLP-018" // no dialect is registered under that name
	CodeMalformedCall    Code = "TLP-019" // a call's markup was found but could not be parsed
	CodeRequestRejected  Code = "TLP-020" // the server rejected the request (HTTP 400)
	CodeCircuitOpen      Code = "TLP-021" // the circuit breaker stopped retries for this model
	CodeCanceled         Code = "TLP-022" // the context was cancelled or its deadline passed
	CodeStreamIncomplete Code = "TLP-023" // a stream ended with a call still open
	CodeInvalidConfig    Code = "TLP-024" // a configuration value is out of range or malformed
	CodeVersionMismatch  Code = "TLP-025" // no registered version of the tool has the major the caller pins
	CodeTooMany          Code = "TLP-026" // the output holds more calls or errors than the per-output cap
	CodeLimit            Code = "TLP-027" // a limit of the proxy was reached (size, requests in flight, time)
	CodeUnauthorized     Code = "TLP-028" // the client did not present the proxy's API key
)

var codeText = map[Code]string{
	CodeMissingFunction:  "function missing or name empty",
	CodeInvalidJSON:      "arguments are not valid JSON",
	CodeRepairFailed:     "repair failed",
	CodeSchema:           "arguments do not match the tool's schema",
	CodeUnknownTool:      "unknown tool name",
	CodeRetriesExhausted: "retries exhausted",
	CodeRepairTimeout:    "repair ran past its time budget",
	CodeStream:           "streaming accumulation error",
	CodeTooLarge:         "arguments larger than the size limit",
	CodeInvalidName:      "invalid characters in tool name",
	CodeNameTooLong:      "tool name longer than 64 characters",
	CodeNotObject:        "arguments are not a JSON object",
	CodeTooDeep:          "nesting deeper than the limit",
	CodeTruncated:        "model output truncated",
	CodeTransport:        "transport failure",
	CodeInvalidInput:     "invalid input",
	CodeInvalidTool:      "invalid tool definition",
	CodeUnknownDialect:   "unknown dialect",
	CodeMalformedCall:    "malformed tool call",
	CodeRequestRejected:  "request rejected by the server",
	CodeCircuitOpen:      "circuit breaker open",
	CodeCanceled:         "cancelled",
	CodeStreamIncomplete: "stream ended inside a tool call",
	CodeInvalidConfig:    "invalid configuration",
	CodeVersionMismatch:  "tool version mismatch",
	CodeTooMany:          "more calls or errors than the per-output cap",
	CodeLimit:            "a limit of the proxy was reached",
	CodeUnauthorized:     "missing or wrong API key",
}

// Codes returns every code of the catalogue in numeric order.
func Codes() []Code {
	out := make([]Code, 0, len(codeText))
	for c := range codeText {
		out = append(out, c)
	}
	for i := 1; i < len(out); i++ { // insertion sort: the list is short
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// Summary is the code's one-line description from the catalogue.
func (c Code) Summary() string { return codeText[c] }

// Violation is one way arguments break their schema.
type Violation struct {
	// Path is the JSON Pointer of the offending value ("" for the root).
	Path string `json:"path"`
	// Keyword is the JSON Schema keyword that failed (type, required, enum, …).
	Keyword string `json:"keyword"`
	// Expected and Actual describe the mismatch in schema terms ("integer",
	// "string"); they never hold argument values.
	Expected string `json:"expected,omitempty"`
	Actual   string `json:"actual,omitempty"`
	// Message is a readable description without argument values.
	Message string `json:"message"`
}

// Error is a coded error about one call or one input. Its Error method never
// prints argument values: Raw keeps the offending text for debugging only.
//
// errors.Is(err, toolcall.ErrSchema) and friends match by code, and Unwrap
// exposes the underlying cause.
type Error struct {
	Code    Code   `json:"code"`
	Message string `json:"message"`

	Tool          string `json:"tool,omitempty"`
	CallIndex     int    `json:"call_index"` // -1 when not about one call
	CallID        string `json:"call_id,omitempty"`
	Offset        int    `json:"offset"` // byte offset in the input, -1 when none
	Attempt       int    `json:"attempt,omitempty"`
	CorrelationID string `json:"correlation_id,omitempty"`

	// Schema details (CodeSchema): every violation, the first one's path,
	// expected and actual type, and the missing required properties.
	Violations []Violation `json:"violations,omitempty"`
	Path       string      `json:"path,omitempty"`
	Expected   string      `json:"expected,omitempty"`
	Actual     string      `json:"actual,omitempty"`
	Missing    []string    `json:"missing,omitempty"`
	// Known lists the declared tool names (CodeUnknownTool).
	Known []string `json:"known,omitempty"`

	// Raw is the offending model text (arguments or call markup). It is kept
	// for debugging and reflection, and never printed by Error.
	Raw string `json:"-"`
	// Err is the underlying cause, if any.
	Err error `json:"-"`
}

// NewError returns an Error with the given code and message, not tied to a
// call or an offset.
func NewError(code Code, message string) *Error {
	return &Error{Code: code, Message: message, CallIndex: -1, Offset: -1}
}

// Errorf is like NewError but wraps cause, which errors.Unwrap returns.
func Errorf(code Code, cause error, message string) *Error {
	e := NewError(code, message)
	e.Err = cause
	return e
}

// Error returns "CODE: message [context]". It never quotes Raw, which may
// hold argument values.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(string(e.Code))
	b.WriteString(": ")
	msg := e.Message
	if msg == "" {
		msg = e.Code.Summary()
	}
	b.WriteString(msg)
	var ctx []string
	if e.Tool != "" {
		ctx = append(ctx, "tool "+strconv.Quote(e.Tool))
	}
	if e.CallIndex >= 0 {
		ctx = append(ctx, "call "+strconv.Itoa(e.CallIndex))
	}
	if e.Offset >= 0 {
		ctx = append(ctx, "offset "+strconv.Itoa(e.Offset))
	}
	if e.Attempt > 0 {
		ctx = append(ctx, "attempt "+strconv.Itoa(e.Attempt))
	}
	if e.CorrelationID != "" {
		ctx = append(ctx, "correlation "+e.CorrelationID)
	}
	if len(ctx) > 0 {
		b.WriteString(" [")
		b.WriteString(strings.Join(ctx, ", "))
		b.WriteString("]")
	}
	return b.String()
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is an *Error with the same code, so that the
// sentinels below work with errors.Is.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// Sentinels for errors.Is, one per code. They are of type error, like every
// error in the API; errors.As reaches the *Error.
var (
	ErrMissingFunction  error = &Error{Code: CodeMissingFunction, CallIndex: -1, Offset: -1}
	ErrInvalidJSON      error = &Error{Code: CodeInvalidJSON, CallIndex: -1, Offset: -1}
	ErrRepairFailed     error = &Error{Code: CodeRepairFailed, CallIndex: -1, Offset: -1}
	ErrSchema           error = &Error{Code: CodeSchema, CallIndex: -1, Offset: -1}
	ErrUnknownTool      error = &Error{Code: CodeUnknownTool, CallIndex: -1, Offset: -1}
	ErrRetriesExhausted error = &Error{Code: CodeRetriesExhausted, CallIndex: -1, Offset: -1}
	ErrRepairTimeout    error = &Error{Code: CodeRepairTimeout, CallIndex: -1, Offset: -1}
	ErrStream           error = &Error{Code: CodeStream, CallIndex: -1, Offset: -1}
	ErrTooLarge         error = &Error{Code: CodeTooLarge, CallIndex: -1, Offset: -1}
	ErrInvalidName      error = &Error{Code: CodeInvalidName, CallIndex: -1, Offset: -1}
	ErrNameTooLong      error = &Error{Code: CodeNameTooLong, CallIndex: -1, Offset: -1}
	ErrNotObject        error = &Error{Code: CodeNotObject, CallIndex: -1, Offset: -1}
	ErrTooDeep          error = &Error{Code: CodeTooDeep, CallIndex: -1, Offset: -1}
	ErrTruncated        error = &Error{Code: CodeTruncated, CallIndex: -1, Offset: -1}
	ErrTransport        error = &Error{Code: CodeTransport, CallIndex: -1, Offset: -1}
	ErrInvalidInput     error = &Error{Code: CodeInvalidInput, CallIndex: -1, Offset: -1}
	ErrInvalidTool      error = &Error{Code: CodeInvalidTool, CallIndex: -1, Offset: -1}
	ErrUnknownDialect   error = &Error{Code: CodeUnknownDialect, CallIndex: -1, Offset: -1}
	ErrMalformedCall    error = &Error{Code: CodeMalformedCall, CallIndex: -1, Offset: -1}
	ErrRequestRejected  error = &Error{Code: CodeRequestRejected, CallIndex: -1, Offset: -1}
	ErrCircuitOpen      error = &Error{Code: CodeCircuitOpen, CallIndex: -1, Offset: -1}
	ErrCanceled         error = &Error{Code: CodeCanceled, CallIndex: -1, Offset: -1}
	ErrStreamIncomplete error = &Error{Code: CodeStreamIncomplete, CallIndex: -1, Offset: -1}
	ErrInvalidConfig    error = &Error{Code: CodeInvalidConfig, CallIndex: -1, Offset: -1}
	ErrVersionMismatch  error = &Error{Code: CodeVersionMismatch, CallIndex: -1, Offset: -1}
	ErrTooMany          error = &Error{Code: CodeTooMany, CallIndex: -1, Offset: -1}
	ErrLimit            error = &Error{Code: CodeLimit, CallIndex: -1, Offset: -1}
	ErrUnauthorized     error = &Error{Code: CodeUnauthorized, CallIndex: -1, Offset: -1}
)
