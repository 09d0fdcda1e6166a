package dialects

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects/internal/fields"
	"github.com/dialectkit/toolcall/dialects/internal/wordskept"
	"github.com/dialectkit/toolcall/internal/coded"
	"github.com/dialectkit/toolcall/internal/jsonscan"
	"github.com/dialectkit/toolcall/internal/textlayer"
	"github.com/dialectkit/toolcall/lenient"
)

// ObjectCall reads a call written as a JSON object, such as
// {"name": "f", "arguments": {...}}, accepting the aliases above and the
// OpenAI shape {"type": "function", "function": {"name": …, "arguments": …}}.
// An almost-JSON object is repaired first (the repairs are kept on the call).
// offset is the object's byte offset in the output. ok is false when the
// text is not an object that names a call (no name field at all); a call
// with an empty name is still returned, for Finish to reject.
func ObjectCall(text string, offset int, opts *Options) (rc RawCall, ok bool) {
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

// CheckedObjectCall is ObjectCall for obj, the text of an object read out
// of a value that ParseCheckedJSON returned, with the Checked it
// reported: a checked object is neither checked nor repaired again, and
// its repairs are those made to the value (the caller has them).
func CheckedObjectCall(obj string, offset int, chk Checked, opts *Options) (RawCall, bool) {
	obj = strings.TrimSpace(obj)
	if chk == Unchecked || obj == "" || obj[0] != '{' {
		return ObjectCall(obj, offset, opts)
	}
	// Strict JSON: its members are read from its text (validMembers),
	// which needs no parse first.
	return objectCall(gjson.Result{Type: gjson.JSON, Raw: obj}, offset, chk)
}

// objectCall reads the call of obj, parsed, whose text is as chk says.
func objectCall(obj gjson.Result, offset int, chk Checked) (RawCall, bool) {
	if !obj.IsObject() || !mayNameCall(obj.Raw) {
		return RawCall{Offset: offset}, false
	}
	valid := chk >= Strict
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
			inner.ArgumentsValid = chk >= Strict && inner.Arguments != ""
			inner.argsUnique = chk == StrictUnique && inner.ArgumentsValid
			return inner, true
		}
	}
	rc, ok := envelopeFields(&env)
	rc.Offset = offset
	rc.ArgumentsValid = chk >= Strict && rc.Arguments != ""
	rc.argsUnique = chk == StrictUnique && rc.ArgumentsValid
	return rc, ok
}

// Checked says what is known of a JSON value's text (ParseCheckedJSON).
type Checked uint8

const (
	// Unchecked: nothing is known (text nested past the depth limit is
	// read as it is).
	Unchecked Checked = iota
	// Strict: strict JSON, UTF-8 included, checked or repaired.
	Strict
	// StrictUnique: strict JSON in which no object repeats a key.
	StrictUnique
)

// ParseCheckedJSON reads one JSON value a dialect found (the object around
// a call, an array of calls), sending almost-JSON through the lenient
// pipeline unless repair is off, and returns it as JSON text with what is
// known of it, so that the call objects read out of it
// (CheckedObjectCall) and their arguments are not checked again; the
// repairs come back for the call. A failure is a *toolcall.Error
// (errors.As).
func ParseCheckedJSON(text string, opts *Options) (string, []toolcall.Repair, Checked, error) {
	v, repairs, e, chk := parseJSON(text, opts)
	if e != nil {
		return "", nil, Unchecked, e
	}
	return v.Raw, repairs, chk, nil
}

