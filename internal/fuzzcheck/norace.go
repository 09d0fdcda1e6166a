//go:build !race

package fuzzcheck

// Race reports whether the race detector is on. Hostile inputs are scaled
// down under it: it slows parsing by an order of magnitude, and the point
// of a race run is interleavings, not sizes.
const Race = false
