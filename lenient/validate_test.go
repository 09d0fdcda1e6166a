package lenient

import (
	"bufio"
	"encoding/json"
	"math/bits"
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

// checkValidate compares validate on one input with the slower checks it
// replaces: encoding/json's syntax check, UTF-8 validity, the depth walk
// and the duplicate-key scan.
func checkValidate(t *testing.T, in string, maxDepth int) {
	t.Helper()
	b := []byte(in)
	got, at := validate(b, maxDepth)
	valid := json.Valid(b) && utf8.Valid(b)
	deep := depthExceeded(b, maxDepth)
	switch got {
	case verdictTooDeep:
		// Too deep is decided at the bracket, before the rest is read.
		if deep != at {
			t.Fatalf("%q (depth %d): too deep at %d, the depth walk says %d", in, maxDepth, at, deep)
		}
	case verdictInvalid:
		if valid {
			t.Fatalf("%q (depth %d): invalid, but it is JSON", in, maxDepth)
		}
		if at < 0 || at > len(b) {
			t.Fatalf("%q (depth %d): invalid at %d, outside the text", in, maxDepth, at)
		}
	case verdictTrailing:
		// A whole value, then text: the value alone is JSON but for its
		// depth and keys, and what follows is no whitespace.
		if valid || at <= 0 || at >= len(b) || isJSONSpace[b[at]] || !json.Valid(b[:at]) {
			t.Fatalf("%q (depth %d): text after a value at %d", in, maxDepth, at)
		}
	default:
		if !valid || deep >= 0 {
			t.Fatalf("%q (depth %d): %v, but valid %v, too deep at %d", in, maxDepth, got, valid, deep)
		}
		if dup := len(duplicateKeys(b)) > 0; dup != (got == verdictDuplicates) {
			t.Fatalf("%q (depth %d): %v, but the duplicate-key scan says %v", in, maxDepth, got, dup)
		}
	}
	if valid && deep >= 0 && got != verdictTooDeep {
		t.Fatalf("%q (depth %d): %v, want too deep at %d", in, maxDepth, got, deep)
	}
}

// TestValidate holds the one-pass validator to the checks it replaces.
func TestValidate(t *testing.T) {
	cases := []string{
		``, ` `, `{}`, `[]`, ` { } `, `[ ]`, `{"a":1}`, `{"a":1,}`, `[1,]`, `[,1]`, `{,}`,
		`"x"`, `"\u00e9\n\"\\\/\b\f\r\t"`, `"\x"`, `"\u12"`, `"\u12G4"`, "\"a\x01\"", "\"a\x7f\"",
		"\"\xff\"", "\"\xed\xa0\x80\"", "\"é€😀\"", "é", `"abc`, `"abc\"`, `"abcdefghijklmnopqrstuvwxyz\"`,
		`0`, `-0`, `-`, `01`, `1.`, `1.5`, `.5`, `1e`, `1e+`, `1e-7`, `1E7`, `-1.5e10`, `+1`, `0x1`, `1 2`,
		`true`, `false`, `null`, `tru`, `nul`, `falsey`, `True`, `[true,false,null]`,
		`{"a" 1}`, `{"a":}`, `{a:1}`, `{"a":1 "b":2}`, `{"a":1}}`, `[1]]`, `[1}`, `{"a":[1}`, `{"a":1]`,
		`{"a":1,"a":2}`, `{"a":1,"b":{"a":2}}`, `[{"a":1},{"a":2}]`, `{"\u0061":1,"a":2}`, `{"a\"":1,"a\"":2}`,
		`{"a":{"b":1,"b":2},"c":3}`, `{"":1,"":2}`, `{"a":1,"ab":2,"b":3}`, `{"s":"\"k\": 1, \"k\": 2"}`,
		"{\n\t\"a\" :\r\n 1 }", "[1,\n2]", "\ufeff{}", "{}\x00", "[\"a\", \"b\"] ",
	}
	for d := 1; d < 70; d++ {
		cases = append(cases, strings.Repeat("[", d)+strings.Repeat("]", d), strings.Repeat(`{"a":`, d)+"1"+strings.Repeat("}", d))
	}
	var many strings.Builder
	many.WriteString("{")
	for i := range 40 {
		if i > 0 {
			many.WriteString(",")
		}
		many.WriteString(`"k` + string(rune('a'+i%26)) + string(rune('a'+i/26)) + `":1`)
	}
	cases = append(cases, many.String()+"}", many.String()+`,"kab":2}`, many.String()+`,"\u006bab":2}`,
		many.String()+`,"kab\"":2,"kab\u0022":3}`, `{"k\u0061":1,`+many.String()[1:]+`,"x":{"ka":1}}`)
	for _, in := range cases {
		for _, depth := range []int{0, 1, 2, 3, DefaultMaxDepth} {
			checkValidate(t, in, depth)
		}
	}
	// The corpus and its expected values: inputs models wrote.
	f, err := os.Open("../testdata/corpus/repair.dev.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var v struct {
			Input    string          `json:"input"`
			Expected json.RawMessage `json:"expected"`
		}
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		checkValidate(t, v.Input, DefaultMaxDepth)
		checkValidate(t, string(v.Expected), DefaultMaxDepth)
	}
}

