package lenient

import (
	"strconv"

	"github.com/dialectkit/toolcall"
)

// maxRepairsPerKind bounds the record: a megabyte of raw newlines is one
// kind of change, not a million. Further occurrences are counted in the
// Detail of the last one kept.
const maxRepairsPerKind = 16

// recorder collects the repairs of one run, in input order of discovery.
type recorder struct {
	base   int // added to every offset: the position of the scanned text in the input
	list   []toolcall.Repair
	counts []kindCount
}

type kindCount struct {
	kind toolcall.RepairKind
	n    int
	last int // index in list of the last repair of this kind kept
}

// recorderMark is a point the recorder can be rolled back to.
type recorderMark struct {
	n      int
	counts []kindCount
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
	if r.list == nil {
		r.list = make([]toolcall.Repair, 0, 4)
	}
	r.list = append(r.list, toolcall.Repair{Kind: kind, Offset: offset, CallIndex: -1, Risky: risky})
}

func (r *recorder) index(kind toolcall.RepairKind) int {
	for i := range r.counts {
		if r.counts[i].kind == kind {
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
	return recorderMark{n: len(r.list), counts: append([]kindCount(nil), r.counts...)}
}

func (r *recorder) rollback(m recorderMark) {
	r.list = r.list[:m.n]
	r.counts = append(r.counts[:0], m.counts...)
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
	for _, o := range m.counts {
		if o.kind == kind {
			before = o.n
		}
	}
	return r.count(kind) - before
}

// repairs returns the record, noting in the last repair of each kind how
// many more occurrences were not listed.
func (r *recorder) repairs() []toolcall.Repair {
	for _, c := range r.counts {
		if c.n > maxRepairsPerKind {
			r.list[c.last].Detail = strconv.Itoa(c.n-maxRepairsPerKind) + " more of this kind"
		}
	}
	return r.list
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
