package pythonic_test

import (
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/pythonic"
	"github.com/dialectkit/toolcall/internal/corpustest"
	"github.com/dialectkit/toolcall/schema"
)

// corpusDefects are vectors whose expectation cannot hold as extracted: the
// peer's test declared tools that the vector does not carry. They are
// checked below against what the source test declared instead.
var corpusDefects = map[string]string{
	"ollama/model/parsers/lfm2_test.go#TestLFM2Parser_BareToolCallFallback": "Ollama's test declares get_weather; " +
		"the vector lost it, and its twin TestLFM2Parser_BareUnknownToolCallDoesNotParse (same shape, undeclared name) must give no call",
}

func TestCorpus(t *testing.T) {
	vs, err := corpustest.Dialects()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range pythonic.All() {
		t.Run(d.Name(), func(t *testing.T) {
			var own []corpustest.Vector
			for _, v := range corpustest.ForDialect(vs, d.Name()) {
				if _, defect := corpusDefects[v.ID]; !defect {
					own = append(own, v)
				}
			}
			passed := corpustest.Run(t, own, func(v corpustest.Vector, tools *schema.Set) *toolcall.Result {
				return dialects.Parse(d, v.Text, &dialects.Options{Tools: tools})
			})
			t.Logf("%s: %d/%d corpus vectors pass", d.Name(), passed, len(own))
		})
	}
}

// TestCorpusDefects checks the defective vectors with the tools their
// source test declared, and without any (as extracted).
func TestCorpusDefects(t *testing.T) {
	vs, err := corpustest.Dialects()
	if err != nil {
		t.Fatal(err)
	}
	declared := toolSet(t, `[{"name": "get_weather", "parameters": {"type": "object", "properties": {"location": {"type": "string"}}}}]`)
	for _, v := range vs {
		if _, defect := corpusDefects[v.ID]; !defect {
			continue
		}
		if res := dialects.Parse(pythonic.LFM2, v.Text, &dialects.Options{Tools: declared}); v.CheckCalls(res.Calls) != nil {
			t.Errorf("%s with its source tools: %v", v.ID, v.CheckCalls(res.Calls))
		}
		if res := dialects.Parse(pythonic.LFM2, v.Text, nil); len(res.Calls) != 0 {
			t.Errorf("%s without tools: %d calls, want none", v.ID, len(res.Calls))
		}
	}
}
