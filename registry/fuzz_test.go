package registry_test

import (
	"slices"
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/fuzzcheck"
	"github.com/dialectkit/toolcall/registry"
)

// FuzzDetect fuzzes detection over every built-in dialect: the output, the
// option mode of the shared harness, a dialect hint and a model name. On
// every input the result must have the properties of
// fuzzcheck.CheckResult, detection must name a registered dialect (or
// none) with the result's dialect, rank its candidates best first, give
// the same answer twice (the second time without the marker prefilter),
// and give the result the chosen dialect gives when it is named.
func FuzzDetect(f *testing.F) {
	reg := registry.Default()
	names := reg.Names()
	for i, s := range fuzzcheck.Seeds(f, reg.Dialects()...) {
		f.Add(s, uint8(i%2), uint8(0), "")
	}
	f.Add(`<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>`, uint8(1), uint8(3), "qwen3:8b")
	f.Add("[get_weather(city='Paris')]", uint8(0), uint8(0), "llama3.2")
	tools := fuzzcheck.CorpusTools(f)
	f.Fuzz(func(t *testing.T, text string, mode, hint uint8, model string) {
		opts := regOpts(*fuzzcheck.Options(mode, tools), registry.Options{Model: model})
		if n := int(hint) % (len(names) + 8); n < len(names) {
			opts.Dialect = names[n] // a hint one time in about seven
			opts.Fallback = []string{"json", "hermes"}
		}
		res, det := reg.ParseDetect(text, opts)
		do := opts.DialectOptions()
		if err := fuzzcheck.CheckResult(res, text, &do); err != nil {
			t.Fatalf("%v\ntext: %q", err, text)
		}
		if err := fuzzcheck.CheckWords(res, text); err != nil {
			t.Fatalf("nothing disappears: %v\ntext: %q", err, text)
		}
		if det.Dialect != "" && !slices.Contains(names, det.Dialect) {
			t.Fatalf("detected %q, which is not registered", det.Dialect)
		}
		if res.Dialect != det.Dialect {
			t.Fatalf("result names %q, detection %q", res.Dialect, det.Dialect)
		}
		if opts.Dialect != "" {
			// A named parse builds no Detection: the result is the same.
			if err := fuzzcheck.SameResult(res, reg.Parse(text, opts)); err != nil {
				t.Fatalf("Parse and ParseDetect differ: %v\ntext: %q", err, text)
			}
		}
		for i := 1; i < len(det.Candidates); i++ {
			if det.Candidates[i].Score > det.Candidates[i-1].Score {
				t.Fatalf("candidates out of order: %+v", det.Candidates)
			}
		}
		// The same again, without the marker prefilter: it may change
		// no decision.
		registry.SetPrefilter(false)
		again, det2 := reg.ParseDetect(text, opts)
		registry.SetPrefilter(true)
		if err := fuzzcheck.SameResult(res, again); err != nil || det2.Dialect != det.Dialect || det2.Reason != det.Reason || len(det2.Candidates) != len(det.Candidates) {
			t.Fatalf("not deterministic, or the prefilter changed the decision: %v (%q then %q, %d then %d candidates)", err, det.Dialect, det2.Dialect, len(det.Candidates), len(det2.Candidates))
		}
		if det.Dialect != "" && opts.Dialect == "" {
			d, _ := reg.Lookup(det.Dialect)
			named := dialects.Parse(d, text, &do)
			if err := fuzzcheck.SameResult(res, named); err != nil {
				t.Fatalf("detected %s, but naming it gives another result: %v", det.Dialect, err)
			}
		}
		if name, _ := reg.DialectForModel(model); name != "" && !slices.Contains(names, name) {
			t.Fatalf("model %q maps to unregistered dialect %q", model, name)
		}
	})
}
