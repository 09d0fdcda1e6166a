package fuzzcheck

import (
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/corpustest"
	"github.com/dialectkit/toolcall/lenient"
	"github.com/dialectkit/toolcall/schema"
)

// Budget is how long one parse of a fuzz input may take before the harness
// calls it a hang. It is not a performance figure: fuzz inputs are a few
// kilobytes and parse in microseconds, so only super-linear blow-ups and
// endless loops come near it, even under the race detector on a loaded
// machine.
const Budget = 10 * time.Second

// Mode bits select the options a fuzz input is parsed with. The fuzzer
// mutates them with the text, so every combination gets explored.
const (
	ModeTools         = 1 << iota // declare the corpus tools
	ModeNoRepair                  // dialects.Options.DisableRepair
	ModeReasoningOpen             // dialects.Options.ReasoningOpen
	ModeCoerce                    // schema coercion, risky ones included
	ModeTightLimits               // small lenient limits: 256 bytes, depth 4
	ModeStrict                    // schema.Options.Strict
)

// TightLimits are the lenient limits of ModeTightLimits: small enough that
// fuzz inputs reach them.
var TightLimits = lenient.Options{MaxSize: 256, MaxDepth: 4, Timeout: -1}

// Options returns the parse options a mode selects. tools are the tools
// ModeTools declares. The time budget is off in every mode: it would make
// the outcome depend on the machine's load, and determinism is checked.
func Options(mode uint8, tools *schema.Set) *dialects.Options {
	o := &dialects.Options{Lenient: lenient.Options{Timeout: -1}}
	if mode&ModeTools != 0 {
		o.Tools = tools
	}
	o.DisableRepair = mode&ModeNoRepair != 0
	o.ReasoningOpen = mode&ModeReasoningOpen != 0
	if mode&ModeCoerce != 0 {
		o.Validation.Coerce, o.Validation.AllowRisky = true, true
	}
	o.Validation.Strict = mode&ModeStrict != 0
	if mode&ModeTightLimits != 0 {
		o.Lenient = TightLimits
	}
	return o
}

