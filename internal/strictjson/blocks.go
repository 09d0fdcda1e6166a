package strictjson

import "github.com/dialectkit/toolcall/internal/textlayer"

// ClosedBlocks returns the blocks of text written with both tags of a
// reasoning wrapper, open and close, in order: an opening tag and the
// first closing tag after it, the next block looked for after that close.
// An opening tag never closed ends the search. A wrapper with an empty tag
// has no blocks. A tag inside a string of a JSON value is text (IndexTag).
// Call markup inside such a block is the model thinking about a call, not
// making one; the dialect engines and detection read the blocks with it.
func ClosedBlocks(text, open, close string) []textlayer.Span {
	var spans []textlayer.Span
	blocks(text, open, close, func(b textlayer.Span) { spans = append(spans, b) })
	return spans
}

// UnclosedBlock returns the offset of the opening tag of a block of the
// wrapper open…close that text opens and does not close, after the blocks
// ClosedBlocks returns, or -1: text then ends inside reasoning it opened
// itself. A tag inside a string of a JSON value is text (IndexTag).
func UnclosedBlock(text, open, close string) int {
	return blocks(text, open, close, nil)
}

// blocks calls each, unless nil, with the blocks of text written with both
// tags, in order, and returns the offset of an opening tag never closed
// after them, or -1.
func blocks(text, open, close string, each func(textlayer.Span)) int {
	if open == "" || close == "" {
		return -1
	}
	for i := 0; i < len(text); {
		o := IndexTag(text[i:], open)
		if o < 0 {
			return -1
		}
		o += i
		c := IndexTag(text[o+len(open):], close)
		if c < 0 {
			return o
		}
		end := o + len(open) + c + len(close)
		if each != nil {
			each(textlayer.Span{Start: o, End: end})
		}
		i = end
	}
	return -1
}
