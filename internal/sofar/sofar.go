// Package sofar holds an output received so far, in deltas: the text they
// made, and whether the output has ended. Every family's Reader keeps its
// output in one, and so does a stream that keeps the text itself.
package sofar

import (
	"sync"
	"unsafe"
)

// Output is the output received so far. The first delta is held as it
// came, not copied, while it is the whole output, so a one-shot read
// copies nothing. From the second delta on the text is one array, grown
// by doubling, so keeping it costs time linear in its length however it
// is cut; the text read is a string over the array, which only grows
// past it (the bytes a string covers are never written again).
//
// A holder that reads some deltas without the text (Append: a delta
// inside a long argument, or a stream that reads the text only when asked
// for it) has them go to chunks of a fixed size once the output is a
// chunk long, lent from a pool and copied into the array once, when the
// text is next read; then the chunks go back. A long output so kept is
// allocated about once, where doubling allocates up to four times its
// length.
//
// The zero value is an output of which nothing has come yet. An Output
// must not be copied once written to, unless its text was read since the
// last Append (the copy then only reads it).
type Output struct {
	first string
	buf   []byte
	// chunks hold the bytes appended after buf since the text was last
	// read, in order; the last holds last bytes.
	chunks []*[ChunkSize]byte
	last   int
	ended  bool
}

// ChunkSize is the size of a chunk (Append).
const ChunkSize = 16 << 10

// minCap is the least capacity of the array: a short output grows it
// once or not at all.
const minCap = 512

// chunkPool keeps the chunks no output holds.
var chunkPool = sync.Pool{New: func() any { return new([ChunkSize]byte) }}

// Write adds delta to the output and returns the output so far. ok is
// false, and nothing is added, when delta is empty or the output has ended
// (Write after Close): the Reader has nothing new to read.
func (o *Output) Write(delta string) (text string, ok bool) {
	if delta == "" || o.ended {
		return "", false
	}
	if len(o.buf)+len(delta) > cap(o.buf) || len(o.chunks) > 0 {
		if o.Len() == 0 {
			o.first = delta
			return delta, true
		}
		o.reserve(len(delta))
	}
	o.buf = append(o.buf, delta...)
	return unsafe.String(unsafe.SliceData(o.buf), len(o.buf)), true
}

// Append adds delta to the output, as Write does, without reading the
// text: while the output is shorter than a chunk, or the array has room,
// the bytes go to the array; past that they wait in chunks until Write,
// Text or Close reads the text. Nothing is added after Close.
func (o *Output) Append(delta string) {
	if delta == "" || o.ended {
		return
	}
	if len(o.chunks) == 0 && (len(o.buf)+len(delta) <= cap(o.buf) || o.Len()+len(delta) <= ChunkSize) {
		o.Write(delta)
		return
	}
	for delta != "" {
		if len(o.chunks) == 0 || o.last == ChunkSize {
			o.chunks = append(o.chunks, chunkPool.Get().(*[ChunkSize]byte))
			o.last = 0
		}
		k := copy(o.chunks[len(o.chunks)-1][o.last:], delta)
		o.last += k
		delta = delta[k:]
	}
}

// reserve makes room in the array for n more bytes after the text, the
// first delta and the chunks moved into it: a new array at least twice
// as long as the old one, and, when the chunks are joined, with room for
// more bytes to come (at least minCap), so that joins, as doubling, copy
// a long output about once more in all. The chunks go back to the pool:
// no string shares their memory.
func (o *Output) reserve(n int) {
	held := 0
	if len(o.chunks) > 0 {
		held = (len(o.chunks)-1)*ChunkSize + o.last
		n += max(n, minCap)
	}
	need := len(o.first) + len(o.buf) + held + n
	if len(o.first) == 0 && need <= cap(o.buf) {
		// Room for the chunks and n more: the array stays.
	} else {
		nb := make([]byte, 0, max(need, 2*cap(o.buf), 2*len(o.first), minCap))
		nb = append(nb, o.first...)
		o.buf, o.first = append(nb, o.buf...), ""
	}
	for i, c := range o.chunks {
		if i == len(o.chunks)-1 {
			o.buf = append(o.buf, c[:o.last]...)
		} else {
			o.buf = append(o.buf, c[:]...)
		}
		chunkPool.Put(c)
		o.chunks[i] = nil
	}
	o.chunks, o.last = o.chunks[:0], 0
}

// Len returns the length of the output so far.
func (o *Output) Len() int {
	n := len(o.first) + len(o.buf)
	if len(o.chunks) > 0 {
		n += (len(o.chunks)-1)*ChunkSize + o.last
	}
	return n
}

// Text returns the output so far.
func (o *Output) Text() string {
	if len(o.chunks) > 0 {
		o.reserve(0)
	}
	if len(o.buf) == 0 {
		return o.first
	}
	return unsafe.String(unsafe.SliceData(o.buf), len(o.buf))
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
