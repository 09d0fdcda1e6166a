// Package apicheck holds the tests that keep the module's public API and
// its import graph honest: the exported API is the one reviewed in
// testdata/api.txt (regenerated with go test ./internal/apicheck -run
// TestAPIGolden -update, see CONTRIBUTING.md), no exported function,
// method, field or variable typed as a pointer to an error type (the
// typed-nil trap), no third-party type in an exported signature, and a
// parser that imports lightly. It has no code of its own.
package apicheck
