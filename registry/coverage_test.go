package registry_test

import (
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/fuzzcheck"
	"github.com/dialectkit/toolcall/internal/longtest"
	"github.com/dialectkit/toolcall/registry"
)

// TestNothingDisappears builds random outputs from each dialect's own
// markers and prose, and parses them with the dialect named and detected:
// every prose word must come back in the content, the reasoning, a call or
// an error's raw text.
func TestNothingDisappears(t *testing.T) {
	nothingDisappears(t, 500, 1)
}

// TestNothingDisappearsLong is TestNothingDisappears over 5 000 outputs
// per dialect, or DIALECTKIT_COVERAGE_ROUNDS of them.
func TestNothingDisappearsLong(t *testing.T) {
	longtest.Skip(t)
	rounds := 5000
	if n, err := strconv.Atoi(os.Getenv("DIALECTKIT_COVERAGE_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	nothingDisappears(t, rounds, 1)
}

func nothingDisappears(t *testing.T, rounds int, seed uint64) {
	for _, name := range registry.Names() {
		d, _ := registry.Lookup(name)
		markers := fuzzcheck.MarkersOf(d)
		if sd, ok := d.(interface{ Syntax() dialects.Syntax }); ok {
			markers = append(markers, sd.Syntax().Tokens...)
		}
		t.Run(name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, uint64(len(name))))
			fails := 0
			for range rounds {
				b := fuzzcheck.Build(r, markers)
				for _, o := range []*registry.Options{{Dialect: name}, {}} {
					res := registry.Parse(b.Text, o)
					if err := fuzzcheck.CheckCoverage(res, b.Words); err != nil {
						fails++
						if fails <= 3 {
							t.Errorf("%q (dialect %q): %v; result content %q reasoning %q calls %d errors %v", b.Text, o.Dialect, err, res.Content, res.Reasoning, len(res.Calls), res.Errors)
						}
					}
				}
			}
		})
	}
}

// TestNothingDisappearsCases are outputs that lost words once: repair
// dropped words inside a call region (a key with no value, text after the
// arguments' object) and the call came out without them.
func TestNothingDisappearsCases(t *testing.T) {
	for _, c := range []struct {
		dialect string
		text    string
		words   []string
	}{
		{"functionary_v3_2", "qvc qvd>>>qvf{```qvg(>>> qvh", []string{"qvc", "qvd", "qvf", "qvg", "qvh"}},
		{"hermes", "<response<json qvc<json[ qvd{qvfqvg</tool_call></tool<xml", []string{"qvc", "qvd", "qvfqvg"}},
		{"hermes", "}=(<xml{=qvc</tool_call><jsonqvd \n", []string{"qvc", "qvd"}},
		{"mistral", "[TOOL_CALLS]qvc{`qvd\nqvf qvg qvh[TOOL_CALLS] qvj", []string{"qvc", "qvd", "qvf", "qvg", "qvh", "qvj"}},
		{"hermes", "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": 1 qvx}}</tool_call>", []string{"qvx"}},
		{"glimmer", "\" to=qvc)<|message|><atem:function_calls> qvdqvf", []string{"qvc", "qvdqvf"}},
		{"harmony", " to=qvc: to=qvd<|message|> qvf qvg<atem:invoke\"qvh", []string{"qvc", "qvd", "qvf", "qvg", "qvh"}},
		// A failed call keeps its whole text: prose before the object in
		// a Hermes block, a fence's info word after a call marker.
		{"hermes", "<tool_call>qvcqvd){</tool_call>qvf(", []string{"qvcqvd", "qvf"}},
		{"apertus", "<|tools_prefix|> qvc\n\n<|tools_prefix|>```qvdqvf{,> qvgqvh}]", []string{"qvc", "qvdqvf", "qvgqvh"}},
		{"granite_20b_fc", "<function_call>```qvc{", []string{"qvc"}},
		{"nemotron_v2", "<TOOLCALL>```qvc{ qvd<TOOLCALL><TOOLCALL>", []string{"qvc", "qvd"}},
		// Inline code held out of reach comes back in the error's text.
		{"apertus", "<|tools_prefix|>`<|tools_prefix|> qvc<|tools_prefix|>\n=qvd<` ", []string{"qvc", "qvd"}},
		// A list left open that holds no call yet is an error, not nothing.
		{"minimax_m1", "<tool_calls>```qvc[", []string{"qvc"}},
		// Repair of a call object may not drop a word either.
		{"apertus", "<|tools_prefix|>{ qvc{`qvd<|tools_prefix|>", []string{"qvc", "qvd"}},
		// Prose inside a call's block around a call that succeeds is
		// content.
		{"gemma4", "\"<|\"|><channel|><|channel> qvcqvd<|channel><|tool_call>qvf{} qvg<tool_call|><|\"|>", []string{"qvcqvd", "qvf", "qvg"}},
		{"hermes", "<tool_call>qvc qvd {\"name\": \"f\", \"arguments\": {}} qvf</tool_call>", []string{"qvc", "qvd", "qvf"}},
	} {
		for _, o := range []*registry.Options{{Dialect: c.dialect}, {}} {
			res := registry.Parse(c.text, o)
			if err := fuzzcheck.CheckCoverage(res, c.words); err != nil {
				t.Errorf("%q (dialect %q): %v; content %q calls %v errors %v", c.text, o.Dialect, err, res.Content, res.Calls, res.Errors)
			}
		}
	}
}

