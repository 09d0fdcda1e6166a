package corpustest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/schema"
)

// ParseFunc parses one vector's text with its declared tools (nil if none).
type ParseFunc func(v Vector, tools *schema.Set) *toolcall.Result

// Differences lists vectors whose expected content or reasoning follows one
// peer's choice that this project deliberately does not make, with the
// reason. Calls are never excused: every vector's calls must match.
// It is read from testdata/corpus/differences/*.json, one file per dialect
// or family, each an object from vector id to reason.
func Differences() (map[string]string, error) {
	root, err := Root()
	if err != nil {
		return nil, err
	}
	files, err := filepath.Glob(filepath.Join(root, "testdata", "corpus", "differences", "*.json"))
	if err != nil {
		return nil, err
	}
	m := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Base(f), err)
		}
	}
	return m, nil
}

// Erratum records a vector whose expected calls this project believes are
// wrong: they contradict the dialect catalogue or other vectors. Run skips
// such a vector (with DetectedOnly, only when the dialect is detected) and
// counts it as not passed, so pass rates stay honest.
type Erratum struct {
	Reason       string `json:"reason"`
	DetectedOnly bool   `json:"detected_only"`
}

// Errata reads testdata/corpus/errata.json.
func Errata() (map[string]Erratum, error) {
	root, err := Root()
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(filepath.Join(root, "testdata", "corpus", "errata.json"))
	if os.IsNotExist(err) {
		return map[string]Erratum{}, nil
	}
	if err != nil {
		return nil, err
	}
	m := map[string]Erratum{}
	return m, json.Unmarshal(b, &m)
}

// Skip reports whether a vector is an erratum in the given mode.
func Skip(errata map[string]Erratum, id string, detected bool) bool {
	e, ok := errata[id]
	return ok && (detected || !e.DetectedOnly)
}

// Run checks every vector with parse: calls always, content and reasoning
// unless the vector is listed in Differences. It returns the number of
// vectors whose calls passed.
func Run(t *testing.T, vs []Vector, parse ParseFunc) (passed int) {
	t.Helper()
	diffs, err := Differences()
	if err != nil {
		t.Fatalf("differences: %v", err)
	}
	errata, err := Errata()
	if err != nil {
		t.Fatalf("errata.json: %v", err)
	}
	for _, v := range vs {
		if Skip(errata, v.ID, false) {
			t.Logf("%s: skipped as an erratum: %s", v.ID, errata[v.ID].Reason)
			continue
		}
		tools, err := v.ToolSet()
		if err != nil {
			t.Errorf("%s: tools: %v", v.ID, err)
			continue
		}
		res := parse(v, tools)
		if err := v.CheckCalls(res.Calls); err != nil {
			t.Errorf("%s [%s]: %v (errors: %v)\ntext: %q", v.ID, v.Dialect, err, res.Errors, v.Text)
			continue
		}
		passed++
		if _, excused := diffs[v.ID]; excused {
			continue
		}
		if err := v.CheckContent(res.Content); err != nil {
			t.Errorf("%s [%s]: %v\ntext: %q", v.ID, v.Dialect, err, v.Text)
		}
		if err := v.CheckReasoning(res.Reasoning); err != nil {
			t.Errorf("%s [%s]: %v\ntext: %q", v.ID, v.Dialect, err, v.Text)
		}
	}
	return passed
}

// RunDialects runs, for each dialect, every dev vector of that dialect with
// the dialect named, as a subtest, and logs the pass counts.
func RunDialects(t *testing.T, ds ...dialects.Dialect) {
	t.Helper()
	vs, err := Dialects()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		t.Run(d.Name(), func(t *testing.T) {
			own := ForDialect(vs, d.Name())
			passed := Run(t, own, func(v Vector, tools *schema.Set) *toolcall.Result {
				return dialects.Parse(d, v.Text, &dialects.Options{Tools: tools})
			})
			t.Logf("%s: %d/%d vectors pass", d.Name(), passed, len(own))
		})
	}
}
