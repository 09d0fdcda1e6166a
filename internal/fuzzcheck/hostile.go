package fuzzcheck

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/longtest"
	"github.com/dialectkit/toolcall/lenient"
)

// Format writes one call to name with args, a compact JSON object, in the
// syntax of the dialect under test. It returns "" for a call it cannot
// write.
type Format func(name string, args json.RawMessage) string

// ParseFunc parses text with the options (nil for the defaults).
type ParseFunc func(text string, opts *dialects.Options) *toolcall.Result

// Input is one hostile input.
type Input struct {
	Name string
	Text string
	// Opts are the parse options; nil means the defaults.
	Opts *dialects.Options
	// Want checks the result beyond CheckResult; nil means nothing more.
	Want func(res *toolcall.Result) error
	// AllocFactor, when positive, bounds the bytes the parse allocates to
	// this multiple of the input size.
	AllocFactor float64
}

// Measure is what one hostile input cost.
type Measure struct {
	Input  string
	Size   int
	Took   time.Duration
	Alloc  uint64 // bytes allocated
	Allocs uint64 // allocations
	Calls  int
	Errors int
}

func (m Measure) String() string {
	return fmt.Sprintf("%-44s %9d B  %10v  %8.1f MB alloc (%5.1f×)  %8d allocs  %6d calls  %4d errors",
		m.Input, m.Size, m.Took.Round(10*time.Microsecond), float64(m.Alloc)/(1<<20),
		float64(m.Alloc)/float64(max(m.Size, 1)), m.Allocs, m.Calls, m.Errors)
}

// Scale is the size of the repeated hostile inputs: 100 000 calls or
// units in the long suites (DIALECTKIT_LONG=1, see internal/longtest), a
// tenth of it otherwise, and always a tenth under the race detector or
// -short.
func Scale() int {
	if reduced() {
		return 10_000
	}
	return 100_000
}

// reduced reports whether hostile inputs are scaled down: in the default
// run, which must stay quick (the full sizes run with DIALECTKIT_LONG=1),
// under the race detector, which slows parsing tenfold and looks for
// interleavings, not sizes, and under -short.
func reduced() bool { return Race || testing.Short() || !longtest.Enabled() }

