package registry_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/registry"
)

// slowDialect takes delay to read any text, as a long parse of a huge
// output would, and counts its parses.
type slowDialect struct {
	name  string
	delay time.Duration
	runs  *atomic.Int32
}

func (d slowDialect) Name() string { return d.name }

func (d slowDialect) Extract(text string, _ *dialects.Options) *dialects.Extraction {
	d.runs.Add(1)
	time.Sleep(d.delay)
	return &dialects.Extraction{Content: text}
}

// TestParseContextHonoursDeadline: a parse whose context ends returns at
// once with a TLP-022 error holding the text, stops trying dialects, and
// a parse under a context with room left is the parse Parse gives.
func TestParseContextHonoursDeadline(t *testing.T) {
	var runs atomic.Int32
	var ds []dialects.Dialect
	for _, name := range []string{"slow_a", "slow_b", "slow_c"} {
		ds = append(ds, slowDialect{name: name, delay: time.Second, runs: &runs})
	}
	reg := registry.New(ds...)
	text := "some output " + strings.Repeat("x", 1000)

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	begin := time.Now()
	res, det := reg.ParseDetectContext(ctx, text, nil)
	took := time.Since(begin)
	// A full parse takes 3 s; the margin is for a loaded machine.
	if took > 600*time.Millisecond {
		t.Errorf("ParseContext returned after %v, past its 50ms deadline", took)
	}
	if len(res.Calls) != 0 || len(res.Errors) != 1 || res.Errors[0].Code != toolcall.CodeCanceled ||
		res.Errors[0].Raw != text || !errors.Is(res.Errors[0], context.DeadlineExceeded) {
		t.Errorf("result = %+v, errors %v; want one TLP-022 holding the text", res, res.Errors)
	}
	if det.Dialect != "" {
		t.Errorf("detection chose %q after the deadline", det.Dialect)
	}
	// The dialect under way finishes; no other one starts.
	time.Sleep(time.Second + 100*time.Millisecond)
	if n := runs.Load(); n != 1 {
		t.Errorf("%d dialects ran after the deadline, want only the one under way", n)
	}

	// Already done: nothing runs.
	runs.Store(0)
	done, cancelDone := context.WithCancel(context.Background())
	cancelDone()
	if res := reg.ParseContext(done, text, nil); len(res.Errors) != 1 || !errors.Is(res.Errors[0], context.Canceled) || runs.Load() != 0 {
		t.Errorf("cancelled context: %v, %d parses", res.Errors, runs.Load())
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
	var runs atomic.Int32
	reg := registry.New(slowDialect{name: "slow_a", delay: 100 * time.Millisecond, runs: &runs},
		slowDialect{name: "slow_b", delay: 100 * time.Millisecond, runs: &runs},
		slowDialect{name: "slow_c", delay: 100 * time.Millisecond, runs: &runs})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	res := reg.ParseContext(ctx, "text", &registry.Options{Dialect: "slow_a", Fallback: []string{"slow_b", "slow_c"}})
	if len(res.Errors) != 1 || res.Errors[0].Code != toolcall.CodeCanceled {
		t.Errorf("errors %v, want TLP-022", res.Errors)
	}
	time.Sleep(250 * time.Millisecond)
	if n := runs.Load(); n != 1 {
		t.Errorf("%d parses, want the named dialect's only", n)
	}
}
