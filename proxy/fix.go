package proxy

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/retry"
)

// Kinds of fix counted in RequestStats.Fixed.
const (
	fixLeaked    = "leaked"
	fixRepaired  = "repaired"
	fixCoerced   = "coerced"
	fixIDAdded   = "id_added"
	fixReasoning = "reasoning_moved"
)

// CallErrorsHeader is the response header of a whole chat answer in which
// calls failed their check: their codes, comma-separated ("TLP-004"). The
// answer's body says more in CallErrorsField.
const CallErrorsHeader = "X-Dialectkit-Call-Errors"

// CallErrorsField is the top-level field of a chat answer (a whole answer,
// or a stream's final chunk) that lists the calls that failed their check,
// each a toolcall.Error in its JSON form (code, message, tool, call_id of
// the call as it went out, violations, …; never argument values). Clients
// ignore fields they do not know; an agent's operator can read it.
const CallErrorsField = "dialectkit_call_errors"

// callErrorsJSON is the value of CallErrorsField.
func callErrorsJSON(errs []*toolcall.Error) []byte {
	b, err := json.Marshal(errs)
	if err != nil {
		return []byte("[]")
	}
	return b
}

// callErrorCodes is the value of CallErrorsHeader.
func callErrorCodes(errs []*toolcall.Error) string {
	codes := make([]string, len(errs))
	for i, e := range errs {
		codes[i] = string(e.Code)
	}
	return strings.Join(codes, ",")
}

// outCall is a call of the fixed answer; native, when set, is the
// upstream's own entry for it, whose other fields are kept. failed marks a
// call that did not pass its check and goes out as the model wrote it
// (see asWritten).
type outCall struct {
	call   toolcall.Call
	native *nativeCall
	failed bool
}

// fixed is an answer once fixed.
type fixed struct {
	content   string
	reasoning string
	calls     []outCall
	errors    []*toolcall.Error
	repairs   []toolcall.Repair
	dialect   string
	fixes     map[string]int
	changed   bool
	// truncated says the answer stopped for length (or its stream ended
	// early): a call it cut off is not a call.
	truncated bool
}

func (f *fixed) count(kind string, n int) {
	if n <= 0 {
		return
	}
	if f.fixes == nil {
		f.fixes = map[string]int{}
	}
	f.fixes[kind] += n
	f.changed = true
}

// recoverable reports whether asking again may mend the answer: calls
// failed, and not because the answer was cut off.
func (f *fixed) recoverable() bool {
	if f.truncated {
		return false
	}
	for _, e := range f.errors {
		if e.Code != toolcall.CodeTruncated && e.Code != toolcall.CodeTooMany {
			return true
		}
	}
	return false
}

// fix reads one answer: the upstream's native calls are checked, repaired
// and given ids; otherwise calls that leaked into the content in any
// dialect are read out of it, with reasoning split off.
func (q *chatCtx) fix(ctx context.Context, m *message, truncated bool) *fixed {
	f := &fixed{content: m.content, reasoning: m.reasoning, truncated: truncated}
	do := q.ropts.DialectOptions()
	if len(m.calls) > 0 {
		ext := &dialects.Extraction{Content: m.content, Reasoning: m.reasoning}
		for _, n := range m.calls {
			ext.Calls = append(ext.Calls, n.rc)
		}
		res := dialects.Finish(retry.NativeDialect, ext, &do)
		f.dialect = retry.NativeDialect
		q.takeCalls(f, res, m.calls)
		return f
	}
	if q.tools == nil || strings.TrimSpace(m.content) == "" {
		return f
	}
	opts := q.contentOptions(m.reasoning)
	res, _ := q.c.reg.ParseDetectContext(ctx, m.content, &opts)
	q.original, q.originalReasoning = m.content, m.reasoning
	if len(res.Calls) == 0 && len(res.Errors) == 0 && res.Reasoning == "" {
		return f
	}
	f.dialect = res.Dialect
	f.content = res.Content
	if res.Reasoning != "" {
		f.reasoning = joinText(m.reasoning, res.Reasoning)
		f.count(fixReasoning, 1)
	}
	q.takeCalls(f, res, nil)
	f.count(fixLeaked, len(res.Calls))
	f.changed = true
	return f
}

// contentOptions are the options the content is read with. After
// reasoning the upstream split off itself (Ollama's message.thinking,
// reasoning_content), the content starts outside reasoning: the server
// ended the block the template opened, and what it sent as content
// follows it.
func (q *chatCtx) contentOptions(serverReasoning string) registry.Options {
	o := q.ropts
	if serverReasoning != "" {
		o.ReasoningOpen, o.ReasoningClosed = false, true
	}
	return o
}

