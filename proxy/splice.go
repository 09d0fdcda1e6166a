package proxy

import (
	"bytes"
	"slices"
	"strconv"

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