// CorpusTools builds one tool set from the tools the corpus vectors of the
// named dialects declare (of every dialect when none is named). A name
// declared twice keeps its first schema.
func CorpusTools(tb testing.TB, names ...string) *schema.Set {
	tb.Helper()
	vs, err := corpustest.Dialects()
	if err != nil {
		tb.Fatal(err)
	}
	set, _ := schema.NewSet()
	for _, v := range vs {
		if len(names) > 0 && !contains(names, v.Dialect) {
			continue
		}
		if len(v.Tools) == 0 || string(v.Tools) == "null" {
			continue
		}
		tools, err := toolcall.ParseTools(v.Tools)
		if err != nil {
			continue
		}
		for _, t := range tools {
			if _, ok := set.Lookup(t.Name); !ok {
				_ = set.Add(t) // a schema the validator refuses is left out
			}
		}
	}
	return set
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Seeds returns fuzz seeds for the dialects: the text of their corpus
// vectors, a sample of the other dialects' vectors, and short texts built
// from their markers (a marker alone, repeated, unclosed, around a call).
func Seeds(tb testing.TB, ds ...dialects.Dialect) []string {
	tb.Helper()
	vs, err := corpustest.Dialects()
	if err != nil {
		tb.Fatal(err)
	}
	names := dialectNames(ds)
	var seeds []string
	for i, v := range vs {
		// Every vector of the dialects, and one in eight of the others:
		// text in a neighbouring syntax is where a parser is most tempted.
		if contains(names, v.Dialect) || i%8 == 0 && len(v.Text) < 2048 {
			seeds = append(seeds, v.Text)
		}
	}
	for _, d := range ds {
		m, ok := d.(dialects.Marked)
		if !ok {
			continue
		}
		for _, mk := range m.Markers() {
			if mk == "" {
				continue
			}
			seeds = append(seeds,
				mk,
				strings.Repeat(mk, 3),
				mk+`{"name": "get_weather", "arguments": {"city": "Paris"`,
				mk+`get_weather{"city": "Paris"}`+mk,
				mk+"get_weather(city='Paris')",
				"<think>"+mk+"</think>"+mk,
			)
		}
	}
	for _, d := range ds {
		// Prose words among the dialect's markers: the outputs of the
		// coverage property (CheckWords).
		r := rand.New(rand.NewPCG(7, uint64(len(d.Name()))))
		markers := MarkersOf(d)
		for range 8 {
			seeds = append(seeds, Build(r, markers).Text)
		}
	}
	seeds = append(seeds, genericSeeds...)
	return seeds
}

// genericSeeds are shapes every parser meets sooner or later.
var genericSeeds = []string{
	"",
	"Just prose, no call.",
	`{"name": "get_weather", "arguments": {"city": "Paris"}}`,
	`[{"name": "get_weather", "arguments": {"city": "Paris",}}]`,
	`{"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}`,
	`{"name": "get_weather", "parameters": {"city": 'Paris', "days": True}}`,
	"```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```",
	"[get_weather(city=\"Paris\", days=3)]",
	"<think>hmm</think>\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>",
	"\x00\xff\xfe{\"name\": \"\xff\"}",
	strings.Repeat("[", 70) + strings.Repeat("]", 70),
	`{"name": "a", "arguments": {"s": "` + strings.Repeat(`\\\"`, 20) + `"}}`,
}

func dialectNames(ds []dialects.Dialect) []string {
	names := make([]string, len(ds))
	for i, d := range ds {
		names[i] = d.Name()
	}
	sort.Strings(names)
	return names
}

// FuzzDialects is the fuzz target of a dialect package: it seeds f from
// the corpus and the dialects' markers, and checks on every input, for
// every dialect, in the options the mode byte selects:
//
//   - no panic, and the parse ends within Budget;
//   - the result names the dialect and has the properties of CheckResult
//     (coded errors, compact JSON object arguments, declared names and
//     valid arguments when tools are declared, the depth limit);
//   - every prose word of the input (WordsOf) comes back in the content,
//     the reasoning, a call or an error (CheckWords: nothing disappears);
//   - a second parse gives the same result (SameResult).
func FuzzDialects(f *testing.F, ds ...dialects.Dialect) {
	f.Helper()
	tools := CorpusTools(f, dialectNames(ds)...)
	for i, s := range Seeds(f, ds...) {
		f.Add(s, uint8(i%2)) // with and without tools
	}
	f.Fuzz(func(t *testing.T, text string, mode uint8) {
		opts := Options(mode, tools)
		for _, d := range ds {
			CheckDialect(t, d, text, opts)
		}
	})
}

// CheckDialect parses text with d twice and fails t on the first broken
// property (see FuzzDialects).
func CheckDialect(t testing.TB, d dialects.Dialect, text string, opts *dialects.Options) {
	t.Helper()
	begin := time.Now()
	res := dialects.Parse(d, text, opts)
	if took := time.Since(begin); took > Budget {
		t.Fatalf("%s: parsing %d bytes took %v, past the %v budget", d.Name(), len(text), took, Budget)
	}
	if res != nil && res.Dialect != d.Name() {
		t.Fatalf("%s: result names dialect %q", d.Name(), res.Dialect)
	}
	if err := CheckResult(res, text, opts); err != nil {
		t.Fatalf("%s: %v\ntext: %q", d.Name(), err, text)
	}
	if err := CheckWords(res, text); err != nil {
		t.Fatalf("%s: nothing disappears: %v\ntext: %q", d.Name(), err, text)
	}
	if err := SameResult(res, dialects.Parse(d, text, opts)); err != nil {
		t.Fatalf("%s: not deterministic: %v\ntext: %q", d.Name(), err, text)
	}
}
