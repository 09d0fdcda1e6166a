//go:build race

package lenient

// raceEnabled reports whether the race detector is on: it slows parsing by
// an order of magnitude, so timed hostile runs use smaller inputs under it
// (the full size runs without it, in the long suite).
const raceEnabled = true
