package pythonic

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/callobject"
	"github.com/dialectkit/toolcall/dialects/internal/cutoff"
	"github.com/dialectkit/toolcall/lenient"
	"github.com/dialectkit/toolcall/schema"
)

// rawCall turns one list element of s (which starts at byte base of the
// output) into a raw call.
func (x *extractor) rawCall(s string, el element, base int) dialects.RawCall {
	if el.object {
		return x.objectCall(s[el.start:el.end], el, base+el.start)
	}
	return x.pythonCall(s[el.start:el.end], s[el.start:el.nameEnd], el, base+el.start)
}

// guard refuses elements too large or too deep for the grammar to be run on.
func (x *extractor) guard(src string, el element) *toolcall.Error {
	if len(src) > x.maxSize {
		return toolcall.NewError(toolcall.CodeTooLarge, fmt.Sprintf("call is %d bytes, the limit is %d", len(src), x.maxSize))
	}
	if el.depth > x.maxDepth+1 { // +1: the call's own parenthesis or braces
		return toolcall.NewError(toolcall.CodeTooDeep, fmt.Sprintf("call nests %d levels deep, the limit is %d", el.depth-1, x.maxDepth))
	}
	return nil
}

// pythonCall parses one call expression, src, found at byte off.
func (x *extractor) pythonCall(src, name string, el element, off int) dialects.RawCall {
	rc := dialects.RawCall{Name: x.callName(name), Offset: off}
	fail := func(e *toolcall.Error) dialects.RawCall {
		if e.Offset < 0 {
			e.Offset = off
		}
		e.Raw = src
		rc.Err = e
		return rc
	}
	if e := x.guard(src, el); e != nil {
		return fail(e)
	}
	if el.complete && src[len(src)-1] == ')' && strings.TrimSpace(src[len(name)+1:len(src)-1]) == "" {
		rc.Arguments = "{}" // name(): nothing for the grammar to do
	} else {
		pargs, kinds, ok := scanCall(src, len(name))
		if !ok {
			// The scanner declined: the grammar, the reference for Python
			// literals, parses the call and reports what is wrong with it.
			calls, gkinds, err := lenient.ParsePythonCalls(src)
			if err != nil {
				return fail(grammarError(err, off, el.complete, "call"))
			}
			if len(calls) != 1 {
				return fail(toolcall.NewError(toolcall.CodeMalformedCall, "call expression holds more than one call"))
			}
			pargs, kinds = calls[0].Args, gkinds
		}
		args, aerr := x.arguments(rc.Name, pargs)
		if aerr != nil {
			return fail(aerr)
		}
		rc.Arguments = string(args)
		rc.Repairs = repairsOf(kinds)
	}
	if el.noComma {
		rc.Repairs = append(rc.Repairs, toolcall.Repair{Kind: toolcall.RepairMissingComma, Offset: off, Detail: "between calls"})
	}
	return rc
}

// grammarError codes a grammar failure: text that ended too early is a
// truncated call, anything else a malformed one. The message gives the
// position, never the text (which may hold argument values).
func grammarError(err error, off int, complete bool, what string) *toolcall.Error {
	at := lenient.ErrorOffset(err)
	if !complete || lenient.IsIncomplete(err) {
		e := cutoff.Error("inside a " + what + ", before it closes")
		e.Err = err
		if at >= 0 {
			e.Offset = off + at
		}
		return e
	}
	msg := what + " arguments are not valid Python"
	e := toolcall.Errorf(toolcall.CodeMalformedCall, err, msg)
	if at >= 0 {
		e.Message = fmt.Sprintf("%s (byte %d of the %s)", msg, at, what)
		e.Offset = off + at
	}
	return e
}

// callName applies the dialect's naming rule to a callee as written.
func (x *extractor) callName(name string) string {
	if x.d.builtin {
		return strings.TrimSuffix(name, ".call")
	}
	return name
}

