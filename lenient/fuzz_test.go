package lenient

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/coded"
)

// FuzzRepair checks the guarantees on any input, with limits the fuzzer
// picks (the depth limit from 1 to 64, the size limit from 64 bytes):
//
//   - no panic; a coded error (from the catalogue, one of the codes Repair
//     documents) and no output, or valid JSON and UTF-8;
//   - valid JSON that is not a string and repeats no key in an object
//     comes back byte for byte, with no
//     repair, or is refused for its depth;
//   - input over the size limit is refused with TLP-009, whatever it is;
//   - the output nests no deeper than the depth limit;
//   - a second repair of the output leaves it alone (idempotence), and
//     repairing the input again gives the same result (determinism).
//
// The time budget is off: on a loaded machine it would make the outcome
// depend on the clock. The seeds are the unit-test cases and the repair
// corpus.
func FuzzRepair(f *testing.F) {
	for _, tc := range repairCases {
		f.Add(tc.in, uint8(0), uint16(0))
	}
	for _, v := range loadCorpus(f) {
		f.Add(v.Input, uint8(0), uint16(0))
	}
	for _, seed := range []string{
		"", "{", "[", `"`, `{"a": "b`, "```json\n{", `{\"a\": 1}`, `"{\"a\": 1}"`,
		"\x00", "\xff\xfe", `{"a": (1, (2,), [3]`, `{a: b: c}`, "{'''x'''}",
		`[{"k": "v"}, {"k": "v"`, `{"x": "a, {"k": 1}, "y": 2}`,
		strings.Repeat("[", 70), strings.Repeat(`"\`, 40), `{"a": "` + strings.Repeat(`\\`, 33) + `"}`,
		"{\"a\": \"\xed\xa0\x80\"}", `"\"\\\"{\\\\\\\"a\\\\\\\": 1}\\\"\""`,
	} {
		f.Add(seed, uint8(0), uint16(0))
	}
	f.Add(`[[[[1]]]]`, uint8(3), uint16(0))
	f.Add(`{"a": [1, 2, 3], "b": "x"}`, uint8(0), uint16(1))
	f.Fuzz(func(t *testing.T, in string, depth uint8, size uint16) {
		opts := &Options{MaxSize: 1 << 16, Timeout: -1}
		if depth > 0 {
			opts.MaxDepth = int(depth%64) + 1
		}
		if size > 0 {
			opts.MaxSize = 64 + int(size)
		}
		res := RepairString(in, opts)
		maxDepth := opts.MaxDepth
		if maxDepth == 0 {
			maxDepth = DefaultMaxDepth
		}
		if len(in) > opts.MaxSize {
			if res.Err == nil || coded.Code(res.Err) != toolcall.CodeTooLarge {
				t.Fatalf("%d bytes over a limit of %d: err = %v", len(in), opts.MaxSize, res.Err)
			}
			return
		}
		again := RepairString(in, opts)
		if !sameRepair(res, again) {
			t.Fatalf("not deterministic: %q then %q (%v, %v)", res.Output, again.Output, res.Err, again.Err)
		}
		if res.Err != nil {
			if res.Output != nil {
				t.Fatalf("output with an error")
			}
			switch coded.Code(res.Err) {
			case toolcall.CodeRepairFailed, toolcall.CodeTooDeep:
			default:
				t.Fatalf("unexpected code %s", coded.Code(res.Err))
			}
			if coded.Code(res.Err).Summary() == "" || !strings.HasPrefix(res.Err.Error(), string(coded.Code(res.Err))+": ") {
				t.Fatalf("error %q is not coded", res.Err.Error())
			}
			return
		}
		if !gjson.ValidBytes(res.Output) || !utf8.Valid(res.Output) {
			t.Fatalf("invalid output %q", res.Output)
		}
		if d := jsonDepth(res.Output); d > maxDepth {
			t.Fatalf("output nests %d deep, past the limit of %d", d, maxDepth)
		}
		if gjson.Valid(in) && utf8.ValidString(in) && !isJSONString([]byte(in)) && len(duplicateKeys([]byte(in))) == 0 {
			if string(res.Output) != in || res.Attempted || len(res.Repairs) > 0 {
				t.Fatalf("valid input changed: %q -> %q (%v)", in, res.Output, res.Repairs)
			}
		}
		again = Repair(res.Output, &Options{MaxSize: 1 << 17, MaxDepth: opts.MaxDepth, Timeout: -1})
		if again.Err != nil || !bytes.Equal(again.Output, res.Output) || len(again.Repairs) > 0 {
			t.Fatalf("not idempotent: %q -> %q -> %q (%v)", in, res.Output, again.Output, again.Err)
		}
	})
}

// sameRepair reports whether two repairs of one input agree.
func sameRepair(a, b Result) bool {
	if !bytes.Equal(a.Output, b.Output) || a.Attempted != b.Attempted || len(a.Repairs) != len(b.Repairs) {
		return false
	}
	if (a.Err == nil) != (b.Err == nil) || a.Err != nil && (coded.Code(a.Err) != coded.Code(b.Err) || coded.As(a.Err).Offset != coded.As(b.Err).Offset) {
		return false
	}
	for i := range a.Repairs {
		if a.Repairs[i] != b.Repairs[i] {
			return false
		}
	}
	return true
}

// jsonDepth is the deepest nesting of objects and arrays in valid JSON.
func jsonDepth(b []byte) int {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return 0
	}
	var walk func(v any) int
	walk = func(v any) int {
		d := 0
		switch x := v.(type) {
		case map[string]any:
			for _, e := range x {
				d = max(d, walk(e))
			}
			return d + 1
		case []any:
			for _, e := range x {
				d = max(d, walk(e))
			}
			return d + 1
		}
		return 0
	}
	return walk(v)
}
