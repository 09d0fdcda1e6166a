package pythonic

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/internal/longtest"
	"github.com/dialectkit/toolcall/lenient"
)

// scanAgrees holds the call scanner to the grammar on src: when the scanner
// accepts, the grammar reads one call with the same arguments (keys and
// JSON values, byte for byte) and the same kinds of looseness. It reports
// whether the scanner accepted.
func scanAgrees(tb testing.TB, src string) bool {
	tb.Helper()
	nameEnd := readName(src, 0)
	if nameEnd == 0 {
		return false
	}
	args, kinds, ok := scanCall(src, nameEnd)
	if !ok {
		return false
	}
	calls, gkinds, err := lenient.ParsePythonCalls(src)
	if err != nil {
		tb.Fatalf("%q: the scanner accepts what the grammar rejects: %v", src, err)
	}
	if len(calls) != 1 {
		tb.Fatalf("%q: the grammar reads %d calls", src, len(calls))
	}
	want := calls[0].Args
	if len(args) != len(want) {
		tb.Fatalf("%q: %d arguments, the grammar reads %d", src, len(args), len(want))
	}
	for i := range args {
		if args[i].Key != want[i].Key || !bytes.Equal(args[i].Value, want[i].Value) {
			tb.Fatalf("%q: argument %d is %s=%s, the grammar reads %s=%s", src, i, args[i].Key, args[i].Value, want[i].Key, want[i].Value)
		}
		if !json.Valid(args[i].Value) {
			tb.Fatalf("%q: argument %d is not JSON: %s", src, i, args[i].Value)
		}
	}
	if !slices.Equal(kinds, gkinds) {
		tb.Fatalf("%q: kinds %v, the grammar notes %v", src, kinds, gkinds)
	}
	return true
}

// The scanner takes the calls models write, and agrees with the grammar on
// them and on the shapes it leaves to the grammar.
func TestCallScannerAgreesWithGrammar(t *testing.T) {
	accepted := []string{
		`get_weather(city='San Francisco', unit="celsius", days=3)`,
		`f()`, `f( )`, `f(1, 2.5, -3, 0, -0.5e-3, 1e10)`,
		`f(a=True, b=False, c=None, d=true, e=false, g=null)`,
		`f(x=[1, [2, 3], {"k": 'v', 'n': None}], y={})`,
		`f(s="""multi
line "quoted" """, t='''x''')`,
		`f(path='C:\Users\new', p="a\nb\tc\\d\"e\'f", u="\u00e9\U0001F600\x41", pair="\ud83d\ude00")`,
		`tools.lookup(q='x',)`, `list-files(dir = '/tmp' , all = True )`,
		`f(a='x',b="y"  ,  c=[ ] , d = { } )`, "f(a='x\ny')",
		`f(s='日本語', e="é")`, `f(a=[1,2,],b={'a':1,})`,
	}
	declined := []string{
		`f(a=(1, 2))`, `f(a=g(1))`, `f(a=word)`, `f(a=0x1F)`, `f(a=007)`, `f(a=1E5)`, `f(a=+1)`,
		`f(a=.5)`, `f(a=5.)`, `f(a={b: 1})`, `f(a={1: 2})`, `f(a={'b'= 1})`, `f(a='x' 'y')`,
		`f(a=1 b=2)`, `f(a=`, `f(a='x`, `f(a=[1,2)`, `f(,)`, `f(a=1,,b=2)`, `f(a='''k''')x`,
		`f(a={'''k''': 1})`, `f(True=1)`, `f($v=1)`, `f(a=True.x)`, `f(a="x\` + "\n" + `y")`, `f(a=1e+5)`, `f(a=-)`,
	}
	for _, src := range accepted {
		if !scanAgrees(t, src) {
			t.Errorf("%q: the scanner declines it", src)
		}
	}
	for _, src := range declined {
		// Declined or not, whatever it accepts must agree.
		scanAgrees(t, src)
	}
}

