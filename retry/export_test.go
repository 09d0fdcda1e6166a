package retry

import "math/rand/v2"

// SetRand seeds the loop's backoff jitter, for tests that compare waits.
func SetRand(l *Loop, r *rand.Rand) { l.rnd = r }
