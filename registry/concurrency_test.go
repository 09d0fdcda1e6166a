package registry_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/fuzzcheck"
	"github.com/dialectkit/toolcall/lenient"
	"github.com/dialectkit/toolcall/registry"
)

// TestConcurrentDetection runs detection on the fuzz seeds of every
// built-in dialect from many goroutines at once, with one shared tool set,
// a chat template and a model name as evidence: every result must equal
// the one-goroutine result. Run it with -race.
func TestConcurrentDetection(t *testing.T) {
	reg := registry.Default()
	seeds := fuzzcheck.Seeds(t, reg.Dialects()...)
	opts := &dialects.Options{Tools: fuzzcheck.CorpusTools(t), Lenient: lenient.Options{Timeout: -1}}
	fuzzcheck.Concurrently(t, seeds, opts, func(text string, opts *dialects.Options) *toolcall.Result {
		return reg.Parse(text, regOpts(*opts, registry.Options{Model: "qwen3:8b", Template: "{{ .Tools }}<tool_call>"}))
	})
}

// TestConcurrentDialects runs every built-in dialect on its fuzz seeds from
// many goroutines at once (fuzzcheck.ConcurrentDialects).
func TestConcurrentDialects(t *testing.T) {
	if testing.Short() {
		t.Skip("every dialect on every seed")
	}
	fuzzcheck.ConcurrentDialects(t, registry.Default().Dialects()...)
}

// TestConcurrentRegistration changes a registry (dialects, model and
// template rules) while other goroutines parse, detect and read its
// tables. The added dialects mark text with markers that never occur, so
// the parses must give what they gave before the changes.
func TestConcurrentRegistration(t *testing.T) {
	reg := registry.New(registry.Default().Dialects()...)
	seeds := fuzzcheck.Seeds(t, reg.Dialects()...)
	want := make([]*toolcall.Result, len(seeds))
	for i, s := range seeds {
		want[i] = reg.Parse(s, nil)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := range 4 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for i := range 25 {
				name := fmt.Sprintf("extra_%d_%d", w, i)
				if err := reg.Register(tagged{name: name, marker: "<never-" + name + ">"}); err != nil {
					errs <- err
					return
				}
				reg.AddModelRule(registry.ModelRule{Pattern: name, Dialect: name})
				reg.AddTemplateRule(registry.TemplateRule{All: []string{"<never-" + name + ">"}, Dialect: name})
			}
		}()
		go func() {
			defer wg.Done()
			for i, s := range seeds {
				if i%4 != w {
					continue
				}
				if err := fuzzcheck.SameResult(want[i], reg.Parse(s, nil)); err != nil {
					errs <- fmt.Errorf("seed %d: %w", i, err)
					return
				}
				reg.Names()
				reg.Lookup("hermes")
				reg.DialectForModel("qwen3:8b")
				reg.DialectsForTemplate("<tool_call>")
				reg.ModelRules()
				reg.TemplateRules()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := len(reg.Names()); n != len(registry.Default().Names())+100 {
		t.Errorf("%d dialects after 100 registrations", n)
	}
}
