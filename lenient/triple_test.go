package lenient

import (
	"bytes"
	"testing"
)

// TestHasTripleQuote compares the skipping search with the plain one at
// every placement of a run in short texts.
func TestHasTripleQuote(t *testing.T) {
	for _, base := range []string{"", "a", "ab", "abcdefgh", `'"'"`, `''"'"`} {
		for _, run := range []string{`'''`, `"""`, `''`, `""`, `'"'`, `''''`} {
			for i := 0; i <= len(base); i++ {
				text := []byte(base[:i] + run + base[i:])
				want := bytes.Contains(text, []byte(`'''`)) || bytes.Contains(text, []byte(`"""`))
				if got := hasTripleQuote(text); got != want {
					t.Errorf("%q: %v, want %v", text, got, want)
				}
			}
		}
	}
}
