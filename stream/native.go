package stream

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/coded"
	"github.com/dialectkit/toolcall/lenient"
)

// NativeDialect is the dialect name of results built from native tool-call
// fragments.
const NativeDialect = "native"

// DefaultMaxOpenCalls is how many call indices an Accumulator holds at once
// (open, or complete and waiting for a lower index) unless told otherwise.
const DefaultMaxOpenCalls = 1024

// Fragment is one delta of a native tool call, as a server streams it: an
// entry of an OpenAI-compatible delta.tool_calls, or one of Ollama's whole
// calls.
//
// Fragments of one call share its Index. The fragments of different calls
// may interleave, and a higher index may start before a lower one has
// finished; each call's own fragments must arrive in order.
type Fragment struct {
	// Index correlates the fragments of one call: the stream's call number,
	// from 0. A negative index is an error (TLP-008).
	Index int
	// ID is the call id. It may come on any fragment, usually the first;
	// once set, the same id again is a repeat and a different one an error.
	ID string
	// Type is the call type ("function"). Like ID, it is set once.
	Type string
	// Name is a piece of the tool name. Pieces are appended until the
	// call's first argument text; a piece that begins with the whole name
	// received so far replaces it, because servers that resend the name
	// resend all of it. After arguments began, the name is fixed: the same
	// name again is a repeat, any other an error.
	Name string
	// Arguments is a piece of the argument text, appended to the pieces
	// before it.
	Arguments string
	// Whole marks Arguments as the call's complete arguments, sent in one
	// piece (a server that sends arguments as a JSON object, not as pieces
	// of a string). It completes the call; whole arguments for a call that
	// already has argument text are an error.
	Whole bool
	// Complete marks the call's last fragment.
	Complete bool
}

// Completion is one call an Accumulator is done with, or a range of call
// indices the stream skipped. A call that finished has Err nil and, unless
// the Accumulator is Raw, its Call set; a call that failed has Err set.
type Completion struct {
	// Index is the call's index in the stream. For a skipped range, it is
	// the first index of the range.
	Index int
	// Raw is the call as assembled from its fragments, before repair and
	// validation; its Offset is -1. It is zero for a skipped range.
	Raw dialects.RawCall
	// Call is the finished call: name checked, arguments repaired and
	// validated, id set. It is zero when Err is set, and always in Raw mode.
	Call toolcall.Call
	// Repairs are the changes finishing made to the call's arguments.
	Repairs []toolcall.Repair
	// Err is the call's coded error: TLP-008 for inconsistent fragments or
	// indices no fragment arrived for, TLP-009 for arguments over the size
	// limit, or whatever finishing the call found (TLP-004, TLP-005, …). It
	// is a *toolcall.Error (errors.As).
	Err error
}

// AccumulatorOptions configure an Accumulator. The zero value (or nil)
// finishes calls with the dialects.Options zero value (repair on, no tools),
// lets calls interleave, and holds up to DefaultMaxOpenCalls indices.
type AccumulatorOptions struct {
	// Options finish each completed call exactly as dialects.Finish finishes
	// a text dialect's calls: tools, lenient limits, DisableRepair,
	// validation. Lenient.MaxSize also bounds each call's argument text
	// while it accumulates (0 is lenient.DefaultMaxSize, negative is no
	// limit).
	Parse dialects.Options
	// Sequential says the server sends calls one after the other, in index
	// order (OpenAI, llama.cpp, vLLM): the first fragment of an index
	// completes every lower index, indices it skips over are reported as
	// missing, and a fragment for a lower index is an error. Without it,
	// calls may interleave and only their Complete flag or the end of the
	// stream completes them.
	Sequential bool
	// MaxOpenCalls bounds the indices held at once, open or complete and
	// waiting for a lower one; a fragment that would start one more is an
	// error (TLP-008). 0 is DefaultMaxOpenCalls.
	MaxOpenCalls int
	// Raw completes calls without finishing them: Completions carry Raw
	// (and Err for an accumulation error, also set as Raw.Err), never Call.
	// It is for callers that finish calls later with options of their own,
	// such as the retry adapters; with Raw, use End rather than Finish.
	Raw bool
}