// TestValidateAnyDepth: validate keeps its containers on the heap past a
// few dozen levels, so half a megabyte of brackets is only a long walk.
func TestValidateAnyDepth(t *testing.T) {
	n := 1 << 18
	deep := []byte(strings.Repeat("[", n) + strings.Repeat("]", n))
	if v, _ := validate(deep, 0); v != verdictValid {
		t.Fatalf("%d levels: %v", n, v)
	}
	if v, at := validate(deep, 64); v != verdictTooDeep || at != 64 {
		t.Fatalf("%d levels, limit 64: %v at %d", n, v, at)
	}
}

// TestPlain8 checks the eight-bytes-at-a-time test against a byte loop.
func TestPlain8(t *testing.T) {
	var b [8]byte
	for c := range 256 {
		for pos := range 8 {
			for i := range b {
				b[i] = 'a'
			}
			b[pos] = byte(c)
			x := uint64(0)
			for i := 7; i >= 0; i-- {
				x = x<<8 | uint64(b[i])
			}
			if got, want := plain8(x), strPlain[c]; got != want {
				t.Fatalf("byte %#x at %d: plain8 %v, want %v", c, pos, got, want)
			}
		}
	}
}

// FuzzValidate compares validate with the checks it replaces.
func FuzzValidate(f *testing.F) {
	for _, s := range []string{`{"a":1,"b":[true,null,"x\"y"],"a":{"c":-1.5e3}}`, `[{"k":1},{"k":2}]`, "\"é\xff\"", `{"\u0041":1,"A":2}`} {
		f.Add(s, uint8(0))
		f.Add(s, uint8(2))
	}
	f.Fuzz(func(t *testing.T, in string, depth uint8) {
		checkValidate(t, in, int(depth%8))
	})
}

// CheckKeys passes what Check passes, and says whether a key repeats.
func TestCheckKeys(t *testing.T) {
	for _, tt := range []struct {
		in         string
		ok, unique bool
	}{
		{`{"a": 1, "b": {"a": 2}}`, true, true},
		{`{"a": 1, "a": 2}`, true, false},
		{`[{"k": 1}, {"o": {"k": 1, "k": 1}}]`, true, false},
		{`{"a\u0062": 1, "ab": 2}`, true, false},
		{`{"a": 1,}`, false, false},
		{`"x"`, true, true},
	} {
		unique, err := CheckKeys([]byte(tt.in), nil)
		if (err == nil) != tt.ok || unique != tt.unique {
			t.Errorf("CheckKeys(%s) = %v, %v", tt.in, unique, err)
		}
		if (Check([]byte(tt.in), nil) == nil) != tt.ok {
			t.Errorf("Check(%s) disagrees", tt.in)
		}
	}
}

// TestSpecial8FirstMark checks that the lowest byte special8 marks is the
// first byte the byte loop stops at, whatever bytes follow it.
func TestSpecial8FirstMark(t *testing.T) {
	fill := []byte{'a', ' ', '~', 0x7F, 0x01, 0x00, '"', '\\', 0x80, 0xFF, 0x21, 0x1F, 0x5B, 0x5D}
	for c := range 256 {
		for pos := range 8 {
			for _, f := range fill {
				var b [8]byte
				for i := range b {
					b[i] = 'a'
					if i > pos {
						b[i] = f
					}
				}
				b[pos] = byte(c)
				x := uint64(0)
				for i := 7; i >= 0; i-- {
					x = x<<8 | uint64(b[i])
				}
				want := 8
				for i, c := range b {
					if !strPlain[c] {
						want = i
						break
					}
				}
				got := 8
				if m := special8(x); m != 0 {
					got = bits.TrailingZeros64(m) >> 3
				}
				if got != want {
					t.Fatalf("% x: first mark at %d, want %d", b, got, want)
				}
			}
		}
	}
}
