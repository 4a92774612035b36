// Command products times the sparse products of one NMF iteration on a
// large MatrixMarket corpus (semitopic synth's, for example): X·Hᵀ (the W
// update's numerator, gathering rows of Hᵀ), Xᵀ·W (the H update's,
// gathering rows of W through the transpose) and aᵀ·b by the tiled
// scatter of sparse.TMulDense, and what one fused pass over X costs that
// gathers Hᵀ for a row of W and then scatters that row into per-worker H
// numerators (the arithmetic of both products without Xᵀ; the nmf engine
// does not do this yet). For measurement only; never part of go test.
//
//	go run ./bench/products -mtx /tmp/nyt/x.mtx -k 100
package main
