package pythonic

import (
	"strings"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/coded"
)

// region is a stretch of text that held calls (or a call that could not be
// extracted): it is not content.
type region struct {
	start, end int
	calls      []dialects.RawCall
}

// assemble returns text without the regions, which are sorted and do not
// overlap. The whitespace that separated content from a region goes with the
// region: "Let me check.\n[f()]" leaves "Let me check.", "A\n\n[f()]\n\nB"
// leaves "A\n\nB", and a region at either end leaves no stray blank line.
func assemble(text string, regions []region) string {
	if len(regions) == 0 {
		return text
	}
	var b strings.Builder
	prev := 0
	for _, r := range regions {
		piece := strings.TrimRight(text[prev:r.start], spaces)
		if b.Len() == 0 {
			piece = strings.TrimLeft(piece, spaces)
		}
		b.WriteString(piece)
		prev = r.end
	}
	tail := text[prev:]
	if b.Len() == 0 || strings.TrimSpace(tail) == "" {
		tail = strings.TrimLeft(tail, spaces)
	}
	b.WriteString(tail)
	return b.String()
}

// relocate turns offsets into rest, the content left after reasoning was
// removed from text, into offsets into text. rest is usually text itself or
// a suffix of it; otherwise each region's own text is looked up in order.
// Offsets that cannot be placed become -1.
func relocate(text, rest string, regions []region) {
	shift := func(r *region, delta int, known bool) {
		for i := range r.calls {
			c := &r.calls[i]
			if !known {
				c.Offset = -1
				if e := coded.As(c.Err); e != nil {
					e.Offset = -1
				}
				continue
			}
			if c.Offset >= 0 {
				c.Offset += delta
			}
			if e := coded.As(c.Err); e != nil && e.Offset >= 0 {
				e.Offset += delta
			}
		}
	}
	if strings.HasSuffix(text, rest) {
		delta := len(text) - len(rest)
		for i := range regions {
			shift(&regions[i], delta, true)
		}
		return
	}
	cursor := 0
	for i := range regions {
		r := &regions[i]
		k := -1
		if cursor >= 0 {
			k = strings.Index(text[cursor:], rest[r.start:r.end])
		}
		if k < 0 {
			cursor = -1 // lost: stop searching, so that the cost stays linear
			shift(r, 0, false)
			continue
		}
		at := cursor + k
		shift(r, at-r.start, true)
		cursor = at + (r.end - r.start)
	}
}
