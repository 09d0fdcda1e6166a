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
		if core.text == nil || bytes.Contains(core.text, []byte("\\\n")) || bytes.Contains(core.text, []byte("\\\r")) ||
			bytes.Contains(core.text, []byte("NaN")) || bytes.Contains(core.text, []byte("Infinity")) {
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
