package textlayer

import (
	"encoding/binary"
	"math/bits"
	"strings"
	"unsafe"
)

// ByteSet is a set of bytes a reader stops at, searched for in text
// (Index): the first bytes of a dialect's literals, the last bytes of its
// closing ones. A set of one byte is searched as strings.IndexByte
// searches; a set of up to four, eight bytes at a time; a larger one, a
// byte at a time by table. The zero value is the empty set.
type ByteSet struct {
	in   [256]bool
	n    int       // the number of bytes in the set
	pats [4]uint64 // each of the first four bytes, in every byte of a word
}

// Add puts c in the set.
func (s *ByteSet) Add(c byte) {
	if s.in[c] {
		return
	}
	s.in[c] = true
	if s.n < len(s.pats) {
		for i := s.n; i < len(s.pats); i++ {
			// A byte not yet given repeats the last: the word search
			// compares with four patterns whatever the set's size.
			s.pats[i] = uint64(c) * lows
		}
	}
	s.n++
}

// ByteSetOf returns the set of the bytes of bs.
func ByteSetOf(bs string) ByteSet {
	var s ByteSet
	for i := 0; i < len(bs); i++ {
		s.Add(bs[i])
	}
	return s
}

// Has reports whether c is in the set.
func (s *ByteSet) Has(c byte) bool { return s.in[c] }

const (
	lows  = 0x0101010101010101
	highs = 0x8080808080808080
)

// Index returns the offset of the first byte of text in the set, or -1.
func (s *ByteSet) Index(text string) int {
	switch {
	case s.n == 0:
		return -1
	case s.n == 1:
		return strings.IndexByte(text, byte(s.pats[0]))
	}
	i := 0
	if s.n <= len(s.pats) {
		p0, p1, p2, p3 := s.pats[0], s.pats[1], s.pats[2], s.pats[3]
		b := unsafe.Slice(unsafe.StringData(text), len(text))
		for ; i+8 <= len(b); i += 8 {
			w := binary.LittleEndian.Uint64(b[i : i+8])
			// A byte of x is zero where w holds the pattern's byte: the
			// lowest such byte is the lowest whose high bit the test
			// sets (a borrow may set bits above it, never below).
			x0, x1, x2, x3 := w^p0, w^p1, w^p2, w^p3
			m := (x0-lows)&^x0 | (x1-lows)&^x1 | (x2-lows)&^x2 | (x3-lows)&^x3
			if m &= highs; m != 0 {
				return i + bits.TrailingZeros64(m)/8
			}
		}
	}
	for ; i < len(text); i++ {
		if s.in[text[i]] {
			return i
		}
	}
	return -1
}
