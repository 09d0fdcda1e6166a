package dialects

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects/internal/callname"
	"github.com/dialectkit/toolcall/dialects/internal/cutoff"
	"github.com/dialectkit/toolcall/internal/arguments"
	"github.com/dialectkit/toolcall/internal/caps"
	"github.com/dialectkit/toolcall/internal/coded"
	"github.com/dialectkit/toolcall/internal/jsonscan"
	"github.com/dialectkit/toolcall/internal/textlayer"
	"github.com/dialectkit/toolcall/lenient"
	"github.com/dialectkit/toolcall/schema"
)

// MaxNameLength is the longest tool name accepted (OpenAI's limit).
const MaxNameLength = callname.MaxLength

// Finish turns an extraction into a result: every raw call gets its name
// checked, its arguments made into a JSON object and validated, and an id.
// A call that fails becomes a coded error; the others still come through.
func Finish(dialect string, ext *Extraction, opts *Options) *toolcall.Result {
	if opts == nil {
		opts = &Options{}
	}
	res := &toolcall.Result{Dialect: dialect, Calls: []toolcall.Call{}}
	if ext == nil {
		return res
	}
	capCalls(ext, opts)
	if len(ext.Calls) > 0 {
		res.Calls = make([]toolcall.Call, 0, len(ext.Calls))
	}
	// The content's edges are textlayer.Edges's in every dialect, an Extract of its
	// own included (an Incremental dialect's Read has applied it).
	res.Content = textlayer.TrimSpace(ext.Content)
	res.Reasoning = ext.Reasoning
	for i := range ext.Calls {
		call, repairs, err := finishCall(&ext.Calls[i], i, opts)
		res.Repairs = append(res.Repairs, repairs...)
		if err != nil {
			res.Errors = append(res.Errors, err)
			continue
		}
		res.Calls = append(res.Calls, call)
	}
	res.Errors = append(res.Errors, ext.Errors...)
	caps.Errors(res, opts.MaxErrors, opts.MaxErrorMessage)
	return res
}

// FinishCall finishes one raw call with the given index. A failure is a
// *toolcall.Error (errors.As), with the call's index, tool and offset.
func FinishCall(rc *RawCall, index int, opts *Options) (toolcall.Call, []toolcall.Repair, error) {
	if opts == nil {
		opts = &Options{}
	}
	call, repairs, e := finishCall(rc, index, opts)
	return call, repairs, coded.Err(e)
}

// finishCall is FinishCall with the concrete error; opts is not nil.
func finishCall(rc *RawCall, index int, opts *Options) (toolcall.Call, []toolcall.Repair, *toolcall.Error) {
	// read is set once the arguments were read whole (every word of the
	// call is then in its name or arguments): a failure past it, against
	// the schema, shows the arguments read, not the call's whole text.
	read := false
	fail := func(e *toolcall.Error) (toolcall.Call, []toolcall.Repair, *toolcall.Error) {
		e.CallIndex = index
		if e.Tool == "" {
			e.Tool = rc.Name
		}
		if e.CallID == "" {
			e.CallID = rc.ID
		}
		if e.Offset < 0 && rc.Offset >= 0 {
			e.Offset = rc.Offset
		}
		switch {
		case rc.Text != "" && !read && !strings.Contains(e.Raw, rc.Text):
			e.Raw = rc.Text
		case e.Raw == "":
			e.Raw = rc.Arguments
		}
		return toolcall.Call{}, nil, e
	}
	if e := extractionError(rc.Err); e != nil {
		return fail(e)
	}
	if rc.AtEnd && cutRepair(rc.Repairs) {
		// The output ends inside the call's envelope: its name too
		// may be cut, and nothing of it is checked.
		e := cutoff.Error("inside the call")
		e.Tool = rc.Name
		return fail(e)
	}
	if inventedValue(rc.Repairs) {
		return fail(inventedValueError())
	}
	name, nameRepairs, nerr := callname.Check(rc.Name, opts.Tools)
	if nerr != nil {
		return fail(nerr)
	}
	var tool *schema.Tool
	if opts.Tools != nil && opts.Tools.Len() > 0 {
		// The version the caller pins (the newest by default).
		var err error
		tool, err = opts.Tools.Select(name, opts.Validation)
		if verr := coded.As(err); verr != nil && verr.Code != toolcall.CodeUnknownTool {
			return fail(verr)
		}
	}
	var (
		args    json.RawMessage
		repairs []toolcall.Repair
		aerr    *toolcall.Error
	)
	if rc.Params != nil {
		args, repairs, aerr = typedArguments(rc.Params, tool, opts)
		if aerr != nil {
			aerr.Tool = name
			return fail(aerr)
		}
	} else {
		args, repairs, aerr = argumentsOf(rc, opts)
		if aerr != nil {
			if rc.AtEnd && valueCut(rc.Arguments) {
				// The output ends inside the arguments: whatever
				// failed in them, they were cut off.
				aerr = cutoff.Convert(aerr)
			}
			aerr.Tool = name
			return fail(aerr)
		}
	}
	if !rc.AtEnd && inventedValue(repairs) {
		e := inventedValueError()
		e.Tool = name
		return fail(e)
	}
	if rc.AtEnd && cutRepair(repairs) {
		e := cutoff.Error("inside the call's arguments")
		e.Tool = name
		if e.Raw == "" {
			e.Raw = rc.Arguments
		}
		return fail(e)
	}
	repairs = append(append(append([]toolcall.Repair(nil), rc.Repairs...), nameRepairs...), repairs...)
	read = true
	if tool != nil {
		if inner, more, ok := unwrapArguments(args, tool, opts); ok {
			args = inner
			repairs = append(repairs, more...)
		}
		out, coerced, err := opts.Tools.CheckStrict(tool, args, opts.Validation)
		repairs = append(repairs, coerced...)
		if verr := coded.As(err); verr != nil {
			verr.Tool = name
			if verr.Raw == "" {
				verr.Raw = string(args)
			}
			return fail(verr)
		}
		args = out
	}
	for i := range repairs {
		repairs[i].CallIndex = index
	}
	id := rc.ID
	if id == "" {
		id = toolcall.NewCallID()
	}
	server, _ := toolcall.SplitName(name)
	return toolcall.Call{ID: id, Name: name, Server: server, Arguments: args, Index: index}, repairs, nil
}

