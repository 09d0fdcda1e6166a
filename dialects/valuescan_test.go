package dialects_test

import (
	"testing"

	"github.com/dialectkit/toolcall/dialects"
)

// TestValueScan checks that a ValueScan fed a text byte by byte finds the
// end ValueEnd finds in the whole text, and that it stays found.
func TestValueScan(t *testing.T) {
	for _, tc := range []struct {
		text  string
		start int
	}{
		{`{"a": 1}`, 0},
		{`x {"a": "}"} y`, 2},
		{`{"a": "\\\"}"}, z`, 0},
		{`{"a": "\\\\"}`, 0},
		{`[{'a': 'it''s'}, "]"]`, 0},
		{`{'a': 'open` + "\n" + `}`, 0},
		{`{"a": [1, {"b": "\u005d"}]}`, 0},
		{`{it's {"a": 1}}`, 0},
		{`{"a": "cut`, 0},
		{`[[[`, 0},
	} {
		wantEnd, wantOK := dialects.ValueEnd(tc.text, tc.start)
		v := dialects.ValueScan{Start: tc.start}
		var end int
		var ok bool
		for i := tc.start + 1; i <= len(tc.text); i++ {
			if end, ok = v.Next(tc.text[:i]); ok {
				break
			}
		}
		if end != wantEnd || ok != wantOK {
			t.Errorf("%q: fed byte by byte %d %v, whole %d %v", tc.text, end, ok, wantEnd, wantOK)
		}
		if ok {
			if e, again := v.Next(tc.text + "]]"); e != end || !again {
				t.Errorf("%q: asked again %d %v, want %d true", tc.text, e, again, end)
			}
		}
	}
}
