package harmony_test

import (
	"testing"

	"github.com/dialectkit/toolcall/dialects/harmony"
	"github.com/dialectkit/toolcall/internal/fuzzcheck"
)

// FuzzParse checks the properties every parse has (internal/fuzzcheck):
// no panic or hang, coded errors, compact JSON object arguments that
// satisfy the declared tools and the depth limit, and the same result on a
// second parse, for every dialect of the package in every option mode.
func FuzzParse(f *testing.F) { fuzzcheck.FuzzDialects(f, harmony.Dialect) }
