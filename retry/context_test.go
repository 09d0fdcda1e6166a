package retry_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/retry"
)

// slowParse reads any text only once release is closed, as a long parse
// of a huge answer would take its time: it counts the parses begun (runs)
// and ended (done). A parse not released ends on its own after a long
// wait, so that a run that waits for it fails rather than hangs.
type slowParse struct {
	name       string
	runs, done *atomic.Int32
	release    <-chan struct{}
}

func (d slowParse) Name() string { return d.name }

func (d slowParse) Extract(text string, _ *dialects.Options) *dialects.Extraction {
	d.runs.Add(1)
	select {
	case <-d.release:
	case <-time.After(30 * time.Second):
	}
	d.done.Add(1)
	return &dialects.Extraction{Content: text}
}

// TestRunDeadlineDuringParse: the deadline of a run passes while its
// answer is being parsed; the run ends at the deadline with TLP-022, not
// after the parse: Run returns while every parse it began is still under
// way (they end only once the test releases them, after Run returned).
func TestRunDeadlineDuringParse(t *testing.T) {
	var runs, done atomic.Int32
	release := make(chan struct{})
	defer close(release)
	slow := func(name string) slowParse { return slowParse{name, &runs, &done, release} }
	reg := registry.New(slow("slow_a"), slow("slow_b"), slow("slow_c"))
	m := &fakeModel{steps: []step{text("a long answer")}}
	cfg := config.Default()
	loop := &retry.Loop{Model: m, Registry: reg, Config: &cfg}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	out, err := loop.Run(ctx, userTurn())
	if n := done.Load(); n > 0 {
		t.Errorf("Run returned after %d parses ended; its deadline passed while they were under way", n)
	}
	t.Logf("%d parses begun before the deadline", runs.Load())
	var e *toolcall.Error
	if !errors.As(err, &e) || e.Code != toolcall.CodeCanceled || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want TLP-022 from the deadline", err)
	}
	if out == nil || len(out.Attempts) != 1 {
		t.Fatalf("outcome %+v, want the one attempt", out)
	}
	if m.calls() != 1 {
		t.Errorf("%d requests after the deadline", m.calls())
	}
}
