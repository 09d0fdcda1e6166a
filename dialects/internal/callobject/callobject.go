// Package callobject reads a tool call written as a JSON object, such as
// {"name": "f", "arguments": {...}}, with the field aliases models use
// (dialects/internal/fields) and the OpenAI shape {"type": "function",
// "function": {...}}, for every dialect that writes its calls so: one
// reading of a call object, and one answer to a call object that says two
// things (TLP-019).
package callobject

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/fields"
	"github.com/dialectkit/toolcall/internal/coded"
	"github.com/dialectkit/toolcall/internal/jsonscan"
	"github.com/dialectkit/toolcall/internal/strictjson"
	"github.com/dialectkit/toolcall/internal/textlayer"
	"github.com/dialectkit/toolcall/internal/wordskept"
	"github.com/dialectkit/toolcall/lenient"
)

// Read reads a call written as a JSON object, such as
// {"name": "f", "arguments": {...}}, accepting the field aliases and the
// OpenAI shape {"type": "function", "function": {"name": …, "arguments": …}}.
// An almost-JSON object is repaired first (the repairs are kept on the call).
// offset is the object's byte offset in the output. ok is false when the
// text is not an object that names a call (no name field at all); a call
// with an empty name is still returned, for Finish to reject.
func Read(text string, offset int, opts *dialects.Options) (rc dialects.RawCall, ok bool) {
	rc.Offset = offset
	if !mayNameCallRaw(text) {
		// No name field can come out of it: not worth checking or
		// repairing (a large argument value another dialect wrote).
		return rc, false
	}
	obj, repairs, err, chk := parseJSON(text, opts)
	if err != nil {
		return rc, false
	}
	rc, ok = objectCall(obj, offset, chk)
	if ok {
		rc.Repairs = repairs
	}
	return rc, ok
}

// ReadChecked is Read for obj, the text of an object read out of a value
// that Parse returned, with the Checked it
// reported: a checked object is neither checked nor repaired again, and
// its repairs are those made to the value (the caller has them).
func ReadChecked(obj string, offset int, chk strictjson.Checked, opts *dialects.Options) (dialects.RawCall, bool) {
	obj = strings.TrimSpace(obj)
	if chk == strictjson.Unchecked || obj == "" || obj[0] != '{' {
		return Read(obj, offset, opts)
	}
	// Strict JSON: its members are read from its text (validMembers),
	// which needs no parse first.
	return objectCall(gjson.Result{Type: gjson.JSON, Raw: obj}, offset, chk)
}

// objectCall reads the call of obj, parsed, whose text is as chk says.
func objectCall(obj gjson.Result, offset int, chk strictjson.Checked) (dialects.RawCall, bool) {
	if !obj.IsObject() || !mayNameCall(obj.Raw) {
		return dialects.RawCall{Offset: offset}, false
	}
	valid := chk >= strictjson.Strict
	env := readEnvelope(obj, valid)
	if fn := env.function; fn.IsObject() {
		inner, ok := objectFields(fn, valid)
		if ok {
			if inner.ID == "" {
				inner.ID = env.idOf()
			}
			// The envelope around the "function" object names a tool or
			// gives arguments too: when they disagree with the object's,
			// which call is meant cannot be known.
			switch {
			case inner.Err != nil:
			case env.nameAt < maxFields && env.name.String() != inner.Name:
				inner.Err = toolcall.NewError(toolcall.CodeMalformedCall, fmt.Sprintf("the call object names its tool twice, %q around a \"function\" object naming %q: which tool is meant cannot be known", env.name.String(), inner.Name))
			case env.argsAt < maxFields && inner.Arguments != "" && !sameJSON(env.args.Raw, inner.Arguments):
				inner.Err = toolcall.NewError(toolcall.CodeMalformedCall, "the call object gives its arguments twice, around and inside its \"function\" object, differently: which arguments are meant cannot be known")
			}
			inner.Offset = offset
			inner.ArgumentsValid = chk >= strictjson.Strict && inner.Arguments != ""
			inner.ArgumentsUnique = chk == strictjson.StrictUnique && inner.ArgumentsValid
			return inner, true
		}
	}
	rc, ok := envelopeFields(&env)
	rc.Offset = offset
	rc.ArgumentsValid = chk >= strictjson.Strict && rc.Arguments != ""
	rc.ArgumentsUnique = chk == strictjson.StrictUnique && rc.ArgumentsValid
	return rc, ok
}

// Parse reads one JSON value a dialect found (the object around
// a call, an array of calls), sending almost-JSON through the lenient
// pipeline unless repair is off, and returns it as JSON text with what is
// known of it, so that the call objects read out of it
// (ReadChecked) and their arguments are not checked again; the
// repairs come back for the call. A failure is a *toolcall.Error
// (errors.As).
func Parse(text string, opts *dialects.Options) (string, []toolcall.Repair, strictjson.Checked, error) {
	v, repairs, e, chk := parseJSON(text, opts)
	if e != nil {
		return "", nil, strictjson.Unchecked, e
	}
	return v.Raw, repairs, chk, nil
}

