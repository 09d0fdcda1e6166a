package gemma_test

import (
	"testing"

	"github.com/dialectkit/toolcall/dialects/gemma"
	"github.com/dialectkit/toolcall/internal/fuzzcheck"
)

// TestHostileHarness runs the shared hostile inputs (internal/fuzzcheck)
// through every dialect of the package: each must end in valid calls or
// coded errors, never a panic, a hang or a call lost without an error. It
// logs the time and memory each input took.
func TestHostileHarness(t *testing.T) { fuzzcheck.HostileDialects(t, gemma.All()...) }
