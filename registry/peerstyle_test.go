package registry_test

import (
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/corpustest"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
)

// TestPeerStyleVectors runs the project's own vectors, written in the
// shape of the peer parsers' test suites (testdata/corpus/
// dialects.own.jsonl): every vector with its dialect named (calls, content
// and reasoning), under detection (calls, and the dialect detected must
// read them), and streamed both ways, every cut agreeing with the one-shot
// answer.
func TestPeerStyleVectors(t *testing.T) {
	vs, err := corpustest.Load("dialects.own.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	named, detected := 0, 0
	for _, v := range vs {
		t.Run(v.ID, func(t *testing.T) {
			tools, err := v.ToolSet()
			if err != nil {
				t.Fatal(err)
			}
			opts := &registry.Options{Dialect: v.Dialect}
			opts.Tools = tools
			res := registry.Parse(v.Text, opts)
			ok := true
			for _, err := range []error{v.CheckCalls(res.Calls), v.CheckContent(res.Content), v.CheckReasoning(res.Reasoning)} {
				if err != nil {
					t.Errorf("named: %v (errors %v)\ntext: %q", err, res.Errors, v.Text)
					ok = false
				}
			}
			if ok {
				named++
			}
			d, _ := registry.Lookup(v.Dialect)
			if err := streamtest.Check(d, v.Text, v.Chunks, &dialects.Options{Tools: tools}); err != nil {
				t.Errorf("named stream: %v", err)
			}

			dopts := &registry.Options{}
			dopts.Tools = tools
			dres, det := registry.Default().ParseDetect(v.Text, dopts)
			if err := v.CheckCalls(dres.Calls); err != nil {
				t.Errorf("detected %q (%s): %v (errors %v)\ntext: %q", det.Dialect, det.Reason, err, dres.Errors, v.Text)
			} else {
				detected++
			}
			for i, cut := range streamtest.Cuts(v.Text, v.Chunks, true) {
				p := registry.Default().Stream(dopts)
				if err := streamtest.Compare(dres, p, streamtest.Feed(p, cut)); err != nil {
					t.Fatalf("detected stream cut %d: %v", i, err)
				}
			}
		})
	}
	t.Logf("own vectors: %d/%d named, %d/%d detected", named, len(vs), detected, len(vs))
}