// argumentsOf reads rc's argument text with opts: as text a dialect
// checked already when it says so (RawCall.ArgumentsValid).
func argumentsOf(rc *RawCall, opts *Options) (json.RawMessage, []toolcall.Repair, *toolcall.Error) {
	if rc.ArgumentsValid {
		return arguments.ReadValid(rc.Arguments, &opts.Lenient, opts.DisableRepair, rc.ArgumentsUnique)
	}
	return arguments.Read(rc.Arguments, &opts.Lenient, opts.DisableRepair)
}

// extractionError is the coded error of a RawCall's Err: nil when there is
// none (a nil *toolcall.Error stored in the interface included), the
// *toolcall.Error when it is one, else a TLP-018 error wrapping it. The
// error is copied, so that finishing a call twice does not change it.
func extractionError(err error) *toolcall.Error {
	if err == nil {
		return nil
	}
	var e *toolcall.Error
	if errors.As(err, &e) {
		if e == nil {
			return nil
		}
		c := *e
		return &c
	}
	return toolcall.Errorf(toolcall.CodeMalformedCall, err, "the call could not be extracted")
}

// cutRepair reports whether repairs closed something the text left open at
// its end: a string, a value, an object or an array. On a call whose text
// runs to the end of the output (RawCall.AtEnd), that means the end of the
// output cut the call.
func cutRepair(repairs []toolcall.Repair) bool {
	for _, r := range repairs {
		switch r.Kind {
		case toolcall.RepairTruncatedString, toolcall.RepairTruncatedValue,
			toolcall.RepairMissingClosingBrace, toolcall.RepairMissingClosingBracket:
			return true
		}
	}
	return false
}

// inventedValue reports whether repairs made up a value the text never
// held: a member whose value was cut off right after its key, given null
// (a risky truncated_value). Closed by the call's own marker rather than
// the end of the output, such a call is still not what the model wrote.
func inventedValue(repairs []toolcall.Repair) bool {
	for _, r := range repairs {
		if r.Kind == toolcall.RepairTruncatedValue && r.Risky {
			return true
		}
	}
	return false
}

func inventedValueError() *toolcall.Error {
	return toolcall.NewError(toolcall.CodeMalformedCall, "a member of the call has a key and no value: repair would make one up")
}

// valueCut reports whether args, the text of a JSON value, opens a value
// (object or array) that the text ends before closing.
func valueCut(args string) bool {
	i := textlayer.SkipSpace(args, 0)
	if i >= len(args) || args[i] != '{' && args[i] != '[' {
		return false
	}
	_, complete := jsonscan.ValueEnd(args, i)
	return !complete
}

// typedArguments builds the arguments of a tagged-parameter call and holds
// them to the rules of any other arguments: values typed one by one can
// still nest past the depth limit, hold invalid UTF-8 or keep the model's
// layout, so the object goes through the lenient pipeline (valid JSON
// takes its fast path, which checks the depth) and is compacted.
func typedArguments(params []Param, tool *schema.Tool, opts *Options) (json.RawMessage, []toolcall.Repair, *toolcall.Error) {
	args, repairs := typeParams(params, tool)
	r := lenient.Repair(args, &opts.Lenient)
	if e := coded.As(r.Err); e != nil {
		e.Offset = -1 // an offset in the built object, not in the text
		return nil, nil, e
	}
	for _, rep := range r.Repairs {
		rep.Offset = -1
		repairs = append(repairs, rep)
	}
	return arguments.Compact(r.Output), repairs, nil
}

