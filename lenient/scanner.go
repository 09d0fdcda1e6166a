package lenient

import (
	"bytes"
	"sync"
	"time"

	"github.com/dialectkit/toolcall"
)

// The repair scanner: a recursive-descent parser over bytes that writes
// strict JSON as it reads, and settles every deviation from JSON by a rule
// that looks at most a bounded distance ahead. Each rule is general (a
// closing quote is one followed by what may follow a value), never a
// pattern for one input. The scanner visits each byte a bounded number of
// times; a work counter enforces that bound and the time budget.

// valueKind is what value parsed.
type valueKind uint8

const (
	vNone    valueKind = iota // no value here; nothing consumed, nothing written
	vDropped                  // a value cut off by the end of the input, with nothing to keep
	vString
	vBare // an unquoted word taken as a string
	vNumber
	vLiteral
	vObject
	vArray
	vEllipsis // "..." standing for elided items
)

// context is where a value or string stands; it decides what may follow it.
type context uint8

const (
	ctxTop context = iota
	ctxKey
	ctxObjectValue
	ctxArrayValue
)

// checkEvery is how much work passes between two looks at the clock.
const checkEvery = 4096

// workFactor bounds the work of one run to workFactor bytes examined per
// input byte (plus a constant). The rules stay far below it; it is the
// guarantee that no input, however it is shaped, costs more than linear
// time.
const workFactor = 48

type scanner struct {
	src []byte
	pos int
	out []byte
	rec recorder

	// stack holds the open containers: '{', '[' or '('.
	stack    []byte
	maxDepth int

	// strict makes every guess fail. TestJSON5Oracle runs the scanner so
	// on text a JSON5 parser accepts: JSON5 must never need a guess.
	strict bool

	deadline  time.Time
	now       func() time.Time // the clock deadline is on: config.now
	work      int
	nextCheck int
	workLimit int

	// eofScans counts strings that ran to the end of the input and were
	// then split, so that the tail is re-read a bounded number of times.
	eofScans int

	// nq caches nextQuoteOrNewline: no quote or newline lies in [nqFrom, nqAt).
	nqFrom, nqAt int

	// lastMark is the offset of the last quote or bracket of the input,
	// found once (see proseToEnd); -2 until then.
	lastMark int
	// proseFrom is where proseToEnd found the prose that ends the input,
	// or -1.
	proseFrom int

	// Room for the common case, so that small inputs allocate little.
	stackBuf [16]byte

	// fastKeys holds the keys the fast path wrote (see fast.go).
	fastKeys [fastKeys]fastKey
}

// bailout carries a coded error out of the recursive descent.
type bailout struct {
	err *toolcall.Error
	// guess marks the failure of a strict run that needed a guess.
	guess bool
	// fatal failures end the run even inside a speculative parse.
	fatal bool
}

func newScanner(src []byte, base int, cfg config, deadline time.Time) *scanner {
	s := new(scanner)
	s.reset(src, base, cfg, deadline)
	return s
}

// reset prepares s for a run over src, which starts at offset base of the
// input. The output buffer is new: it is handed to the caller.
func (s *scanner) reset(src []byte, base int, cfg config, deadline time.Time) {
	s.resetInto(src, base, cfg, deadline, nil)
}

// resetInto is reset with the output written into out when it has room
// for outCap(len(src)) bytes; otherwise into a new buffer.
func (s *scanner) resetInto(src []byte, base int, cfg config, deadline time.Time, out []byte) {
	// Field by field: the buffers need no clearing, only fresh slices.
	s.src, s.pos = src, 0
	s.maxDepth, s.strict = cfg.maxDepth, false
	s.deadline, s.now, s.work, s.nextCheck = deadline, cfg.now, 0, checkEvery
	s.workLimit = workFactor*len(src) + 1<<16
	s.eofScans = 0
	s.nqFrom, s.nqAt = -1, -1
	s.lastMark, s.proseFrom = -2, -1
	s.rec.reset(base)
	s.stack = s.stackBuf[:0]
	if n := outCap(len(src)); cap(out) >= n {
		s.out = out[:0]
	} else {
		s.out = make([]byte, 0, n)
	}
}

// outCap is the room the output of a run over n bytes starts with: the
// quotes, commas and closers a repair adds seldom take more.
func outCap(n int) int { return n + n/8 + 16 }

