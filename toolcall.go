// Package toolcall is the vocabulary every dialectkit package speaks: the tool
// calls a model made ([Call]), the outcome of parsing one model turn
// ([Result]), the tools that were declared ([Tool]), the changes made to
// malformed arguments ([Repair]) and coded errors ([Error]).
//
// The package depends on the standard library only. Parsing lives in the
// sub-packages: lenient repairs almost-JSON, dialects/* extract calls from one
// wire syntax each, schema validates arguments, and registry detects which
// dialect a model wrote and runs it.
//
// # Text is a string, JSON is bytes
//
// Every parsing entry point takes its input in the type its callers hold
// it in. What a model wrote, and any piece of it (an argument's text as
// written, a stream's delta, a chat template), is a string: the model
// clients decode it from their JSON as one, Go's string functions search
// it, and the content and reasoning of a Result are slices of it, shared
// rather than copied. So registry.Parse, Detect, DetectTemplate and
// Stream's Write, dialects.Parse and every Dialect's Extract,
// codemode.Detect and lenient.ParsePythonCalls take a string. A document a program holds (a wire body, a tools file, a YAML
// configuration, arguments once they are strict JSON) is a []byte
// (json.RawMessage), as encoding/json, gjson and os.ReadFile give it: so
// lenient.Repair, Check and Valid, schema's Validate, ollamawire.ParseJSON
// and Decode, ParseTool and ParseTools, config.Parse and Call.Arguments
// take or hold bytes. lenient also takes a string where a caller holds
// one (RepairString, ValidString).
package toolcall

import (
	"encoding/json"
	"strings"
)

// Call is one tool call extracted from model output.
type Call struct {
	// ID is the call id the model or server gave, or a generated "call_…" id.
	ID string `json:"id"`
	// Name is the tool name as the model wrote it (after dialect-specific
	// normalisation such as stripping a "functions." prefix).
	Name string `json:"name"`
	// Server is the MCP server part of a combined name "server___tool"
	// (see SplitName): Name is the whole name, as declared, and Server
	// its server part. It is empty when the name has none.
	Server string `json:"server,omitempty"`
	// Arguments is a compact JSON object in the key order the model used.
	Arguments json.RawMessage `json:"arguments"`
	// Index is the call's position among all calls of the turn, counting
	// calls that failed too, so that Error.CallIndex refers to the same space.
	Index int `json:"index"`
}

// Result is the outcome of parsing one model turn. Partial success is normal:
// Calls holds every call that parsed and validated, Errors one entry per call
// (or per region of output) that did not.
type Result struct {
	// Calls are the valid calls, in the order the model wrote them.
	Calls []Call `json:"calls"`
	// Content is the text outside calls and reasoning.
	Content string `json:"content"`
	// Reasoning is the text of reasoning wrappers such as <think>…</think>.
	Reasoning string `json:"reasoning,omitempty"`
	// Dialect is the name of the dialect that produced the result.
	Dialect string `json:"dialect,omitempty"`
	// Repairs lists every change made to arguments to make them valid JSON
	// or to fit the schema, with the call they belong to.
	Repairs []Repair `json:"repairs,omitempty"`
	// Errors holds one coded error per call that could not be recovered.
	Errors []*Error `json:"errors,omitempty"`
}

// OK reports whether the turn parsed without any error. A result that is not
// OK may still carry valid calls.
func (r *Result) OK() bool { return r != nil && len(r.Errors) == 0 }

// Err joins the result's errors into one error, or returns nil when OK.
// errors.Is and errors.As see every joined error.
func (r *Result) Err() error {
	if r.OK() {
		return nil
	}
	if len(r.Errors) == 1 {
		return r.Errors[0]
	}
	errs := make([]error, len(r.Errors))
	for i, e := range r.Errors {
		errs[i] = e
	}
	return joinErrors(errs)
}

// Call returns the valid call with the given index, or false.
func (r *Result) Call(index int) (Call, bool) {
	for _, c := range r.Calls {
		if c.Index == index {
			return c, true
		}
	}
	return Call{}, false
}

type joined struct{ errs []error }

func joinErrors(errs []error) error { return &joined{errs} }

func (j *joined) Error() string {
	var b strings.Builder
	for i, e := range j.errs {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

func (j *joined) Unwrap() []error { return j.errs }