// randomArg writes a random Python value, leaning on the edges of what the
// scanner takes.
func randomPyValue(r *rand.Rand, depth int) string {
	switch r.IntN(12) {
	case 0:
		return []string{`0`, `1`, `-1`, `2.5`, `-0.0`, `1e3`, `1e-3`, `1E3`, `007`, `0x1f`, `+2`, `.5`, `5.`, `1_000`}[r.IntN(14)]
	case 1:
		return []string{`True`, `False`, `None`, `true`, `false`, `null`, `TRUE`, `Null`, `word`, `x.y`}[r.IntN(10)]
	case 2, 3:
		quotes := []string{`'`, `"`, `'''`, `"""`}
		q := quotes[r.IntN(len(quotes))]
		bodies := []string{``, `x`, `it's`, `say "hi"`, `a\nb`, `C:\new\path`, `\u00e9`, `\ud83d\ude00`, `\x41`, `tab\t`, "line\nbreak", `\\`, `\'`, `\"`, `é日`, `\q`, `\`}
		return q + bodies[r.IntN(len(bodies))] + q
	case 4, 5:
		if depth > 0 {
			var items []string
			for range r.IntN(4) {
				items = append(items, randomPyValue(r, depth-1))
			}
			tail := []string{"", ",", " "}[r.IntN(3)]
			return "[" + strings.Join(items, ", ") + tail + "]"
		}
		return `[]`
	case 6, 7:
		if depth > 0 {
			keys := []string{`'a'`, `"b"`, `c`, `1`, `'''d'''`, `"a b"`}
			seps := []string{`: `, `:`, ` : `, `=`}
			var items []string
			for range r.IntN(4) {
				items = append(items, keys[r.IntN(len(keys))]+seps[r.IntN(len(seps))]+randomPyValue(r, depth-1))
			}
			return "{" + strings.Join(items, ", ") + "}"
		}
		return `{}`
	case 8:
		if depth > 0 {
			return "(" + randomPyValue(r, depth-1) + []string{"", ","}[r.IntN(2)] + ")"
		}
		return "()"
	case 9:
		if depth > 0 {
			return "g(" + randomPyValue(r, depth-1) + ")"
		}
		return "g()"
	default:
		return []string{`"Paris"`, `'Tokyo'`, `3`, `[1, 2]`, `{"k": "v"}`}[r.IntN(5)]
	}
}

func randomPyCall(r *rand.Rand) string {
	var args []string
	for i := range r.IntN(5) {
		v := randomPyValue(r, 3)
		if r.IntN(4) > 0 {
			sep := []string{"=", " = ", "="}[r.IntN(3)]
			v = []string{"a", "b", "c", "city", "x-y", "True"}[i%6] + sep + v
		}
		args = append(args, v)
	}
	sep := []string{", ", ",", " ,\n  "}[r.IntN(3)]
	tail := []string{"", ",", " "}[r.IntN(3)]
	src := "f(" + strings.Join(args, sep) + tail + ")"
	if r.IntN(20) == 0 && len(src) > 3 {
		// A cut or a stray character somewhere.
		k := r.IntN(len(src))
		if r.IntN(2) == 0 {
			src = src[:k]
		} else {
			src = src[:k] + string("(),'\"=:[]{}x#"[r.IntN(13)]) + src[k:]
		}
	}
	return src
}

// The scanner agrees with the grammar on random calls.
func TestCallScannerAgreesOnRandomCalls(t *testing.T) {
	n := 3000
	if longtest.Enabled() {
		n = 200000
	}
	r := rand.New(rand.NewPCG(5, 6))
	took := 0
	for range n {
		if scanAgrees(t, randomPyCall(r)) {
			took++
		}
	}
	t.Logf("the scanner takes %d of %d random calls", took, n)
	if took == 0 || took == n {
		t.Errorf("the random calls do not exercise both paths: %d of %d taken", took, n)
	}
}

// FuzzCallScanner holds the scanner to the grammar on any call text.
func FuzzCallScanner(f *testing.F) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 64 {
		f.Add(randomPyCall(r))
	}
	f.Add(`get_weather(city='San Francisco', days=3)`)
	f.Fuzz(func(t *testing.T, src string) {
		scanAgrees(t, src)
	})
}

// BenchmarkCallScanner compares the scanner with the grammar on one call.
func BenchmarkCallScanner(b *testing.B) {
	src := `get_weather(city='San Francisco', unit="celsius", days=3)`
	b.Run("scanner", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, ok := scanCall(src, len("get_weather")); !ok {
				b.Fatal("declined")
			}
		}
	})
	b.Run("grammar", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := lenient.ParsePythonCalls(src); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// literalAgrees holds scanLiteral to the grammar on src, as scanAgrees
// does for calls; it reports whether the scanner accepted.
func literalAgrees(tb testing.TB, src string) bool {
	tb.Helper()
	out, kinds, ok := scanLiteral(src)
	if !ok {
		return false
	}
	want, gkinds, err := lenient.PythonLiteralToJSON(src)
	if err != nil {
		tb.Fatalf("%q: the scanner accepts what the grammar rejects: %v", src, err)
	}
	if !bytes.Equal(out, want) {
		tb.Fatalf("%q: scanner %s, the grammar reads %s", src, out, want)
	}
	if !json.Valid(out) {
		tb.Fatalf("%q: not JSON: %s", src, out)
	}
	if !slices.Equal(kinds, gkinds) {
		tb.Fatalf("%q: kinds %v, the grammar notes %v", src, kinds, gkinds)
	}
	return true
}

// Call objects written as Python dicts (sarashina's syntax) are read by
// the scanner, as the grammar reads them, without the grammar's cost.
func TestLiteralScannerAgreesWithGrammar(t *testing.T) {
	accepted := []string{
		`{'name': 'f', 'arguments': {'a': 'x'}}`,
		`{"name": "get_weather", "arguments": {"city": 'Paris', "days": 3, "metric": True, "note": None}}`,
		` {'name': 'f', 'arguments': {'list': [1, 2.5, -3, {'k': '''v'''}], 'e': {}}} `,
		`[{'name': 'f', 'arguments': {}}, {'name': 'g', 'arguments': {'s': "it's"}}]`,
		`{'name': 'f', 'arguments': {'a': [1,2,],}}`,
	}
	declined := []string{
		`{name: 'f'}`, `{'name': f}`, `{'name': 'f', 'arguments': (1, 2)}`, `'f'`, `f(a=1)`,
		`{'name': 'f'} x`, `{'name': 'f'`, `{'a': 0x1}`, `{1: 2}`,
	}
	for _, src := range accepted {
		if !literalAgrees(t, src) {
			t.Errorf("%q: the scanner declines it", src)
		}
	}
	for _, src := range declined {
		if literalAgrees(t, src) {
			t.Errorf("%q: the scanner accepts it", src)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	n := 2000
	if longtest.Enabled() {
		n = 50000
	}
	for range n {
		literalAgrees(t, "{'name': 'f', 'arguments': "+randomPyValue(r, 3)+"}")
		literalAgrees(t, randomPyValue(r, 3))
	}
}