// scanners are reused between runs: a scanner with its buffers is several
// times the size of a tool call's arguments, and allocating one per call
// was most of the cost of repairing a small input.
var scanners = sync.Pool{New: func() any { return new(scanner) }}

// getScannerInto returns a scanner from the pool, reset for src and
// writing its output into out, which must have room for outCap(len(src))
// bytes and is not used by anything else.
func getScannerInto(src []byte, base int, cfg config, deadline time.Time, out []byte) *scanner {
	s := scanners.Get().(*scanner)
	s.resetInto(src, base, cfg, deadline, out)
	return s
}

// putScanner returns s to the pool; nothing it holds may be used after.
// Scanners that grew large buffers are left to the collector.
func putScanner(s *scanner) {
	if cap(s.stack) > 4*len(s.stackBuf) || cap(s.rec.list) > 4*len(s.rec.listBuf) {
		return
	}
	s.src, s.out = nil, nil
	scanners.Put(s)
}

// run parses the whole input as a document and returns the JSON written.
func (s *scanner) run() (out []byte, err *toolcall.Error, guessed bool) {
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bailout)
			if !ok {
				panic(r)
			}
			out, err, guessed = nil, b.err, b.guess
		}
	}()
	s.document()
	return s.out, nil, false
}

// fail stops the parse: the text at offset (relative to src) cannot be
// repaired without inventing. Inside a speculative parse (try) it only
// rejects that reading.
func (s *scanner) fail(offset int, msg string) {
	panic(bailout{err: s.errorAt(toolcall.CodeRepairFailed, offset, msg)})
}

// stop ends the run for good: a limit was reached or the input is binary.
func (s *scanner) stop(code toolcall.Code, offset int, msg string) {
	panic(bailout{err: s.errorAt(code, offset, msg), fatal: true})
}

func (s *scanner) errorAt(code toolcall.Code, offset int, msg string) *toolcall.Error {
	e := toolcall.NewError(code, msg)
	if offset >= 0 {
		e.Offset = offset + s.rec.base
	}
	return e
}

// guess is called by every rule that reinterprets the text. In strict mode
// it stops the run: the input was meant to need no guess.
func (s *scanner) guess() {
	if s.strict {
		panic(bailout{err: toolcall.NewError(toolcall.CodeRepairFailed, "input needs repair beyond JSON5"), guess: true})
	}
}

// tick accounts for n bytes examined and enforces the budgets.
func (s *scanner) tick(n int) {
	s.work += n
	if s.work >= s.nextCheck {
		s.checkBudget()
	}
}

func (s *scanner) checkBudget() {
	s.nextCheck = s.work + checkEvery
	if s.work > s.workLimit {
		s.stop(toolcall.CodeRepairFailed, s.pos, "repair work limit reached")
	}
	if !s.deadline.IsZero() && readClock(s.now).After(s.deadline) {
		s.stop(toolcall.CodeRepairTimeout, s.pos, "repair ran past its time budget")
	}
}

// push opens a container and enforces the depth limit.
func (s *scanner) push(kind byte) {
	if s.maxDepth > 0 && len(s.stack) >= s.maxDepth {
		s.stop(toolcall.CodeTooDeep, s.pos, "nesting deeper than the limit")
	}
	s.stack = append(s.stack, kind)
}

func (s *scanner) pop() { s.stack = s.stack[:len(s.stack)-1] }

// closerOf returns the byte that closes a container kind.
func closerOf(kind byte) byte {
	switch kind {
	case '{':
		return '}'
	case '[':
		return ']'
	}
	return ')'
}

// innerCloser returns the closer of the innermost open container, or 0.
func (s *scanner) innerCloser() byte {
	if len(s.stack) == 0 {
		return 0
	}
	return closerOf(s.stack[len(s.stack)-1])
}

// matchIndex returns the index in the stack of the innermost container that
// closer closes, or -1.
func (s *scanner) matchIndex(closer byte) int {
	for i := len(s.stack) - 1; i >= 0; i-- {
		if closerOf(s.stack[i]) == closer {
			return i
		}
	}
	return -1
}

// contextAt is the context of a value directly inside stack[i]; ctxTop
// when i is below the stack.
func (s *scanner) contextAt(i int) context {
	if i < 0 {
		return ctxTop
	}
	if s.stack[i] == '{' {
		return ctxObjectValue
	}
	return ctxArrayValue
}

// atEnd reports whether the structure ends here: the end of the input or a
// code fence, which ends the value it follows.
func (s *scanner) atEnd() bool {
	return s.pos >= len(s.src) || s.fenceAt(s.pos)
}

