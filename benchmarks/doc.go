// Package benchmarks measures the lenient repair pipeline against
// github.com/kaptinlin/jsonrepair on the repair corpus: pass rate (the
// same semantic check for both) and throughput. It is a separate module so
// that the comparison's dependency stays out of the library's go.mod.
//
//	cd benchmarks
//	go test -run TestPassRate -v
//	go test -run XXX -bench . -benchtime 2s
package benchmarks
