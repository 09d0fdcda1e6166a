package jsontext

import (
	"strings"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/callname"
	"github.com/dialectkit/toolcall/dialects/internal/callobject"
	"github.com/dialectkit/toolcall/internal/jsonscan"
	"github.com/dialectkit/toolcall/lenient"
)

// valueCalls reads the calls a JSON value describes: a call object, or an
// array of call objects. It returns nil when the value is not that. The
// first skip elements of an array, read as calls before, are not read
// again: they are left out of the calls returned.
func valueCalls(value string, offset int, opts *dialects.Options, skip int) []dialects.RawCall {
	v := strings.TrimSpace(value)
	if v == "" {
		return nil
	}
	if v[0] == '{' {
		if rc, ok := callObject(v, offset, opts); ok {
			// An object that does not close ran into the end of the output.
			_, complete := jsonscan.ValueEnd(v, 0)
			rc.AtEnd = !complete
			return []dialects.RawCall{rc}
		}
		return nil
	}
	// An array of call objects; each element is found by extent so that
	// one malformed element does not hide the others.
	var calls []dialects.RawCall
	for i := 1; i < len(v); i++ {
		switch v[i] {
		case ' ', '\t', '\r', '\n', ',':
			continue
		case ']':
			return calls
		case '{':
			end, complete := jsonscan.ValueEnd(v, i)
			if skip > 0 {
				skip--
				i = end - 1
				if calls == nil {
					calls = []dialects.RawCall{}
				}
				continue
			}
			rc, ok := callObject(v[i:end], offset+i, opts)
			if !ok {
				return nil
			}
			rc.AtEnd = !complete
			calls = append(calls, rc)
			i = end - 1
		default:
			return nil
		}
	}
	return calls
}

// callObject reads one object as a call if it is shaped like one.
func callObject(obj string, offset int, opts *dialects.Options) (dialects.RawCall, bool) {
	rc, ok := callobject.Read(obj, offset, opts)
	if !ok {
		return rc, false
	}
	if rc.Arguments != "" || onlyCallKeys(obj) {
		return rc, true
	}
	return rc, false
}

var callKeys = map[string]bool{"name": true, "id": true, "type": true, "tool_name": true,
	"tool": true, "function": true, "function_name": true, "tool_call_id": true, "call_id": true}

// onlyCallKeys reports whether a valid JSON object has no key that a call
// object would not have, so {"name": "ping"} is a call and
// {"name": "Ada", "age": 36} is not.
func onlyCallKeys(obj string) bool {
	if !lenient.ValidString(obj) { // gjson.Valid recurses per nesting level
		return false
	}
	only := true
	gjson.Parse(obj).ForEach(func(k, _ gjson.Result) bool {
		only = callKeys[k.String()]
		return only
	})
	return only
}

// embedded reports whether calls read from a value that is not the
// dialect's own syntax (a value after prose, or in a fence) are calls:
// with tools declared, each names one of them; without, each has
// arguments.
func embedded(calls []dialects.RawCall, opts *dialects.Options) bool {
	if len(calls) == 0 {
		return false
	}
	for _, rc := range calls {
		if opts.Tools != nil && opts.Tools.Len() > 0 {
			if _, _, e := callname.Check(rc.Name, opts.Tools); e != nil {
				return false
			}
			continue
		}
		if rc.Arguments == "" {
			return false
		}
	}
	return true
}