// parseJSON is Parse with the parsed value and the concrete
// error.
func parseJSON(text string, opts *dialects.Options) (gjson.Result, []toolcall.Repair, *toolcall.Error, strictjson.Checked) {
	text = strings.TrimSpace(text)
	check := lenient.Options{MaxSize: -1, MaxDepth: strictjson.Limit(maxDepthOf(opts))}
	switch unique, err := lenient.CheckKeys(unsafeBytes(text), &check); {
	case err == nil:
		chk := strictjson.Strict
		if unique {
			chk = strictjson.StrictUnique
		}
		return gjson.Parse(text), nil, nil, chk
	case errors.Is(err, toolcall.ErrTooDeep):
		// Deeper than any arguments may nest: the call inside fails its
		// depth check whatever the rest holds, so the text is read as it
		// is (gjson reads top-level fields without descending into the
		// nesting), for the call to be found and get that error.
		return gjson.Parse(text), nil, nil, strictjson.Unchecked
	}
	if opts != nil && opts.DisableRepair {
		return gjson.Result{}, nil, toolcall.NewError(toolcall.CodeInvalidJSON, "call is not valid JSON and repair is disabled"), strictjson.Unchecked
	}
	var lo *lenient.Options
	if opts != nil {
		lo = &opts.Lenient
	}
	r := lenient.Repair([]byte(text), lo)
	if e := coded.As(r.Err); e != nil {
		return gjson.Result{}, nil, e, strictjson.Unchecked
	}
	if e := wordskept.Check([]byte(text), r.Kept); e != nil {
		e.Raw = text
		return gjson.Result{}, nil, e, strictjson.Unchecked
	}
	return gjson.ParseBytes(r.Output), r.Repairs, nil, strictjson.Strict
}

// unsafeBytes views s as bytes, for reading only.
func unsafeBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// maxDepthOf is the lenient depth limit of opts (0: the default).
func maxDepthOf(opts *dialects.Options) int {
	if opts == nil {
		return 0
	}
	return opts.Lenient.MaxDepth
}

// envelope is what one pass over a call object's members finds: for the
// name, arguments and id, the value of the alias tried first (the first
// occurrence of each key counts, as a lookup finds it), the "function"
// member, and the ambiguity message.
type envelope struct {
	name, args, id    gjson.Result
	nameAt, argsAt    int // the alias index of name and args; maxFields when none
	idAt              int
	function          gjson.Result
	msg               string
	seenName, seenArg uint8 // aliases met, one bit each
	seenID            uint8
}

// maxFields bounds the aliases of one field list (a bit each; fields.Name
// and the others hold fewer, which a test checks).
const maxFields = 8

// readEnvelope walks obj's members once. A model's call object may hold a
// large argument value: every field looked up separately would walk past
// it again. valid says obj is strict JSON, walked then by validMembers.
func readEnvelope(obj gjson.Result, valid bool) envelope {
	env := envelope{nameAt: maxFields, argsAt: maxFields, idAt: maxFields}
	var nameKey, nameVal, argsKey, argsVal string
	visit := func(key string, v gjson.Result) bool {
		if i := slices.Index(fields.Name, key); i >= 0 && i < maxFields && env.seenName&(1<<i) == 0 {
			env.seenName |= 1 << i
			if v.Type == gjson.String && i < env.nameAt {
				env.name, env.nameAt = v, i
			}
		}
		if i := slices.Index(fields.Arguments, key); i >= 0 && i < maxFields && env.seenArg&(1<<i) == 0 {
			env.seenArg |= 1 << i
			if i < env.argsAt {
				env.args, env.argsAt = v, i
			}
		}
		if i := slices.Index(fields.ID, key); i >= 0 && i < maxFields && env.seenID&(1<<i) == 0 {
			env.seenID |= 1 << i
			if (v.Type == gjson.String || v.Type == gjson.Number) && i < env.idAt {
				env.id, env.idAt = v, i
			}
		}
		if key == "function" && !env.function.Exists() {
			env.function = v
		}
		if env.msg != "" {
			return true
		}
		// A call object that names its tool or gives its arguments more
		// than once (the same key twice, or two name fields that disagree)
		// is ambiguous: which one the model meant cannot be known, and
		// taking either would let a second name ride behind the first.
		if v.Type == gjson.String && slices.Contains(fields.Name, key) {
			switch {
			case nameKey == "":
				nameKey, nameVal = key, v.String()
			case key == nameKey:
				env.msg = fmt.Sprintf("the call object has the %q key twice: which tool is meant cannot be known", key)
			case v.String() != nameVal:
				env.msg = fmt.Sprintf("the call object names its tool twice, in %q and %q, differently: which tool is meant cannot be known", nameKey, key)
			}
		}
		if slices.Contains(fields.Arguments, key) {
			switch {
			case key == argsKey:
				env.msg = fmt.Sprintf("the call object has the %q key twice: which arguments are meant cannot be known", key)
			case argsKey == "":
				argsKey, argsVal = key, v.Raw
			case !sameJSON(v.Raw, argsVal):
				env.msg = fmt.Sprintf("the call object gives its arguments twice, in %q and %q, differently: which arguments are meant cannot be known", argsKey, key)
			}
		}
		return true
	}
	if valid {
		validMembers(obj.Raw, visit)
	} else {
		obj.ForEach(func(k, v gjson.Result) bool { return visit(k.String(), v) })
	}
	return env
}