// Accumulator assembles native tool calls from their streamed fragments.
// Add takes each fragment as it arrives and returns the calls it completed,
// in index order; Finish (or End) completes the rest when the stream ends.
//
// An Accumulator is for one stream. It is not safe for concurrent use.
type Accumulator struct {
	opts    AccumulatorOptions
	maxSize int
	maxOpen int
	// held are the calls started and not yet delivered, by index; last is
	// the one the previous fragment went to, since consecutive fragments
	// usually share an index.
	held map[int]*pendingCall
	last *pendingCall
	// next is the lowest index not yet delivered (or skipped): calls are
	// delivered strictly in index order. highest is the highest index
	// started, -1 before the first.
	next, highest int
	// quiet holds the indices whose stray fragments are no longer
	// reported: one error per index is enough.
	quiet map[int]struct{}
	// Stream-level errors are reported once each. After an overflow no
	// new index starts: a dropped call's later fragments must not start it
	// again without its first pieces.
	negativeReported, overflowed, afterEndReported bool
	ended                                          bool
}

// pendingCall is a call being assembled.
type pendingCall struct {
	index      int
	id, typ    string
	name, args strings.Builder
	done       bool
	// err fails the call: later fragments are absorbed without being
	// reported, and the error is delivered in the call's place.
	err *toolcall.Error
}

// NewAccumulator returns an Accumulator for one stream. opts may be nil.
func NewAccumulator(opts *AccumulatorOptions) *Accumulator {
	a := &Accumulator{held: make(map[int]*pendingCall), highest: -1}
	if opts != nil {
		a.opts = *opts
	}
	switch size := a.opts.Parse.Lenient.MaxSize; {
	case size == 0:
		a.maxSize = lenient.DefaultMaxSize
	case size < 0:
		a.maxSize = math.MaxInt
	default:
		a.maxSize = size
	}
	a.maxOpen = a.opts.MaxOpenCalls
	if a.maxOpen <= 0 {
		a.maxOpen = DefaultMaxOpenCalls
	}
	return a
}

// Add takes one fragment. It returns the calls the fragment completed, in
// index order (possibly none, possibly several: a call that completed
// earlier waits for every lower index), and, separately, the error of a
// fragment that belongs to no call it can still change: a negative index,
// an index already completed, one index too many, or a fragment after End.
// Such a fragment is dropped; the calls around it are unaffected. The error
// is a *toolcall.Error (errors.As).
func (a *Accumulator) Add(f Fragment) ([]Completion, error) {
	done, e := a.add(f)
	return done, coded.Err(e)
}

// add is Add with the concrete error.
func (a *Accumulator) add(f Fragment) ([]Completion, *toolcall.Error) {
	switch {
	case a.ended:
		return nil, a.once(&a.afterEndReported, f.Index, "a fragment arrived after the end of the stream")
	case f.Index < 0:
		return nil, a.once(&a.negativeReported, -1, fmt.Sprintf("a fragment has the negative index %d", f.Index))
	}
	var out []Completion
	c := a.last
	if c == nil || c.index != f.Index {
		c = a.held[f.Index]
	}
	if c == nil {
		if f.Index < a.next {
			return nil, a.stray(f.Index)
		}
		if a.overflowed || len(a.held) >= a.maxOpen {
			return nil, a.once(&a.overflowed, f.Index, fmt.Sprintf("call %d would be more than %d calls open at once; no further call is accepted", f.Index, a.maxOpen))
		}
		if a.opts.Sequential {
			out = a.advance(f.Index)
		}
		c = &pendingCall{index: f.Index}
		a.held[f.Index] = c
		a.highest = max(a.highest, f.Index)
	} else if c.done && c.err == nil {
		return nil, a.stray(f.Index)
	}
	a.last = c
	if c.err == nil {
		a.apply(c, &f)
	}
	if f.Complete || f.Whole {
		c.done = true
		out = a.deliver(out) // only a call becoming complete unblocks delivery
	}
	return out, nil
}

