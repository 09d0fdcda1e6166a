package strictjson

import (
	"strings"
	"testing"
)

// A tag inside a string of a strict JSON value is text; anywhere else it is
// found. The finder, fed the text in pieces, agrees with IndexTag.
func TestIndexTag(t *testing.T) {
	tests := []struct {
		name, text string
		want       int
	}{
		{"bare", `ab</think>c`, 2},
		{"none", `abc`, -1},
		{"in a string", `{"a": "x</think>y"} </think>`, 20},
		{"only in a string", `{"a": "x</think>y"}`, -1},
		{"value not strict", `{a: "x</think>y"}`, 6},
		{"value cut", `{"a": "x</think>`, 8},
		{"array", `["</think>", 1] </think>`, 16},
		{"before the value", `</think>{"a": "</think>"}`, 0},
		{"deep", `{"a": ` + strings.Repeat(`[`, 200) + `"</think>"` + strings.Repeat(`]`, 200) + `}`, -1},
		{"deep, not strict", `{"a": ` + strings.Repeat(`[`, 200) + `'</think>'` + strings.Repeat(`]`, 200) + `}`, 207},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IndexTag(tt.text, "</think>"); got != tt.want {
				t.Errorf("IndexTag = %d, want %d", got, tt.want)
			}
			for _, step := range []int{1, 3, 16} {
				var f TagFinder
				got, state := -1, TagNone
				for end := step; ; end += step {
					end = min(end, len(tt.text))
					got, state = f.Find(tt.text[:end], "</think>", end == len(tt.text))
					if state == TagFound || end == len(tt.text) {
						break
					}
				}
				if state != TagFound {
					got = -1
				}
				if got != tt.want {
					t.Errorf("TagFinder by %d bytes = %d (%d), want %d", step, got, state, tt.want)
				}
				if got := firstAt(tt.text, "</think>", step); got != tt.want {
					t.Errorf("TagFinder.At by %d bytes = %d, want %d", step, got, tt.want)
				}
			}
		})
	}
}

// firstAt feeds text step bytes at a time and asks At about each
// occurrence of tag in turn, as a reader that finds its markers itself
// does: it returns the first one found markup, or -1.
func firstAt(text, tag string, step int) int {
	var f TagFinder
	next := 0 // where the next occurrence is looked for
	for end := min(step, len(text)); ; end = min(end+step, len(text)) {
		final := end == len(text)
		for {
			i := strings.Index(text[next:end], tag)
			if i < 0 {
				break
			}
			i += next
			st := f.At(text[:end], i, final)
			if st == TagFound {
				return i
			}
			if st == TagPending {
				break
			}
			next = i + len(tag)
		}
		if final {
			return -1
		}
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		text     string
		maxDepth int
		want     Checked
		ok       bool
	}{
		{`{"a": 1}`, 0, StrictUnique, true},
		{`{"a": 1, "a": 2}`, 0, Strict, true},
		{`{'a': 1}`, 0, Unchecked, false},
		{`[[[[1]]]]`, 1, StrictUnique, true},
		{`[[[[[[1]]]]]]`, 1, Unchecked, false},
		{`[[[[[[1]]]]]]`, -1, StrictUnique, true},
	}
	for _, tt := range tests {
		if got, ok := Check(tt.text, tt.maxDepth); got != tt.want || ok != tt.ok {
			t.Errorf("Check(%s, %d) = %d %v, want %d %v", tt.text, tt.maxDepth, got, ok, tt.want, tt.ok)
		}
	}
}
