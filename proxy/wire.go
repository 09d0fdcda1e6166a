package proxy

import (
	"bytes"
	"encoding/json"
	"github.com/dialectkit/toolcall/lenient"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/jsonscan"
	"github.com/tidwall/gjson"
)

// obj is a JSON object read for editing: fields the proxy does not know
// are kept as they came.
type obj map[string]json.RawMessage

func parseObj(b []byte) (obj, bool) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' || !json.Valid(b) {
		return nil, false
	}
	// One copy of the text, which the values slice: the caller's buffer
	// may be reused.
	return splitObj(bytes.Clone(b)), true
}

// splitObj reads the fields of b, a valid JSON object the caller owns
// and never changes; the values slice it.
func splitObj(b []byte) obj {
	o := obj{}
	gjson.ParseBytes(b).ForEach(func(k, v gjson.Result) bool {
		key, ok := objKey(k.Raw)
		if !ok {
			return true
		}
		o[key] = sliceOf(b, v)
		return true
	})
	return o
}

// sliceOf is v's text as a slice of b, the text v was read from.
func sliceOf(b []byte, v gjson.Result) json.RawMessage {
	end := v.Index + len(v.Raw)
	if v.Index <= 0 || end > len(b) || string(b[v.Index:end]) != v.Raw {
		return json.RawMessage(v.Raw)
	}
	return json.RawMessage(b[v.Index:end:end])
}

// objKey decodes an object key as encoding/json does.
func objKey(raw string) (string, bool) {
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' {
		k := raw[1 : len(raw)-1]
		if strings.IndexByte(k, '\\') < 0 && utf8.ValidString(k) {
			return k, true
		}
	}
	var k string
	if json.Unmarshal([]byte(raw), &k) != nil {
		return "", false
	}
	return k, true
}

// plainKey is an object key's text when it has no escape.
func plainKey(raw string) (string, bool) {
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' && strings.IndexByte(raw, '\\') < 0 {
		return raw[1 : len(raw)-1], true
	}
	return "", false
}

// str reads a string field; ok false when it is absent, null or not a
// string.
func (o obj) str(key string) (string, bool) {
	raw, ok := o[key]
	if !ok {
		return "", false
	}
	return rawString(string(raw))
}

// rawString reads a JSON value that is a string; ok false for any other.
func rawString(raw string) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	if in := raw[1 : len(raw)-1]; raw[len(raw)-1] == '"' && strings.IndexByte(in, '\\') < 0 && utf8.ValidString(in) {
		// The values read are valid JSON: a string without escapes is
		// its own text.
		return in, true
	}
	var s string
	if json.Unmarshal([]byte(raw), &s) != nil {
		return "", false
	}
	return s, true
}

// sub reads an object field. The values of an obj are valid JSON, which
// the obj owns: the field's fields slice it.
func (o obj) sub(key string) (obj, bool) {
	raw, ok := o[key]
	if !ok {
		return nil, false
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false
	}
	return splitObj(raw), true
}

// list reads an array field's items, as slices of the field.
func (o obj) list(key string) []json.RawMessage {
	raw, ok := o[key]
	if !ok {
		return nil
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '[' {
		return nil
	}
	l := []json.RawMessage{}
	gjson.ParseBytes(raw).ForEach(func(_, v gjson.Result) bool {
		l = append(l, sliceOf(raw, v))
		return true
	})
	return l
}

func (o obj) set(key string, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	o[key] = b
}

func (o obj) setRaw(key string, b []byte) { o[key] = json.RawMessage(b) }

// rawList is a JSON array of raw values.
func rawList(items []json.RawMessage) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, it := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(it)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// bytes encodes the object as encoding/json encodes a
// map[string]json.RawMessage without HTML escaping: keys sorted, values
// compacted.
func (o obj) bytes() []byte {
	keys := make([]string, 0, len(o))
	n := 2
	for k, v := range o {
		keys = append(keys, k)
		n += len(k) + len(v) + 4
	}
	slices.Sort(keys)
	b := bytes.NewBuffer(make([]byte, 0, n))
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		appendKey(b, k)
		b.WriteByte(':')
		v := o[k]
		if v == nil {
			b.WriteString("null")
			continue
		}
		if compacted(v) && lenient.Valid(v) {
			b.Write(v)
		} else if json.Compact(b, v) != nil {
			return nil
		}
	}
	b.WriteByte('}')
	return b.Bytes()
}

