// Package parallel splits index ranges into contiguous blocks and runs them
// on all available cores. It is the one place where semitopic decides how hot
// loops are spread over goroutines: For and ForWeighted give each goroutine
// one fixed block (by count or by weight), so that per-block partial results
// can be combined in a deterministic order; ForDynamic hands out small chunks
// on demand, for items of uneven cost, with per-worker scratch state, errors
// and cancellation.
package parallel
