package registry_test

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/corpustest"
	"github.com/dialectkit/toolcall/internal/fuzzcheck"
	"github.com/dialectkit/toolcall/internal/longtest"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/render"
)

// The trust hunt takes real model outputs (every corpus vector, the peers'
// and our own) and writes them the ways an agent must not be fooled by:
// cut off inside a call, drafted in reasoning (a closed block of each
// wrapper, and a block the template opened), shown in prose (inline code,
// a fence presented as an example, a quotation), wrapped in prose, with
// another dialect's markers inside an argument string, and with
// lookalike letters in its markers. Each mutation says what the parse may
// give (no call at all, or only calls the whole output holds, byte for
// byte), prose words added by the mutation must come back somewhere
// (nothing vanishes), and the stream must end where the one-shot parse
// does without contradicting it on the way. Every output is read with its
// dialect named and under detection.

// huntExpect is what a mutated output may yield.
type huntExpect int

const (
	// huntNoCall: no call at all.
	huntNoCall huntExpect = iota
	// huntSubset: only calls of the whole output, in its order, byte for byte.
	huntSubset
	// huntExact: exactly the one call given, or no call (an error).
	huntExact
	// huntNames: only calls to tools the whole output calls (their
	// arguments may read otherwise).
	huntNames
)

// huntCase is one mutated output.
type huntCase struct {
	class  string // the trust rule it tests
	text   string
	expect huntExpect
	whole  []toolcall.Call // huntSubset: the whole output's calls; huntExact: the call
	words  []string        // prose words the mutation added: each must come back
	stream bool            // stream it too
	// detected: only under detection (a named dialect reads another
	// family's wrapper as text); open: the template opened reasoning
	// (Options.ReasoningOpen).
	detected, open bool
	// dialect is the dialect a case of no corpus vector is written in.
	dialect string
}

// huntFinding is one violation.
type huntFinding struct {
	class, dialect, how, text, what string
}

