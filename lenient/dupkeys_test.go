package lenient

import (
	"strconv"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
)

// Duplicate keys: the last value wins at the first key's position, every
// dropped occurrence is a duplicate_key repair, valid or repaired input alike.
func TestDuplicateKeysLastWins(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		dups     int
	}{
		{`{"b": 1, "a": 2, "b": 3}`, `{"b":3,"a":2}`, 1},
		{`{"a": 1, "a": 2, "a": {"x": 1, "x": [2]}}`, `{"a":{"x":[2]}}`, 3},
		{`[{"k": 1, "k": 2}, {"k": 3}]`, `[{"k":2},{"k":3}]`, 1},
		{`{"\u0061": 1, "a": 2}`, `{"a":2}`, 1},
		{`{'p': 'x', 'p': 'y',}`, `{"p":"y"}`, 1},
		{`{"a": {"b": 1}, "b": 2}`, `{"a": {"b": 1}, "b": 2}`, 0},
		{`{"s": "\"k\": 1, \"k\": 2"}`, `{"s": "\"k\": 1, \"k\": 2"}`, 0},
		// Repaired input, keys repeated in every way the scanner writes
		// them: bare, quoted, escaped, past a few dozen keys, in a tuple,
		// in an object whose brace is missing.
		{`{a: 1, 'a': 2,}`, `{"a":2}`, 1},
		{`{"a": 1, b: 2, a: 3`, `{"a":3,"b":2}`, 1},
		{`{'\u0061': 1, a: 2,}`, `{"a":2}`, 1},
		{`{"x": ({"k": 1, 'k': 2})}`, `{"x":{"k":2}}`, 1},
		{`{"a": [{"k": 1}, {'k': 2, "k": 3}],}`, `{"a":[{"k":1},{"k":3}]}`, 1},
		{"{" + manyKeys(30, ": ", " ") + ", k0: 9,}", `{"k0":9,` + manyKeys(30, `":`, `"`)[len(`"k0":0,`):] + "}", 1},
		{`{k: 1, "k" 2}`, `{"k":2}`, 1},
		{`'a': 1, a: 2`, `{"a":2}`, 1},
		{`"a": 1, b: 2, "a": 3`, `{"a":3,"b":2}`, 1},
		{`{a: 1, b: 2,}`, `{"a":1,"b":2}`, 0},
	} {
		res := RepairString(tc.in, nil)
		if res.Err != nil {
			t.Fatalf("%s: %v", tc.in, res.Err)
		}
		if string(res.Output) != tc.want {
			t.Errorf("%s: output %s, want %s", tc.in, res.Output, tc.want)
		}
		n := 0
		for _, r := range res.Repairs {
			if r.Kind == toolcall.RepairDuplicateKey {
				n++
			}
		}
		if n != tc.dups {
			t.Errorf("%s: %d duplicate_key repairs %v, want %d", tc.in, n, res.Repairs, tc.dups)
		}
		// Kept is the output before the duplicates were dropped: strict
		// JSON, the output itself when no key repeats, and holding the
		// dropped values otherwise.
		if !Valid(res.Kept) || (n == 0) != (string(res.Kept) == string(res.Output)) {
			t.Errorf("%s: kept %s, output %s", tc.in, res.Kept, res.Output)
		}
	}
}

// Many keys in one object stay linear: the scan switches to a set.
func TestDuplicateKeysManyKeys(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i < 50000; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"k`)
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(string(rune('a' + i%26)))
		b.WriteString(`":1`)
	}
	b.WriteString("}")
	res := RepairString(b.String(), &Options{MaxSize: -1})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if len(res.Repairs) != 50000-7*26 {
		t.Errorf("%d repairs", len(res.Repairs))
	}
}

// manyKeys writes n members k0: 0, k1: 1, … with the given text between
// key and value and around the key.
func manyKeys(n int, colon, quote string) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(",")
			if quote == " " {
				b.WriteString(" ")
			}
		}
		k := strconv.Itoa(i)
		if quote != " " {
			b.WriteString(quote)
		}
		b.WriteString("k" + k + colon + k)
	}
	return b.String()
}
