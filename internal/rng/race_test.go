//go:build race

package rng

// The race detector slows the long stream comparisons tenfold; CI runs them
// in full without it.
func init() { raceDetector = true }
