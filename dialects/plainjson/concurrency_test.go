package plainjson_test

import (
	"testing"

	"github.com/dialectkit/toolcall/dialects/plainjson"
	"github.com/dialectkit/toolcall/internal/fuzzcheck"
)

// TestConcurrentParse parses the fuzz seeds from many goroutines at once
// with one shared tool set; every result must equal the one-goroutine
// result. Run it with -race.
func TestConcurrentParse(t *testing.T) { fuzzcheck.ConcurrentDialects(t, plainjson.Dialect) }
