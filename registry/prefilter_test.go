package registry_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/corpustest"
	"github.com/dialectkit/toolcall/internal/fuzzcheck"
	"github.com/dialectkit/toolcall/registry"
)

// detectionOf renders what detection decided for text: the dialect, the
// reason, every candidate with its score, and the result.
func detectionOf(text string, opts *registry.Options) string {
	res, det := registry.Default().ParseDetect(text, opts)
	var b strings.Builder
	fmt.Fprintf(&b, "dialect %q reason %q\n", det.Dialect, det.Reason)
	for _, c := range det.Candidates {
		fmt.Fprintf(&b, "cand %s score %v calls %d errors %d\n", c.Dialect, c.Score, c.Calls, c.Errors)
	}
	fmt.Fprintf(&b, "content %q reasoning %q\n", res.Content, res.Reasoning)
	for _, c := range res.Calls {
		fmt.Fprintf(&b, "call %s %s\n", c.Name, c.Arguments)
	}
	for _, e := range res.Errors {
		fmt.Fprintf(&b, "error %s %q\n", e.Code, e.Message)
	}
	return b.String()
}

// The marker prefilter changes no decision: detection with it and without
// it gives the same dialect, reason, candidates and result, over the
// corpus and random outputs built from every dialect's markers, with and
// without declared tools, and starting in reasoning.
func TestPrefilterDecidesAsBefore(t *testing.T) {
	vs, err := corpustest.Dialects()
	if err != nil {
		t.Fatal(err)
	}
	tools := fuzzcheck.CorpusTools(t)
	var texts []string
	for _, v := range vs {
		texts = append(texts, v.Text)
	}
	for _, name := range registry.Names() {
		d, _ := registry.Lookup(name)
		markers := fuzzcheck.MarkersOf(d)
		if sd, ok := d.(interface{ Syntax() dialects.Syntax }); ok {
			markers = append(markers, sd.Syntax().Tokens...)
		}
		r := rand.New(rand.NewPCG(3, uint64(len(name))))
		for range 60 {
			texts = append(texts, fuzzcheck.Build(r, markers).Text)
		}
	}
	defer registry.SetPrefilter(true)
	for _, text := range texts {
		for i, o := range []*registry.Options{{}, {Tools: tools}, regOpts(dialects.Options{ReasoningOpen: true}, registry.Options{})} {
			registry.SetPrefilter(true)
			with := detectionOf(text, o)
			registry.SetPrefilter(false)
			without := detectionOf(text, o)
			if with != without {
				t.Errorf("%q (options %d): with the prefilter\n%s\nwithout\n%s", text, i, with, without)
			}
		}
	}
}

// BenchmarkDetectRepeatedMarker measures detection over an output that
// repeats one dialect's call marker, with the prefilter off and on: most
// dialects find none of their markers in it and are not run.
func BenchmarkDetectRepeatedMarker(b *testing.B) {
	call := "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>\n"
	for name, text := range map[string]string{
		"tool_call-markers-100k": strings.Repeat("<tool_call>\n", 100_000),
		"hermes-calls-10k":       strings.Repeat(call, 10_000),
	} {
		for _, on := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/prefilter=%v", name, on), func(b *testing.B) {
				defer registry.SetPrefilter(registry.SetPrefilter(on))
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					registry.Parse(text, &registry.Options{MaxCalls: -1})
				}
			})
		}
	}
}

// A prefiltered dialect keeps its promise (dialects.Prefiltered): in a
// text that holds none of its triggers and none of its markers, Extract
// finds no call, no marker and no error. The texts are the corpus and
// random outputs built from every dialect's markers, each with the
// dialect's triggers and markers cut out.
func TestTriggersHold(t *testing.T) {
	vs, err := corpustest.Dialects()
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{"The weather in Paris will be sunny (24°C) [1].", "[a, b]", "```\nx = f\n```", `{"a": 1}`}
	for _, v := range vs {
		texts = append(texts, v.Text)
	}
	r := rand.New(rand.NewPCG(5, 7))
	var all []string
	for _, name := range registry.Names() {
		d, _ := registry.Lookup(name)
		all = append(all, fuzzcheck.MarkersOf(d)...)
	}
	for range 300 {
		texts = append(texts, fuzzcheck.Build(r, all).Text)
	}
	tools := fuzzcheck.CorpusTools(t)
	for _, name := range registry.Names() {
		d, _ := registry.Lookup(name)
		pf, ok := d.(dialects.Prefiltered)
		if !ok || len(pf.Triggers()) == 0 {
			continue
		}
		cut := pf.Triggers()
		if m, ok := d.(dialects.Marked); ok {
			cut = append(cut, m.Markers()...)
		}
		for _, text := range texts {
			for changed := true; changed; {
				changed = false
				for _, lit := range cut {
					if lit != "" && strings.Contains(text, lit) {
						text, changed = strings.ReplaceAll(text, lit, ""), true
					}
				}
			}
			for _, opts := range []*dialects.Options{{}, {Tools: tools}} {
				ext := d.Extract(text, opts)
				res := dialects.Finish(name, ext, opts)
				if len(res.Calls) > 0 || ext.Marked || len(res.Errors) > 0 {
					t.Errorf("%s finds %d call(s), marked %v, errors %v in %q, which holds none of its triggers %q", name, len(res.Calls), ext.Marked, res.Errors, text, pf.Triggers())
				}
			}
		}
	}
}
