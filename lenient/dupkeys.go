package lenient

import (
	"bytes"
	"encoding/json"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/jsonscan"
)

// maxDedupeDepth bounds the rewrite of objects with duplicate keys, which
// descends one stack frame per level; deeper values are checked but left
// as written (the depth limit refuses them long before this).
const maxDedupeDepth = 512

// LastKeyWins makes every object of the valid JSON b hold each key once:
// a key written more than once keeps its first position and its last value,
// as JSON decoders in Go, Python and JavaScript read it. Each dropped
// occurrence is recorded as a duplicate_key repair at its offset in b.
// Text without duplicate keys comes back unchanged after one linear pass
// that allocates nothing for ordinary documents (a set per object holds its
// keys once it has more than 16). Invalid JSON comes back unchanged.
func LastKeyWins(b []byte) ([]byte, []toolcall.Repair) {
	dups := duplicateKeys(b)
	if len(dups) == 0 {
		return b, nil
	}
	var out bytes.Buffer
	out.Grow(len(b))
	if !rewriteValue(&out, gjson.ParseBytes(b), 0) {
		return b, nil
	}
	repairs := make([]toolcall.Repair, 0, len(dups))
	for _, at := range dups {
		repairs = append(repairs, toolcall.Repair{Kind: toolcall.RepairDuplicateKey, Offset: at, CallIndex: -1,
			Detail: "key written twice in one object: the last value is kept"})
	}
	return out.Bytes(), repairs
}

// keySpan is a key of the duplicate scan: its text in b, quotes excluded.
type keySpan struct {
	start, end int
	escaped    bool // holds a backslash: compared decoded
}

// keyFrame is one open container of the duplicate scan. Its keys are
// keys[first:] of the scan; an object with many keys also has a set.
type keyFrame struct {
	object bool
	first  int
	set    map[string]struct{}
}

// keyText returns the key's text, decoded when it holds escapes.
func keyText(b []byte, k keySpan) string {
	if k.escaped {
		var s string
		if json.Unmarshal(b[k.start-1:k.end+1], &s) == nil {
			return s
		}
	}
	return string(b[k.start:k.end])
}

// sameKey reports whether two keys of b are the same text.
func sameKey(b []byte, x, y keySpan) bool {
	if !x.escaped && !y.escaped {
		return bytes.Equal(b[x.start:x.end], b[y.start:y.end])
	}
	return keyText(b, x) == keyText(b, y)
}

var colon = []byte{':'}

// setKeys is how many keys an object holds before its keys go into a set.
const setKeys = 16

// dupStructural marks the bytes the duplicate scan stops at.
var dupStructural = func() (t [256]bool) {
	for _, c := range []byte(`{}[],:"`) {
		t[c] = true
	}
	return t
}()

// duplicateKeys returns the offsets of the keys of b that repeat a key of
// the same object, in one pass over valid JSON. It allocates nothing for
// documents of ordinary shape: the open containers and their keys live in
// buffers on the stack, and strings are skipped with a vectorised search.
func duplicateKeys(b []byte) []int {
	// Two keys need two colons; most arrays and one-key objects stop here.
	if bytes.Count(b, colon) < 2 {
		return nil
	}
	var (
		frameBuf [16]keyFrame
		keyBuf   [32]keySpan
		dups     []int
	)
	frames, keys := frameBuf[:0], keyBuf[:0]
	expectKey := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if !dupStructural[c] {
			continue
		}
		switch c {
		case '{':
			frames = append(frames, keyFrame{object: true, first: len(keys)})
			expectKey = true
		case '[':
			frames = append(frames, keyFrame{first: len(keys)})
			expectKey = false
		case '}', ']':
			if n := len(frames); n > 0 {
				keys = keys[:frames[n-1].first]
				frames = frames[:n-1]
			}
			expectKey = false
		case ',':
			expectKey = len(frames) > 0 && frames[len(frames)-1].object
		case ':':
			expectKey = false
		case '"':
			j := i + 1
			// Most strings are short: look at a few bytes inline before
			// paying for a call to the vectorised search.
			short := false
			for end := min(i+24, len(b)); j < end; j++ {
				if b[j] == '\\' {
					break
				}
				if b[j] == '"' {
					short = true
					break
				}
			}
			if !short {
				if j = jsonscan.StringEnd(b, i); j >= len(b) {
					return dups
				}
			}
			if expectKey && len(frames) > 0 {
				escaped := !short && bytes.IndexByte(b[i+1:j], '\\') >= 0
				key := keySpan{start: i + 1, end: j, escaped: escaped}
				f := &frames[len(frames)-1]
				if f.seen(b, keys, key) {
					dups = append(dups, i)
				} else {
					keys = append(keys, key)
				}
			}
			expectKey = false
			i = j
		}
	}
	return dups
}

// seen reports whether the object f already has key, and notes it in the
// set when the object has one. keys are the scan's keys.
func (f *keyFrame) seen(b []byte, keys []keySpan, key keySpan) bool {
	mine := keys[f.first:]
	if f.set == nil && len(mine) >= setKeys {
		f.set = make(map[string]struct{}, 2*len(mine))
		for _, k := range mine {
			f.set[keyText(b, k)] = struct{}{}
		}
	}
	if f.set != nil {
		text := keyText(b, key)
		if _, ok := f.set[text]; ok {
			return true
		}
		f.set[text] = struct{}{}
		return false
	}
	n := key.end - key.start
	for _, k := range mine {
		// Most keys differ in length or first byte: no call for those.
		if k.end-k.start != n && !k.escaped && !key.escaped {
			continue
		}
		if n > 0 && !k.escaped && !key.escaped && b[k.start] != b[key.start] {
			continue
		}
		if sameKey(b, k, key) {
			return true
		}
	}
	return false
}

// rewriteValue writes v with every object's keys made unique, last value
// winning; false when the value nests deeper than maxDedupeDepth.
func rewriteValue(out *bytes.Buffer, v gjson.Result, depth int) bool {
	if depth > maxDedupeDepth {
		return false
	}
	switch {
	case v.IsObject():
		type member struct {
			key   string
			value gjson.Result
		}
		var members []member
		index := map[string]int{}
		v.ForEach(func(k, val gjson.Result) bool {
			if at, ok := index[k.Str]; ok {
				members[at].value = val
				return true
			}
			index[k.Str] = len(members)
			members = append(members, member{key: k.Str, value: val})
			return true
		})
		out.WriteByte('{')
		for i, m := range members {
			if i > 0 {
				out.WriteByte(',')
			}
			WriteJSONString(out, m.key)
			out.WriteByte(':')
			if !rewriteValue(out, m.value, depth+1) {
				return false
			}
		}
		out.WriteByte('}')
	case v.IsArray():
		out.WriteByte('[')
		n := 0
		ok := true
		v.ForEach(func(_, val gjson.Result) bool {
			if n > 0 {
				out.WriteByte(',')
			}
			n++
			ok = rewriteValue(out, val, depth+1)
			return ok
		})
		if !ok {
			return false
		}
		out.WriteByte(']')
	default:
		out.WriteString(v.Raw)
	}
	return true
}
