package lenient

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
)

// FuzzRepair checks the guarantees on any input: no panic, a coded error
// or valid JSON, valid input returned as is, and a repaired output that a
// second repair leaves alone. The time budget is off: on a loaded machine
// it would make the outcome depend on the clock.
func FuzzRepair(f *testing.F) {
	for _, tc := range repairCases {
		f.Add(tc.in)
	}
	for _, seed := range []string{
		"", "{", "[", `"`, `{"a": "b`, "```json\n{", `{\"a\": 1}`, `"{\"a\": 1}"`,
		"\x00", "\xff\xfe", `{"a": (1, (2,), [3]`, `{a: b: c}`, "{'''x'''}",
		`[{"k": "v"}, {"k": "v"`, `{"x": "a, {"k": 1}, "y": 2}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		res := RepairString(in, &Options{MaxSize: 1 << 16, Timeout: -1})
		if res.Err != nil {
			if res.Output != nil {
				t.Fatalf("output with an error")
			}
			switch res.Err.Code {
			case toolcall.CodeRepairFailed, toolcall.CodeTooDeep, toolcall.CodeTooLarge, toolcall.CodeRepairTimeout:
			default:
				t.Fatalf("unexpected code %s", res.Err.Code)
			}
			return
		}
		if !gjson.ValidBytes(res.Output) || !utf8.Valid(res.Output) {
			t.Fatalf("invalid output %q", res.Output)
		}
		if gjson.Valid(in) && utf8.ValidString(in) && !res.Attempted && string(res.Output) != in {
			t.Fatalf("valid input changed")
		}
		again := Repair(res.Output, &Options{MaxSize: 1 << 17, Timeout: -1})
		if again.Err != nil || !bytes.Equal(again.Output, res.Output) || len(again.Repairs) > 0 {
			t.Fatalf("not idempotent: %q -> %q -> %q (%v)", in, res.Output, again.Output, again.Err)
		}
	})
}