// huntWrappers lists every registered reasoning wrapper.
func huntWrappers() []dialects.ReasoningTags {
	seen := map[dialects.ReasoningTags]bool{}
	var out []dialects.ReasoningTags
	for _, d := range registry.Default().Dialects() {
		for _, w := range dialects.SyntaxOf(d).Reasoning {
			if w.Open != "" && w.Close != "" && !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	return out
}

// huntMarkers lists the call markers of every dialect (their region starts
// and ends), the texts a second dialect writes.
func huntMarkers() []string {
	seen := map[string]bool{}
	var out []string
	for _, d := range registry.Default().Dialects() {
		s := dialects.SyntaxOf(d)
		for _, m := range append(append([]string{}, s.Starts...), s.Ends...) {
			if m != "" && !seen[m] && !strings.ContainsAny(m, "\"\\\n") {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	sort.Strings(out)
	return out
}

// lookalikes swaps ASCII letters for Cyrillic letters that look the same.
var lookalikes = strings.NewReplacer("a", "\u0430", "c", "\u0441", "e", "\u0435", "o", "\u043e", "p", "\u0440", "x", "\u0445", "i", "\u0456", "T", "\u0422", "O", "\u041e", "C", "\u0421")

// huntCases writes the mutations of one output in dialect d.
func huntCases(text, dialect string, whole []toolcall.Call, tools bool, wrappers []dialects.ReasoningTags, markers []string, step, seq int) []huntCase {
	var out []huntCase
	add := func(c huntCase) { out = append(out, c) }
	syn := dialects.SyntaxOf(mustLookup(dialect))
	// (a) cut off inside a call: only whole calls of the output.
	for p := step/2 + 1; p < len(text); p += step {
		cut := text[:p]
		if openBlock(cut, wrappers) {
			continue // a call may end a block that never closes
		}
		add(huntCase{class: "cut", text: cut, expect: huntSubset, whole: whole, stream: (p/step)%4 == 0})
	}
	hasWrapper := false
	for _, w := range wrappers {
		if strings.Contains(text, w.Open) || strings.Contains(text, w.Close) {
			hasWrapper = true
		}
	}
	// (c) drafted in a closed reasoning block: no call.
	if !hasWrapper {
		for _, w := range syn.Reasoning {
			if w.Open == "" || w.Close == "" {
				continue
			}
			add(huntCase{class: "closed-own", text: w.Open + "qvb maybe " + text + " qvc" + w.Close + "\n\nqvd no call needed.",
				expect: huntNoCall, words: []string{"qvb", "qvc", "qvd"}, stream: true})
			// A family whose templates open no block reads a lone
			// closing tag as text, unless told the template opened one.
			if !syn.ReasoningClosed {
				add(huntCase{class: "implicit-own", text: "qvb maybe " + text + " qvc\n" + w.Close + "\n\nqvd no call needed.",
					expect: huntNoCall, words: []string{"qvb", "qvc", "qvd"}, stream: true})
			}
		}
		if len(syn.Reasoning) > 0 && syn.Reasoning[0].Close != "" {
			add(huntCase{class: "implicit-open", text: "qvb maybe " + text + " qvc\n" + syn.Reasoning[0].Close + "\n\nqvd no call needed.",
				expect: huntNoCall, words: []string{"qvb", "qvc", "qvd"}, stream: true, open: true})
		}
		// Under detection, a closed block of any family's wrapper.
		for k := 0; k < 2; k++ {
			w := wrappers[(seq*2+k)%len(wrappers)]
			add(huntCase{class: "closed-any", text: w.Open + "qvb maybe " + text + " qvc" + w.Close + "\n\nqvd no call needed.",
				expect: huntNoCall, words: []string{"qvb", "qvc", "qvd"}, stream: true, detected: true})
		}
	}
	// (b) shown in prose: no call.
	if !strings.Contains(text, "`") && !hasWrapper {
		if !strings.Contains(text, "\n") {
			add(huntCase{class: "inline-code", text: "qvb the syntax is `" + text + "`, qvc.", expect: huntNoCall, words: []string{"qvb", "qvc"}, stream: true})
			add(huntCase{class: "quoted", text: "qvb write \u201c" + text + "\u201d to call it, qvc.", expect: huntNoCall, words: []string{"qvb", "qvc"}, stream: true})
		}
		add(huntCase{class: "fenced-example", text: "qvb here is an example of the format:\n\n```\n" + text + "\n```\nbut I won't call it qvc.", expect: huntNoCall, words: []string{"qvb", "qvc"}, stream: true})
	}
	// (b, d) prose around the calls: no other call, and the prose stays.
	add(huntCase{class: "prose-around", text: "qvb qvc.\n\n" + text + "\n\nqvd qvf.", expect: huntSubset, whole: whole, words: []string{"qvb", "qvc", "qvd", "qvf"}, stream: true})
	// Lookalike letters in the markers: only calls of the output.
	for _, m := range append(append([]string{}, syn.Starts...), syn.Ends...) {
		if l := lookalikes.Replace(m); m != "" && l != m && strings.Contains(text, m) {
			add(huntCase{class: "lookalike-marker", text: strings.ReplaceAll(text, m, l), expect: huntSubset, whole: whole, stream: true})
		}
	}
	// Another dialect's marker named in the prose before the calls, and a
	// lookalike letter in the envelope's "name" key: no call the output
	// does not hold.
	if len(markers) > 0 {
		m := markers[(seq*3+1)%len(markers)]
		add(huntCase{class: "foreign-marker-prose", text: "qvb the " + m + " marker is not mine, qvc.\n\n" + text, expect: huntSubset, whole: whole,
			words: []string{"qvb", "qvc"}, stream: true})
	}
	if strings.Contains(text, `"name"`) {
		add(huntCase{class: "lookalike-key", text: strings.ReplaceAll(text, `"name"`, `"n\u0430me"`), expect: huntNames, whole: whole, stream: true})
	}
	// A lookalike letter in a declared tool's name: no call to a tool the
	// output did not name exactly.
	if tools && len(whole) > 0 {
		if n := whole[0].Name; strings.Contains(text, n) {
			if l := lookalikeOne(n); l != n {
				add(huntCase{class: "lookalike-name", text: strings.ReplaceAll(text, n, l), expect: huntSubset, whole: whole, stream: true})
			}
		}
	}
	// A second dialect's markers inside an argument string: the call reads
	// back whole, or is no call.
	if r, ok := render.For(dialect); ok && len(markers) > 0 {
		for k := 0; k < 2; k++ {
			m := markers[(seq*2+k)%len(markers)]
			value := "qvb " + m + " qvc"
			call := toolcall.Call{Name: "note", Arguments: json.RawMessage(`{"text":"QVSLOTQV"}`)}
			written := r.Calls([]toolcall.Call{call})
			if strings.Count(written, "QVSLOTQV") != 1 {
				continue
			}
			args, _ := json.Marshal(map[string]string{"text": value})
			add(huntCase{class: "marker-in-argument", text: strings.Replace(written, "QVSLOTQV", value, 1), expect: huntExact,
				whole: []toolcall.Call{{Name: "note", Arguments: args}}, words: []string{"qvb", "qvc"}, stream: true})
		}
	}
	return out
}

// lookalikeOne swaps the first letter of s that has a lookalike.
func lookalikeOne(s string) string {
	for i := 0; i < len(s); i++ {
		if l := lookalikes.Replace(s[i : i+1]); l != s[i:i+1] {
			return s[:i] + l + s[i+1:]
		}
	}
	return s
}

// loneOpeners are outputs that end right after a dialect's call marker:
// cut off inside the envelope, they hold no call, and neither the prose
// nor the marker vanishes (it is content, or the raw text of an error).
func loneOpeners() []huntCase {
	var out []huntCase
	for _, name := range registry.Names() {
		for _, m := range dialects.SyntaxOf(mustLookup(name)).Starts {
			if strings.TrimSpace(m) == "" {
				continue
			}
			out = append(out, huntCase{class: "lone-opener", text: "qvb let me check.\n" + m, expect: huntNoCall,
				words: []string{"qvb", strings.TrimSpace(m)}, stream: true, dialect: name})
		}
	}
	return out
}

// proseBetween are two calls rendered in each dialect with prose between
// them: no call but those two, and the prose stays.
func proseBetween() []huntCase {
	a := toolcall.Call{Name: "get_weather", Arguments: json.RawMessage(`{"city":"Rome"}`)}
	b := toolcall.Call{Name: "get_time", Arguments: json.RawMessage(`{"zone":"CET"}`)}
	var out []huntCase
	for _, name := range registry.Names() {
		r, ok := render.For(name)
		if !ok || name == "ollama" {
			continue
		}
		for _, between := range []string{"\nqvb then the time, qvc.\n", " qvb and qvc "} {
			out = append(out, huntCase{class: "prose-between", text: r.Calls([]toolcall.Call{a}) + between + r.Calls([]toolcall.Call{b}),
				expect: huntSubset, whole: []toolcall.Call{a, b}, words: []string{"qvb", "qvc"}, stream: true, dialect: name})
		}
	}
	return out
}

// openBlock reports whether text leaves a block of any wrapper open.
func openBlock(text string, wrappers []dialects.ReasoningTags) bool {
	for _, w := range wrappers {
		if strings.Count(text, w.Open) > strings.Count(text, w.Close) {
			return true
		}
	}
	return false
}

func mustLookup(name string) dialects.Dialect {
	d, ok := registry.Lookup(name)
	if !ok {
		panic("no dialect " + name)
	}
	return d
}

// huntCheck checks one parse of a case.
func huntCheck(c huntCase, res *toolcall.Result, opts *registry.Options) string {
	if err := fuzzcheck.CheckResult(res, c.text, dialectsOf(opts)); err != nil {
		return err.Error()
	}
	switch c.expect {
	case huntNoCall:
		if len(res.Calls) > 0 {
			return fmt.Sprintf("call %s %s", res.Calls[0].Name, res.Calls[0].Arguments)
		}
	case huntSubset:
		// Raw code after <|python_tag|> has no envelope a cut could
		// leave open (see rawCode).
		if err := callsPrefixOrdered(res.Calls, c.whole); err != nil && !(c.class == "cut" && rawCode(res.Calls)) {
			return err.Error()
		}
	case huntNames:
		for _, got := range res.Calls {
			if !slices.ContainsFunc(c.whole, func(w toolcall.Call) bool { return w.Name == got.Name }) {
				return fmt.Sprintf("call %s %s, a tool the whole output does not call", got.Name, got.Arguments)
			}
		}
	case huntExact:
		if len(res.Calls) > 1 {
			return fmt.Sprintf("%d calls", len(res.Calls))
		}
		if len(res.Calls) == 1 && (res.Calls[0].Name != c.whole[0].Name || !sameJSON(res.Calls[0].Arguments, c.whole[0].Arguments)) {
			return fmt.Sprintf("call %s %s, written %s %s", res.Calls[0].Name, res.Calls[0].Arguments, c.whole[0].Name, c.whole[0].Arguments)
		}
	}
	if err := fuzzcheck.CheckCoverage(res, c.words); err != nil {
		return "vanished: " + err.Error()
	}
	return ""
}

// callsPrefixOrdered says how got is not a subsequence of whole (each call
// byte-identical by name and arguments).
func callsPrefixOrdered(got, whole []toolcall.Call) error {
	j := 0
	for i, c := range got {
		for j < len(whole) && (whole[j].Name != c.Name || string(whole[j].Arguments) != string(c.Arguments)) {
			j++
		}
		if j == len(whole) {
			return fmt.Errorf("call %d %s %s is no call of the whole output", i, c.Name, c.Arguments)
		}
		j++
	}
	return nil
}

func sameJSON(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

// dialectsOf is the dialect options of registry options.
func dialectsOf(o *registry.Options) *dialects.Options {
	return &dialects.Options{Tools: o.Tools, ReasoningOpen: o.ReasoningOpen, ReasoningClosed: o.ReasoningClosed}
}

// runHunt runs the hunt over every stride-th vector, cutting at every
// step-th byte, and returns the findings.
func runHunt(t *testing.T, stride, step int, cuts func(string) [][]string) []huntFinding {
	var vs []corpustest.Vector
	for _, file := range append(append([]string{}, corpustest.PeerFiles...), "dialects.own.jsonl") {
		more, err := corpustest.Load(file)
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, more...)
	}
	wrappers, markers := huntWrappers(), huntMarkers()
	var found []huntFinding
	cases, streamed := 0, 0
	defer func() { t.Logf("%d mutated outputs parsed, %d of them streamed", cases, streamed) }()
	for i, v := range vs {
		if i%stride != 0 {
			continue
		}
		if _, ok := registry.Lookup(v.Dialect); !ok {
			continue
		}
		tools, err := v.ToolSet()
		if err != nil {
			t.Fatal(err)
		}
		for _, named := range []bool{true, false} {
			opts := &registry.Options{Tools: tools}
			if named {
				opts.Dialect = v.Dialect
			}
			full := registry.Parse(v.Text, opts)
			if len(full.Calls) == 0 {
				continue
			}
			how := map[bool]string{true: "named", false: "detected"}[named]
			for _, c := range huntCases(v.Text, v.Dialect, full.Calls, tools != nil, wrappers, markers, step, i) {
				if c.detected && named {
					continue
				}
				o := opts
				if c.expect == huntExact {
					o = &registry.Options{Dialect: opts.Dialect}
				}
				if c.open {
					oo := *o
					oo.ReasoningOpen = true
					o = &oo
				}
				res := registry.Parse(c.text, o)
				cases++
				if what := huntCheck(c, res, o); what != "" {
					found = append(found, huntFinding{c.class, v.Dialect, how, c.text, what})
					continue
				}
				if !c.stream {
					continue
				}
				streamed++
				for ci, cut := range cuts(c.text) {
					p := registry.Stream(o)
					if err := streamtest.Compare(res, p, streamtest.Feed(p, cut)); err != nil {
						found = append(found, huntFinding{c.class + "/stream", v.Dialect, how, c.text, fmt.Sprintf("cut %d: %v", ci, err)})
						break
					}
				}
			}
		}
	}
	for _, c := range append(loneOpeners(), proseBetween()...) {
		for _, o := range []*registry.Options{{Dialect: c.dialect}, {}} {
			how := map[bool]string{true: "named", false: "detected"}[o.Dialect != ""]
			res := registry.Parse(c.text, o)
			cases++
			if what := huntCheck(c, res, o); what != "" {
				found = append(found, huntFinding{c.class, c.dialect, how, c.text, what})
				continue
			}
			streamed++
			for ci, cut := range cuts(c.text) {
				p := registry.Stream(o)
				if err := streamtest.Compare(res, p, streamtest.Feed(p, cut)); err != nil {
					found = append(found, huntFinding{c.class + "/stream", c.dialect, how, c.text, fmt.Sprintf("cut %d: %v", ci, err)})
					break
				}
			}
		}
	}
	return found
}

// huntOpen are the findings the trust rules leave open: readings another
// rule of the dialect makes, listed with the reason. They are logged, not
// failed; how is "" for both modes.
var huntOpen = []struct{ class, dialect, how, why string }{
	// Harmony's grammar: a header token (<|channel|>) cannot stand inside
	// a message, so it ends the analysis message before it and opens a
	// message of its own; the <|end|> after the call ends that one.
	{"closed-own", "harmony", "", "a header inside an analysis message opens a message of its own"},
	{"closed-any", "harmony", "detected", "a header inside an analysis message opens a message of its own"},
	{"implicit-open", "harmony", "", "a header inside an analysis message opens a message of its own"},
	// The output's first call decides the dialect under detection
	// (at the point after it), as it does for a stream that emitted it: Functionary's
	// family opens no block, so a lone </think> later is text to it.
	{"implicit-own", "hermes", "detected", "the first call decided a family that opens no reasoning block"},
	// A message header the output ends in is framing the dialect drops
	// (harmony's channel and recipient, glimmer's <|start|> and
	// <|message|>, Inkling's model turn), not a call marker with nothing
	// after it.
	{"lone-opener", "harmony", "", "a message header at the end is framing"},
	{"lone-opener", "glimmer", "", "a message header at the end is framing"},
	{"lone-opener", "inkling", "", "a message header at the end is framing"},
	// With the envelope's name key spoilt, the object after <|python_tag|>
	// names no tool; Functionary v3.1 takes a JSON object there as the
	// python tool's arguments (as llama.cpp does), and detection prefers
	// that reading to llama3_json's error.
	{"lookalike-key", "llama3_json", "detected", "functionary_v3_1 reads the object as the python tool's arguments"},
	// Prose naming <|python_start|> before a Llama 3 built-in call makes
	// detection read the call as pythonic, whose names may hold dots:
	// code_interpreter.call, a name no declared tool has.
	{"foreign-marker-prose", "llama3_builtin", "detected", "pythonic reads the built-in call with its dotted name"},
	// With the markers spoilt, what is left is a call object on a line of
	// its own, which the bare-JSON dialects read as a call.
	{"lookalike-marker", "glm45", "detected", "a bare call object on a line of its own"},
}

// openWhy returns why a finding is left open, or "".
func openWhy(f huntFinding) string {
	for _, o := range huntOpen {
		if o.class == f.class && o.dialect == f.dialect && (o.how == "" || o.how == f.how) {
			return o.why
		}
	}
	return ""
}

// reportHunt logs the findings by class and fails on any the trust rules
// do not leave open (huntOpen).
func reportHunt(t *testing.T, found []huntFinding) {
	byClass := map[string]int{}
	shown := map[string]int{}
	open := map[string]int{}
	for _, f := range found {
		if why := openWhy(f); why != "" {
			open[f.class+" "+f.dialect+" ("+why+")"]++
			continue
		}
		key := f.class + " " + f.dialect + " " + f.how
		byClass[f.class]++
		if shown[key] < 2 {
			shown[key]++
			t.Errorf("%s (%s, %s): %s\ntext: %q", f.class, f.dialect, f.how, f.what, f.text)
		}
	}
	if len(byClass) > 0 {
		t.Logf("findings by class: %v", byClass)
	}
	for k, n := range open {
		t.Logf("left open: %d × %s", n, k)
	}
	if out := os.Getenv("DIALECTKIT_HUNT_OUT"); out != "" {
		var b strings.Builder
		for _, f := range found {
			line, _ := json.Marshal(map[string]string{"class": f.class, "dialect": f.dialect, "how": f.how, "what": f.what, "text": f.text})
			b.Write(line)
			b.WriteByte('\n')
		}
		_ = os.WriteFile(out, []byte(b.String()), 0o644)
	}
}

// TestTrustHunt is the hunt scaled down for the default run: one vector in
// seven, cut at every 29th byte, each output streamed whole and byte by
// byte.
func TestTrustHunt(t *testing.T) {
	reportHunt(t, runHunt(t, 7, 29, func(text string) [][]string {
		return streamtest.Cuts(text, nil, true)[:2]
	}))
}

// TestTrustHuntLong is the full hunt: every vector, cut at every byte, each
// output streamed every way streamtest.Cuts gives.
func TestTrustHuntLong(t *testing.T) {
	longtest.Skip(t)
	reportHunt(t, runHunt(t, 1, 1, func(text string) [][]string {
		return streamtest.Cuts(text, nil, true)
	}))
}
