package lenient

import (
	"math/rand"
	"strings"
	"testing"
)

// The scanner counts every byte it examines, look-ahead included. These
// tests check, by counting rather than timing, that input of any shape
// costs work linear in its size: a 256 KB input no more than about four
// times a 64 KB one, and a bounded number of visits per byte.

// shapes build adversarial inputs of about n bytes.
var shapes = map[string]func(n int) string{
	"object with trailing comma": func(n int) string {
		return "{" + fill(n, `"key": "value", `) + "}"
	},
	"string with inner quotes": func(n int) string {
		return `{"a": "` + fill(n, `x "q" y `) + `"}`
	},
	"string of commas, unclosed": func(n int) string {
		return `{"a": "` + fill(n, `x,`) + `" tail`
	},
	"string of braces, unclosed": func(n int) string {
		return `{"a": "` + fill(n, `x}`) + `" tail`
	},
	"key patterns inside a string": func(n int) string {
		return `{"a": "` + fill(n, `x, b: "`)
	},
	"key patterns, closed at the end": func(n int) string {
		return `{"a": "` + fill(n, `x, "k": y `) + `}`
	},
	"only quotes": func(n int) string {
		return "[" + strings.Repeat(`"`, n)
	},
	"only single quotes": func(n int) string {
		return "{'a': " + strings.Repeat(`'`, n)
	},
	"quotes and spaces": func(n int) string {
		return `{"a": ` + fill(n, `"        `)
	},
	"unquoted words with commas": func(n int) string {
		return `{"a": ` + fill(n, `word, `)
	},
	"unquoted words, a quote at the end": func(n int) string {
		return `{"a": ` + fill(n, `word, `) + `",}`
	},
	"missing commas": func(n int) string {
		return "[" + fill(n, `"a" `) + "]"
	},
	"words in an array": func(n int) string {
		return `["a" ` + fill(n, `b c `) + `"]`
	},
	"line comments": func(n int) string {
		return "{" + fill(n, "// comment }\n") + "}"
	},
	"block comments": func(n int) string {
		return "[1" + fill(n, "/* c */") + "]"
	},
	"unterminated block comment": func(n int) string {
		return "[" + fill(n, "/* c ")
	},
	"prose with brackets": func(n int) string {
		return "Note " + fill(n, "[x] and {y} ")
	},
	"prose with bad brackets": func(n int) string {
		return "Note " + fill(n, "{a: [")
	},
	"fences": func(n int) string {
		return "Result:\n" + fill(n, "```json\n{\"a\": 1}\n```\n")
	},
	"open fences": func(n int) string {
		return "Result:\n" + fill(n, "```json\n{\"a\": ")
	},
	"deep within the limit": func(n int) string {
		unit := strings.Repeat("[", 60) + strings.Repeat("]", 60) + ","
		return "[" + fill(n, unit) + "0]"
	},
	"nesting past the limit": func(n int) string {
		return strings.Repeat("[", n)
	},
	"implicit objects": func(n int) string {
		return "[" + fill(n, `"k": "v", `) + "]"
	},
	"arrays going on past their closer": func(n int) string {
		return `{"k": [1]` + fill(n, `, [2]`) + "}"
	},
	"backslashes": func(n int) string {
		return `{"a": "` + strings.Repeat(`\`, n)
	},
	"mismatched closers": func(n int) string {
		return fill(n, `{"a": [1}, `)
	},
	"extra closers": func(n int) string {
		return `{"a": 1` + fill(n, `}]`)
	},
	"doubled quotes": func(n int) string {
		return "{" + fill(n, `""k"": ""v"", `) + "}"
	},
	"numbers": func(n int) string {
		return "[" + fill(n, `1_000, .5, 0x1F, 1e, -`)
	},
	"triple quotes that close nothing": func(n int) string {
		return "{" + fill(n, `"k": """x, `) + "}"
	},
	"triple-quoted strings": func(n int) string {
		return "[" + fill(n, `"""a "b"""", '''c''', `)
	},
	"fences as values": func(n int) string {
		return "{" + fill(n, "\"k\": ```\nx\n```, ")
	},
	"prose with unreadable objects": func(n int) string {
		return `{"a": 1} ` + fill(n, `and {"b": [1, } `)
	},
	"plus at line ends inside a string": func(n int) string {
		return `{"a": "` + fill(n, "x +\n \"y ")
	},
	"truncated literals": func(n int) string {
		return "[" + fill(n, `tru, nul, fals, `)
	},
	"binary": func(n int) string {
		r := rand.New(rand.NewSource(1))
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Intn(256))
		}
		return "{" + string(b)
	},
	"random structure": func(n int) string {
		r := rand.New(rand.NewSource(2))
		const alphabet = `{}[]():,"'\ abc123#/*` + "\n`"
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		return "{" + string(b)
	},
}

func fill(n int, unit string) string {
	return strings.Repeat(unit, n/len(unit)+1)
}

// scanWork runs the scanner alone on input and returns the work it did.
func scanWork(input string) int {
	s := newScanner([]byte(input), 0, config{maxDepth: DefaultMaxDepth}, zeroTime)
	s.run()
	return s.work
}

func TestScannerWorkIsLinear(t *testing.T) {
	const small, large = 64 << 10, 256 << 10
	for name, shape := range shapes {
		t.Run(name, func(t *testing.T) {
			a, b := shape(small), shape(large)
			wa, wb := scanWork(a), scanWork(b)
			perByte := float64(wb) / float64(len(b))
			if perByte > 12 {
				t.Errorf("%.1f bytes examined per input byte", perByte)
			}
			// Inputs that fail early do little work; the ratio is about inputs
			// that are read to the end.
			if wa > len(a)/2 {
				if ratio := float64(wb) / float64(wa); ratio > 4.5 {
					t.Errorf("work(256K)/work(64K) = %.2f, want about 4", ratio)
				}
			}
			t.Logf("%.2f per byte at 256K, work ratio %.2f", perByte, float64(wb)/float64(max(wa, 1)))
		})
	}
}

// TestRepairWorkLimit checks that the work bound is a hard stop: a scanner
// given a smaller allowance fails with a coded error instead of going on.
func TestRepairWorkLimit(t *testing.T) {
	s := newScanner([]byte(shapes["string with inner quotes"](1<<16)), 0, config{maxDepth: DefaultMaxDepth}, zeroTime)
	s.workLimit = 1000
	_, err, _ := s.run()
	if err == nil || err.Code != "TLP-003" {
		t.Fatalf("err = %v, want TLP-003", err)
	}
}
