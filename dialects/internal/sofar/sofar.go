// Package sofar holds what every family's Reader keeps of its output: the
// text it has been given so far, and whether the output has ended.
package sofar

import (
	"strings"
	"sync"
)

// Output is the output a Reader has been given so far. The first delta is
// held as it came, not copied, while it is the whole output, so a one-shot
// read (dialects.Read) copies nothing; from the second delta on the text
// is kept in a strings.Builder, read without a copy, whose array grows by
// doubling, so keeping it costs time linear in its length however it is
// cut. A Reader that reads some deltas without the text (a delta inside
// a long argument, seen to change nothing but the text) adds them with
// Append: they go to chunks of a fixed size, lent from a pool, and are
// copied into the array once, when the text is next read; then the
// chunks go back. A long output so read is allocated about once, where
// doubling allocates up to four times its length. The zero value is an
// output of which nothing has come yet. An Output must not be copied once
// written to, unless its text was read since the last Append (the copy
// then only reads it).
type Output struct {
	first string
	b     strings.Builder
	// chunks hold the bytes appended since the text was last read, in
	// order; the last holds last bytes.
	chunks []*[chunkSize]byte
	last   int
	ended  bool
}

// chunkSize is the size of a chunk (Append).
const chunkSize = 16 << 10

// chunkPool keeps the chunks no output holds.
var chunkPool = sync.Pool{New: func() any { return new([chunkSize]byte) }}

// Append adds delta to the output, as Write does, without reading the
// text: the bytes wait in chunks until Write, Text or Close reads it.
// Nothing is added after Close.
func (o *Output) Append(delta string) {
	if delta == "" || o.ended {
		return
	}
	if len(o.chunks) == 0 && o.b.Cap()-o.b.Len() >= len(delta) && (o.first == "" || o.b.Len() > 0) {
		o.b.WriteString(delta) // room in the array: no chunk
		return
	}
	for delta != "" {
		if len(o.chunks) == 0 || o.last == chunkSize {
			o.chunks = append(o.chunks, chunkPool.Get().(*[chunkSize]byte))
			o.last = 0
		}
		k := copy(o.chunks[len(o.chunks)-1][o.last:], delta)
		o.last += k
		delta = delta[k:]
	}
}

// join copies the appended bytes into the array, which grows once for
// them and more bytes to come (at least minCap), and gives the chunks
// back.
func (o *Output) join(more int) {
	n := (len(o.chunks)-1)*chunkSize + o.last
	if o.b.Len() == 0 {
		o.b.Grow(len(o.first) + n + max(more, minCap))
		o.b.WriteString(o.first)
		o.first = ""
	} else if o.b.Cap()-o.b.Len() < n+more {
		o.b.Grow(n + more)
	}
	for i, c := range o.chunks {
		if i == len(o.chunks)-1 {
			o.b.Write(c[:o.last])
		} else {
			o.b.Write(c[:])
		}
		chunkPool.Put(c)
		o.chunks[i] = nil
	}
	o.chunks, o.last = o.chunks[:0], 0
}

// Write adds delta to the output and returns the output so far. ok is
// false, and nothing is added, when delta is empty or the output has ended
// (Write after Close): the Reader has nothing new to read.
func (o *Output) Write(delta string) (text string, ok bool) {
	if delta == "" || o.ended {
		return "", false
	}
	if len(o.chunks) > 0 {
		o.join(len(delta))
	}
	if o.b.Len() == 0 {
		if o.first == "" {
			o.first = delta
			return delta, true
		}
		o.b.Grow(max(2*(len(o.first)+len(delta)), minCap))
		o.b.WriteString(o.first)
		o.first = ""
	}
	if o.b.Cap()-o.b.Len() < len(delta) {
		// Grow doubles the array; WriteString alone would append, which
		// grows a long array by a quarter at a time (about five times
		// the output allocated, four times copied).
		o.b.Grow(len(delta))
	}
	o.b.WriteString(delta)
	return o.b.String(), true
}

// minCap is the least capacity of the array: a short output grows it
// once or not at all.
const minCap = 512

// Text returns the output so far.
func (o *Output) Text() string {
	if len(o.chunks) > 0 {
		o.join(0)
	}
	if o.b.Len() == 0 {
		return o.first
	}
	return o.b.String()
}

// Close ends the output and returns it whole. ok is false when it had
// ended already: a Reader's second Close has nothing left to decide.
func (o *Output) Close() (text string, ok bool) {
	if o.ended {
		return "", false
	}
	o.ended = true
	return o.Text(), true
}
