package registry_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/registry"
)

// gatedDialect reads any text only once its gate opens, as a long parse
// of a huge output takes as long as it takes, and counts the parses that
// began. The tests below decide nothing by a clock: a parse that returns
// while the gate is shut did not wait for the parse under way.
type gatedDialect struct {
	name string
	g    *gate
}

// gate holds every gatedDialect of a test until it opens.
type gate struct {
	runs    atomic.Int32
	release chan struct{}
	once    sync.Once
}

// newGate returns a shut gate. It opens on its own after 20 s (a parse
// that waited for the one under way then returns, and the test reports
// it) and when the test ends, so that no parse is left waiting.
func newGate(t *testing.T) *gate {
	g := &gate{release: make(chan struct{})}
	stop := time.AfterFunc(20*time.Second, g.open)
	t.Cleanup(func() { stop.Stop(); g.open() })
	return g
}

// open lets every parse held, and every later one, go on.
func (g *gate) open() { g.once.Do(func() { close(g.release) }) }

// isOpen reports whether the gate was opened.
func (g *gate) isOpen() bool {
	select {
	case <-g.release:
		return true
	default:
		return false
	}
}

// noMoreThan opens the gate and checks that no more than n parses begin
// while the parse under way ends and whatever follows it runs. It watches
// for half a second: a late parse may be missed, a parse is never
// reported that did not begin.
func (g *gate) noMoreThan(t *testing.T, n int32, what string) {
	t.Helper()
	g.open()
	for range 20 {
		if got := g.runs.Load(); got > n {
			t.Fatalf("%d parses began, want at most %d: %s", got, n, what)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

func (d gatedDialect) Name() string { return d.name }

func (d gatedDialect) Extract(text string, _ *dialects.Options) *dialects.Extraction {
	d.g.runs.Add(1)
	<-d.g.release
	return &dialects.Extraction{Content: text}
}

func gated(g *gate, names ...string) []dialects.Dialect {
	var ds []dialects.Dialect
	for _, name := range names {
		ds = append(ds, gatedDialect{name: name, g: g})
	}
	return ds
}

// TestParseContextHonoursDeadline: a parse whose context ends returns at
// once with a TLP-022 error holding the text, stops trying dialects, and
// a parse under a context with room left is the parse Parse gives.
func TestParseContextHonoursDeadline(t *testing.T) {
	g := newGate(t)
	reg := registry.New(gated(g, "slow_a", "slow_b", "slow_c")...)
	text := "some output " + strings.Repeat("x", 1000)

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	res, det := reg.ParseDetectContext(ctx, text, nil)
	// The gate is shut: the parse under way cannot have ended.
	if g.isOpen() {
		t.Fatal("ParseDetectContext returned only once the parse under way ended")
	}
	if len(res.Calls) != 0 || len(res.Errors) != 1 || res.Errors[0].Code != toolcall.CodeCanceled ||
		res.Errors[0].Raw != text || !errors.Is(res.Errors[0], context.DeadlineExceeded) {
		t.Errorf("result = %+v, errors %v; want one TLP-022 holding the text", res, res.Errors)
	}
	if det.Dialect != "" {
		t.Errorf("detection chose %q after the deadline", det.Dialect)
	}
	// The dialect under way (if it began before the deadline) finishes;
	// no other one starts.
	g.noMoreThan(t, 1, "dialects ran after the deadline, want only the one under way")

	// Already done: nothing runs.
	g.runs.Store(0)
	done, cancelDone := context.WithCancel(context.Background())
	cancelDone()
	if res := reg.ParseContext(done, text, nil); len(res.Errors) != 1 || !errors.Is(res.Errors[0], context.Canceled) || g.runs.Load() != 0 {
		t.Errorf("cancelled context: %v, %d parses", res.Errors, g.runs.Load())
	}

	// Room left: the same result as Parse.
	in := `I will check. <tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>`
	ctx2, cancel2 := context.WithTimeout(context.Background(), time.Minute)
	defer cancel2()
	got, want := registry.ParseContext(ctx2, in, nil), registry.Parse(in, nil)
	if got.Dialect != want.Dialect || len(got.Calls) != 1 || got.Calls[0].Name != want.Calls[0].Name || got.Content != want.Content {
		t.Errorf("ParseContext = %+v, Parse = %+v", got, want)
	}
}

// TestParseContextFallbackStops: the fallback chain stops too.
func TestParseContextFallbackStops(t *testing.T) {
	g := newGate(t)
	reg := registry.New(gated(g, "slow_a", "slow_b", "slow_c")...)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	res := reg.ParseContext(ctx, "text", &registry.Options{Dialect: "slow_a", Fallback: []string{"slow_b", "slow_c"}})
	if g.isOpen() {
		t.Fatal("ParseContext returned only once the parse under way ended")
	}
	if len(res.Errors) != 1 || res.Errors[0].Code != toolcall.CodeCanceled {
		t.Errorf("errors %v, want TLP-022", res.Errors)
	}
	g.noMoreThan(t, 1, "want the named dialect's only")
}