// advance starts index in sequential mode: the call open before it (there
// is at most one) is complete, and indices between it and index never
// came. Every call below index is then delivered.
func (a *Accumulator) advance(index int) []Completion {
	if prev := a.held[a.highest]; prev != nil {
		prev.done = true
	}
	out := a.deliver(nil)
	if a.next < index {
		out = append(out, a.skipped(a.next, index-1))
		a.next = index
	}
	return out
}

// apply adds a fragment's pieces to its call, failing the call on an
// inconsistency or when a piece passes the size limit.
func (a *Accumulator) apply(c *pendingCall, f *Fragment) {
	if f.ID != "" {
		switch c.id {
		case "":
			c.id = f.ID
		case f.ID:
		default:
			a.fail(c, toolcall.CodeStream, fmt.Sprintf("call %d received a second, different id", c.index))
			return
		}
	}
	if f.Type != "" {
		switch c.typ {
		case "":
			c.typ = f.Type
		case f.Type:
		default:
			a.fail(c, toolcall.CodeStream, fmt.Sprintf("call %d received type %s after %s", c.index, quoteClipped(f.Type), quoteClipped(c.typ)))
			return
		}
	}
	if f.Name != "" && !a.addName(c, f.Name) {
		return
	}
	if f.Whole && c.args.Len() > 0 {
		a.fail(c, toolcall.CodeStream, fmt.Sprintf("call %d received whole arguments after argument pieces", c.index))
		return
	}
	if f.Arguments == "" {
		return
	}
	if len(f.Arguments) > a.maxSize-c.args.Len() {
		a.fail(c, toolcall.CodeTooLarge, fmt.Sprintf("arguments of call %d are larger than the %d-byte limit", c.index, a.maxSize))
		return
	}
	c.args.WriteString(f.Arguments)
}

// addName adds a name piece; it reports false when the call failed.
func (a *Accumulator) addName(c *pendingCall, piece string) bool {
	name := c.name.String()
	switch {
	case c.args.Len() > 0:
		// The name came before the arguments and is complete.
		if piece != name {
			a.fail(c, toolcall.CodeStream, fmt.Sprintf("call %d received name %s after %s", c.index, quoteClipped(piece), quoteClipped(name)))
			return false
		}
		return true
	case name != "" && strings.HasPrefix(piece, name):
		// The whole name resent, possibly longer: it replaces the old one.
		if len(piece) > a.maxSize {
			break
		}
		c.name.Reset()
		c.name.WriteString(piece)
		return true
	case len(piece) <= a.maxSize-len(name):
		c.name.WriteString(piece)
		return true
	}
	a.fail(c, toolcall.CodeTooLarge, fmt.Sprintf("the name of call %d is larger than the %d-byte limit", c.index, a.maxSize))
	return false
}

// fail marks a call failed. The argument text so far is kept for Raw.
func (a *Accumulator) fail(c *pendingCall, code toolcall.Code, msg string) {
	e := toolcall.NewError(code, msg)
	e.CallIndex = c.index
	e.CallID = c.id
	e.Tool = c.name.String()
	if code == toolcall.CodeTooLarge {
		c.args = strings.Builder{} // let the oversized text go
	}
	e.Raw = c.args.String()
	c.err = e
}

// deliver appends to out every held call that is complete and next in
// index order, finished.
func (a *Accumulator) deliver(out []Completion) []Completion {
	for {
		c := a.held[a.next]
		if c == nil || !c.done {
			return out
		}
		out = append(out, a.complete(c))
		delete(a.held, a.next)
		if a.last == c {
			a.last = nil
		}
		a.next++
	}
}

// complete finishes a call, unless it failed or the accumulator is Raw.
func (a *Accumulator) complete(c *pendingCall) Completion {
	raw := dialects.RawCall{ID: c.id, Name: c.name.String(), Arguments: c.args.String(), Offset: -1}
	if c.err != nil {
		a.silence(c.index)
		raw.Err = c.err
		return Completion{Index: c.index, Raw: raw, Err: c.err}
	}
	if a.opts.Raw {
		return Completion{Index: c.index, Raw: raw}
	}
	call, repairs, err := dialects.FinishCall(&raw, c.index, &a.opts.Parse)
	if err != nil {
		return Completion{Index: c.index, Raw: raw, Err: err}
	}
	return Completion{Index: c.index, Raw: raw, Call: call, Repairs: repairs}
}

