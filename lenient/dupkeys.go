package lenient

import (
	"bytes"
	"encoding/json"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
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
// (a set per object holds its keys once it has more than 16). Invalid JSON
// comes back unchanged.
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

// keyFrame is one open object of the duplicate scan.
type keyFrame struct {
	object bool
	keys   [][]byte
	set    map[string]struct{}
}

// add records key and reports whether the object already had it.
func (f *keyFrame) add(key []byte) bool {
	if f.set != nil {
		if _, ok := f.set[string(key)]; ok {
			return true
		}
		f.set[string(key)] = struct{}{}
		return false
	}
	for _, k := range f.keys {
		if bytes.Equal(k, key) {
			return true
		}
	}
	f.keys = append(f.keys, key)
	if len(f.keys) > 16 {
		f.set = make(map[string]struct{}, 2*len(f.keys))
		for _, k := range f.keys {
			f.set[string(k)] = struct{}{}
		}
		f.keys = nil
	}
	return false
}

// duplicateKeys returns the offsets of the keys of b that repeat a key of
// the same object, in one pass over valid JSON.
func duplicateKeys(b []byte) []int {
	var (
		stack []keyFrame
		dups  []int
	)
	expectKey := false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; c {
		case '{':
			stack = append(stack, keyFrame{object: true})
			expectKey = true
		case '[':
			stack = append(stack, keyFrame{})
			expectKey = false
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			expectKey = false
		case ',':
			expectKey = len(stack) > 0 && stack[len(stack)-1].object
		case ':':
			expectKey = false
		case '"':
			j := i + 1
			escaped := false
			for j < len(b) && b[j] != '"' {
				if b[j] == '\\' {
					escaped = true
					j++
				}
				j++
			}
			if j >= len(b) {
				return dups
			}
			if expectKey && len(stack) > 0 {
				key := b[i+1 : j]
				if escaped {
					var s string
					if json.Unmarshal(b[i:j+1], &s) == nil {
						key = []byte(s)
					}
				}
				if stack[len(stack)-1].add(key) {
					dups = append(dups, i)
				}
			}
			expectKey = false
			i = j
		}
	}
	return dups
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
