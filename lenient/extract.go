package lenient

import (
	"bytes"

	"github.com/dialectkit/toolcall"
)

// Stage 3: find the one value a reply holds, past a BOM, a code fence and
// prose, without repairing anything. A valid value is returned byte for
// byte. When the text holds more
// than one candidate, or the value's end cannot be found, there is no core
// and the scanner, which reads all of it, decides.

// coreText is the value found by extractCore.
type coreText struct {
	text  []byte // nil when there is no single candidate
	start int    // offset of text in the input
	// notes are the repairs of getting to the core (BOM, fence, prose):
	// at most one of each kind. They become a list only when the core is
	// used, so that the common path allocates nothing here.
	notes [3]coreNote
	n     int
}

type coreNote struct {
	kind   toolcall.RepairKind
	offset int
}

// repairs returns the notes as a list.
func (c *coreText) repairs() []toolcall.Repair {
	if c.n == 0 {
		return nil
	}
	out := make([]toolcall.Repair, c.n)
	for i, n := range c.notes[:c.n] {
		out[i] = toolcall.Repair{Kind: n.kind, Offset: n.offset, CallIndex: -1}
	}
	return out
}

func extractCore(input []byte) coreText {
	var c coreText
	i := 0
	if bytes.HasPrefix(input, bom) {
		c.note(toolcall.RepairBOM, 0)
		i = len(bom)
	}
	i = skipSpace(input, i)
	if i >= len(input) {
		return coreText{}
	}
	end := skipSpaceBack(input, i, len(input)-1) + 1
	switch first := input[i]; {
	case first == '{' || first == '[':
	case bytes.HasPrefix(input[i:], fence):
		i = afterFenceOpener(input, i)
		c.note(toolcall.RepairCodeFence, i)
		if i >= len(input) || input[i] != '{' && input[i] != '[' {
			return coreText{}
		}
	default:
		b := bytes.IndexAny(input[i:], "{[")
		f := bytes.Index(input[i:], fence)
		switch {
		case b < 0 && f < 0:
			// No container at all: a scalar or a literal, or prose.
			c.text, c.start = input[i:end], i
			return c
		case f >= 0 && (b < 0 || f < b):
			i = afterFenceOpener(input, i+f)
			c.note(toolcall.RepairCodeFence, i)
			if i >= len(input) || input[i] != '{' && input[i] != '[' {
				return coreText{}
			}
			if f > 0 {
				c.note(toolcall.RepairSurroundingText, 0)
			}
		default:
			c.note(toolcall.RepairSurroundingText, 0)
			i += b
		}
	}
	e := matchEnd(input, i)
	if e < 0 {
		return coreText{}
	}
	return c.until(input, i, e)
}

// coreBefore is extractCore for input that starts with a whole JSON value
// followed, from tail on, by more text (the validator's verdict).
func coreBefore(input []byte, tail int) coreText {
	var c coreText
	i := skipSpace(input, 0)
	return c.until(input, i, trimSpaceEnd(input, i, tail))
}

// until makes input[i:e] the core, a value followed by the text after e;
// there is none when that text has brackets or starts with a comma: more
// structure ({"a": 1}, "b": 2}), which the scanner reads.
func (c coreText) until(input []byte, i, e int) coreText {
	rest := input[e:]
	if bytes.IndexAny(rest, "{[]}") >= 0 || bytes.HasPrefix(bytes.TrimSpace(rest), []byte(",")) {
		return coreText{}
	}
	if t := bytes.TrimSpace(rest); len(t) > 0 {
		if bytes.HasPrefix(t, fence) && len(bytes.Trim(t, "`")) == 0 {
			c.note(toolcall.RepairCodeFence, e)
		} else {
			c.note(toolcall.RepairSurroundingText, e)
		}
	}
	c.text, c.start = input[i:e], i
	return c
}

func (c *coreText) note(kind toolcall.RepairKind, offset int) {
	for _, n := range c.notes[:c.n] {
		if n.kind == kind {
			return
		}
	}
	if c.n < len(c.notes) {
		c.notes[c.n] = coreNote{kind: kind, offset: offset}
		c.n++
	}
}

// skipSpace returns the first position at or after i that is not
// whitespace, ASCII or Unicode.
func skipSpace(b []byte, i int) int {
	for i < len(b) {
		if w := spaceWidth(b, i); w > 0 {
			i += w
			continue
		}
		break
	}
	return i
}

// afterFenceOpener steps over a fence at i, its language tag and the
// whitespace after it.
func afterFenceOpener(b []byte, i int) int {
	for i < len(b) && b[i] == '`' {
		i++
	}
	for i < len(b) && isTagByte(b[i]) {
		i++
	}
	return skipSpace(b, i)
}

// matchEnd returns the offset after the bracket that closes the one at i,
// skipping strings in double, single or Python's triple quotes, or -1.
func matchEnd(b []byte, i int) int {
	depth := 0
	for ; i < len(b); i++ {
		switch c := b[i]; c {
		case '"', '\'':
			if i+2 < len(b) && b[i+1] == c && b[i+2] == c {
				e := bytes.Index(b[i+3:], b[i:i+3])
				if e < 0 {
					return -1
				}
				i += 3 + e + 2
				continue
			}
			for i++; i < len(b) && b[i] != c; i++ {
				if b[i] == '\\' {
					i++
				}
			}
			if i >= len(b) {
				return -1
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}