// Comments inside arguments are syntax that repair removes and records, as
// every repairer does; the call stays a call, its words kept. Words outside
// a comment that repair would drop still make the call TLP-003.
func TestRepairDropsCommentsNotWords(t *testing.T) {
	for _, c := range []struct {
		dialect, text, args string
	}{
		{"hermes", "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": 1, // the count\n\"b\": 2}}</tool_call>", `{"a":1,"b":2}`},
		{"hermes", `<tool_call>{"name": "f", "arguments": {"path": "a.txt" /* the file */}}</tool_call>`, `{"path":"a.txt"}`},
		{"json", "{\"name\": \"f\", \"arguments\": {\"a\": 1 # note\n}}", `{"a":1}`},
		{"hermes", `<tool_call>{"name": "f", "arguments": {"url": "http://x.org/#top"}}</tool_call>`, `{"url":"http://x.org/#top"}`},
	} {
		res := registry.Parse(c.text, &registry.Options{Dialect: c.dialect})
		if len(res.Calls) != 1 || string(res.Calls[0].Arguments) != c.args || len(res.Errors) != 0 {
			t.Errorf("%q: calls %v errors %v; want one call with %s", c.text, res.Calls, res.Errors, c.args)
		}
	}
	res := registry.Parse(`<tool_call>{"name": "f", "arguments": {"a": 1 qvx}}</tool_call>`, &registry.Options{Dialect: "hermes"})
	if len(res.Calls) != 0 || len(res.Errors) != 1 {
		t.Errorf("a word repair would drop: calls %v errors %v; want the call's error", res.Calls, res.Errors)
	}
}

// When the output's first calls decide the dialect and the whole output
// holds more calls, the reason says how much of it decided: its evidence
// counted the first call only.
func TestReasonSaysWhatDecided(t *testing.T) {
	one := "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": 1}}</tool_call>"
	res, det := registry.Default().ParseDetect(one+"\n"+one, &registry.Options{})
	if len(res.Calls) != 2 || !strings.Contains(det.Reason, "decided by the first") {
		t.Errorf("two calls: %d calls, reason %q; want both calls and the part that decided named", len(res.Calls), det.Reason)
	}
	res, det = registry.Default().ParseDetect(one, &registry.Options{})
	if len(res.Calls) != 1 || strings.Contains(det.Reason, "decided by the first") {
		t.Errorf("one call: %d calls, reason %q; want no note when the evidence counted every call", len(res.Calls), det.Reason)
	}
}

// When the output's first bytes decide the dialect but the whole output
// reads otherwise (a pythonic list the prefix ended on, which the rest of
// the sentence makes an example), the reason says what the parse
// returned: no call, not the prefix's "1 valid call(s)" alone.
func TestReasonSaysWhatTheParseReturned(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{`You can try it like [get_weather(city="Paris")] to see the result.`, "the whole output: no call"},
		{"<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": 1}}</tool_call>\n<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": 2}}</tool_call>", "the whole output: 2 valid call(s)"},
	} {
		res, det := registry.Default().ParseDetect(tc.text, &registry.Options{})
		if !strings.Contains(det.Reason, tc.want) || !strings.Contains(det.Reason, "decided by the first") {
			t.Errorf("%q: %d calls, reason %q; want it to say %q", tc.text, len(res.Calls), det.Reason, tc.want)
		}
	}
}
