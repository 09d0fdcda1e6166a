package toolcall

import (
	"crypto/rand"
	"sync"
)

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

// entropy holds bytes read from crypto/rand ahead of need: one read serves
// many ids (a call id takes 8 bytes), where a read per id costs a system
// call. Each byte is handed out once.
var entropy struct {
	sync.Mutex
	buf  [512]byte
	next int // buf[next:] is unused; len(buf) when empty
}

func init() { entropy.next = len(entropy.buf) }

// randomBytes fills b with bytes from crypto/rand, through entropy when b
// is small.
func randomBytes(b []byte) {
	if len(b) > len(entropy.buf)/4 {
		_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
		return
	}
	entropy.Lock()
	if len(entropy.buf)-entropy.next < len(b) {
		_, _ = rand.Read(entropy.buf[:])
		entropy.next = 0
	}
	n := copy(b, entropy.buf[entropy.next:])
	clear(entropy.buf[entropy.next : entropy.next+n])
	entropy.next += n
	entropy.Unlock()
}
