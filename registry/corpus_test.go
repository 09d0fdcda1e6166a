package registry_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/corpustest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/schema"
)

// TestCorpusNamed runs every peer vector (each file of
// corpustest.PeerFiles) through the default registry with its dialect
// named: calls, content and reasoning must match.
func TestCorpusNamed(t *testing.T) {
	for _, file := range corpustest.PeerFiles {
		t.Run(file, func(t *testing.T) {
			vs, err := corpustest.Load(file)
			if err != nil {
				t.Fatal(err)
			}
			passed := corpustest.Run(t, vs, func(v corpustest.Vector, tools *schema.Set) *toolcall.Result {
				opts := &registry.Options{Dialect: v.Dialect}
				opts.Tools = tools
				return registry.Parse(v.Text, opts)
			})
			t.Logf("%s named: %d/%d vectors pass", file, passed, len(vs))
		})
	}
}

// TestCorpusDetected runs every peer vector with no dialect named. Calls
// must match for every vector, and no call may be invented on a negative
// vector.
func TestCorpusDetected(t *testing.T) {
	for _, file := range corpustest.PeerFiles {
		t.Run(file, func(t *testing.T) {
			vs, err := corpustest.Load(file)
			if err != nil {
				t.Fatal(err)
			}
			testDetected(t, file, vs)
		})
	}
}

func testDetected(t *testing.T, file string, vs []corpustest.Vector) {
	errata, err := corpustest.Errata()
	if err != nil {
		t.Fatal(err)
	}
	type tally struct{ pass, total int }
	per := map[string]*tally{}
	invented := 0
	for _, v := range vs {
		tools, err := v.ToolSet()
		if err != nil {
			t.Fatal(err)
		}
		opts := &registry.Options{}
		opts.Tools = tools
		res, det := registry.Default().ParseDetect(v.Text, opts)
		tl := per[v.Dialect]
		if tl == nil {
			tl = &tally{}
			per[v.Dialect] = tl
		}
		tl.total++
		if corpustest.Skip(errata, v.ID, true) {
			continue
		}
		if len(v.Expected) == 0 && len(res.Calls) > 0 {
			invented++
		}
		if err := v.CheckCalls(res.Calls); err != nil {
			t.Errorf("%s [%s, detected %q: %s]: %v\ntext: %q", v.ID, v.Dialect, det.Dialect, det.Reason, err, v.Text)
			continue
		}
		tl.pass++
	}
	names := make([]string, 0, len(per))
	for n := range per {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	pass, total := 0, 0
	for _, n := range names {
		fmt.Fprintf(&b, "  %-18s %3d/%3d\n", n, per[n].pass, per[n].total)
		pass += per[n].pass
		total += per[n].total
	}
	t.Logf("%s detected: %d/%d vectors pass, %d calls invented on negatives\n%s", file, pass, total, invented, b.String())
	if invented > 0 {
		t.Errorf("%d negative vectors got invented calls", invented)
	}
}
