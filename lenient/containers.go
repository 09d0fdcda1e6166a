package lenient

import (
	"bytes"

	"github.com/dialectkit/toolcall"
)

// value parses the value at s.pos, standing in ctx, and writes it.
func (s *scanner) value(ctx context) valueKind {
	s.tick(1)
	if s.pos >= len(s.src) {
		return vNone
	}
	switch c := s.src[s.pos]; c {
	case '{':
		return s.object()
	case '[':
		return s.array()
	case '(':
		return s.tuple()
	case ',', ':', '}', ']', ')':
		return vNone
	}
	if q, w := quoteAt(s.src, s.pos); w > 0 && (ctx != ctxTop || q < qBacktick) {
		if (q == qDouble || q == qSingle) && s.tripleString(ctx) {
			s.concatenation(ctx)
			return vString
		}
		st := s.scanString(ctx, q, w)
		if st.dropped {
			s.pos = st.next
			return vDropped
		}
		s.emitString(st, ctx)
		if ctx != ctxKey {
			s.concatenation(ctx)
		}
		return vString
	}
	if c := s.src[s.pos]; c < 0x20 || c == 0x7F {
		s.stop(toolcall.CodeRepairFailed, s.pos, msgBinary)
	}
	return s.bare(ctx)
}

// resume tells objectBody where in a member it starts.
type resume uint8

const (
	resumeFresh      resume = iota // after '{': a key or '}' is next
	resumeAfterValue               // a member is written; ',' or '}' is next
)

func (s *scanner) object() valueKind {
	s.push('{')
	s.out = append(s.out, '{')
	s.pos++
	return s.objectBody(false, resumeFresh)
}

// objectBody parses members up to the object's end. The '{' is written and
// pushed. An implicit object (its '{' was missing) also ends, without a
// repair, where its enclosing array or the input ends.
func (s *scanner) objectBody(implicit bool, from resume) valueKind {
	members := from != resumeFresh
	commaAt := -1
	last := vNone
	merged := false
	doubled := 0 // {{ … }}: opening braces taken as stray
	for {
		s.tick(1)
		s.space()
		if s.pos < len(s.src) && s.src[s.pos] == '`' && s.innerFence(false, !members) {
			continue
		}
		s.skipTrailingProse()
		if s.atEnd() {
			if commaAt >= 0 {
				s.rec.add(toolcall.RepairTrailingComma, commaAt)
			}
			if !implicit {
				s.guess()
				s.rec.add(toolcall.RepairMissingClosingBrace, s.pos)
			}
			return s.closeObject()
		}
		switch c := s.src[s.pos]; c {
		case '}':
			if commaAt >= 0 {
				s.rec.add(toolcall.RepairTrailingComma, commaAt)
			}
			s.pos++
			for ; doubled > 0; doubled-- {
				// The closing brace doubled like the opening one, or
				// after the fence that closes a block opened inside it
				// ({⏎```json⏎{"a": 1}⏎```⏎}).
				j := s.skipAt(s.pos)
				if s.fenceAt(j) {
					if k := s.skipAt(fenceEnd(s.src, j)); k < len(s.src) && s.src[k] == '}' {
						s.rec.add(toolcall.RepairCodeFence, j)
						j = k
					}
				}
				if j < len(s.src) && s.src[j] == '}' {
					s.rec.add(toolcall.RepairStrayText, j)
					s.pos = j + 1
				}
			}
			return s.closeObject()
		case ']', ')':
			if kind, done := s.objectForeignCloser(c, implicit, members, merged); done {
				return kind
			}
			continue
		case ',':
			if commaAt >= 0 || !members {
				s.guess()
				s.rec.add(toolcall.RepairStrayText, s.pos)
			} else {
				commaAt = s.pos
			}
			s.pos++
			continue
		case '{':
			if !members {
				// {{"a": 1}}: a doubled brace, as in a template.
				s.guess()
				s.rec.add(toolcall.RepairStrayText, s.pos)
				s.pos++
				doubled++
				continue
			}
			if s.contextAt(len(s.stack)-2) == ctxArrayValue {
				// [{"a": 1, {"b": 2}]: the next element starts; this
				// object's '}' is missing.
				s.guess()
				if commaAt >= 0 {
					s.pos = commaAt
				}
				s.rec.add(toolcall.RepairMissingClosingBrace, s.pos)
				return s.closeObject()
			}
			s.fail(s.pos, "unexpected { where an object key should be")
		case ':':
			s.fail(s.pos, "unexpected : where an object key should be")
		case '[':
			if commaAt >= 0 && last != vArray && s.contextAt(len(s.stack)-2) == ctxArrayValue {
				// [{"a": 1, [2]]: the next element starts; this
				// object's '}' is missing.
				s.guess()
				s.pos = commaAt
				s.rec.add(toolcall.RepairMissingClosingBrace, s.pos)
				return s.closeObject()
			}
			// "key": [1], [2] — the array went on after its closer.
			if last != vArray || len(s.out) == 0 || s.out[len(s.out)-1] != ']' {
				s.fail(s.pos, "unexpected [ where an object key should be")
			}
			s.guess()
			s.rec.add(toolcall.RepairExtraClosing, s.pos)
			s.out = s.out[:len(s.out)-1]
			count := 1
			if s.out[len(s.out)-1] == '[' {
				count = 0
			}
			s.push('[')
			s.pos++
			s.arrayBody(']', count)
			merged = true
			commaAt = -1
			continue
		}
		if s.elidedMembers() {
			continue
		}
		if members && commaAt < 0 && (last == vString || last == vLiteral) && isLetter(s.src[s.pos]) && s.strayWordThenClose(s.pos) {
			// {"b": "x" true}: a word after the last member, before the
			// object's closer, belongs to no member. After a number it
			// may be its unit or more digits ({"n": 5 kg}, 1 000): no
			// guess is made there.
			s.guess()
			s.rec.add(toolcall.RepairStrayText, s.pos)
			s.pos = s.strayWordEnd(s.pos)
			continue
		}
		if members && commaAt < 0 {
			s.guess()
			s.rec.add(toolcall.RepairMissingComma, s.pos)
		}
		prevComma := commaAt
		commaAt = -1
		mark := len(s.out)
		if members {
			s.out = append(s.out, ',')
		}
		quoted := quoteWidth(s.src, s.pos) > 0
		if !s.key() {
			s.out = s.out[:mark]
			if s.skipAt(s.pos) < len(s.src) {
				// Stray text where a key should be was dropped: the
				// comma before it stands before the key that follows.
				commaAt = prevComma
			}
			continue
		}
		kind := s.memberValue(members && quoted)
		if kind == vDropped {
			s.out = s.out[:mark]
			continue
		}
		members = true
		last = kind
	}
}

func (s *scanner) closeObject() valueKind {
	s.pop()
	s.out = append(s.out, '}')
	return vObject
}

// memberValue parses the ':' and the value after a key, and writes them.
// valueless allows a key with no value before the object's closer ({"a":
// 1, "b"}): a quoted key after another member, whose value is taken as
// empty. A key the end of the input cut off after it, before its value or
// inside a value with nothing to keep ({"a": 1, "b", {"a": 1, "b":,
// {"a": -), gets null (see cutAfterKey).
func (s *scanner) memberValue(valueless bool) valueKind {
	s.space()
	if s.atEnd() {
		s.out = append(s.out, ':')
		return s.cutAfterKey(s.pos)
	}
	switch c := s.src[s.pos]; {
	case c == ':':
		s.pos++
	case c == '=':
		s.guess()
		s.rec.add(toolcall.RepairMissingColon, s.pos)
		s.pos++
	case c == '}' && valueless:
		// {"a": 1, "b"}: the value is missing, as in {"a": 1, "b": }.
		s.guess()
		s.rec.addRisky(toolcall.RepairMissingValue, s.pos, true)
		s.out = append(s.out, ':', '"', '"')
		return vString
	case c == ',' || c == '}' || c == ']' || c == ')':
		// {invalid json}, {"a", "b"}: with neither a colon nor a value this
		// is no member; a value would be invented twice over.
		s.fail(s.pos, "a key with neither colon nor value")
	default:
		s.guess()
		s.rec.add(toolcall.RepairMissingColon, s.pos)
	}
	s.out = append(s.out, ':')
	s.space()
	if s.pos < len(s.src) && s.src[s.pos] == '`' {
		if s.innerFence(true, false) {
			s.space()
		} else if s.fencedText() {
			s.afterMember()
			return vString
		}
	}
	if s.atEnd() {
		return s.cutAfterKey(s.pos)
	}
	at := s.pos
	kind := s.value(ctxObjectValue)
	if kind == vNone {
		if s.src[s.pos] == ':' {
			s.fail(s.pos, "unexpected : where a value should be")
		}
		s.guess()
		s.rec.addRisky(toolcall.RepairMissingValue, s.pos, true)
		s.out = append(s.out, '"', '"')
		return vString
	}
	if kind == vDropped && s.atEnd() {
		return s.cutAfterKey(at)
	}
	if kind != vDropped {
		s.afterMember()
	}
	return kind
}

// cutAfterKey writes null as the value of a member whose key was read
// whole and whose value the end of the input cut off before anything of
// it could be kept, as the other repairers do. The repair is risky: the
// value is made up, and a required argument is null, not what the model
// was writing. (A cut-off tool call is never a call whatever its
// arguments read as; this is the reading of the document.)
func (s *scanner) cutAfterKey(at int) valueKind {
	s.guess()
	s.rec.addRisky(toolcall.RepairTruncatedValue, at, true)
	s.out = append(s.out, "null"...)
	return vLiteral
}

// afterMember checks the text after an object member for what cannot be
// repaired without inventing structure.
func (s *scanner) afterMember() {
	j := s.skipAt(s.pos)
	if j < len(s.src) && s.src[j] == ':' {
		s.fail(j, "unexpected : after an object member")
	}
}

// objectForeignCloser handles a ']' or ')' inside an object. It reports
// done when the object ends here.
func (s *scanner) objectForeignCloser(c byte, implicit, members, merged bool) (valueKind, bool) {
	m := s.matchIndex(c)
	if m < 0 {
		if merged && c == ']' {
			// After "key": [..], [..] an unmatched ']' means a '[' was
			// missing somewhere; merging would have put items in the
			// wrong array.
			s.fail(s.pos, "unbalanced brackets after an array that went on past its closer")
		}
		s.guess()
		s.rec.add(toolcall.RepairExtraClosing, s.pos)
		s.pos++
		return vNone, false
	}
	if implicit {
		return s.closeObject(), true
	}
	s.guess()
	if s.preferTypo(s.pos, m) {
		s.rec.add(toolcall.RepairMismatchedBracket, s.pos)
		s.pos++
		return s.closeObject(), true
	}
	if !members && s.contextAt(len(s.stack)-2) == ctxArrayValue {
		// [{] — an opened object with nothing in it, closed by its array.
		s.rec.add(toolcall.RepairStrayText, s.pos)
		s.pop()
		return vDropped, true
	}
	s.rec.add(toolcall.RepairMissingClosingBrace, s.pos)
	return s.closeObject(), true
}

func (s *scanner) array() valueKind {
	s.push('[')
	s.out = append(s.out, '[')
	s.pos++
	s.arrayBody(']', 0)
	return vArray
}

// tuple parses a Python tuple as an array; (x) without a comma is x.
func (s *scanner) tuple() valueKind {
	s.guess()
	s.rec.add(toolcall.RepairPythonLiteral, s.pos)
	start := len(s.out)
	s.push('(')
	s.out = append(s.out, '[')
	s.pos++
	n, trailing, last := s.arrayBody(')', 0)
	// (1) is a parenthesised value; a tuple the end of the input cut off,
	// (1, or (1, stays an array of what it holds.
	closed := s.pos > 0 && s.pos <= len(s.src) && s.src[s.pos-1] == ')'
	if n == 1 && !trailing && last != vDropped && closed {
		body := s.out[start+1 : len(s.out)-1]
		copy(s.out[start:], body)
		s.out = s.out[:start+len(body)]
		return last
	}
	return vArray
}

// arrayBody parses elements up to closer; the '[' is written and the
// container pushed. count is the number of elements already written (an
// array taken up again). It writes the ']' and pops the container.
func (s *scanner) arrayBody(closer byte, count int) (n int, trailingComma bool, last valueKind) {
	commaAt := -1
loop:
	for {
		s.tick(1)
		s.space()
		if s.pos < len(s.src) && s.src[s.pos] == '`' && s.innerFence(true, false) {
			continue
		}
		if s.atEnd() {
			if commaAt >= 0 {
				s.rec.add(toolcall.RepairTrailingComma, commaAt)
			}
			s.guess()
			s.rec.add(toolcall.RepairMissingClosingBracket, s.pos)
			break
		}
		c := s.src[s.pos]
		if c == closer {
			if commaAt >= 0 {
				s.rec.add(toolcall.RepairTrailingComma, commaAt)
				trailingComma = true
			}
			s.pos++
			break
		}
		switch c {
		case '}', ']', ')':
			if s.arrayForeignCloser(c) {
				break loop
			}
			continue
		case ',':
			if commaAt >= 0 || count == 0 {
				s.guess()
				s.rec.add(toolcall.RepairStrayText, s.pos)
			} else {
				commaAt = s.pos
			}
			s.pos++
			continue
		case ':':
			s.fail(s.pos, "unexpected : in an array")
		}
		if count > 0 && commaAt >= 0 && s.inObjectMember() && s.keyPattern(s.pos, false) && s.memberBeforeObjectCloser(s.pos) {
			// {"tags": ["a", "b", "path": "x"}: the member after the
			// comma belongs to the object around the array, whose '}'
			// follows it; the array's closer is missing before the comma.
			s.guess()
			s.rec.add(toolcall.RepairMissingClosingBracket, commaAt)
			s.pos = commaAt
			break
		}
		if count > 0 && commaAt < 0 {
			// ["a", "b"⏎"key": 1}: a member of the object around the
			// array follows an element; the array's closer is missing.
			if s.inObjectMember() && s.keyPattern(s.pos, false) {
				s.guess()
				s.rec.add(toolcall.RepairMissingClosingBracket, s.pos)
				break
			}
			s.guess()
			s.rec.add(toolcall.RepairMissingComma, s.pos)
		}
		commaAt = -1
		elem := len(s.out)
		if count > 0 {
			s.out = append(s.out, ',')
		}
		valueStart := len(s.out)
		kind := s.value(ctxArrayValue)
		switch kind {
		case vNone:
			s.fail(s.pos, "no value where an array element should be")
		case vDropped, vEllipsis:
			s.out = s.out[:elem]
			continue
		case vString, vBare:
			// ["key": "value"] — an object whose '{' is missing.
			if j := s.skipAt(s.pos); j < len(s.src) && s.src[j] == ':' {
				s.implicitObject(valueStart)
				kind = vObject
			}
		}
		count++
		last = kind
	}
	s.pop()
	s.out = append(s.out, ']')
	return count, trailingComma, last
}

// inObjectMember reports whether the innermost open container is an array
// directly inside an object.
func (s *scanner) inObjectMember() bool {
	n := len(s.stack)
	return n >= 2 && s.stack[n-1] == '[' && s.stack[n-2] == '{'
}

// arrayForeignCloser handles a closer that is not the array's own. It
// reports true when the array ends here.
func (s *scanner) arrayForeignCloser(c byte) bool {
	s.guess()
	m := s.matchIndex(c)
	if m < 0 {
		s.rec.add(toolcall.RepairExtraClosing, s.pos)
		s.pos++
		return false
	}
	if s.preferTypo(s.pos, m) {
		s.rec.add(toolcall.RepairMismatchedBracket, s.pos)
		s.pos++
		return true
	}
	s.rec.add(toolcall.RepairMissingClosingBracket, s.pos)
	return true
}

// innerFence steps over a code fence inside an open container when the
// structure goes on after it: [⏎```json⏎{"a": 1}⏎```⏎]. After the fence
// (and a language tag glued to it) must come a closer of an open
// container, a comma, or what the container expects next: a value
// (wantValue) or a key, or the '{' of an object doubled around a fenced
// block (brace: the object has no member yet). A fence followed by prose
// or by another fence ends the structure, as everywhere.
func (s *scanner) innerFence(wantValue, brace bool) bool {
	if len(s.stack) == 0 || !s.fenceAt(s.pos) {
		return false
	}
	src := s.src
	k := fenceEnd(src, s.pos)
	s.tick(k - s.pos)
	k = s.skipAt(k)
	if k >= len(src) || s.fenceAt(k) {
		return false
	}
	ok := false
	switch c := src[k]; {
	case c == '}' || c == ']' || c == ')':
		ok = s.matchIndex(c) >= 0
	case c == ',':
		ok = true
	case wantValue:
		ok = s.valueStartAt(k)
	case c == '{' && brace:
		ok = true
	default:
		ok = s.keyPattern(k, false)
	}
	if !ok {
		return false
	}
	s.guess()
	s.rec.add(toolcall.RepairCodeFence, s.pos)
	s.pos = k
	return true
}

// fenceEnd returns the end of the fence at i and of a language tag glued
// to it.
func fenceEnd(src []byte, i int) int {
	for i < len(src) && src[i] == '`' {
		i++
	}
	if i < len(src) && isLetter(src[i]) {
		for i < len(src) && isTagByte(src[i]) {
			i++
		}
	}
	return i
}

// fencedText reads a code block standing where a value should be,
// {"code": ```python⏎print(1)⏎```}, as a string holding the block's lines,
// when the structure goes on after its closing fence: a comma, or a closer
// of an open container. Its backslashes are characters of the code. It
// reports false, having read nothing, otherwise: the fence then ends the
// structure, as everywhere.
func (s *scanner) fencedText() bool {
	src, open := s.src, s.pos
	k := open
	for k < len(src) && src[k] == '`' {
		k++
	}
	run := src[open:k]
	for k < len(src) && isTagByte(src[k]) {
		k++
	}
	if k < len(src) && src[k] == '\r' {
		k++
	}
	if k >= len(src) || src[k] != '\n' {
		return false
	}
	start := k + 1
	e := bytes.Index(src[start:], run)
	if e < 0 {
		s.tick(len(src) - start)
		return false
	}
	s.tick(e + len(run))
	e += start
	j := s.skipAt(e + len(run))
	if j >= len(src) || src[j] != ',' && (src[j] != '}' && src[j] != ']' || s.matchIndex(src[j]) < 0) {
		return false
	}
	end := e
	if end > start && src[end-1] == '\n' {
		end--
		if end > start && src[end-1] == '\r' {
			end--
		}
	}
	s.guess()
	s.rec.add(toolcall.RepairCodeFence, open)
	s.out = append(s.out, '"')
	s.writeContent(start, end, true, false)
	s.out = append(s.out, '"')
	s.pos = e + len(run)
	return true
}

// concatenation joins the strings that follow the one just written with
// '+', as JavaScript and Python code writes a long string across lines:
// "first line " +⏎ "second". The joined string is one value.
func (s *scanner) concatenation(ctx context) {
	for {
		j := s.skipAt(s.pos)
		if j >= len(s.src) || s.src[j] != '+' {
			return
		}
		k := s.skipAt(j + 1)
		if k >= len(s.src) {
			// "a" + and nothing after: what was to be joined was cut off.
			s.guess()
			s.rec.add(toolcall.RepairTruncatedValue, j)
			s.pos = k
			return
		}
		q, w := quoteAt(s.src, k)
		if w == 0 {
			return
		}
		s.guess()
		s.rec.add(toolcall.RepairPythonLiteral, j)
		s.pos = k
		st := s.scanString(ctx, q, w)
		if st.dropped {
			s.pos = st.next
			return
		}
		s.out = s.out[:len(s.out)-1] // the closing quote of the string so far
		at := len(s.out)
		s.emitString(st, ctx)
		s.out = append(s.out[:at], s.out[at+1:]...) // the opening quote of this one
	}
}

// elidedMembers steps over "..." or "…" standing for members: {"a": 1,
// ...}, {...}. It reports whether it did.
func (s *scanner) elidedMembers() bool {
	if c := s.src[s.pos]; c != '.' && c != 0xE2 {
		return false
	}
	w := s.ellipsisAt(s.pos)
	if w == 0 {
		return false
	}
	k := s.skipAt(s.pos + w)
	if k < len(s.src) && s.src[k] != ',' && s.src[k] != '}' && !s.fenceAt(k) {
		return false
	}
	s.guess()
	s.rec.add(toolcall.RepairStrayText, s.pos)
	s.pos += w
	if k < len(s.src) && s.src[k] == ',' {
		s.pos = k + 1
	}
	return true
}