// parseJSON is ParseCheckedJSON with the parsed value and the concrete
// error.
func parseJSON(text string, opts *Options) (gjson.Result, []toolcall.Repair, *toolcall.Error, Checked) {
	text = strings.TrimSpace(text)
	check := lenient.Options{MaxSize: -1, MaxDepth: valueDepthLimit(opts)}
	switch unique, err := lenient.CheckKeys(unsafeBytes(text), &check); {
	case err == nil:
		chk := Strict
		if unique {
			chk = StrictUnique
		}
		return gjson.Parse(text), nil, nil, chk
	case errors.Is(err, toolcall.ErrTooDeep):
		// Deeper than any arguments may nest: the call inside fails its
		// depth check whatever the rest holds, so the text is read as it
		// is (gjson reads top-level fields without descending into the
		// nesting), for the call to be found and get that error.
		return gjson.Parse(text), nil, nil, Unchecked
	}
	if opts != nil && opts.DisableRepair {
		return gjson.Result{}, nil, toolcall.NewError(toolcall.CodeInvalidJSON, "call is not valid JSON and repair is disabled"), Unchecked
	}
	var lo *lenient.Options
	if opts != nil {
		lo = &opts.Lenient
	}
	r := lenient.Repair([]byte(text), lo)
	if e := coded.As(r.Err); e != nil {
		return gjson.Result{}, nil, e, Unchecked
	}
	if e := wordskept.Check([]byte(text), r.Output); e != nil {
		e.Raw = text
		return gjson.Result{}, nil, e, Unchecked
	}
	return gjson.ParseBytes(r.Output), r.Repairs, nil, Strict
}

// CheckStrict reports, for text that is strict JSON (no surrounding
// whitespace) within the depth a value holding calls may reach, what
// ParseCheckedJSON would know of it (Strict or StrictUnique) and ok; ok is
// false for any other text, which ParseCheckedJSON must read. A dialect
// that checks a value this way, to measure it in the same pass, hands the
// Checked on instead of parsing the value again.
func CheckStrict(text string, opts *Options) (Checked, bool) {
	check := lenient.Options{MaxSize: -1, MaxDepth: valueDepthLimit(opts)}
	unique, err := lenient.CheckKeys(unsafeBytes(text), &check)
	switch {
	case err != nil:
		return Unchecked, false
	case unique:
		return StrictUnique, true
	}
	return Strict, true
}

// unsafeBytes views s as bytes, for reading only.
func unsafeBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// valueDepthLimit is the deepest a value holding calls may nest: the
// arguments' depth limit plus the call object and an envelope around it,
// or -1 (none) when the limit is off.
func valueDepthLimit(opts *Options) int {
	limit := lenient.DefaultMaxDepth
	if opts != nil && opts.Lenient.MaxDepth != 0 {
		limit = opts.Lenient.MaxDepth
	}
	if limit < 0 {
		return -1
	}
	return limit + 4
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
	return a == b || bytes.Equal(compact([]byte(a)), compact([]byte(b)))
}

// validMembers calls visit with the key and value of each member of obj,
// the text of a strict JSON object, as gjson's ForEach gives them, until
// visit returns false. Strings without escapes, objects and arrays are
// sliced out of obj, skipping strings quote to quote; anything else is
// left to gjson.
func validMembers(obj string, visit func(key string, v gjson.Result) bool) {
	b := unsafeBytes(obj)
	i := skipJSONSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return
	}
	for i = skipJSONSpace(obj, i+1); i < len(obj) && obj[i] == '"'; {
		ke := jsonscan.StringEnd(b, i) + 1
		if ke > len(obj) {
			return
		}
		key := obj[i+1 : ke-1]
		if strings.IndexByte(key, '\\') >= 0 {
			key = gjson.Parse(obj[i:ke]).String()
		}
		i = skipJSONSpace(obj, ke)
		if i >= len(obj) || obj[i] != ':' {
			return
		}
		i = skipJSONSpace(obj, i+1)
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
		i = skipJSONSpace(obj, i+len(v.Raw))
		if i >= len(obj) || obj[i] != ',' {
			return
		}
		i = skipJSONSpace(obj, i+1)
	}
}

// skipJSONSpace returns the first offset at or after i that is not JSON
// whitespace (textlayer.IsSpace: the same four bytes).
func skipJSONSpace(s string, i int) int {
	for i < len(s) && textlayer.IsSpace(s[i]) {
		i++
	}
	return i
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

func objectFields(obj gjson.Result, valid bool) (RawCall, bool) {
	env := readEnvelope(obj, valid)
	return envelopeFields(&env)
}

func envelopeFields(env *envelope) (RawCall, bool) {
	var rc RawCall
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