// arguments builds the JSON object of a call's arguments, keys in the order
// written. An argument given twice is left to Finish, which keeps its last
// value as it does for JSON arguments in every dialect. Positional arguments take the names of the tool's parameters in
// schema order; without a schema they are named arg0, arg1, ….
func (x *extractor) arguments(name string, args []lenient.PythonArg) ([]byte, *toolcall.Error) {
	var params []string
	if t := x.tool(name); t != nil {
		params = t.PropertyNames()
	}
	if params == nil && x.d.builtin {
		params = builtinParams[name]
	}
	positional := 0
	for _, a := range args {
		if a.Key == "" {
			positional++
		}
	}
	if len(params) > 0 && positional > len(params) {
		return nil, toolcall.NewError(toolcall.CodeMalformedCall,
			fmt.Sprintf("call has %d positional arguments, the tool declares %d parameters", positional, len(params)))
	}
	var buf bytes.Buffer
	buf.Grow(16 * (len(args) + 1))
	buf.WriteByte('{')
	pos := 0
	for _, a := range args {
		key := a.Key
		if key == "" {
			if pos < len(params) {
				key = params[pos]
			} else {
				key = "arg" + strconv.Itoa(pos)
			}
			pos++
		}
		if buf.Len() > 1 {
			buf.WriteByte(',')
		}
		lenient.WriteJSONString(&buf, key)
		buf.WriteByte(':')
		buf.Write(a.Value)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// objectCall reads one call object, {"name": …, "arguments": …} in JSON or
// as a Python dict, found at byte off.
func (x *extractor) objectCall(src string, el element, off int) dialects.RawCall {
	fail := func(e *toolcall.Error) dialects.RawCall {
		if e.Offset < 0 {
			e.Offset = off
		}
		e.Raw = src
		return dialects.RawCall{Offset: off, Err: e}
	}
	if e := x.guard(src, el); e != nil {
		return fail(e)
	}
	if !el.complete {
		return fail(cutoff.Error("inside a call object, before it closes"))
	}
	// A Python dict is the family's own syntax (sarashina writes them); any
	// other breakage is left to the lenient pipeline, which records it.
	text := src
	var repairs []toolcall.Repair
	if !lenient.ValidString(src) {
		out, kinds, ok := scanLiteral(src)
		var err error
		if !ok {
			out, kinds, err = lenient.PythonLiteralToJSON(src)
		}
		if err == nil && slices.Contains(kinds, toolcall.RepairUnquotedString) {
			// Neither JSON nor a Python literal: a bare word such as
			// {"name": invalid} is a variable in Python, not a value, and
			// guessing it into a tool name would invent a call.
			return fail(toolcall.NewError(toolcall.CodeMalformedCall, "call object is neither JSON nor a Python dict"))
		}
		if err == nil && len(kinds) > 0 {
			text, repairs = string(out), repairsOf(kinds)
		}
	}
	rc, ok := callobject.Read(text, off, x.opts)
	if !ok {
		if lenient.ValidString(text) && gjson.Parse(text).IsObject() {
			return fail(toolcall.NewError(toolcall.CodeMissingFunction, "call object has no name field"))
		}
		return fail(toolcall.NewError(toolcall.CodeMalformedCall, "call object is neither JSON nor a Python dict"))
	}
	rc.Repairs = append(repairs, rc.Repairs...)
	return rc
}

// repairsOf records the looseness the grammar met, except what is the
// family's own syntax: single quotes, True/False/None and tuples, and
// Python number spellings are how these models write, not mistakes.
func repairsOf(kinds []toolcall.RepairKind) []toolcall.Repair {
	var out []toolcall.Repair
	for _, k := range kinds {
		switch k {
		case toolcall.RepairSingleQuotes, toolcall.RepairPythonLiteral, toolcall.RepairNumberFormat:
			continue
		}
		out = append(out, toolcall.Repair{Kind: k, Offset: -1, Detail: "in Python call syntax"})
	}
	return out
}

// tool returns the declared tool name refers to, also when only the case
// differs (Finish renames such calls the same way).
func (x *extractor) tool(name string) *schema.Tool {
	tools := x.opts.Tools
	if tools == nil || tools.Len() == 0 {
		return nil
	}
	if t, ok := tools.Lookup(name); ok {
		return t
	}
	if alt, ok := tools.LookupFold(name); ok {
		t, _ := tools.Lookup(alt)
		return t
	}
	return nil
}

// declared reports whether name is a declared tool.
func (x *extractor) declared(name string) bool { return x.tool(name) != nil }

// codeCall is Llama 3's code-interpreter call: the code that followed the
// tag, as the "code" argument of the declared code tool ("python" when that
// is the one declared, "code_interpreter" otherwise).
func (x *extractor) codeCall(code string, off int) dialects.RawCall {
	name := "code_interpreter"
	if !x.declared(name) && x.declared("python") {
		name = "python"
	}
	var buf bytes.Buffer
	buf.WriteString(`{"code":`)
	lenient.WriteJSONString(&buf, code)
	buf.WriteByte('}')
	return dialects.RawCall{Name: name, Arguments: buf.String(), Offset: off}
}
