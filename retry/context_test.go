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

// slowParse takes a second to read any text, as a long parse of a huge
// answer would.
type slowParse struct {
	name string
	runs *atomic.Int32
}

func (d slowParse) Name() string { return d.name }

func (d slowParse) Extract(text string, _ *dialects.Options) *dialects.Extraction {
	d.runs.Add(1)
	time.Sleep(time.Second)
	return &dialects.Extraction{Content: text}
}

// TestRunDeadlineDuringParse: the deadline of a run passes while its
// answer is being parsed; the run ends at the deadline with TLP-022, not
// after the parse.
func TestRunDeadlineDuringParse(t *testing.T) {
	var runs atomic.Int32
	reg := registry.New(slowParse{"slow_a", &runs}, slowParse{"slow_b", &runs}, slowParse{"slow_c", &runs})
	m := &fakeModel{steps: []step{text("a long answer")}}
	cfg := config.Default()
	loop := &retry.Loop{Model: m, Registry: reg, Config: &cfg}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	begin := time.Now()
	out, err := loop.Run(ctx, userTurn())
	took := time.Since(begin)
	if took > 700*time.Millisecond {
		t.Errorf("Run returned after %v; its deadline was 100ms and a full parse takes 3s", took)
	}
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