// compacted reports whether a value holds no whitespace outside its
// strings. A valid value that does is as json.Compact would write it, and
// is written as it is: the values the proxy wrote itself, nested in the
// objects it builds around them, are not compacted again at each level
// (lenient.Valid's one pass is several times faster than json.Compact).
func compacted(v []byte) bool {
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '"':
			if i = jsonscan.StringEnd(v, i); i >= len(v) {
				return false // a string the value does not close
			}
		case c <= ' ':
			return false
		}
	}
	return true
}

// appendKey writes a key as a JSON string without HTML escaping.
func appendKey(b *bytes.Buffer, k string) {
	for i := 0; i < len(k); i++ {
		if c := k[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			b.Write(marshalString(k))
			return
		}
	}
	b.WriteByte('"')
	b.WriteString(k)
	b.WriteByte('"')
}

func (o obj) clone() obj {
	c := make(obj, len(o))
	for k, v := range o {
		c[k] = v
	}
	return c
}

// marshalString is json.Marshal of a string without HTML escaping.
func marshalString(s string) []byte { return appendString(make([]byte, 0, len(s)+2), s) }

// appendString appends s as marshalString writes it. A string with
// nothing to escape (no control character, quote, backslash, invalid
// UTF-8, U+2028 or U+2029) is its own text between quotes.
func appendString(b []byte, s string) []byte {
	plain := utf8.ValidString(s) && !strings.Contains(s, "\u2028") && !strings.Contains(s, "\u2029")
	for i := 0; plain && i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' {
			plain = false
		}
	}
	if plain {
		b = append(b, '"')
		b = append(b, s...)
		return append(b, '"')
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return append(b, bytes.TrimRight(buf.Bytes(), "\n")...)
}

// nativeCall is one call of the upstream's own tool_calls field.
type nativeCall struct {
	obj obj
	fn  obj
	rc  dialects.RawCall
	// shaped says the arguments came in the shape the API's clients
	// decode (a JSON string for OpenAI, an object for Ollama).
	shaped bool
}

// readNativeCalls reads a tool_calls array, in either protocol's shape:
// arguments as an object (Ollama) or as a JSON string (OpenAI); asString
// says which shape the API's clients decode.
func readNativeCalls(raw []json.RawMessage, asString bool) []nativeCall {
	out := make([]nativeCall, 0, len(raw))
	for _, r := range raw {
		o, ok := parseObj(r)
		if !ok {
			o = obj{}
		}
		fn, ok := o.sub("function")
		if !ok {
			fn = obj{}
		}
		n := nativeCall{obj: o, fn: fn, rc: dialects.RawCall{Offset: -1}}
		n.rc.ID, _ = o.str("id")
		n.rc.Name, _ = fn.str("name")
		if args, ok := fn["arguments"]; ok {
			if s, ok := fn.str("arguments"); ok {
				n.rc.Arguments = s
				n.shaped = asString
			} else if string(args) != "null" {
				n.rc.Arguments = string(args)
				n.shaped = !asString && strings.HasPrefix(strings.TrimSpace(string(args)), "{")
			}
		}
		out = append(out, n)
	}
	return out
}

// message is the assistant message of an answer (Ollama's "message", an
// OpenAI choice's "message"), or the delta of a chunk.
type message struct {
	obj       obj
	content   string
	reasoning string
	calls     []nativeCall
}

