// Package sparse provides compressed sparse row (CSR) matrices of float64
// values and the kernels semitopic's models are built on: products with dense
// gonum matrices, transposition, row and column reductions, and the sampled
// product (W·H evaluated only at the non-zeros of X) that every
// Kullback–Leibler model needs. Matrices follow the package-wide convention of
// documents × terms. Hot kernels run over row blocks on all cores.
//
// Matrices are built with FromTriplets (any order, duplicates summed), a
// Builder (entries streamed one at a time, usually row by row; repeats are
// errors), FromDense, NewCSR or ReadMatrixMarket, and written with
// WriteMatrixMarket.
// The products take and fill gonum *mat.Dense values; since gonum cannot
// represent a matrix with a zero dimension, an empty *mat.Dense stands for
// one, and an empty destination is allocated with the result's shape.
// Errors name the entry, line or shape at fault; no function panics on bad
// input, except the indexing methods (At, Row, SelectRows) on indices out of
// range, like gonum's At. Methods and kernels trust their CSR arguments to
// satisfy Validate, as everything built by this package does; check a
// matrix assembled by hand with NewCSR or Validate.
package sparse
