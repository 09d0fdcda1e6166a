package ollamawire

import (
	"fmt"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/cutoff"
	"github.com/dialectkit/toolcall/internal/jsonscan"
)

// maxNesting bounds the nesting of one response value, as encoding/json
// does, so that validating it cannot recurse without limit. The depth of
// arguments proper is the lenient layer's limit, checked per call.
const maxNesting = 10000

// maxInputErrors is how many unreadable regions are reported before the rest
// of the input is given up on: binary or foreign input would otherwise give
// one error per line.
const maxInputErrors = 8

// decode reads every JSON value of text as a response and folds them into a
// Stream.
func decode(text string) *Stream {
	r := reader{text: text, acc: newAccumulator()}
	r.run()
	if r.acc.s.Responses == 0 && len(r.acc.s.Errors) == 0 {
		msg := "input holds no Ollama chat response"
		if strings.TrimSpace(text) == "" {
			msg = "input is empty"
		}
		e := toolcall.NewError(toolcall.CodeInvalidInput, msg)
		e.Offset = 0
		r.acc.fail(e)
	}
	return r.acc.finish(true, len(text))
}

// reader splits the input into JSON values and reads each as a response.
//
// Values are found by bracket matching, so NDJSON, a single pretty-printed
// object and concatenated objects all work. When a value is broken, reading
// resumes at the next line that starts with "{" (the next NDJSON record), so
// one bad line does not hide the rest of a stream.
type reader struct {
	text string
	acc  *accumulator
	// unreadable counts the regions reported as unreadable.
	unreadable int
}

func (r *reader) run() {
	s := r.text
	pos := 0
	if strings.HasPrefix(s, "\ufeff") {
		pos = len("\ufeff")
	}
	for {
		pos = skipSpace(s, pos)
		if pos >= len(s) {
			return
		}
		if r.unreadable >= maxInputErrors {
			r.unreadableAt(pos, "too many unreadable lines; the rest of the input was not read")
			r.rawOfLast(s[pos:])
			return
		}
		if c := s[pos]; c != '{' && c != '[' {
			r.unreadableAt(pos, fmt.Sprintf("line %d is not a JSON object", lineOf(s, pos)))
			r.rawOfLast(s[pos:lineEnd(s, pos)])
			pos = lineEnd(s, pos)
			continue
		}
		end, state := valueEnd(s, pos)
		switch state {
		case spanTooDeep:
			e := toolcall.NewError(toolcall.CodeTooDeep, fmt.Sprintf("line %d nests deeper than %d levels", lineOf(s, pos), maxNesting))
			e.Offset = pos
			next := nextRecord(s, pos, len(s))
			e.Raw = s[pos:next]
			r.acc.fail(e)
			r.unreadable++
			pos = next
		case spanOpen:
			if next := nextRecord(s, pos, len(s)); next < len(s) {
				r.unreadableAt(pos, fmt.Sprintf("line %d is not valid JSON", lineOf(s, pos)))
				r.rawOfLast(s[pos:next])
				pos = next
				continue
			}
			// The input ends inside its last value: the stream was cut.
			e := cutoff.Error(fmt.Sprintf("inside the response at line %d", lineOf(s, pos)))
			e.Offset, e.Raw = pos, s[pos:]
			r.acc.fail(e)
			r.acc.truncReported = true
			return
		default:
			v := s[pos:end]
			if !gjson.Valid(v) {
				r.unreadableAt(pos, fmt.Sprintf("line %d is not valid JSON", lineOf(s, pos)))
				next := nextRecord(s, pos, end)
				r.rawOfLast(s[pos:next])
				pos = next
				continue
			}
			root := gjson.Parse(v)
			root.Index = pos
			r.value(root)
			pos = end
		}
	}
}

// unreadableAt reports a region of input that is not a response.
func (r *reader) unreadableAt(offset int, msg string) {
	e := toolcall.NewError(toolcall.CodeInvalidInput, msg)
	e.Offset = offset
	r.acc.fail(e)
	r.unreadable++
}

