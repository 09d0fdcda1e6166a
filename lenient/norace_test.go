//go:build !race

package lenient

const raceEnabled = false
