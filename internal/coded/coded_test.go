package coded

import (
	"fmt"
	"testing"

	"github.com/dialectkit/toolcall"
)

func TestErrNilIsNil(t *testing.T) {
	var e *toolcall.Error
	if err := Err(e); err != nil {
		t.Fatalf("Err(nil) = %#v, want a nil error", err)
	}
	e = toolcall.NewError(toolcall.CodeSchema, "x")
	if err := Err(e); err != e {
		t.Fatalf("Err(e) = %v", err)
	}
}

func TestAs(t *testing.T) {
	e := toolcall.NewError(toolcall.CodeSchema, "x")
	if got := As(fmt.Errorf("wrapped: %w", e)); got != e {
		t.Fatalf("As = %v", got)
	}
	if got := As(fmt.Errorf("plain")); got != nil {
		t.Fatalf("As(plain) = %v", got)
	}
	if got := As(nil); got != nil {
		t.Fatalf("As(nil) = %v", got)
	}
}

func TestAsAllocatesNothing(t *testing.T) {
	e := toolcall.NewError(toolcall.CodeSchema, "x")
	var err error = e
	if n := testing.AllocsPerRun(100, func() {
		if As(nil) != nil || As(err) != e {
			t.Fatal("wrong error")
		}
	}); n != 0 {
		t.Fatalf("As allocates %v times per call", n)
	}
}
