package markers

import (
	"fmt"
	"testing"
)

func TestScanValue(t *testing.T) {
	bounds := newMarkerSet([]marker{compileMarker("<|END|>"), compileMarker("[TOOL_CALLS]")})
	tests := []struct {
		name    string
		in      string
		status  extentStatus
		value   string // s[start:end] + closers
		atMark  bool
		inStr   bool
		depth   int
		whole   int
		nobound bool
	}{
		{name: "object", in: `{"a": [1, {"b": "}"}]} tail`, status: extentComplete, value: `{"a": [1, {"b": "}"}]}`, depth: 3},
		{name: "array", in: `[{"a": 1}, {"b": 2}]`, status: extentComplete, value: `[{"a": 1}, {"b": 2}]`, depth: 2},
		{name: "escaped quote", in: `{"a": "x\"}"} rest`, status: extentComplete, value: `{"a": "x\"}"}`, depth: 1},
		{name: "single quotes", in: `{'a': 'b}'} rest`, status: extentComplete, value: `{'a': 'b}'}`, depth: 1},
		{name: "apostrophe in a bare word", in: `{a: it's}`, status: extentComplete, value: `{a: it's}`, depth: 1},
		{name: "marker inside a string", in: `{"a": "<|END|>"}<|END|>`, status: extentComplete, value: `{"a": "<|END|>"}`, depth: 1},
		{name: "cut in a string", in: `{"a": "Tok`, status: extentCut, value: `{"a": "Tok"}`, inStr: true, depth: 1},
		{name: "cut in a key", in: `{"a": 1, "ke`, status: extentCut, value: `{"a": 1, "ke":null}`, inStr: true, depth: 1},
		{name: "cut after a key", in: `{"a": 1, "key"`, status: extentCut, value: `{"a": 1, "key":null}`, depth: 1},
		{name: "cut after a colon", in: `{"a": `, status: extentCut, value: `{"a":null}`, depth: 1},
		{name: "cut after a comma", in: "{\"a\": [1, 2,\n", status: extentCut, value: `{"a": [1, 2]}`, depth: 2},
		{name: "dangling backslash", in: `{"a": "x\`, status: extentCut, value: `{"a": "x"}`, inStr: true, depth: 1},
		{name: "cut by a marker", in: `{"a": {"b": 1}<|END|>`, status: extentCut, value: `{"a": {"b": 1}}`, atMark: true, depth: 2},
		{name: "mistral marker cuts", in: `{"x": 1[TOOL_CALLS]b{}`, status: extentCut, value: `{"x": 1}`, atMark: true, depth: 1},
		{name: "string swallows the marker", in: `{"a": "say <|END|> please}<|END|>`, status: extentSwallowed, depth: 1},
		{name: "a list's later element swallows the marker", in: `[{"a": 1}, {"b": "x<|END|>`, status: extentSwallowed, depth: 2, whole: 9},
		{name: "no bounds, no swallowing", in: `{"a": "say <|END|>`, status: extentCut, value: `{"a": "say <|END|>"}`, inStr: true, depth: 1, nobound: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := bounds
			if tt.nobound {
				b = nil
			}
			e := scanValue(tt.in, 0, b)
			if e.status != tt.status {
				t.Fatalf("status %d, want %d", e.status, tt.status)
			}
			if tt.status != extentSwallowed {
				if got := tt.in[:e.end] + e.closers; got != tt.value {
					t.Errorf("value %q, want %q", got, tt.value)
				}
			}
			if e.atMarker != tt.atMark || e.inString != tt.inStr || e.depth != tt.depth || e.whole != tt.whole {
				t.Errorf("atMarker %v inString %v depth %d whole %d, want %v %v %d %d", e.atMarker, e.inString, e.depth, e.whole, tt.atMark, tt.inStr, tt.depth, tt.whole)
			}
		})
	}
}

func TestMarkerMatch(t *testing.T) {
	m := compileMarker("<|action_start|> <|plugin|>")
	for in, want := range map[string]bool{
		"<|action_start|><|plugin|>":     true,
		"<|action_start|> <|plugin|>":    true,
		"<|action_start|>\n\t<|plugin|>": true,
		"<|action_start|>x<|plugin|>":    false,
		"<|action_start|>":               false,
	} {
		if _, ok := m.matchAt(in, 0); ok != want {
			t.Errorf("%q: match %v, want %v", in, ok, want)
		}
	}
}

func TestFinder(t *testing.T) {
	set := newMarkerSet([]marker{compileMarker("<a> <b>"), compileMarker("<c>")})
	s := "x<a>y <a><b> <c> <a>\n<b>"
	f := &finder{}
	f.init(s, set, nil)
	var got []int
	for pos := 0; ; {
		k, at, end := f.find(pos)
		if k < 0 {
			break
		}
		got = append(got, at)
		pos = end
	}
	want := []int{6, 13, 17}
	if len(got) != len(want) {
		t.Fatalf("found at %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("found at %v, want %v", got, want)
		}
	}
	// A query behind the last one still answers correctly.
	if _, at, _ := f.find(0); at != 6 {
		t.Errorf("rewound find at %d, want 6", at)
	}
}

// A finder given the places where an opener starts looks for openers
// only there below its limit, and searches the text from the limit on.
func TestFinderKnown(t *testing.T) {
	set := newMarkerSet([]marker{compileMarker("[A]"), compileMarker("[B] [C]")})
	s := "xx[A]yy[B]  [C]zz[B]q[A]"
	var f finder
	f.init(s, set, nil)
	f.known, f.off, f.limit = []int{2, 7, 17}, 0, 20
	var got []string
	for pos := 0; ; {
		k, at, end := f.find(pos)
		if k < 0 {
			break
		}
		got = append(got, fmt.Sprintf("%d:%d-%d", k, at, end))
		pos = at + 1
	}
	// [B] at 17 is no [B] [C]; [A] at 21 lies past the limit and is searched.
	if want := "[0:2-5 1:7-15 0:21-24]"; fmt.Sprint(got) != want {
		t.Errorf("found %v, want %v", got, want)
	}
}
