package callobject_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unsafe"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/callobject"
)

// checkedObjects are call objects and values holding them: valid, with
// keys repeated in the arguments or in the envelope, repaired, wrapped,
// nested past the depth limit.
var checkedObjects = []string{
	`{"name": "f", "arguments": {"a": 1, "b": "x y"}}`,
	`{"name":"f","arguments":{"a":1}}`,
	`{"name": "f", "arguments": {"a": 1, "a": 2}}`,
	`{"name": "f", "arguments": {"o": {"k": 1, "k": [1, 2]}}}`,
	`{"name": "f", "name": "g", "arguments": {}}`,
	`{"name": "f", "arguments": {}, "arguments": {"a": 1}}`,
	`{"type": "function", "id": "c2", "function": {"name": "f", "arguments": {"a": 1, "a": 3}}}`,
	`{"type": "function", "function": {"name": "f", "arguments": "{\"a\": 1}"}}`,
	`{'name': 'f', 'arguments': {'a': 1, 'a': 2}}`,
	`{"name": "f", "arguments": {"a": [1, 2,]}}`,
	`[{"name": "f", "arguments": {"a": 1}}, {"name": "g", "arguments": {"b": 2, "b": 3}}]`,
	`{"name": "f", "arguments": ` + strings.Repeat(`{"a": `, 200) + `1` + strings.Repeat(`}`, 200) + `}`,
	`{"name": "f", "arguments": {"s": "\u00e9\n\"q\""}, "id": 7}`,
	`{"city": "Paris"}`,
	`{"tool": "f", "args": null}`,
}

// A call object read out of a value Parse returned (ReadChecked) finishes
// exactly as the same object read from its text whose arguments are
// checked from scratch: the checks it skips are the ones already made.
func TestReadCheckedAgrees(t *testing.T) {
	for _, in := range checkedObjects {
		for _, opts := range []*dialects.Options{nil, {DisableRepair: true}} {
			v, _, chk, err := callobject.Parse(in, opts)
			if err != nil {
				if _, ok := callobject.Read(in, 0, opts); ok {
					t.Errorf("%s: Parse fails (%v) but Read reads a call", in, err)
				}
				continue
			}
			// The items of an array; an object is its own one item. The
			// value's repairs are the caller's, made once to the whole.
			for k, it := range gjson.Parse(v).Array() {
				got, gotOK := callobject.ReadChecked(it.Raw, 3, chk, opts)
				want, wantOK := callobject.Read(it.Raw, 3, opts)
				// The reference finishes its arguments without taking
				// anything as known.
				want.ArgumentsValid = false
				if gotOK != wantOK {
					t.Errorf("%s: item %d: ReadChecked ok %v, Read ok %v", in, k, gotOK, wantOK)
					continue
				}
				if g, w := finished(got, opts), finished(want, opts); gotOK && g != w {
					t.Errorf("%s: item %d:\nchecked  %s\nobject   %s", in, k, g, w)
				}
			}
		}
	}
}

// finished is what Finish makes of one raw call, id left out.
func finished(rc dialects.RawCall, opts *dialects.Options) string {
	res := dialects.Finish("x", &dialects.Extraction{Calls: []dialects.RawCall{rc}}, opts)
	for i := range res.Calls {
		res.Calls[i].ID = ""
	}
	for _, e := range res.Errors {
		e.Raw = ""
	}
	b, _ := json.Marshal(res)
	return string(b)
}

// Arguments known valid and without repeated keys come back compacted in
// memory of their own, never as a view of the model's text.
func TestValidArgumentsAreCopied(t *testing.T) {
	for _, in := range []string{`{"name":"f","arguments":{"a":1}}`, `{"name": "f", "arguments": {"a": 1}}`} {
		rc, ok := callobject.Read(in, 0, nil)
		if !ok || !rc.ArgumentsValid {
			t.Fatalf("%s: %+v", in, rc)
		}
		res := dialects.Finish("x", &dialects.Extraction{Calls: []dialects.RawCall{rc}}, nil)
		if len(res.Calls) != 1 || string(res.Calls[0].Arguments) != `{"a":1}` {
			t.Fatalf("%s: %+v", in, res)
		}
		args := res.Calls[0].Arguments
		start, end := uintptr(unsafe.Pointer(unsafe.StringData(in))), uintptr(unsafe.Pointer(unsafe.StringData(in)))+uintptr(len(in))
		if p := uintptr(unsafe.Pointer(&args[0])); p >= start && p < end {
			t.Errorf("%s: the arguments are a view of the text", in)
		}
	}
}
