package lenient

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
)

// fastAgainstScanner runs the fast path and the scanner on in. When the
// fast path takes the input, the two must write the same bytes and record
// the same repairs; it returns whether the fast path took it and, if they
// disagree, why.
func fastAgainstScanner(in []byte) (taken bool, problem string) {
	cfg := (*Options)(nil).config()
	f := newScanner(in, 0, cfg, zeroTime)
	taken, unique := f.fast()
	if !taken {
		if len(f.out) != 0 || len(f.stack) != 0 || len(f.rec.list) != 0 || len(f.rec.counts) != 0 {
			return false, "the fast path gave up but left state behind"
		}
		return false, ""
	}
	fastOut, fastReps := f.out, f.rec.repairs()
	s := newScanner(in, 0, cfg, zeroTime)
	out, err, _ := s.run()
	if err != nil {
		return true, fmt.Sprintf("fast path wrote %s, the scanner failed: %v", fastOut, err)
	}
	if !bytes.Equal(out, fastOut) {
		return true, fmt.Sprintf("fast path wrote %s, the scanner %s", fastOut, out)
	}
	if reps := s.rec.repairs(); !sameRepairs(reps, fastReps) {
		return true, fmt.Sprintf("fast path recorded %v, the scanner %v", fastReps, reps)
	}
	switch v, _ := validate(fastOut, cfg.maxDepth); {
	case v.invalid() || v == verdictTooDeep:
		return true, fmt.Sprintf("fast path wrote %s, not JSON within the depth limit", fastOut)
	case unique && v != verdictValid:
		return true, fmt.Sprintf("fast path wrote %s and found no repeated key", fastOut)
	}
	return true, ""
}

func sameRepairs(a, b []toolcall.Repair) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// fastDocuments are argument documents written with the damage the fast
// path reads; fastInputs varies them.
var fastDocuments = []string{
	`{"path": "notes/todo.txt", "mode": "a", "lines": [1, 2.5, -3e2, 0], "ok": true, "none": null}`,
	`{'path': 'a "quoted" name.txt', 'tags': ['x', 'y',], 'n': 1,}`,
	`{path: "x", _id: 7, $ref: '#/a', count2: [True, False, None]}`,
	`[{"a": {"b": [[], {}, [1, [2, [3]]]]}}, 'é ü 中文', "\u00e9\n\t\"\\"]`,
	"{\n  \"city\": \"Paris\",\n  'days': 3,\n  unit: 'celsius',\n}",
	`{"": "", '': '', "k": ""}`,
	`[1,2,3,]`,
	`{"a": 1, "a": 2, b: 'x', b: 'y'}`,
	`{"a": {"a": 1, "b": 2}, "b": [{"a": 1}, {"a": 2}], 'a': 3}`,
	`{"\u0061": 1, "a": 2, 'x"y': 3, "x\"y": 4}`,
}

// fastInputs are the documents, each cut at every byte, and the unit-test,
// pattern, peer and corpus inputs.
func fastInputs(t testing.TB) []string {
	var ins []string
	for _, d := range fastDocuments {
		for i := 0; i <= len(d); i++ {
			ins = append(ins, d[:i])
		}
		ins = append(ins, strings.ReplaceAll(d, ",", ", "), strings.ReplaceAll(d, " ", ""),
			strings.ReplaceAll(d, `"`, `'`), strings.ReplaceAll(d, `'`, `"`))
	}
	for _, c := range repairCases {
		ins = append(ins, c.in)
	}
	for _, c := range peerCases {
		ins = append(ins, c.in)
	}
	for _, c := range patternCases {
		ins = append(ins, c.in)
	}
	ins = append(ins, cutDocuments...)
	for _, v := range loadCorpus(t) {
		ins = append(ins, v.Input)
	}
	return ins
}

// TestFastPathAgrees holds the fast path to the scanner: on every input it
// takes, the same output and the same repairs; and its output is JSON
// within the depth limit, with no repeated key when it says so.
func TestFastPathAgrees(t *testing.T) {
	taken := 0
	ins := fastInputs(t)
	for _, in := range ins {
		ok, problem := fastAgainstScanner([]byte(in))
		if problem != "" {
			t.Errorf("%q: %s", in, problem)
		}
		if ok {
			taken++
		}
	}
	t.Logf("the fast path took %d of %d inputs", taken, len(ins))
}

// TestFastPathTakes lists damage the fast path must read itself, so that a
// change that sends it all to the scanner does not pass unnoticed.
func TestFastPathTakes(t *testing.T) {
	for _, in := range []string{
		`{'a': 'b'}`,
		`{"a": 1,}`,
		`[1, 2, 3,]`,
		`{a: 1, b_2: "x"}`,
		`{"ok": True, "no": False, "x": None}`,
		`{"a": [1, 2`,
		`{"a": "b",`,
		`[`,
		`{'say': 'she said "hi"'}`,
		"{\n  \"a\": 'x',\n  b: [True],\n}",
	} {
		ok, problem := fastAgainstScanner([]byte(in))
		if problem != "" {
			t.Errorf("%q: %s", in, problem)
		}
		if !ok {
			t.Errorf("%q: the fast path gave it to the scanner", in)
		}
	}
}

// TestFastPathLeaves lists text the fast path must leave to the scanner.
func TestFastPathLeaves(t *testing.T) {
	for _, in := range []string{
		`{"a": 1}`, // valid: not the fast path's to see, but it must not break
		`{"a": "b" "c": 1}`,
		`{"a": 'it's'}`,
		`{"a": 'x\'y'}`,
		`{"a": "b`,
		`{"a": tru`,
		`{"a": 007}`,
		`{"a": 1} tail`,
		`{"a": TRUE}`,
		"{\"a\": 1 // note\n}",
		`{"a":}`,
		`{"a" 1}`,
		`{,}`,
		`[1,,2]`,
		`{"a": 1]`,
		"{\"a\":\f1}",
	} {
		ok, problem := fastAgainstScanner([]byte(in))
		if problem != "" {
			t.Errorf("%q: %s", in, problem)
		}
		if ok && in != `{"a": 1}` {
			t.Errorf("%q: the fast path took it", in)
		}
	}
}

// FuzzFastPath checks on any input that what the fast path takes, it reads
// as the scanner does.
func FuzzFastPath(f *testing.F) {
	for _, in := range fastInputs(f) {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if _, problem := fastAgainstScanner([]byte(in)); problem != "" {
			t.Fatalf("%q: %s", in, problem)
		}
	})
}
