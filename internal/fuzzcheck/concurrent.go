package fuzzcheck

import (
	"sync"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/lenient"
)

// Workers is how many goroutines the concurrency checks run at once.
const Workers = 8

// Concurrently runs parse on every text from Workers goroutines at once,
// each in its own order, with the same options, and fails t when a result
// differs from the one a single goroutine got. Run it under -race: shared
// state a parser writes to shows up there.
func Concurrently(t *testing.T, texts []string, opts *dialects.Options, parse ParseFunc) {
	t.Helper()
	want := make([]*toolcall.Result, len(texts))
	for i, text := range texts {
		want[i] = parse(text, opts)
	}
	var wg sync.WaitGroup
	errs := make(chan error, Workers)
	for w := range Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range texts {
				// Each worker starts elsewhere; odd ones go backwards.
				i := (k + w*len(texts)/Workers) % len(texts)
				if w%2 == 1 {
					i = len(texts) - 1 - i
				}
				if err := SameResult(want[i], parse(texts[i], opts)); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("concurrent parse differs: %v", err)
	}
}

// ConcurrentDialects runs Concurrently for each dialect over its fuzz seeds,
// with the corpus tools declared, so that the dialects and the shared
// schema set are used from many goroutines.
func ConcurrentDialects(t *testing.T, ds ...dialects.Dialect) {
	t.Helper()
	seeds := Seeds(t, ds...)
	// No time budget: under load it would make results differ by timing.
	opts := &dialects.Options{Tools: CorpusTools(t, dialectNames(ds)...), Lenient: lenient.Options{Timeout: -1}}
	for _, d := range ds {
		t.Run(d.Name(), func(t *testing.T) {
			Concurrently(t, seeds, opts, func(text string, opts *dialects.Options) *toolcall.Result {
				return dialects.Parse(d, text, opts)
			})
		})
	}
}