// admitted reports whether the JSON value v is of one of the declared
// types; any value is when none is declared.
func admitted(types []string, v []byte) bool {
	if len(types) == 0 {
		return true
	}
	var t string
	switch r := gjson.ParseBytes(v); r.Type {
	case gjson.Null:
		t = "null"
	case gjson.True, gjson.False:
		t = "boolean"
	case gjson.String:
		t = "string"
	case gjson.Number:
		t = "number"
		if !strings.ContainsAny(r.Raw, ".eE") && slices.Contains(types, "integer") {
			return true
		}
	default:
		t = "object"
		if r.IsArray() {
			t = "array"
		}
	}
	return slices.Contains(types, t)
}

// typeParams builds the arguments object of a tagged-parameter call. With a
// declared tool, each raw value is typed by its property's schema; without
// one, values that parse as JSON are kept as JSON and the rest are strings.
// Every conversion is recorded.
func typeParams(params []Param, tool *schema.Tool) (json.RawMessage, []toolcall.Repair) {
	var buf bytes.Buffer
	var repairs []toolcall.Repair
	buf.WriteByte('{')
	for i, p := range params {
		if i > 0 {
			buf.WriteByte(',')
		}
		lenient.WriteJSONString(&buf, p.Key)
		buf.WriteByte(':')
		v, r := schema.TypeText(tool, p.Key, p.Value, p.IsString, p.IsJSON)
		if p.IsJSON && !admitted(tool.PropertyTypes(p.Key), v) {
			// The dialect marks the value as no string (DSML's
			// string="false") and it reads as JSON of a type the property
			// does not declare (null for a string): the declared type
			// reads the text, as for a value the dialect says nothing of.
			v, r = schema.TypeText(tool, p.Key, p.Value, false, false)
		}
		buf.Write(v)
		if r != nil {
			repairs = append(repairs, *r)
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), repairs
}

// wrapperKeys are the names models put around a call's real arguments, as
// if the arguments object were a parameter of its own (MiniCPM 5 and
// DeepSeek V3.2/V4 write <param name="arguments">{…}</param>).
var wrapperKeys = []string{"arguments", "properties", "input", "parameters"}

// firstKeyIsWrapper reports whether the first key of args, a compact JSON
// object, is one of wrapperKeys: a look at a few bytes that spares the
// arguments of nearly every call a parse of the whole object.
func firstKeyIsWrapper(args []byte) bool {
	if args[1] != '"' {
		return false // {}
	}
	key := args[2:jsonscan.StringEnd(args, 1)]
	if bytes.IndexByte(key, '\\') >= 0 {
		return true // escaped: let the parse tell
	}
	return slices.Contains(wrapperKeys, string(key))
}

// unwrapArguments returns the real arguments of a call whose only argument
// is named like a wrapper (wrapperKeys) that the tool's schema does not
// declare, and holds an object: as JSON, as a string of JSON or of a
// Python dict. The change is recorded as a wrapped_arguments repair. A
// tool without a schema declares nothing, so nothing is unwrapped for it.
func unwrapArguments(args json.RawMessage, tool *schema.Tool, opts *Options) (json.RawMessage, []toolcall.Repair, bool) {
	if tool.Parameters == nil || len(args) < 2 || args[0] != '{' || !firstKeyIsWrapper(args) {
		return nil, nil, false
	}
	obj := gjson.ParseBytes(args)
	var key string
	var val gjson.Result
	n := 0
	obj.ForEach(func(k, v gjson.Result) bool {
		n++
		key, val = k.String(), v
		return n < 2
	})
	if n != 1 || !slices.Contains(wrapperKeys, key) || slices.Contains(tool.PropertyNames(), key) {
		return nil, nil, false
	}
	if types := tool.PropertyTypes(key); len(types) > 0 {
		return nil, nil, false // declared through patternProperties or additionalProperties
	}
	rep := toolcall.Repair{Kind: toolcall.RepairWrappedArguments, Offset: -1, Detail: "/" + key + ": arguments unwrapped"}
	switch {
	case val.IsObject():
		return arguments.Compact([]byte(val.Raw)), []toolcall.Repair{rep}, true
	case val.Type == gjson.String:
		s := strings.TrimSpace(val.Str)
		if !strings.HasPrefix(s, "{") {
			return nil, nil, false
		}
		inner, more, err := arguments.Read(s, &opts.Lenient, opts.DisableRepair)
		if err != nil {
			return nil, nil, false
		}
		for i := range more {
			more[i].Offset = -1 // an offset in the decoded string, not in the text
		}
		return inner, append([]toolcall.Repair{rep}, more...), true
	}
	return nil, nil, false
}