// End ends the stream: every call still open is complete, and every held
// call is returned in index order, with a Completion carrying a TLP-008
// error before each range of indices no fragment arrived for. Later calls
// to Add are errors; a second End returns nothing.
func (a *Accumulator) End() []Completion {
	if a.ended {
		return nil
	}
	a.ended = true
	indices := make([]int, 0, len(a.held))
	for i, c := range a.held {
		c.done = true
		indices = append(indices, i)
	}
	slices.Sort(indices)
	var out []Completion
	for _, i := range indices {
		if i > a.next {
			out = append(out, a.skipped(a.next, i-1))
			a.next = i
		}
		out = a.deliver(out)
	}
	a.last = nil
	return out
}

// Finish ends the stream (see End) and returns what was not yet returned
// by Add: the remaining calls, their errors and repairs, in index order.
// Calls that Add already returned are not repeated.
func (a *Accumulator) Finish() *toolcall.Result {
	res := &toolcall.Result{Dialect: NativeDialect, Calls: []toolcall.Call{}}
	addCompletions(res, a.End())
	return res
}

// Accumulate runs a whole recorded stream of fragments through an
// Accumulator and returns every call, error and repair, including the
// errors of dropped fragments.
func Accumulate(fragments []Fragment, opts *AccumulatorOptions) *toolcall.Result {
	a := NewAccumulator(opts)
	res := &toolcall.Result{Dialect: NativeDialect, Calls: []toolcall.Call{}}
	for _, f := range fragments {
		done, err := a.add(f)
		addCompletions(res, done)
		if err != nil {
			res.Errors = append(res.Errors, err)
		}
	}
	addCompletions(res, a.End())
	return res
}

// addCompletions folds completions into a result. In Raw mode a completion
// without an error has no finished call to add.
func addCompletions(res *toolcall.Result, done []Completion) {
	for i := range done {
		c := &done[i]
		switch {
		case c.Err != nil:
			res.Errors = append(res.Errors, coded.As(c.Err))
		case c.Call.Name != "":
			res.Calls = append(res.Calls, c.Call)
			res.Repairs = append(res.Repairs, c.Repairs...)
		}
	}
}

// skipped is the completion of a range of indices no fragment arrived for.
func (a *Accumulator) skipped(first, last int) Completion {
	msg := fmt.Sprintf("no fragment arrived for call %d", first)
	if last > first {
		msg = fmt.Sprintf("no fragment arrived for calls %d to %d", first, last)
	}
	e := toolcall.NewError(toolcall.CodeStream, msg)
	e.CallIndex = first
	return Completion{Index: first, Err: coded.Err(e)}
}

// stray reports a fragment for an index already complete (or, in
// sequential mode, passed over), once per index.
func (a *Accumulator) stray(index int) *toolcall.Error {
	if _, ok := a.quiet[index]; ok {
		return nil
	}
	a.silence(index)
	msg := fmt.Sprintf("call %d received a fragment after it completed", index)
	if a.opts.Sequential && index < a.highest {
		msg = fmt.Sprintf("call %d received a fragment after call %d started, in sequential mode", index, a.highest)
	}
	e := toolcall.NewError(toolcall.CodeStream, msg)
	e.CallIndex = index
	return e
}

// silence stops reporting stray fragments for index.
func (a *Accumulator) silence(index int) {
	if a.quiet == nil {
		a.quiet = make(map[int]struct{})
	}
	a.quiet[index] = struct{}{}
}

// once returns a stream error the first time its flag is clear.
func (a *Accumulator) once(reported *bool, index int, msg string) *toolcall.Error {
	if *reported {
		return nil
	}
	*reported = true
	e := toolcall.NewError(toolcall.CodeStream, msg)
	e.CallIndex = index
	return e
}

// quoteClipped quotes a name or type for an error message, clipped: a
// runaway name must not make a runaway message.
func quoteClipped(s string) string {
	const limit = 2 * dialects.MaxNameLength
	if len(s) > limit {
		return fmt.Sprintf("%q…", s[:limit])
	}
	return fmt.Sprintf("%q", s)
}
