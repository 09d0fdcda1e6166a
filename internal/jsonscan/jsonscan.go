// Package jsonscan holds the byte scans over JSON text that several
// packages share, written once so they agree.
package jsonscan

import "bytes"

// StringEnd returns the offset of the quote that closes the JSON string
// opening at b[i], or len(b) when none does. It jumps from quote to quote
// (a vectorised search) and counts the backslashes before each: an even
// run leaves the quote unescaped.
func StringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return len(b)
		}
		j += k
		backslashes := 0
		for m := j - 1; m > i && b[m] == '\\'; m-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			return j
		}
		j++
	}
	return len(b)
}