// takeCalls moves a parse's calls and errors into f: valid calls get an id
// when they have none; a native call that failed leaves tool_calls for the
// content, a leaked one leaves the content as the model wrote it.
func (q *chatCtx) takeCalls(f *fixed, res *toolcall.Result, native []nativeCall) {
	type slot struct {
		oc  outCall
		idx int
	}
	var slots []slot
	for _, c := range res.Calls {
		oc := outCall{call: c}
		if native != nil && c.Index < len(native) {
			oc.native = &native[c.Index]
			if !argsEqual(native[c.Index].rc.Arguments, c.Arguments) || !native[c.Index].shaped {
				// Stored differently counts only when the value changed
				// (re-spacing is not a fix) or the protocol wants another
				// shape (OpenAI a JSON string, Ollama an object).
				f.changed = true
			}
		}
		if c.ID == "" {
			oc.call.ID = q.newID()
			f.count(fixIDAdded, 1)
		}
		q.ids[oc.call.ID] = true
		slots = append(slots, slot{oc, c.Index})
	}
	covered := make([]bool, len(native))
	for _, c := range res.Calls {
		if c.Index >= 0 && c.Index < len(native) {
			covered[c.Index] = true
		}
	}
	unread := false
	for _, e := range res.Errors {
		f.errors = append(f.errors, e)
		var n *nativeCall
		if e.CallIndex >= 0 && e.CallIndex < len(native) {
			if covered[e.CallIndex] {
				continue
			}
			n, covered[e.CallIndex] = &native[e.CallIndex], true
		}
		if c, ok := asWritten(e, n); ok {
			// Never worse than no proxy: a call the model finished goes
			// out as it wrote it; the client learns of the failure from
			// the answer's call errors (callErrors).
			c = q.withID(f, c)
			e.CallID = c.ID
			slots = append(slots, slot{outCall{call: c, native: n, failed: true}, max(e.CallIndex, 0)})
			f.changed = true
			continue
		}
		unread = true
	}
	for i := range native {
		// A native call no error named (one past a cap) is kept too: the
		// upstream returned it.
		if !covered[i] {
			e := toolcall.NewError(toolcall.CodeTooMany, "the call was not checked")
			e.CallIndex = i
			c, _ := asWritten(e, &native[i])
			slots = append(slots, slot{outCall{call: q.withID(f, c), native: &native[i], failed: true}, i})
			f.changed = true
		}
	}
	if unread && native == nil {
		// A leaked call that could not be read stays where the model
		// wrote it: the content goes out as written, its markup and any
		// reasoning in it included.
		f.content, f.reasoning = q.original, q.originalReasoning
	}
	// The calls go out in the order the model wrote them.
	for i := 1; i < len(slots); i++ {
		for j := i; j > 0 && slots[j].idx < slots[j-1].idx; j-- {
			slots[j], slots[j-1] = slots[j-1], slots[j]
		}
	}
	for _, s := range slots {
		f.calls = append(f.calls, s.oc)
	}
	f.repairs = append(f.repairs, res.Repairs...)
	for _, r := range res.Repairs {
		if isCoercion(r) {
			f.count(fixCoerced, 1)
		} else {
			f.count(fixRepaired, 1)
		}
	}
}

// asWritten is the call a failed check leaves for the client, as the
// model wrote it: every native call (n set: the upstream returned it as a
// call, and the proxy never takes that back), and a leaked call that was
// read whole (a declared tool's name and a JSON object of arguments) but
// fails its schema, which the agent's own loop can reflect as a tool error
// where text could not be run. A leaked call that could not be read (cut
// off, not JSON, an undeclared name) is no call.
func asWritten(e *toolcall.Error, n *nativeCall) (toolcall.Call, bool) {
	if n != nil {
		return toolcall.Call{ID: n.rc.ID, Name: n.rc.Name, Arguments: json.RawMessage(n.rc.Arguments), Index: e.CallIndex}, true
	}
	raw := strings.TrimSpace(e.Raw)
	if e.Code != toolcall.CodeSchema || e.Tool == "" || !strings.HasPrefix(raw, "{") || !json.Valid([]byte(raw)) {
		return toolcall.Call{}, false
	}
	return toolcall.Call{Name: e.Tool, Arguments: json.RawMessage(raw), Index: e.CallIndex}, true
}

// withID gives a call an id when it has none or one already used.
func (q *chatCtx) withID(f *fixed, c toolcall.Call) toolcall.Call {
	if c.ID == "" || q.ids[c.ID] {
		c.ID = q.newID()
		f.count(fixIDAdded, 1)
	}
	q.ids[c.ID] = true
	return c
}

// isCoercion tells a schema coercion from a JSON repair.
func isCoercion(r toolcall.Repair) bool { return r.Kind == toolcall.RepairCoercion }

// argsEqual reports whether the upstream's arguments text and the fixed
// arguments are the same JSON value.
func argsEqual(text string, fixedArgs json.RawMessage) bool {
	var a, b any
	if json.Unmarshal([]byte(text), &a) != nil || json.Unmarshal(fixedArgs, &b) != nil {
		return false
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// joinText joins two pieces of text with a newline when both are set.
func joinText(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n" + b
}

func (q *chatCtx) newID() string {
	for {
		if id := toolcall.NewCallID(); !q.ids[id] {
			return id
		}
	}
}
