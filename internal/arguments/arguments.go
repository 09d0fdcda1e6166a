// Package arguments holds the one reading of a call's argument text into
// the JSON object a call carries: the limits, the lenient repair (or strict
// JSON when repair is off), arguments encoded twice, the last value of a
// repeated key, and the compact layout. dialects.FinishCall reads every
// call's arguments with it, and package retry the arguments of a history
// it replays.
package arguments

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unsafe"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/coded"
	"github.com/dialectkit/toolcall/internal/jsonscan"
	"github.com/dialectkit/toolcall/internal/wordskept"
	"github.com/dialectkit/toolcall/lenient"
)

// Read turns argument text into a compact JSON object: empty text (or
// null) is {}, a JSON string holding an object is unwrapped, almost-JSON
// goes through the lenient pipeline with lopts' limits unless noRepair is
// set (then the text must be strict JSON within the limits). A repeated
// key keeps its last value, recorded. lopts must not be nil.
func Read(text string, lopts *lenient.Options, noRepair bool) (json.RawMessage, []toolcall.Repair, *toolcall.Error) {
	return read(text, lopts, noRepair, false, false)
}

// ReadValid is Read of text a reader has checked to be strict JSON: only
// the depth limit is left to check, and that only when the text holds
// more brackets than the limit; unique says the text repeats no key
// either, so that it is only compacted.
func ReadValid(text string, lopts *lenient.Options, noRepair, unique bool) (json.RawMessage, []toolcall.Repair, *toolcall.Error) {
	return read(text, lopts, noRepair, true, unique)
}

// read is Read, and ReadValid when valid is set.
func read(text string, lopts *lenient.Options, noRepair, valid, unique bool) (json.RawMessage, []toolcall.Repair, *toolcall.Error) {
	maxSize := lopts.MaxSize
	if maxSize <= 0 {
		maxSize = lenient.DefaultMaxSize
	}
	if len(text) > maxSize {
		e := toolcall.NewError(toolcall.CodeTooLarge, fmt.Sprintf("arguments are %d bytes, the limit is %d", len(text), maxSize))
		return nil, nil, e
	}
	trimmed := strings.TrimSpace(text)
	if trimmed == "" || trimmed == "null" {
		return json.RawMessage("{}"), []toolcall.Repair{{Kind: toolcall.RepairEmptyArguments, Offset: 0}}, nil
	}
	var (
		out     []byte
		repairs []toolcall.Repair
	)
	if valid && trimmed[0] == '{' && withinDepth(trimmed, lopts.MaxDepth) {
		if unique {
			// Nothing to change but the layout: compacted into a copy
			// of its own (the text's memory is not the result's).
			return compactCopy(unsafeBytes(trimmed)), nil, nil
		}
		// Strict JSON may still repeat a key: the last value wins, as
		// everywhere else.
		out, repairs = lenient.LastKeyWins([]byte(trimmed))
	} else if noRepair {
		// Repair off still means the limits on: strict JSON, UTF-8, no
		// deeper than the depth limit.
		if e := coded.As(lenient.Check([]byte(trimmed), lopts)); e != nil {
			if e.Code == toolcall.CodeInvalidJSON {
				e.Message = "arguments are not valid JSON and repair is disabled"
			}
			e.Raw = text
			return nil, nil, e
		}
		// Duplicate keys follow the same rule as with repair on.
		out, repairs = lenient.LastKeyWins([]byte(trimmed))
	} else {
		in := []byte(trimmed)
		r := lenient.Repair(in, lopts)
		if e := coded.As(r.Err); e != nil {
			e.Raw = text
			return nil, nil, e
		}
		if e := wordskept.Check(in, r.Kept); e != nil {
			e.Raw = text
			return nil, nil, e
		}
		out, repairs = r.Output, r.Repairs
	}
	// A JSON string holding JSON: arguments that were encoded twice.
	for depth := 0; len(out) > 0 && out[0] == '"' && depth < 3; depth++ {
		var inner string
		if json.Unmarshal(out, &inner) != nil {
			break
		}
		inner = strings.TrimSpace(inner)
		if inner == "" {
			out = []byte("{}")
			repairs = append(repairs, toolcall.Repair{Kind: toolcall.RepairEmptyArguments, Offset: 0})
			break
		}
		if inner[0] != '{' && inner[0] != '[' && inner[0] != '"' {
			break
		}
		sub, subRepairs, err := read(inner, lopts, noRepair, false, false)
		if err != nil {
			break
		}
		out = sub
		repairs = append(repairs, toolcall.Repair{Kind: toolcall.RepairDoubleEncoded, Offset: 0})
		repairs = append(repairs, subRepairs...)
	}
	if len(out) == 0 || out[0] != '{' {
		e := toolcall.NewError(toolcall.CodeNotObject, "arguments are "+jsonKind(out)+", not a JSON object")
		e.Raw = text
		return nil, nil, e
	}
	return Compact(out), repairs, nil
}

// Compact removes the layout (whitespace outside strings) of b, which must
// be valid JSON, in one pass that skips string contents with a vectorised
// search for their closing quote. Text without layout is returned as is.
func Compact(b []byte) json.RawMessage {
	i := layoutAt(b, 0)
	if i < 0 {
		return json.RawMessage(b)
	}
	out := make([]byte, i, len(b))
	copy(out, b[:i])
	for i < len(b) {
		switch c := b[i]; c {
		case ' ', '\t', '\r', '\n':
			i++
		case '"':
			end := min(jsonscan.StringEnd(b, i)+1, len(b))
			out = append(out, b[i:end]...)
			i = end
		default:
			// Copy the run of structural bytes, numbers and literals.
			j := i + 1
			for j < len(b) && !isLayoutOrQuote(b[j]) {
				j++
			}
			out = append(out, b[i:j]...)
			i = j
		}
	}
	return out
}

// compactCopy is Compact into new memory, whether or not b has layout.
func compactCopy(b []byte) json.RawMessage {
	if c := Compact(b); len(c) != len(b) {
		return c
	}
	return bytes.Clone(b)
}

func isLayoutOrQuote(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '"'
}

// layoutAt returns the offset of the first whitespace outside strings at or
// after i, or -1.
func layoutAt(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\r', '\n':
			return i
		case '"':
			i = jsonscan.StringEnd(b, i) + 1
		default:
			i++
		}
	}
	return -1
}

// withinDepth reports that text, valid JSON, nests no deeper than the
// depth limit (0: the default; negative: none). Brackets are counted first;
// only text with more of them than the limit is walked, strings skipped.
func withinDepth(text string, limit int) bool {
	if limit < 0 {
		return true
	}
	if limit == 0 {
		limit = lenient.DefaultMaxDepth
	}
	if strings.Count(text, "{")+strings.Count(text, "[") <= limit {
		return true
	}
	b := unsafeBytes(text)
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			i = jsonscan.StringEnd(b, i)
		case '{', '[':
			depth++
			if depth > limit {
				return false
			}
		case '}', ']':
			depth--
		}
	}
	return true
}

func jsonKind(b []byte) string {
	switch gjson.ParseBytes(b).Type {
	case gjson.String:
		return "a string"
	case gjson.Number:
		return "a number"
	case gjson.True, gjson.False:
		return "a boolean"
	case gjson.Null:
		return "null"
	}
	if len(b) > 0 && b[0] == '[' {
		return "an array"
	}
	return "empty"
}

// unsafeBytes views s as bytes, for reading only.
func unsafeBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }
