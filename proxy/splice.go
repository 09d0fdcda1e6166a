package proxy

import (
	"bytes"
	"slices"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/tidwall/gjson"
)

// A streamed answer is mostly text events of one shape: the same fields
// around a text that changes. The codecs write the first of a shape whole
// from its templates, with markers where its changing values go, and the
// next ones as the bytes between the markers around their values; they
// read an upstream chunk that carries only text with gjson, and compare
// its shape (its text without the values that change) with the one the
// splices were made from.

// splice is an event split at the markers of its changing values.
type splice struct {
	parts [][]byte
	// order is the marker of each hole, in the order they appear.
	order []int
}

// spliceMark is the marker of value i: a JSON string no upstream writes.
func spliceMark(i int) []byte {
	return []byte(`"\u0000dialectkit-splice-` + strconv.Itoa(i) + `\u0000"`)
}

// newSplice splits an event written with the markers of n values. nil
// when a marker is not there exactly once (a value of the upstream's that
// holds one): the caller writes the event whole.
func newSplice(ev []byte, n int) *splice {
	type hole struct{ at, mark int }
	holes := make([]hole, 0, n)
	for i := range n {
		m := spliceMark(i)
		at := bytes.Index(ev, m)
		if at < 0 || bytes.Contains(ev[at+len(m):], m) {
			return nil
		}
		holes = append(holes, hole{at, i})
	}
	slices.SortFunc(holes, func(a, b hole) int { return a.at - b.at })
	sp := &splice{}
	prev := 0
	for _, h := range holes {
		sp.parts = append(sp.parts, bytes.Clone(ev[prev:h.at]))
		sp.order = append(sp.order, h.mark)
		prev = h.at + len(spliceMark(h.mark))
	}
	sp.parts = append(sp.parts, bytes.Clone(ev[prev:]))
	return sp
}

// appendTo appends the event with vals (raw JSON values, by marker) in
// its holes.
func (sp *splice) appendTo(b []byte, vals [][]byte) []byte {
	for i, m := range sp.order {
		b = append(b, sp.parts[i]...)
		b = append(b, vals[m]...)
	}
	return append(b, sp.parts[len(sp.parts)-1]...)
}

// textSplices are the splices of a stream's text events, content and
// reasoning, made at the first of each since the shape last changed; val,
// vals and out are reused from event to event.
type textSplices struct {
	content, reasoning spliceSlot
	val, out           []byte
	vals               [][]byte
}

// spliceSlot is a splice made once: sp nil once made means the event is
// written whole.
type spliceSlot struct {
	sp   *splice
	made bool
}

func (t *textSplices) reset() { t.content, t.reasoning = spliceSlot{}, spliceSlot{} }

// write writes text into the slot's event. build writes the event with
// the raw values it is given: the text's first, then more; the slot's
// splice is made from it with the markers.
func (t *textSplices) write(s *streamer, slot *spliceSlot, text string, build func(vals [][]byte) []byte, more ...[]byte) {
	if !slot.made {
		slot.made = true
		marks := make([][]byte, 1+len(more))
		for i := range marks {
			marks[i] = spliceMark(i)
		}
		slot.sp = newSplice(build(marks), len(marks))
	}
	t.val = appendString(t.val[:0], text)
	t.vals = append(append(t.vals[:0], t.val), more...)
	if slot.sp == nil || s.q.c.wholeChunks {
		s.write(build(t.vals))
		return
	}
	t.out = slot.sp.appendTo(t.out[:0], t.vals)
	s.write(t.out)
}

// shapeKey is the shape of the upstream chunk the splices were made from.
type shapeKey struct{ key, next []byte }

// start starts reading a chunk's shape.
func (k *shapeKey) start() { k.next = k.next[:0] }

// add adds raw, a JSON object, to the shape read, without the values of
// its fields keys (the first of each, as gjson finds it).
func (k *shapeKey) add(raw string, keys ...string) {
	var cut [4][2]int
	n := 0
	for _, key := range keys {
		v := gjson.Get(raw, key)
		end := v.Index + len(v.Raw)
		if !v.Exists() || v.Index <= 0 || end > len(raw) || raw[v.Index:end] != v.Raw || n == len(cut) {
			continue
		}
		cut[n] = [2]int{v.Index, end}
		n++
	}
	slices.SortFunc(cut[:n], func(a, b [2]int) int { return a[0] - b[0] })
	prev := 0
	for _, c := range cut[:n] {
		if c[0] < prev {
			continue
		}
		k.next = append(k.next, raw[prev:c[0]]...)
		prev = c[1]
	}
	k.next = append(k.next, raw[prev:]...)
	k.next = append(k.next, 0)
}

// same reports whether the shape read is the one kept.
func (k *shapeKey) same() bool { return bytes.Equal(k.key, k.next) }

// keep keeps the shape read, and reports whether it changed.
func (k *shapeKey) keep() bool {
	if k.same() {
		return false
	}
	k.key = append(k.key[:0], k.next...)
	return true
}

// distinctKeys calls each for every field of o, a JSON object, while it
// returns true; false when it returned false, or when a key is escaped or
// comes twice (a chunk the codec reads whole).
func distinctKeys(o gjson.Result, each func(key string, v gjson.Result) bool) bool {
	var seen [16]string
	n, ok := 0, true
	o.ForEach(func(k, v gjson.Result) bool {
		key, plain := plainKey(k.Raw)
		if !plain || n == len(seen) || slices.Contains(seen[:n], key) {
			ok = false
			return false
		}
		seen[n] = key
		n++
		ok = each(key, v)
		return ok
	})
	return ok
}

