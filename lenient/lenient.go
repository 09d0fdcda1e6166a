// Package lenient turns almost-JSON into JSON.
//
// Repair runs a staged pipeline, fastest first: valid JSON is returned byte
// for byte; then double-encoded strings are unwrapped, code fences, a BOM
// and prose around the value are stripped; JSON5 is decoded; the
// loose-literal grammar (Python True/False/None, tuples, single quotes,
// unquoted keys) is tried; and a linear repair scanner handles what no
// grammar accepts. Every change is recorded as a toolcall.Repair.
package lenient

import (
	"time"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
)

// Default limits.
const (
	DefaultMaxSize  = 1 << 20
	DefaultMaxDepth = 64
	DefaultTimeout  = 100 * time.Millisecond
)

// Options configure Repair. The zero value means the defaults.
type Options struct {
	// MaxSize is the largest input accepted, in bytes; checked before parsing.
	MaxSize int
	// MaxDepth is the deepest nesting of objects and arrays accepted.
	MaxDepth int
	// Timeout is the time budget of one repair.
	Timeout time.Duration
}

// Result is the outcome of Repair.
type Result struct {
	// Output is strict JSON, or nil when Err is set.
	Output []byte
	// Original is the input as given.
	Original []byte
	// Attempted reports whether repair ran (false when the input was valid).
	Attempted bool
	// Repairs lists what was changed, in input order.
	Repairs []toolcall.Repair
	// Err is set when no valid JSON could be produced.
	Err *toolcall.Error
}

// Repair turns input into strict JSON.
func Repair(input []byte, opts *Options) Result {
	if gjson.ValidBytes(input) {
		return Result{Output: input, Original: input}
	}
	res := Result{Original: input, Attempted: true}
	out, kinds, err := PythonLiteralToJSON(string(input))
	if err != nil {
		res.Err = toolcall.Errorf(toolcall.CodeRepairFailed, err, "could not repair JSON")
		return res
	}
	res.Output = out
	for _, k := range kinds {
		res.Repairs = append(res.Repairs, toolcall.Repair{Kind: k, Offset: -1, CallIndex: -1})
	}
	return res
}