// rawOfLast keeps, as the raw text of the error just reported, the text it
// gave up on: no byte of the input vanishes without an error holding it.
func (r *reader) rawOfLast(raw string) {
	if errs := r.acc.s.Errors; len(errs) > 0 && errs[len(errs)-1].Raw == "" {
		errs[len(errs)-1].Raw = raw
	}
}

// value reads one top-level JSON value: a response, or an array of them.
func (r *reader) value(v gjson.Result) {
	if v.IsArray() {
		v.ForEach(func(_, el gjson.Result) bool {
			if el.IsObject() {
				r.response(el)
			} else {
				r.unreadableAt(el.Index, fmt.Sprintf("array element at line %d is %s, not a response object", lineOf(r.text, el.Index), kindOf(el)))
			}
			return r.unreadable < maxInputErrors
		})
		return
	}
	r.response(v)
}

// response reads one response object. A bare assistant message (an object
// with tool_calls, content or thinking at the top level) is read as the
// message of a response.
func (r *reader) response(obj gjson.Result) {
	resp := response{offset: obj.Index}
	var msg gjson.Result
	known, bare := false, false
	obj.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "message":
			msg, known = v, true
		case "done":
			resp.hasDone, resp.status.Done, known = true, v.Type == gjson.True, true
		case "error":
			resp.hasError, resp.serverError, known = true, errorText(v), true
		case "done_reason":
			resp.status.DoneReason = stringOf(v)
		case "model":
			resp.model = stringOf(v)
		case "prompt_eval_count":
			resp.status.PromptEvalCount = int(v.Int())
		case "eval_count":
			resp.status.EvalCount = int(v.Int())
		case "total_duration":
			resp.status.TotalDuration = time.Duration(v.Int())
		case "load_duration":
			resp.status.LoadDuration = time.Duration(v.Int())
		case "prompt_eval_duration":
			resp.status.PromptEvalDuration = time.Duration(v.Int())
		case "eval_duration":
			resp.status.EvalDuration = time.Duration(v.Int())
		case "tool_calls", "content", "thinking", "role":
			bare = true
		}
		return true
	})
	if !msg.IsObject() && bare {
		msg, known = obj, true
	}
	if !known {
		r.unreadableAt(obj.Index, fmt.Sprintf("the object at line %d is not an Ollama chat response", lineOf(r.text, obj.Index)))
		return
	}
	resp.status.Model = resp.model
	r.acc.s.Marked = true
	if msg.IsObject() {
		r.message(msg, &resp)
	}
	r.acc.add(&resp)
}

// message reads the content, thinking and tool calls of a message object.
func (r *reader) message(msg gjson.Result, resp *response) {
	msg.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "content":
			resp.content = stringOf(v)
		case "thinking":
			resp.thinking = stringOf(v)
		case "tool_calls":
			switch {
			case v.IsArray():
				v.ForEach(func(_, c gjson.Result) bool {
					r.acc.call(readCall(c))
					return true
				})
			case v.IsObject(): // one call not wrapped in a list
				r.acc.call(readCall(v))
			case v.Type != gjson.Null:
				r.acc.call(pendingCall{raw: dialects.RawCall{
					Offset: v.Index,
					Err:    malformed(v.Index, "tool_calls is "+kindOf(v)+", not a list of calls"),
				}})
			}
		}
		return true
	})
}