func (s *scanner) fenceAt(i int) bool {
	return i+2 < len(s.src) && s.src[i] == '`' && s.src[i+1] == '`' && s.src[i+2] == '`'
}

// skipFence steps over a run of backticks.
func (s *scanner) skipFence() {
	for s.pos < len(s.src) && s.src[s.pos] == '`' {
		s.pos++
	}
}

// document reads the whole input: a value, possibly wrapped in prose or
// code fences, possibly followed by more values.
func (s *scanner) document() {
	if bytes.HasPrefix(s.src, bom) {
		s.rec.add(toolcall.RepairBOM, 0)
		s.pos = len(bom)
	}
	i := s.skipWS(s.pos)
	if i >= len(s.src) {
		s.fail(i, "no JSON value in the input")
	}
	c := s.src[i]
	if c == '{' || c == '[' {
		s.pos = i
		s.roots(false)
		return
	}
	// A fenced block wins over prose, even prose that starts like a tuple:
	// "(1) Note … ```json {…}```".
	if bytes.Contains(s.src[i:], fence) {
		s.guess()
		if s.fences(i) {
			return
		}
	}
	if c == '(' {
		s.pos = i
		s.roots(false)
		return
	}
	s.prose(i)
}

var (
	bom   = []byte{0xEF, 0xBB, 0xBF}
	fence = []byte("```")
)

// skipWS returns the first position at or after i that is not whitespace.
func (s *scanner) skipWS(i int) int {
	return skipSpace(s.src, i)
}

// roots parses the value at s.pos and whatever follows it: more values
// (concatenated output, as an array), the rest of an object closed too
// early, or prose.
func (s *scanner) roots(afterProse bool) {
	start := len(s.out)
	kind := s.rootValue()
	if kind == vNone || kind == vDropped {
		s.fail(s.pos, "no JSON value in the input")
	}
	count := 1
	adjacent := true // only whitespace, commas and fences since the last value
	proseNoted := afterProse
	for {
		// Each round consumes input; counting it lets the budget check
		// see a long run of stray closers or commas.
		s.tick(1)
		s.space()
		if s.pos >= len(s.src) {
			break
		}
		if s.fenceAt(s.pos) {
			s.guess()
			s.rec.add(toolcall.RepairCodeFence, s.pos)
			s.skipFence()
			continue
		}
		c := s.src[s.pos]
		switch {
		case c == ',' && kind == vObject && s.keyPattern(s.skipAt(s.pos+1), true):
			// {"a": 1}, "b": 2} — the first '}' came too early.
			s.guess()
			s.rec.add(toolcall.RepairExtraClosing, s.pos)
			s.out = s.out[:len(s.out)-1]
			s.push('{')
			from := resumeAfterValue
			if s.out[len(s.out)-1] == '{' {
				// {}, "b": 2}: the object closed early had no member.
				from = resumeFresh
			}
			s.objectBody(false, from)
			continue
		case c == ',':
			s.guess()
			s.pos++
			continue
		case c == '}' || c == ']' || c == ')':
			s.guess()
			s.rec.add(toolcall.RepairExtraClosing, s.pos)
			s.pos++
			continue
		case c == '{' || c == '[':
			at := s.pos
			if s.concatenated(&count, start, adjacent) {
				kind = vObject
				if c == '[' {
					kind = vArray
				}
				adjacent = true
				continue
			}
			if s.dataAt(at) {
				s.fail(at, msgDroppedValue)
			}
		}
		// Prose after the value: skip to the next bracket or fence.
		s.guess()
		if !proseNoted {
			s.rec.add(toolcall.RepairSurroundingText, s.pos)
			proseNoted = true
		}
		s.skipProse(s.pos + 1)
		adjacent = false
	}
	if count > 1 {
		s.out = append(s.out, ']')
	}
}

// concatenated parses a further top-level value at s.pos. A value that
// follows prose must parse without guessing, or it is prose itself.
func (s *scanner) concatenated(count *int, start int, adjacent bool) bool {
	begin := s.pos
	mark := s.rec.mark()
	outMark := len(s.out)
	s.out = append(s.out, ',')
	ok, end := s.try(func() {
		if k := s.value(ctxTop); k == vNone || k == vDropped {
			s.fail(s.pos, "no value")
		}
	})
	if ok && (adjacent || !s.rec.guessedSince(mark)) {
		s.guess()
		if *count == 1 {
			s.out = append(s.out[:start+1], s.out[start:]...)
			s.out[start] = '['
			s.rec.add(toolcall.RepairConcatenated, begin)
		}
		*count++
		return true
	}
	s.rec.rollback(mark)
	s.out = s.out[:outMark]
	if end <= begin {
		end = begin + 1
	}
	s.pos = end - 1 // the caller skips prose from here
	return false
}

