package toolcall

import "crypto/rand"

const idAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789"

// NewCallID returns a fresh call id in Ollama's shape: "call_" followed by
// eight random characters from [a-z0-9].
func NewCallID() string {
	// Built in place: one allocation, the string itself.
	var b [len("call_") + 8]byte
	copy(b[:], "call_")
	randomChars(b[len("call_"):])
	return string(b[:])
}

// NewCorrelationID returns a fresh id that ties together the log records,
// errors and statistics of one tool-calling turn.
func NewCorrelationID() string { return randomString(16) }

func randomString(n int) string {
	b := make([]byte, n)
	randomChars(b)
	return string(b)
}

// randomChars fills b with random characters of idAlphabet.
func randomChars(b []byte) {
	randomBytes(b)
	for i := range b {
		b[i] = idAlphabet[int(b[i])%len(idAlphabet)]
	}
}

// randomBytes fills b with bytes from crypto/rand: about 40 ns for a call
// id's 8 bytes on Linux, where the kernel's generator is read through the
// vDSO, so nothing is read ahead into a buffer every goroutine would share.
func randomBytes(b []byte) {
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
}
