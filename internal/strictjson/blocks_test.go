package strictjson

import (
	"testing"

	"github.com/dialectkit/toolcall/internal/textlayer"
)

// TestClosedBlocks: each opening tag pairs with the first closing tag
// after it, the next block is looked for after that close, an opening tag
// never closed ends the list, and a wrapper with an empty tag has none.
func TestClosedBlocks(t *testing.T) {
	for _, tc := range []struct {
		text        string
		open, close string
		want        []textlayer.Span
	}{
		{"a <think>b</think> c", "<think>", "</think>", []textlayer.Span{{Start: 2, End: 18}}},
		{"<think>a</think><think>b</think>", "<think>", "</think>", []textlayer.Span{{Start: 0, End: 16}, {Start: 16, End: 32}}},
		// A nested opening tag is text of the block; the close after the
		// first close is text after it.
		{"<think>a<think>b</think>c</think>", "<think>", "</think>", []textlayer.Span{{Start: 0, End: 24}}},
		{"<think>a</think> <think>never closed", "<think>", "</think>", []textlayer.Span{{Start: 0, End: 16}}},
		{"a </think> b", "<think>", "</think>", nil},
		{"", "<think>", "</think>", nil},
		{"[THINK]x[/THINK]", "[THINK]", "[/THINK]", []textlayer.Span{{Start: 0, End: 16}}},
		{"<think>x</think>", "<think>", "", nil},
		{"<think>x</think>", "", "</think>", nil},
	} {
		got := ClosedBlocks(tc.text, tc.open, tc.close)
		if len(got) != len(tc.want) {
			t.Errorf("ClosedBlocks(%q, %q, %q) = %v, want %v", tc.text, tc.open, tc.close, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("ClosedBlocks(%q, %q, %q) = %v, want %v", tc.text, tc.open, tc.close, got, tc.want)
				break
			}
		}
	}
}