// try runs a speculative parse. A repair failure inside it is reported as
// false with the position reached; limits and binary input still stop the
// run.
func (s *scanner) try(parse func()) (ok bool, reached int) {
	depth := len(s.stack)
	defer func() {
		if r := recover(); r != nil {
			b, isBail := r.(bailout)
			if !isBail || b.guess || b.fatal {
				panic(r)
			}
			ok, reached = false, s.pos
			if b.err.Offset >= s.rec.base && b.err.Offset-s.rec.base > reached {
				reached = b.err.Offset - s.rec.base
			}
			s.stack = s.stack[:depth]
		}
	}()
	parse()
	return true, s.pos
}

const msgBinary = "control character outside a string: binary input"

// skipProse moves s.pos from i to the next '{', '[' or code fence.
func (s *scanner) skipProse(i int) {
	for i < len(s.src) {
		c := s.src[i]
		if c == '{' || c == '[' || (c == '`' && s.fenceAt(i)) {
			break
		}
		if c == 0 {
			s.stop(toolcall.CodeRepairFailed, i, msgBinary)
		}
		i++
	}
	s.tick(i - s.pos)
	s.pos = i
}

// prose handles input that does not start with a value: the value is the
// first bracket whose contents parse without guessing, or the last one.
func (s *scanner) prose(i int) {
	s.guess()
	skipped := -1 // the first value passed over that reads as data
	for {
		j := i
		for j < len(s.src) && s.src[j] != '{' && s.src[j] != '[' {
			if s.src[j] == 0 {
				s.stop(toolcall.CodeRepairFailed, j, msgBinary)
			}
			j++
		}
		s.tick(j - i)
		if j >= len(s.src) {
			break
		}
		mark := s.rec.mark()
		s.pos = j
		ok, end := s.try(func() { s.rootValue() })
		more := end < len(s.src) && bytes.IndexAny(s.src[end:], "{[") >= 0
		if ok && (!s.rec.guessedSince(mark) || !more && s.plausible(mark, j, end)) {
			if skipped >= 0 {
				s.fail(skipped, msgDroppedValue)
			}
			// Only the text before the value counts as surrounding text here;
			// roots notes text after it.
			s.rec.rollback(mark)
			s.out = s.out[:0]
			s.rec.add(toolcall.RepairSurroundingText, 0)
			s.pos = j
			s.roots(true)
			return
		}
		s.rec.rollback(mark)
		s.out = s.out[:0]
		if skipped < 0 && s.dataAt(j) {
			skipped = j
		}
		if end <= j {
			end = j + 1
		}
		i = end
	}
	if skipped >= 0 {
		s.fail(skipped, msgDroppedValue)
	}
	s.scalarDocument()
}

// msgDroppedValue is the error of a text holding several values, one of
// which could not be read as it stands: returning the others would drop
// it without a word.
const msgDroppedValue = "several values in the text, one of them unreadable: no value is returned rather than some of them"

// dataAt reports whether the bracket at i opens what reads as data, not
// as prose with a bracket in it: an object whose first key is quoted and
// followed by its colon ({"path": …), alone or as the first element of an
// array.
func (s *scanner) dataAt(i int) bool {
	if s.src[i] == '[' {
		i = s.skipAt(i + 1)
		if i >= len(s.src) || s.src[i] != '{' {
			return false
		}
	}
	k := s.skipAt(i + 1)
	if k >= len(s.src) || quoteWidth(s.src, k) == 0 {
		return false
	}
	return s.keyPattern(k, false)
}

// plausible reports whether a value read out of prose at src[start:end],
// whose reading needed guesses, is still data rather than prose with a
// bracket in it: it invented no value, and a value made of unquoted words
// has at least a quote or a colon in it ({name: Ann}, not "[sic]").
func (s *scanner) plausible(mark recorderMark, start, end int) bool {
	if s.rec.countSince(mark, toolcall.RepairMissingValue) > 0 {
		return false
	}
	if s.rec.countSince(mark, toolcall.RepairUnquotedString) > 0 {
		return bytes.ContainsAny(s.src[start:end], "\"':")
	}
	return true
}

