package lenient

import (
	"strconv"
	"unsafe"

	"github.com/dialectkit/toolcall"
)

// maxRepairsPerKind bounds the record: a megabyte of raw newlines is one
// kind of change, not a million. Further occurrences are counted in the
// Detail of the last one kept.
const maxRepairsPerKind = 16

// recorder collects the repairs of one run, in input order of discovery.
// It lives in the scanner, which is reused. A repair is noted as a small
// entry without pointers, in a buffer of the recorder's own; the list the
// caller gets is made once, at its exact size, at the end of the run.
type recorder struct {
	base   int // added to every offset: the position of the scanned text in the input
	list   []entry
	counts []kindCount

	listBuf  [16]entry
	countBuf [markKinds]kindCount
}

// entry is one repair: the index of its kind in counts, its offset.
type entry struct {
	offset int
	kind   uint8
	risky  bool
}

type kindCount struct {
	kind toolcall.RepairKind
	n    int
	last int // index in list of the last repair of this kind kept
}

// markKinds is how many kinds a mark holds without allocating.
const markKinds = 12

// recorderMark is a point the recorder can be rolled back to. It copies
// the counts into an array of its own: marks are taken on every
// speculative parse, and most runs see only a few kinds.
type recorderMark struct {
	n      int
	nc     int
	counts [markKinds]kindCount
	more   []kindCount // the counts when there are more kinds than fit
}

// reset empties the recorder for a run over text at offset base.
func (r *recorder) reset(base int) {
	r.base = base
	r.list = r.listBuf[:0]
	r.counts = r.countBuf[:0]
}

func (r *recorder) add(kind toolcall.RepairKind, offset int) {
	r.addRisky(kind, offset, false)
}

// addRisky records a change that may not be what the model meant.
func (r *recorder) addRisky(kind toolcall.RepairKind, offset int, risky bool) {
	i := r.index(kind)
	r.counts[i].n++
	if r.counts[i].n > maxRepairsPerKind {
		return
	}
	if offset >= 0 {
		offset += r.base
	}
	r.counts[i].last = len(r.list)
	r.list = append(r.list, entry{offset: offset, kind: uint8(i), risky: risky})
}

func (r *recorder) index(kind toolcall.RepairKind) int {
	for i := range r.counts {
		// Kinds are constants: the same kind is the same bytes in memory,
		// and most kinds differ in length.
		if k := r.counts[i].kind; len(k) == len(kind) && (unsafe.StringData(string(k)) == unsafe.StringData(string(kind)) || k == kind) {
			return i
		}
	}
	r.counts = append(r.counts, kindCount{kind: kind})
	return len(r.counts) - 1
}

// count reports how many repairs of kind were made, kept or not.
func (r *recorder) count(kind toolcall.RepairKind) int {
	for _, c := range r.counts {
		if c.kind == kind {
			return c.n
		}
	}
	return 0
}

func (r *recorder) mark() recorderMark {
	m := recorderMark{n: len(r.list), nc: len(r.counts)}
	if len(r.counts) > markKinds {
		m.more = append([]kindCount(nil), r.counts...)
	} else {
		copy(m.counts[:], r.counts)
	}
	return m
}

// markCounts returns the counts saved in m.
func (m *recorderMark) markCounts() []kindCount {
	if m.more != nil {
		return m.more
	}
	return m.counts[:m.nc]
}

func (r *recorder) rollback(m recorderMark) {
	r.list = r.list[:m.n]
	r.counts = append(r.counts[:0], m.markCounts()...)
}

// guessedSince reports whether a repair that had to guess at the model's
// intent was made after m; see guessKind.
func (r *recorder) guessedSince(m recorderMark) bool {
	for _, c := range r.counts {
		if !guessKind(c.kind) {
			continue
		}
		if r.countSince(m, c.kind) > 0 {
			return true
		}
	}
	return false
}

// countSince reports how many repairs of kind were made after m.
func (r *recorder) countSince(m recorderMark, kind toolcall.RepairKind) int {
	before := 0
	for _, o := range m.markCounts() {
		if o.kind == kind {
			before = o.n
		}
	}
	return r.count(kind) - before
}

// repairs returns the record, noting in the last repair of each kind how
// many more occurrences were not listed; nil when nothing was repaired.
func (r *recorder) repairs() []toolcall.Repair {
	if len(r.list) == 0 {
		return nil
	}
	out := make([]toolcall.Repair, len(r.list))
	for i, e := range r.list {
		out[i] = toolcall.Repair{Kind: r.counts[e.kind].kind, Offset: e.offset, CallIndex: -1, Risky: e.risky}
	}
	for _, c := range r.counts {
		if c.n > maxRepairsPerKind {
			out[c.last].Detail = strconv.Itoa(c.n-maxRepairsPerKind) + " more of this kind"
		}
	}
	return out
}

// guessKind tells the repairs that reinterpret the text from repairs that
// only translate a known syntax (Python, JSON5, comments) into JSON. Text
// after a complete value is taken as a further value only when it needed
// no guess; otherwise it is prose.
func guessKind(k toolcall.RepairKind) bool {
	switch k {
	case toolcall.RepairPythonLiteral, toolcall.RepairSingleQuotes, toolcall.RepairUnquotedKey,
		toolcall.RepairTrailingComma, toolcall.RepairComment, toolcall.RepairNumberFormat,
		toolcall.RepairJSON5, toolcall.RepairSmartQuotes, toolcall.RepairControlCharacter,
		toolcall.RepairInvalidEscape, toolcall.RepairInvalidUTF8, toolcall.RepairBOM,
		toolcall.RepairCodeFence, toolcall.RepairSurroundingText, toolcall.RepairConcatenated:
		return false
	}
	return true
}
