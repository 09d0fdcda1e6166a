package stream

import (
	"sync"
	"unsafe"
)

// textBuf is the output received so far: bytes appended and never
// changed, so that String's strings (which share its memory, as a
// strings.Builder's do) stay valid.
//
// The text is one array, grown by doubling, up to a chunk's length; past
// it nothing reads the text unless Parser.Text is asked for, so the text
// past the array's capacity goes to chunks of a fixed size (add), copied
// into one array when the text is next read (String), and the chunks are
// then used again, by this stream or another. A long output is so copied once more
// and allocated about once, where doubling alone copies it once more and
// allocates up to four times its length.
type textBuf struct {
	// s is the text while it is the first string written, kept as it
	// came: an output written at once (Parser.Read) is not copied.
	s string
	b []byte // the text, or its last chunk while done is not empty
	// done are the full arrays before b, in order: the first is the
	// array before the chunks, the others chunks.
	done [][]byte
	n0   int // the length of the text in done
}

// chunkSize is the size of a chunk (textBuf.add).
const chunkSize = 16 << 10

// chunkPool keeps the chunks that joined texts no longer use.
var chunkPool = sync.Pool{New: func() any { return new([chunkSize]byte) }}

// adopt keeps s as the text when the text is empty, and reports whether
// it did; otherwise a text kept as it came moves to the array first.
func (t *textBuf) adopt(s string) bool {
	switch {
	case t.s != "":
		old := t.s
		t.s = ""
		t.b = make([]byte, 0, max(2*(len(old)+len(s)), 256))
		t.b = append(t.b, old...)
	case len(t.b) == 0 && t.done == nil:
		t.s = s
		return true
	}
	return false
}

// write appends s to the text, in one array when it must grow.
func (t *textBuf) write(s string) {
	if t.adopt(s) {
		return
	}
	// While the text is in chunks, b is the last: appending to it
	// extends the text as well.
	if len(t.b)+len(s) > cap(t.b) {
		t.grow(len(s))
	}
	t.b = append(t.b, s...)
}

// grow makes room in one array for n more bytes: it joins the chunks, or
// doubles the array (append grows a large slice by a quarter at a time,
// copying a long output several times over).
func (t *textBuf) grow(n int) {
	if t.done != nil {
		t.join(n)
	}
	if len(t.b)+n > cap(t.b) {
		nb := make([]byte, len(t.b), max(2*cap(t.b), len(t.b)+n, 256))
		copy(nb, t.b)
		t.b = nb
	}
}

// add appends s to the text, filling the last array and then chunks.
func (t *textBuf) add(s string) {
	if t.adopt(s) {
		return
	}
	for {
		k := min(len(s), cap(t.b)-len(t.b))
		t.b = append(t.b, s[:k]...)
		if s = s[k:]; s == "" {
			return
		}
		t.done = append(t.done, t.b)
		t.n0 += len(t.b)
		t.b = chunkPool.Get().(*[chunkSize]byte)[:0]
	}
}

// join copies the chunks into one array, with room for more bytes: at
// least the first array's capacity again, so that joins, like doubling,
// copy a long output about once more in all. The chunks go back to the
// pool: no string shares their memory (String joins first).
func (t *textBuf) join(more int) {
	n := t.Len()
	nb := make([]byte, 0, max(n+max(more, 512), 2*cap(t.done[0])))
	nb = append(nb, t.done[0]...)
	for _, c := range t.done[1:] {
		nb = append(nb, c...)
		chunkPool.Put((*[chunkSize]byte)(c[:chunkSize]))
	}
	nb = append(nb, t.b...)
	chunkPool.Put((*[chunkSize]byte)(t.b[:chunkSize]))
	t.b, t.done, t.n0 = nb, nil, 0
}

// Len returns the length of the text.
func (t *textBuf) Len() int { return len(t.s) + t.n0 + len(t.b) }

// String returns the text.
func (t *textBuf) String() string {
	if t.s != "" {
		return t.s
	}
	if t.done != nil {
		t.join(0)
	}
	return unsafe.String(unsafe.SliceData(t.b), len(t.b))
}