// Hostile parses every input, checks CheckResult and the input's own
// expectations, and logs the time and memory each took. It returns the
// measures. Nothing is timed against a threshold here: a hang is caught by
// the test's deadline, and Budget bounds each parse only as a hang
// detector.
func Hostile(t *testing.T, parse ParseFunc, inputs []Input) []Measure {
	t.Helper()
	var out []Measure
	for _, in := range inputs {
		t.Run(in.Name, func(t *testing.T) {
			opts := in.Opts
			if opts == nil {
				opts = &dialects.Options{}
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			begin := time.Now()
			res := parse(in.Text, opts)
			took := time.Since(begin)
			runtime.ReadMemStats(&after)
			m := Measure{Input: in.Name, Size: len(in.Text), Took: took,
				Alloc: after.TotalAlloc - before.TotalAlloc, Allocs: after.Mallocs - before.Mallocs}
			if res != nil {
				m.Calls, m.Errors = len(res.Calls), len(res.Errors)
			}
			t.Logf("%s %v", strings.TrimSuffix(t.Name(), "/"+strings.ReplaceAll(in.Name, " ", "_")), m)
			out = append(out, m)
			if took > Budget {
				t.Errorf("took %v, past the %v hang budget", took, Budget)
			}
			if err := CheckResult(res, in.Text, opts); err != nil {
				t.Fatal(err)
			}
			if in.Want != nil {
				if err := in.Want(res); err != nil {
					t.Error(err)
				}
			}
			// Under the race detector sync.Pool drops pooled buffers at
			// random, by design, so what is allocated is not what the
			// program allocates: the bound holds in the runs without it.
			if in.AllocFactor > 0 && !Race && float64(m.Alloc) > in.AllocFactor*float64(len(in.Text)) {
				t.Errorf("allocated %d bytes for %d bytes of input, more than %.0f×", m.Alloc, len(in.Text), in.AllocFactor)
			}
		})
	}
	return out
}

// HostileDialects runs the hostile inputs of each dialect (Inputs, with
// FormatFor's call writer and the dialect's markers) through dialects.Parse.
func HostileDialects(t *testing.T, ds ...dialects.Dialect) {
	t.Helper()
	for _, d := range ds {
		t.Run(d.Name(), func(t *testing.T) {
			format := FormatFor(t, d)
			if format == nil {
				t.Logf("no corpus vector to write %s calls from: the call inputs are left out", d.Name())
			}
			Hostile(t, func(text string, opts *dialects.Options) *toolcall.Result {
				return dialects.Parse(d, text, opts)
			}, Inputs(format, MarkersOf(d)))
		})
	}
}

// MarkersOf returns the dialect's markers, or nil.
func MarkersOf(d dialects.Dialect) []string {
	if m, ok := d.(dialects.Marked); ok {
		return m.Markers()
	}
	return nil
}

// Inputs returns the hostile inputs for a dialect: the ones any text
// parser must survive, one repeated and one unclosed input per marker,
// and, when format can write the dialect's calls, calls with deep, huge
// and pathological arguments and an output of Scale() tiny calls.
func Inputs(format Format, markers []string) []Input {
	n := Scale()
	big := 1 << 20
	if reduced() {
		big = 64 << 10
	}
	rng := rand.New(rand.NewPCG(7, 8))
	binary := make([]byte, 64<<10)
	for i := range binary {
		binary[i] = byte(rng.UintN(256))
	}
	ins := []Input{
		{Name: "nesting 10000 deep, arrays", Text: strings.Repeat("[", 10_000) + strings.Repeat("]", 10_000)},
		{Name: "nesting 10000 deep, objects", Text: strings.Repeat(`{"a":`, 10_000) + "1" + strings.Repeat("}", 10_000)},
		{Name: "nesting 10000 deep, unclosed", Text: strings.Repeat(`{"name": "f", "arguments": [`, 10_000)},
		{Name: "run of backslashes", Text: `{"name": "f", "arguments": {"a": "` + strings.Repeat(`\`, big)},
		{Name: "run of quotes", Text: strings.Repeat(`"`, big)},
		{Name: "run of escaped quotes", Text: `{"name": "f", "arguments": {"a": "` + strings.Repeat(`\"`, big/2) + `"}}`},
		{Name: "invalid UTF-8", Text: strings.Repeat("\xff\xfe\xc3\x28{\"\xff\": \"\xc0\"}", big/16)},
		{Name: "NUL bytes", Text: strings.Repeat("\x00", big)},
		{Name: "random bytes", Text: string(binary)},
	}
	seen := map[string]bool{}
	for _, mk := range markers {
		if mk == "" || seen[mk] {
			continue
		}
		seen[mk] = true
		ins = append(ins,
			Input{Name: "marker repeated " + mk, Text: strings.Repeat(mk, big/len(mk)+1)},
			Input{Name: "marker unclosed " + mk, Text: mk + `{"name": "f", "arguments": {"a": "` + strings.Repeat(`x "q", `, big/8)},
			Input{Name: "markers nested " + mk, Text: strings.Repeat(mk+"{", n/10) + strings.Repeat("}", n/10)},
		)
	}
	if format != nil {
		ins = append(ins, callInputs(format, n)...)
	}
	return ins
}

// payloadOf returns a string of exactly n letters.
func payloadOf(n int) string {
	const unit = "abcdefghijklmnopqrstuvwxyz"
	return strings.Repeat(unit, n/len(unit)+1)[:n]
}

// callInputs are the inputs built from calls format writes.
func callInputs(format Format, n int) []Input {
	var ins []Input
	add := func(name string, text string, in Input) {
		if text == "" {
			return
		}
		in.Name, in.Text = name, text
		ins = append(ins, in)
	}

	deep := `{"a":` + strings.Repeat("[", 10_000) + strings.Repeat("]", 10_000) + `}`
	add("call with arguments 10000 deep", format("f", json.RawMessage(deep)), Input{Want: noCallsButErrors})

	// An argument text one byte over the size limit: refused before it is
	// parsed, with TLP-009 when the dialect keeps the JSON as it is.
	limit := lenient.DefaultMaxSize
	over := `{"a":"` + payloadOf(limit+1-len(`{"a":""}`)) + `"}`
	add("arguments one byte over the size limit", format("f", json.RawMessage(over)), Input{Want: func(res *toolcall.Result) error {
		if len(res.Calls) > 0 {
			return fmt.Errorf("%d calls from arguments over the size limit", len(res.Calls))
		}
		if !hasCode(res, toolcall.CodeTooLarge) {
			return fmt.Errorf("no TLP-009 among %v", codes(res))
		}
		return nil
	}})

	// A valid argument of a megabyte (a kilobyte of room for the call's
	// markup under the limit) comes back whole, in a few times its size.
	payload := payloadOf(limit - 1024)
	add("valid 1 MB argument", format("f", json.RawMessage(`{"a":"`+payload+`"}`)), Input{
		AllocFactor: 8,
		Want: func(res *toolcall.Result) error {
			if len(res.Calls) != 1 || len(res.Errors) != 0 {
				return fmt.Errorf("%d calls, errors %v; want the one call", len(res.Calls), codes(res))
			}
			if !hasValue(res.Calls[0].Arguments, payload) {
				return fmt.Errorf("the argument did not come back whole")
			}
			return nil
		},
	})

	one := format("f", json.RawMessage(`{"a":"x"}`))
	if one != "" {
		add(fmt.Sprintf("%d tiny calls", n), strings.Repeat(one+"\n", n), Input{Want: func(res *toolcall.Result) error {
			if len(res.Calls) == n || len(res.Errors) > 0 {
				return nil
			}
			return fmt.Errorf("%d of %d calls and no error: calls lost silently", len(res.Calls), n)
		}})
	}

	// Pathological arguments for each repair heuristic, put where the
	// dialect keeps the JSON text of the arguments.
	sentinel := format("f", json.RawMessage(`{"a":"SENTINEL"}`))
	start, end := argumentSpan(sentinel)
	if start < 0 {
		return ins
	}
	size := 256 << 10
	if reduced() {
		size = 16 << 10
	}
	for _, p := range Pathological(size) {
		add("repair: "+p.Name, sentinel[:start]+p.Text+sentinel[end:], Input{})
	}
	return ins
}

// argumentSpan finds the JSON object holding "SENTINEL" in a formatted
// call, or -1: the dialects that write arguments as JSON keep them there.
func argumentSpan(call string) (int, int) {
	at := strings.Index(call, "SENTINEL")
	if at < 0 {
		return -1, -1
	}
	start := strings.LastIndexByte(call[:at], '{')
	rel := strings.IndexByte(call[at:], '}')
	if start < 0 || rel < 0 {
		return -1, -1
	}
	end := at + rel + 1
	if !gjson.Valid(call[start:end]) || !hasValue(json.RawMessage(call[start:end]), "SENTINEL") {
		return -1, -1
	}
	return start, end
}

// Shape is one pathological input for a repair heuristic.
type Shape struct{ Name, Text string }

// Pathological returns inputs of about size bytes that push each repair
// heuristic to its worst case: the fast path (deep valid nesting), prose
// and fence stripping, double encoding, JSON5, the loose-literal grammar
// and the repair scanner's rules.
func Pathological(size int) []Shape {
	fill := func(unit string) string { return strings.Repeat(unit, size/len(unit)+1) }
	encoded := `{"a":1}`
	for range 12 {
		b, _ := json.Marshal(encoded)
		encoded = string(b)
	}
	return []Shape{
		{"valid, deep within the limit", "[" + fill(strings.Repeat("[", 60)+strings.Repeat("]", 60)+",") + "0]"},
		{"trailing commas", "{" + fill(`"k": [1, 2,], `) + "}"},
		{"inner quotes", `{"a": "` + fill(`x "q" y `) + `"}`},
		{"unclosed string of commas", `{"a": "` + fill(`x,`) + `" tail`},
		{"key patterns in a string", `{"a": "` + fill(`x, b: "`)},
		{"missing commas", "[" + fill(`"a" `) + "]"},
		{"single quotes and words", "{" + fill(`'k': v, `) + "}"},
		{"JSON5 comments", "{" + fill("/* c */ k: 1, // x\n") + "}"},
		{"python literals", "[" + fill(`(True, None, '''x'''), `) + "]"},
		{"double encoding 12 levels", encoded},
		{"escaped document", fill(`{\"a\": \"b\"}, `)},
		{"fences", "Result:\n" + fill("```json\n{\"a\": ")},
		{"prose with brackets", "Note " + fill("{a: [")},
		{"backslashes", `{"a": "` + strings.Repeat(`\`, size)},
		{"only quotes", "[" + strings.Repeat(`"`, size)},
		{"unclosed nesting", strings.Repeat("[", size)},
		{"extra closers", `{"a": 1` + fill(`}]`)},
		{"numbers", "[" + fill(`1_000, .5, 0x1F, 1e, -`)},
		{"truncated literals", "[" + fill(`tru, nul, fals, `)},
		{"smart quotes", "{" + fill("“k”: “v”, ") + "}"},
	}
}

// hasValue reports whether the object args has a member whose value is
// the string s.
func hasValue(args json.RawMessage, s string) bool {
	found := false
	gjson.ParseBytes(args).ForEach(func(_, v gjson.Result) bool {
		found = v.Type == gjson.String && v.Str == s
		return !found
	})
	return found
}

func noCallsButErrors(res *toolcall.Result) error {
	if len(res.Calls) > 0 || len(res.Errors) == 0 {
		return fmt.Errorf("%d calls and errors %v; want no call and an error", len(res.Calls), codes(res))
	}
	return nil
}

func hasCode(res *toolcall.Result, c toolcall.Code) bool {
	for _, e := range res.Errors {
		if e.Code == c {
			return true
		}
	}
	return false
}

func codes(res *toolcall.Result) []toolcall.Code {
	var out []toolcall.Code
	for _, e := range res.Errors {
		out = append(out, e.Code)
	}
	return out
}
