package hermes

import (
	"math/bits"
	"strings"
	"sync"
	"unsafe"
)

// hold keeps the text a reader has not decided yet: a part of the delta
// that brought it, held as it came (view), or, once it spans deltas, a
// copy in an array of the reader's own (acc), which no piece ever views:
// what the reader returns from it is a part of the delta that brought it,
// or a copy (stable), and a unit read from it is copied once, when it
// ends (settled). So the array is written over and used again: it grows
// by doubling (its sizes are powers of two), moves the text to its front when that frees half of it,
// and goes back to a pool when it is outgrown or the output ends. A long
// call streamed in small deltas costs one copy of its text, not the sum
// of the arrays it grew through.
type hold struct {
	view string
	acc  *[]byte // nil until the text first spans deltas
	lo   int     // the held text is (*acc)[lo:], when inAcc
	// inAcc says the held text is in acc; delta is the last delta
	// written, the last bytes of acc then.
	inAcc bool
	delta string
}

// text is the held text, viewed in place.
func (h *hold) text() string {
	if !h.inAcc {
		return h.view
	}
	b := (*h.acc)[h.lo:]
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// size is the length of the held text.
func (h *hold) size() int {
	if !h.inAcc {
		return len(h.view)
	}
	return len(*h.acc) - h.lo
}

// add appends delta to the held text.
func (h *hold) add(delta string) {
	switch {
	case h.inAcc:
		if n := len(*h.acc); n+len(delta) > cap(*h.acc) {
			h.room(h.lo, len(delta))
		}
		*h.acc = append(*h.acc, delta...)
	case h.view == "":
		h.view = delta
		return
	default:
		h.room(0, len(h.view)+len(delta))
		*h.acc = append(append((*h.acc)[:0], h.view...), delta...)
		h.view, h.inAcc = "", true
	}
	h.delta = delta
}

// room makes room in acc for n more bytes after the held text, which
// starts at lo there.
func (h *hold) room(lo, n int) {
	held := 0
	if h.acc != nil {
		held = len(*h.acc) - lo
		if c := cap(*h.acc); held+n <= c && (lo == 0 || 2*(held+n) <= c) {
			// It fits, or half of the array or more is free once the
			// text is at its front: each such move is paid for by the
			// bytes written since the last.
			b := *h.acc
			copy(b, b[lo:])
			*h.acc, h.lo = b[:held], 0
			return
		}
	}
	p := getHeld(held + n)
	if h.acc != nil {
		*p = append(*p, (*h.acc)[lo:]...)
		putHeld(h.acc)
	}
	h.acc, h.lo = p, 0
}

// drop removes the first n bytes of the held text.
func (h *hold) drop(n int) {
	if !h.inAcc {
		h.view = h.view[n:]
		return
	}
	if h.lo += n; h.lo == len(*h.acc) {
		*h.acc, h.lo, h.inAcc = (*h.acc)[:0], 0, false
	}
}

// stable returns s, a part of the held text, as a string that stays as
// it is: a part of the delta that brought it, or a copy. Other strings
// are returned as they are.
func (h *hold) stable(s string) string {
	if !h.inAcc || s == "" {
		return s
	}
	b := (*h.acc)[:cap(*h.acc)]
	at := uintptr(unsafe.Pointer(unsafe.StringData(s))) - uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	if at >= uintptr(len(b)) {
		return s
	}
	if d := len(*h.acc) - len(h.delta); int(at) >= d {
		k := int(at) - d
		return h.delta[k : k+len(s)]
	}
	return strings.Clone(s)
}

// settled returns s, a part of the held text read whole as a unit, as a
// string that stays as it is: the pieces read from it view it.
func (h *hold) settled(s string) string {
	if h.inAcc {
		return strings.Clone(s)
	}
	return s
}

// release gives the array back to the pool.
func (h *hold) release() {
	if h.acc != nil {
		putHeld(h.acc)
		h.acc, h.lo, h.inAcc = nil, 0, false
	}
}

// The arrays of held text, by size: class k holds arrays of heldMin<<k
// bytes. Larger ones are not kept.
const (
	heldMin     = 512
	heldClasses = 18 // up to 64 MB
)

var heldPools [heldClasses]sync.Pool

// heldClass is the class of the smallest array of n bytes or more, or -1
// when it is too large to be kept.
func heldClass(n int) int {
	if n <= heldMin {
		return 0
	}
	k := bits.Len(uint(n-1)) - bits.Len(heldMin-1)
	if k >= heldClasses {
		return -1
	}
	return k
}

// getHeld returns an empty array of at least n bytes.
func getHeld(n int) *[]byte {
	k := heldClass(n)
	if k < 0 {
		b := make([]byte, 0, n)
		return &b
	}
	if p, _ := heldPools[k].Get().(*[]byte); p != nil {
		*p = (*p)[:0]
		return p
	}
	b := make([]byte, 0, heldMin<<k)
	return &b
}

// putHeld gives an array back to the pool.
func putHeld(p *[]byte) {
	if k := heldClass(cap(*p)); k >= 0 && cap(*p) == heldMin<<k {
		heldPools[k].Put(p)
	}
}
