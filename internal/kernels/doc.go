// Package kernels holds the arithmetic kernels below every algorithm
// package: gather primitives on row-major matrices,
//
//	GatherSum(dst, vals, idx, src, stride, add):
//	    dst[c] (+)= Σ_p vals[p]·src[idx[p]·stride + c]   for c < len(dst)
//	DotsGather(out, a, idx, src, stride):
//	    out[p] = Σ_c a[c]·src[idx[p]·stride + c]          for c < len(a)
//
// A sparse row times a dense matrix, a row times a k × k Gram matrix and a
// block of rank-1 Gram updates are all GatherSum; the dot products at a
// sparse matrix's non-zeros (W·H sampled where X is stored) are
// DotsGather. SumRows(dst, idx, src, stride) is GatherSum with every value
// 1, to the bit, without reading values or multiplying: a binary sparse
// row times a dense matrix. On amd64 processors with AVX2 and FMA they run as assembly
// kernels that keep the sums in registers and prefetch the rows they are
// about to gather; elsewhere, or with the purego build tag, as portable
// Go. The two agree to rounding (TestGatherPrimitives). The widths
// len(dst) and len(a) must be multiples of 4 (Pad rounds up to one);
// the stride may be any row length, and indices must be in range: the
// callers guarantee both.
//
// ScatterAdd is the transpose of a sparse row times a dense row: the
// scatter half of Xᵀ·B computed without Xᵀ (sparse.TMulDense),
//
//	ScatterAdd(dst, stride, idx, off, vals, b):
//	    dst[(idx[p]−off)·stride + c] += vals[p]·b[c]       for c < len(b)
//
// with each product rounded before the addition, so the assembly and the
// portable code agree to the bit (TestScatterAdd).
//
// SparseDot is a sparse row times a dense vector, and PrefetchSparse asks
// for a sparse row's cache lines ahead of its use,
//
//	SparseDot(w, idx, vals):  Σ_q w[idx[q]]·vals[q]
//
// in four interleaved partial sums, the same bits in assembly (SSE2, every
// amd64 processor) and portable Go (TestSparseDot): the linear SVM's dual
// coordinate descent (package classify) visits its rows in random order
// and prefetches the row it will visit next but one.
//
// Log and Exp apply math.Log and math.Exp to a slice, four numbers at a
// time with AVX2 and FMA (the same operations as the standard library's
// amd64 assembly, so the same bits; subnormal inputs of Log get fdlibm's
// result). Log is accurate to less than 1 ulp, Exp to less than 1.6 ulp,
// as math.Exp on amd64 (TestLogExpUlps measures both against 300-bit
// references). ExpShiftSum is a softmax's exponentials: exp(z − shift) in
// place, and their sum, in four partial sums that the portable code takes
// in the same order.
//
// Transpose copies a row-major matrix into its transpose, a square tile at
// a time, the tiles spread over the cores (internal/parallel): every
// transposed copy of a factor (Hᵀ for the NMF gathers, a classifier's
// coefficients by feature) is this one loop.
package kernels