// sameJSON reports whether a and b, two JSON texts, are the same value
// written alike but for the layout outside strings.
func sameJSON(a, b string) bool {
	if a == b {
		return true
	}
	var ca, cb bytes.Buffer
	return json.Compact(&ca, []byte(a)) == nil && json.Compact(&cb, []byte(b)) == nil && bytes.Equal(ca.Bytes(), cb.Bytes())
}

// validMembers calls visit with the key and value of each member of obj,
// the text of a strict JSON object, as gjson's ForEach gives them, until
// visit returns false. Strings without escapes, objects and arrays are
// sliced out of obj, skipping strings quote to quote; anything else is
// left to gjson.
func validMembers(obj string, visit func(key string, v gjson.Result) bool) {
	b := unsafeBytes(obj)
	i := textlayer.SkipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return
	}
	for i = textlayer.SkipSpace(obj, i+1); i < len(obj) && obj[i] == '"'; {
		ke := jsonscan.StringEnd(b, i) + 1
		if ke > len(obj) {
			return
		}
		key := obj[i+1 : ke-1]
		if strings.IndexByte(key, '\\') >= 0 {
			key = gjson.Parse(obj[i:ke]).String()
		}
		i = textlayer.SkipSpace(obj, ke)
		if i >= len(obj) || obj[i] != ':' {
			return
		}
		i = textlayer.SkipSpace(obj, i+1)
		if i >= len(obj) {
			return
		}
		var v gjson.Result
		switch c := obj[i]; c {
		case '"':
			e := jsonscan.StringEnd(b, i) + 1
			if e > len(obj) {
				return
			}
			v = gjson.Result{Type: gjson.String, Raw: obj[i:e], Str: obj[i+1 : e-1]}
			if strings.IndexByte(v.Str, '\\') >= 0 {
				v = gjson.Parse(v.Raw)
			}
		case '{', '[':
			e, complete := jsonscan.ValueEnd(obj, i)
			if !complete {
				return
			}
			v = gjson.Result{Type: gjson.JSON, Raw: obj[i:e]}
		default:
			e := i
			for e < len(obj) && obj[e] != ',' && obj[e] != '}' && !textlayer.IsSpace(obj[e]) {
				e++
			}
			v = gjson.Parse(obj[i:e])
		}
		if !visit(key, v) {
			return
		}
		i = textlayer.SkipSpace(obj, i+len(v.Raw))
		if i >= len(obj) || obj[i] != ',' {
			return
		}
		i = textlayer.SkipSpace(obj, i+1)
	}
}

// mayNameCall reports whether the object text obj may hold a name field
// (the "function" wrapper is one): without any of them quoted, and without
// a \u escape that could spell one, it is not a call object, and reading
// its members (unescaping every string) is left undone.
func mayNameCall(obj string) bool {
	// The name fields first: a call object names its call near its start,
	// and then the rest of it is not searched.
	for _, q := range quotedNameFields {
		if strings.Contains(obj, q) {
			return true
		}
	}
	return strings.Contains(obj, `\u`)
}

// mayNameCallRaw is mayNameCall for text before repair, whose keys may be
// unquoted or single-quoted: some name field's word must stand in it, or
// an escape that could spell one. Every name field holds "name",
// "function" or "tool" (a test keeps this true).
func mayNameCallRaw(text string) bool {
	return strings.Contains(text, "name") || strings.Contains(text, "tool") || strings.Contains(text, "function") ||
		strings.Contains(text, `\u`) || strings.Contains(text, `\x`)
}

// quotedNameFields are the name fields as they appear as keys.
var quotedNameFields = func() []string {
	out := make([]string, len(fields.Name))
	for i, f := range fields.Name {
		out[i] = `"` + f + `"`
	}
	return out
}()

// idOf is the call id the envelope holds, or "".
func (env *envelope) idOf() string {
	if env.idAt < maxFields {
		return env.id.String()
	}
	return ""
}

func objectFields(obj gjson.Result, valid bool) (dialects.RawCall, bool) {
	env := readEnvelope(obj, valid)
	return envelopeFields(&env)
}

func envelopeFields(env *envelope) (dialects.RawCall, bool) {
	var rc dialects.RawCall
	if env.nameAt == maxFields {
		return rc, false
	}
	rc.Name = env.name.String()
	if env.argsAt < maxFields {
		rc.Arguments = env.args.Raw
	}
	rc.ID = env.idOf()
	if env.msg != "" {
		rc.Err = toolcall.NewError(toolcall.CodeMalformedCall, env.msg)
	}
	return rc, true
}
