// Package benchmarks measures the library against its peers: the lenient
// repair pipeline against github.com/kaptinlin/jsonrepair on the repair
// corpus (pass rate, with the same semantic check for both, and
// throughput), and parsing against Ollama's own parsers side by side
// (ollama_test.go; docs/performance.md has the table and how it is made).
// It is a separate module so that the comparisons' dependencies stay out
// of the library's go.mod.
//
//	cd benchmarks
//	go test -run TestPassRate -v
//	go test -run XXX -bench . -benchtime 2s
//	DIALECTKIT_OLLAMA_TABLE=15 go test -run TestOllamaTable -v
package benchmarks
