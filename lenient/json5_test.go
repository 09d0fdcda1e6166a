package lenient

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/titanous/json5"
)

// The pipeline has no JSON5 stage: the scanner reads every JSON5
// construct (single quotes, unquoted keys, trailing commas, comments, hex,
// signs and dots in numbers) without guessing, so a JSON5 parser run
// first could only ever agree with it. This test keeps that true: on every
// input of the tables and the corpus that titanous/json5 accepts, the
// scanner in strict mode (where any guess fails) reads it, and Repair
// succeeds with the value json5 reads. Two rules differ from JSON5 on
// purpose and are left out: a backslash before a line break keeps the
// line break, and NaN and Infinity become null.
func TestJSON5Oracle(t *testing.T) {
	var inputs []string
	for _, tc := range repairCases {
		inputs = append(inputs, tc.in)
	}
	for _, tc := range patternCases {
		inputs = append(inputs, tc.in)
	}
	for _, v := range loadCorpus(t) {
		inputs = append(inputs, v.Input)
	}
	inputs = append(inputs,
		`{a: 1, 'b': 'x', c: [1, 2,], d: {e: .5, f: +1, g: 0x10,},}`,
		"// note\n{a /* c */: 'it\\'s', \"b\": \"q\\\"\",}",
		`[1., -.5e3, 'a"b', {$x_1: null}]`,
	)
	accepted := 0
	for _, in := range inputs {
		core := extractCore([]byte(in))
		if core.text == nil || !json5Comparable(core.text) {
			continue
		}
		var want any
		if json5.Unmarshal(core.text, &want) != nil {
			continue
		}
		accepted++
		s := newScanner(core.text, core.start, config{maxDepth: DefaultMaxDepth}, zeroTime)
		s.strict = true
		if _, err, guessed := s.run(); err != nil || guessed {
			t.Errorf("%q: JSON5 reads it, the scanner needs a guess: %v", in, err)
		}
		res := RepairString(in, nil)
		if res.Err != nil {
			t.Errorf("%q: JSON5 reads it, repair fails: %v", in, res.Err)
			continue
		}
		var got any
		if err := json.Unmarshal(res.Output, &got); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: repaired to %s, JSON5 reads %#v", in, res.Output, want)
		}
	}
	if accepted < 20 {
		t.Errorf("only %d inputs are JSON5: the check checks little", accepted)
	}
	t.Logf("%d of %d inputs are JSON5", accepted, len(inputs))
}

// json5Comparable reports whether text has none of the constructs whose
// reading differs from JSON5 on purpose.
func json5Comparable(text []byte) bool {
	for _, differs := range []string{"\\\n", "\\\r", "NaN", "Infinity"} {
		if bytes.Contains(text, []byte(differs)) {
			return false
		}
	}
	return true
}

// FuzzJSON5Oracle checks the same on any text json5 reads as an object or
// array. Block comments are left out (titanous/json5 closes /**0/, which
// is no comment end), and so is a NUL byte, which Repair refuses as binary
// input wherever it stands.
func FuzzJSON5Oracle(f *testing.F) {
	for _, tc := range repairCases {
		f.Add(tc.in)
	}
	f.Add(`{a: 1, 'b': 'x', c: [1, 2,], d: {e: .5, f: +1, g: 0x10,},}`)
	f.Add("// note\n{a /* c */: 'it\\'s', \"b\": \"q\\\"\",}")
	f.Fuzz(func(t *testing.T, in string) {
		b := []byte(in)
		if !json5Comparable(b) || bytes.Contains(b, []byte("/*")) || bytes.IndexByte(b, 0) >= 0 {
			return
		}
		var want any
		if json5.Unmarshal(b, &want) != nil {
			return
		}
		if _, ok := want.(map[string]any); !ok {
			if _, ok := want.([]any); !ok {
				return
			}
		}
		res := RepairString(in, nil)
		if res.Err != nil {
			t.Fatalf("%q: json5 reads it, repair fails: %v", in, res.Err)
		}
		var got any
		if err := json.Unmarshal(res.Output, &got); err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: repaired to %s, json5 reads %#v", in, res.Output, want)
		}
	})
}