// scalarDocument handles input with no bracket at all: a lone string,
// number or literal, and nothing else.
func (s *scanner) scalarDocument() {
	s.pos = s.skipWS(0)
	if bytes.HasPrefix(s.src, bom) {
		s.pos = s.skipWS(len(bom))
	}
	c := s.src[s.pos]
	if _, w := quoteAt(s.src, s.pos); w == 0 && !isDigit(c) && c != '-' && c != '.' && !s.literalAt(s.pos) {
		s.fail(s.pos, "no JSON value in the input")
	}
	s.out = s.out[:0]
	kind := s.rootValue()
	s.space()
	if kind == vNone || kind == vDropped || s.pos < len(s.src) {
		s.fail(s.pos, "no JSON value in the input")
	}
}

// fences reads the values inside code fences, ```json ... ```. It reports
// false, having written nothing, when no fence holds a value.
func (s *scanner) fences(i int) bool {
	begin := i
	start := len(s.out)
	mark := s.rec.mark()
	count := 0
	first := -1
	for i < len(s.src) {
		f := bytes.Index(s.src[i:], fence)
		if f < 0 {
			break
		}
		f += i
		if first < 0 {
			first = f
		}
		s.pos = f
		s.skipFence()
		for s.pos < len(s.src) && isTagByte(s.src[s.pos]) {
			s.pos++
		}
		v := s.skipWS(s.pos)
		if v < len(s.src) && s.valueStartAt(v) {
			s.pos = v
			outMark, recMark := len(s.out), s.rec.mark()
			if count > 0 {
				s.out = append(s.out, ',')
			}
			ok, end := s.try(func() {
				if k := s.rootValue(); k == vNone || k == vDropped {
					s.fail(s.pos, "no value")
				}
			})
			if ok {
				count++
				s.space()
				s.skipFence()
				i = s.pos
				continue
			}
			s.out = s.out[:outMark]
			s.rec.rollback(recMark)
			if end < v+1 {
				end = v + 1
			}
			s.pos = end
		}
		// Not a value: skip to the closing fence.
		g := bytes.Index(s.src[s.pos:], fence)
		if g < 0 {
			break
		}
		s.pos += g
		s.skipFence()
		i = s.pos
	}
	s.tick(len(s.src)) // the searches for fences read the text once
	if count == 0 {
		s.out = s.out[:start]
		s.rec.rollback(mark)
		return false
	}
	s.rec.add(toolcall.RepairCodeFence, first)
	if first > begin {
		s.rec.add(toolcall.RepairSurroundingText, begin)
	}
	if count > 1 {
		s.out = append(s.out[:start+1], s.out[start:]...)
		s.out[start] = '['
		s.out = append(s.out, ']')
		s.rec.add(toolcall.RepairConcatenated, first)
	}
	return true
}

// isTagByte reports whether c may be part of a code fence's language tag.
func isTagByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '+' || c == '.'
}

// valueStartAt reports whether a value can start at i.
func (s *scanner) valueStartAt(i int) bool {
	c := s.src[i]
	switch {
	case c == '{' || c == '[' || c == '(' || c == '-' || isDigit(c):
		return true
	}
	if _, w := quoteAt(s.src, i); w > 0 {
		return true
	}
	return s.literalAt(i)
}

// rootValue parses a top-level value; a string followed by ':' opens an
// object whose brace is missing.
func (s *scanner) rootValue() valueKind {
	s.space()
	start := len(s.out)
	kind := s.value(ctxTop)
	if kind == vString || kind == vBare {
		if j := s.skipAt(s.pos); j < len(s.src) && s.src[j] == ':' {
			s.implicitObject(start)
			return vObject
		}
	}
	return kind
}

// implicitObject turns the string just written at out[start:] into the
// first key of an object whose '{' the model left out; s.pos is before
// its ':'.
func (s *scanner) implicitObject(start int) {
	s.guess()
	s.rec.add(toolcall.RepairMissingOpeningBrace, s.pos)
	s.out = append(s.out[:start+1], s.out[start:]...)
	s.out[start] = '{'
	s.push('{')
	from := resumeAfterValue
	if s.memberValue(false) == vDropped {
		s.out = s.out[:start+1]
		from = resumeFresh
	}
	s.objectBody(true, from)
}

// zeroTime is the deadline of a run without a time budget.
var zeroTime time.Time