// readCall reads one entry of tool_calls:
//
//	{"id": "call_…", "function": {"index": 0, "name": "…", "arguments": {…}}}
//
// The arguments may also be a JSON string (the OpenAI wire form), empty or
// null, or be named "parameters"; a call without the "function" wrapper is
// read from its own fields.
func readCall(c gjson.Result) pendingCall {
	pc := pendingCall{raw: dialects.RawCall{Offset: c.Index}}
	if !c.IsObject() {
		pc.raw.Err = malformed(c.Index, "tool call is "+kindOf(c)+", not an object")
		return pc
	}
	var fn, name, args, params gjson.Result
	c.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "id":
			if v.Type == gjson.String {
				pc.raw.ID = v.Str
			}
		case "function":
			fn = v
		case "index":
			if v.Type == gjson.Number {
				pc.index, pc.hasIndex = int(v.Int()), true
			}
		case "name":
			name = v
		case "arguments":
			args = v
		case "parameters":
			params = v
		}
		return true
	})
	switch {
	case fn.IsObject():
		name, args, params = gjson.Result{}, gjson.Result{}, gjson.Result{}
		fn.ForEach(func(k, v gjson.Result) bool {
			switch k.Str {
			case "name":
				name = v
			case "arguments":
				args = v
			case "parameters":
				params = v
			case "index":
				if v.Type == gjson.Number {
					pc.index, pc.hasIndex = int(v.Int()), true
				}
			}
			return true
		})
	case fn.Type == gjson.String && !name.Exists():
		name = fn // {"function": "get_weather", "arguments": …}
	}
	switch name.Type {
	case gjson.String:
		pc.raw.Name = name.Str
	case gjson.Null: // missing or null: Finish reports the empty name
	default:
		pc.raw.Err = malformed(c.Index, "tool call's function name is "+kindOf(name)+", not a string")
		return pc
	}
	if !args.Exists() {
		args = params
	}
	switch args.Type {
	case gjson.Null: // missing or null: no arguments
	case gjson.String:
		// One level of string encoding is a wire form, not a repair: the
		// string's content is the argument text.
		pc.raw.Arguments = args.Str
	default:
		pc.raw.Arguments = args.Raw
	}
	return pc
}

func malformed(offset int, msg string) *toolcall.Error {
	e := toolcall.NewError(toolcall.CodeMalformedCall, msg)
	e.Offset = offset
	return e
}

// errorText reads the message of an "error" field: a string (Ollama), or an
// object with a message (the OpenAI shape some proxies send).
func errorText(v gjson.Result) string {
	switch {
	case v.Type == gjson.String:
		return v.Str
	case v.IsObject():
		if m := v.Get("message"); m.Type == gjson.String {
			return m.Str
		}
	}
	return v.Raw
}

// stringOf returns a JSON string's value, and "" for anything else.
func stringOf(v gjson.Result) string {
	if v.Type == gjson.String {
		return v.Str
	}
	return ""
}

func kindOf(v gjson.Result) string {
	switch v.Type {
	case gjson.String:
		return "a string"
	case gjson.Number:
		return "a number"
	case gjson.True, gjson.False:
		return "a boolean"
	case gjson.Null:
		return "null"
	}
	if v.IsArray() {
		return "an array"
	}
	return "an object"
}

// spanState says how valueEnd left a value.
type spanState int

const (
	spanClosed  spanState = iota // the brackets balance; the value may still be invalid
	spanOpen                     // the input ended inside the value
	spanTooDeep                  // nesting passed maxNesting
)

// valueEnd finds the end of the JSON object or array starting at s[start]
// by matching brackets outside strings. It does not validate: gjson.Valid
// does, on the span it returns.
func valueEnd(s string, start int) (int, spanState) {
	depth := 0
	for i := start; i < len(s); i++ {
		switch s[i] {
		case '"':
			i = jsonscan.StringEndIn(s, i)
		case '{', '[':
			if depth++; depth > maxNesting {
				return i, spanTooDeep
			}
		case '}', ']':
			if depth--; depth == 0 {
				return i + 1, spanClosed
			}
		}
	}
	return len(s), spanOpen
}

// nextRecord returns the offset of the first line after start (and before
// end) that begins with "{", where the next NDJSON record starts, or end.
func nextRecord(s string, start, end int) int {
	if i := strings.Index(s[start:end], "\n{"); i >= 0 {
		return start + i + 1
	}
	return end
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t') {
		i++
	}
	return i
}

// lineEnd returns the offset just past the line holding s[i].
func lineEnd(s string, i int) int {
	if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(s)
}

// lineOf returns the 1-based line number of offset i, for error messages.
func lineOf(s string, i int) int { return strings.Count(s[:i], "\n") + 1 }
