package textcall

import (
	"slices"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/strictjson"
	"github.com/dialectkit/toolcall/internal/textlayer"
)

// ClosedBlocks finds the reasoning blocks of text written with both their
// opening and closing tags, in order (strictjson.ClosedBlocks for each
// wrapper). Call markup inside them is the model thinking about a call,
// not making one (llama.cpp and vLLM agree): it stays reasoning. A block
// never closed, or one the template opened (only its closing tag is in the
// output), is not returned: ReasoningBlocks adds the latter.
func ClosedBlocks(text string, tags ...dialects.ReasoningTags) []textlayer.Span {
	var spans []textlayer.Span
	for _, t := range tags {
		spans = append(spans, strictjson.ClosedBlocks(text, t.Open, t.Close)...)
	}
	if len(tags) > 1 {
		slices.SortFunc(spans, func(a, b textlayer.Span) int { return a.Start - b.Start })
	}
	return spans
}

// ReasoningBlocks is ClosedBlocks with the block the template opened
// (dialects.TemplateBlockEnd, under the same startsOpen and implicit the
// engine splits its reasoning with) first: call markup before the first
// closing tag of such a block is reasoning too. The spans are sorted and
// do not overlap.
func ReasoningBlocks(text string, startsOpen, implicit bool, tags ...dialects.ReasoningTags) []textlayer.Span {
	spans := ClosedBlocks(text, tags...)
	end := dialects.TemplateBlockEnd(text, tags, startsOpen, implicit)
	if end == 0 {
		return spans
	}
	k := 0
	for k < len(spans) && spans[k].Start < end {
		end = max(end, spans[k].End)
		k++
	}
	if k > 0 {
		spans[k-1] = textlayer.Span{Start: 0, End: end}
		return spans[k-1:]
	}
	return append([]textlayer.Span{{Start: 0, End: end}}, spans...)
}

// Inside reports whether offset falls inside one of spans, which are sorted.
func Inside(spans []textlayer.Span, offset int) bool {
	i, _ := slices.BinarySearchFunc(spans, offset, func(s textlayer.Span, off int) int {
		switch {
		case s.End <= off:
			return -1
		case s.Start > off:
			return 1
		}
		return 0
	})
	return i < len(spans) && spans[i].Start <= offset && offset < spans[i].End
}