// chunkTemplate is the last upstream chunk a codec's plain path read,
// split at its holes: the values the plain path reads as data (the text,
// Ollama's created_at) and those it does not look at (the Responses API's
// sequence_number, an id), each a JSON string or number. A chunk that is
// the same bytes around values of the same kinds in the holes is the same
// JSON but for those values: the plain path would decide as it did for
// the template, and read the values from the same places. match tells
// such a chunk in one pass over its bytes, with nothing parsed; any other
// chunk goes the plain path's way, which makes the template again.
type chunkTemplate struct {
	buf   []byte // the template chunk
	holes []chunkHole
	ok    bool
}

// chunkHole is one value of the template chunk: at buf[at:end], a JSON
// number when num, else a JSON string, and what the value is (field, the
// codec's own numbering; -1 for a value the plain path does not read).
type chunkHole struct {
	at, end, field int
	num            bool
}

// maxFields bounds the fields a template reads values of.
const maxFields = 4

// reset drops the template: the next chunk is read the plain path's way.
func (t *chunkTemplate) reset() {
	t.ok = false
	t.holes = t.holes[:0]
}

// hole adds v, a value of the chunk being read (the gjson result of the
// chunk, whose indexes are those of its bytes), as a hole holding field.
// Values that are neither strings nor numbers stay in the template as
// they are.
func (t *chunkTemplate) hole(v gjson.Result, field int) {
	if v.Type == gjson.String || v.Type == gjson.Number {
		t.holes = append(t.holes, chunkHole{at: v.Index, end: v.Index + len(v.Raw), field: field, num: v.Type == gjson.Number})
	}
}

// make keeps chunk, whose holes were added since reset, as the template.
// It keeps none when a hole is not where its value is, or holes overlap.
func (t *chunkTemplate) make(chunk []byte) {
	slices.SortFunc(t.holes, func(a, b chunkHole) int { return a.at - b.at })
	prev := 0
	for _, h := range t.holes {
		if h.at < prev || h.at <= 0 || h.end > len(chunk) || h.field >= maxFields {
			t.reset()
			return
		}
		if end := valueEnd(chunk, h.at, h.num); end != h.end {
			t.reset()
			return
		}
		prev = h.end
	}
	t.buf = append(t.buf[:0], chunk...)
	t.ok = true
}

// read fills vals with the values of chunk: by the template when chunk
// matches it, else by readPlain, which reads chunk with gjson, says
// whether it is a chunk the plain path handles and adds the holes of a
// new template, made of chunk. false: chunk is not such a chunk.
func (t *chunkTemplate) read(chunk []byte, vals *[maxFields][]byte, readPlain func([]byte) bool) bool {
	if t.match(chunk, vals) {
		return true
	}
	t.reset()
	if !readPlain(chunk) {
		return false
	}
	t.make(chunk)
	return t.match(chunk, vals)
}

// match reports whether chunk is the template with other values in its
// holes, and sets vals[field] to the value of each field read (raw JSON,
// a slice of chunk); the fields of no hole are left nil.
func (t *chunkTemplate) match(chunk []byte, vals *[maxFields][]byte) bool {
	if !t.ok {
		return false
	}
	*vals = [maxFields][]byte{}
	prev, pos := 0, 0
	for _, h := range t.holes {
		lit := t.buf[prev:h.at]
		if len(chunk)-pos < len(lit) || string(chunk[pos:pos+len(lit)]) != string(lit) {
			return false
		}
		pos += len(lit)
		end := valueEnd(chunk, pos, h.num)
		if end < 0 {
			return false
		}
		if h.field >= 0 {
			vals[h.field] = chunk[pos:end]
		}
		pos, prev = end, h.end
	}
	return string(chunk[pos:]) == string(t.buf[prev:])
}

// valueEnd returns the end of the JSON value of its kind (a number when
// num, else a string) that starts at b[at], or -1 when none starts there.
// A string is strict JSON: escapes as RFC 8259 has them, no control
// character, valid UTF-8, as lenient.Valid requires of the whole chunk.
func valueEnd(b []byte, at int, num bool) int {
	if num {
		return numberEnd(b, at)
	}
	if at >= len(b) || b[at] != '"' {
		return -1
	}
	ascii := true
	for i := at + 1; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			if !ascii && !utf8.Valid(b[at+1:i]) {
				return -1
			}
			return i + 1
		case c == '\\':
			i++
			if i >= len(b) {
				return -1
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(b) {
					return -1
				}
				for _, h := range b[i+1 : i+5] {
					if !isHex(h) {
						return -1
					}
				}
				i += 4
			default:
				return -1
			}
		case c < 0x20:
			return -1
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return -1
}

// numberEnd returns the end of the JSON number that starts at b[at], or
// -1 when none starts there.
func numberEnd(b []byte, at int) int {
	i := at
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] > '0' && b[i] <= '9':
		i = digitsEnd(b, i)
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		if i = digitsEnd(b, i+1); b[i-1] == '.' {
			return -1
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		start := i
		if i = digitsEnd(b, i); i == start {
			return -1
		}
	}
	return i
}

// digitsEnd returns the end of the run of digits at b[i:].
func digitsEnd(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// parseView reads b with gjson without copying it: the results' text is
// b's, so they are read while b is unchanged, and what is kept of them
// is copied (a chunk's bytes are the line reader's, reused for the next
// line). A plain path reads each chunk that does not match its template
// so, where gjson.ParseBytes would copy the whole chunk first (the done
// events of a Responses stream carry the whole text again).
func parseView(b []byte) gjson.Result {
	return gjson.Parse(unsafe.String(unsafe.SliceData(b), len(b)))
}
