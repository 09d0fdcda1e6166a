// Package dialects defines what a tool-call dialect is and the steps every
// dialect shares.
//
// A Dialect recognises one wire syntax and extracts raw calls from it:
// names, argument text as the model wrote it, the content and reasoning
// around them. Finish then turns an Extraction into a toolcall.Result the
// same way for every dialect: names are checked, arguments go through the
// lenient pipeline (unless repair is off), must be JSON objects, and are
// validated against the declared tools. Parse does both.
//
// The sub-packages hold one dialect or one family of dialects each; the
// registry package collects them, detects which one a model wrote, and runs it.
package dialects

import (
	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/lenient"
	"github.com/dialectkit/toolcall/schema"
)

// Dialect extracts tool calls written in one wire syntax.
// Implementations must be safe for concurrent use. A dialect that is only
// a Dialect is streamed by reading the whole output with Extract when it
// ends, with no event before; implement Incremental to stream.
type Dialect interface {
	// Name is the dialect's catalogue name, e.g. "hermes".
	Name() string
	// Extract finds the calls in text, and the content and reasoning around
	// them. It does not repair or validate arguments: Finish does.
	Extract(text string, opts *Options) *Extraction
}

// Marked is implemented by dialects that announce their calls with literal
// markers. Detection looks for these markers before trying a parse, and the
// stream engine holds back text that could be the start of one.
type Marked interface {
	// Markers are substrings whose presence in output is evidence for the
	// dialect, strongest first. They are fixed: detection reads them once
	// per change of its registry.
	Markers() []string
}

// Prefiltered is implemented by dialects that can say, before reading a
// text, that they will find nothing in it: Extract finds no call, no
// marker of its own and no error in a text that holds none of Triggers.
// Detection then does not run them on such a text. An empty list means
// the dialect must always be run (it reads calls without any marker).
// Triggers are fixed, as Markers are.
type Prefiltered interface {
	Triggers() []string
}

// Options configure a parse. The zero value parses with repair on, strict
// validation, no coercion and the default lenient limits.
type Options struct {
	// Tools are the declared tools. When set, names must match one of them
	// and arguments must match its schema. Nil means no tools were declared.
	Tools *schema.Set
	// Lenient sets the repair pipeline's limits.
	Lenient lenient.Options
	// DisableRepair turns the lenient pipeline off: arguments must be strict
	// JSON.
	DisableRepair bool
	// Validation configures the schema check (strictness, coercion).
	Validation schema.Options
	// ReasoningOpen tells the dialect that the chat template opened a
	// reasoning block, so the output starts inside it and may hold only the
	// closing tag.
	ReasoningOpen bool
	// ReasoningClosed tells the dialect that the output starts outside
	// reasoning (the template opened no block): a closing tag with no
	// opening tag before it is then text, not the end of a block the
	// template opened. Without either setting, such a tag makes what
	// precedes it reasoning. It lets a stream emit answer text at once
	// rather than hold it until that question is settled. ReasoningOpen
	// wins when both are set.
	ReasoningClosed bool
	// MaxCalls caps the calls read from one output: past it the rest are
	// not read and one TLP-026 error says how many there were. Zero means
	// DefaultMaxCalls; negative means no cap.
	MaxCalls int
	// MaxErrors caps the errors listed for one output: past it one TLP-026
	// error says how many more there were. Zero means DefaultMaxErrors;
	// negative means no cap.
	MaxErrors int
	// MaxErrorMessage caps the length of one error message in bytes (names
	// and excerpts in it are cut). Zero means DefaultMaxErrorMessage;
	// negative means no cap.
	MaxErrorMessage int
}

// Extraction is what a dialect found in the output, before repair and
// validation.
type Extraction struct {
	// Calls are the calls found, in order.
	Calls []RawCall
	// Content is the text outside calls and reasoning.
	Content string
	// Reasoning is the text of reasoning wrappers.
	Reasoning string
	// Marked reports that the dialect's own markers were present, even if no
	// call could be extracted. Detection uses it as evidence.
	Marked bool
	// Errors are problems with the output that belong to no call (a stream
	// that ended early, a line that is not a response). Finish reports them
	// after the calls' errors.
	Errors []*toolcall.Error
}

// RawCall is one call as the model wrote it.
type RawCall struct {
	// ID is the call id the model or server gave, if any.
	ID string
	// Name is the tool name (after dialect-specific normalisation).
	Name string
	// Arguments is the argument text as written: JSON, almost-JSON, a JSON
	// string holding JSON, or empty for none. Ignored when Params is set.
	Arguments string
	// ArgumentsValid reports that Arguments is strict JSON (UTF-8
	// included) that the dialect has already checked, so that Finish does
	// not check it again. Leave it false when unsure.
	ArgumentsValid bool
	// ArgumentsUnique reports that Arguments, valid (ArgumentsValid),
	// repeats no key in any object, as the dialect checked: Finish then
	// has no duplicate key to resolve. Leave it false when unsure.
	ArgumentsUnique bool
	// Params holds the arguments of tagged-parameter dialects, one raw text
	// value per key; Finish types them by schema. Nil for JSON dialects.
	Params []Param
	// Text is the call's whole text as written, markers and header
	// included, when the dialect knows it: Finish gives it as the raw text
	// of the call's error, so that a failed call loses none of the output
	// (its header and name included). A call whose arguments were read
	// whole and then failed its schema shows those arguments instead:
	// every word of it is in its name or arguments. Empty means Arguments
	// is that text. An engine sets it for the calls of a region.
	Text string
	// Offset is the byte offset of the call in the text, -1 if unknown.
	Offset int
	// Repairs are changes the dialect made while extracting the call (for
	// example to the JSON object around the arguments); Finish keeps them.
	Repairs []toolcall.Repair
	// Err is set when the dialect found the call but could not extract it,
	// a *toolcall.Error. Finish reports it as the call's error (another
	// error is reported as TLP-018 wrapping it).
	Err error
	// AtEnd reports that the call's text runs to the end of the output:
	// nothing the dialect reads as the end of a call (a closing marker,
	// fence, bracket or delimiter) follows it. Finish then holds the call
	// to the truncation rule: when its envelope or arguments had to be
	// closed by repair, the end of the output cut them, and the call is
	// TLP-014, never a call, whatever repair could reconstruct.
	AtEnd bool
	// Verbatim reports that the call is text taken as it stands as the
	// one argument of a fixed tool (Functionary's and Llama's raw code
	// after <|python_tag|> → python {"code": …}), not a call read from
	// the dialect's call syntax. Detection weighs such a call less than
	// one whose name and arguments the syntax wrote.
	Verbatim bool
}

// Param is one argument of a tagged-parameter dialect.
type Param struct {
	Key string
	// Value is the raw text between the tags.
	Value string
	// IsJSON marks a value the dialect declares to be JSON (DSML
	// string="false"); otherwise it is typed by schema.
	IsJSON bool
	// IsString marks a value the dialect declares to be a string (DSML
	// string="true"); it is kept as text whatever the schema says.
	IsString bool
}

// Parse runs d on text and finishes the extraction.
func Parse(d Dialect, text string, opts *Options) *toolcall.Result {
	if opts == nil {
		opts = &Options{}
	}
	return Finish(d.Name(), d.Extract(text, opts), opts)
}
