// Package parallel splits index ranges into contiguous blocks and runs them
// on all available cores. It is the one place where semitopic decides how hot
// loops are spread over goroutines.
package parallel