// readMessage reads content, reasoning (Ollama "thinking", OpenAI
// "reasoning_content" or "reasoning") and tool_calls (asString: the API's
// arguments are JSON strings).
func readMessage(o obj, asString bool) *message {
	m := &message{obj: o}
	m.content, _ = o.str("content")
	for _, k := range []string{"thinking", "reasoning_content", "reasoning"} {
		if s, ok := o.str(k); ok {
			m.reasoning += s
		}
	}
	m.calls = readNativeCalls(o.list("tool_calls"), asString)
	return m
}

// ollamaCall renders a call as Ollama's tool_calls entry; base, when set,
// is the upstream's own entry, whose other fields are kept.
func ollamaCall(c toolcall.Call, index int, base *nativeCall) json.RawMessage {
	o, fn := obj{}, obj{}
	if base != nil {
		o, fn = base.obj.clone(), base.fn.clone()
	}
	o.setRaw("id", marshalString(c.ID))
	fn.setRaw("name", marshalString(c.Name))
	fn.set("index", index)
	if args := argumentsObject(c.Arguments); json.Valid(args) || base == nil || fn["arguments"] == nil {
		fn.setRaw("arguments", argumentsValue(c.Arguments))
	}
	o.setRaw("function", fn.bytes())
	return o.bytes()
}

// openAICall renders a call as OpenAI's tool_calls entry of a whole
// answer.
func openAICall(c toolcall.Call, base *nativeCall) json.RawMessage {
	o, fn := obj{}, obj{}
	if base != nil {
		o, fn = base.obj.clone(), base.fn.clone()
		delete(o, "index")
	}
	o.setRaw("id", marshalString(c.ID))
	o.setRaw("type", []byte(`"function"`))
	fn.setRaw("name", marshalString(c.Name))
	fn.setRaw("arguments", marshalString(string(argumentsObject(c.Arguments))))
	o.setRaw("function", fn.bytes())
	return o.bytes()
}

// argumentsValue is a call's arguments as a JSON value: the object, or
// arguments a model wrote that are not JSON (a failed call that goes out
// as written) as a JSON string.
func argumentsValue(a json.RawMessage) []byte {
	if args := argumentsObject(a); json.Valid(args) {
		return args
	}
	return marshalString(string(a))
}

// argumentsObject is a call's arguments as a JSON object, {} when empty.
func argumentsObject(a json.RawMessage) []byte {
	a = bytes.TrimSpace(a)
	if len(a) == 0 {
		return []byte("{}")
	}
	return a
}

// writeError answers with the protocol's own error shape: Ollama
// {"error": "TLP-…: …"}, OpenAI and Responses {"error": {"message",
// "type", "param", "code"}} with the TLP code as code, Anthropic {"type":
// "error", "error": {"type", "message"}}.
func writeError(w http.ResponseWriter, api API, status int, e *toolcall.Error) {
	body := errorBody(api, status, e)
	h := w.Header()
	h.Del("Content-Length")
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(body)+1))
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
}

// errorBody is an error in the protocol's shape.
func errorBody(api API, status int, e *toolcall.Error) []byte {
	var body []byte
	switch api {
	case Anthropic:
		typ := "api_error"
		switch {
		case status == http.StatusUnauthorized:
			typ = "authentication_error"
		case status == http.StatusRequestEntityTooLarge:
			typ = "request_too_large"
		case status == http.StatusServiceUnavailable:
			typ = "overloaded_error"
		case status < 500:
			typ = "invalid_request_error"
		}
		body, _ = json.Marshal(map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": e.Error()}})
	case OpenAI, Responses:
		typ := "server_error"
		switch {
		case status == http.StatusUnauthorized:
			typ = "authentication_error"
		case status < 500:
			typ = "invalid_request_error"
		}
		body, _ = json.Marshal(map[string]any{"error": map[string]any{
			"message": e.Error(), "type": typ, "param": nil, "code": string(e.Code),
		}})
	default:
		body, _ = json.Marshal(map[string]string{"error": e.Error()})
	}
	return body
}
