package kernels

import "github.com/semitopic/semitopic/internal/parallel"

// transposeTile is the side of the square tiles Transpose copies: a tile's
// rows of the source and of the transpose (2 × 128 rows of 1 KiB) stay in
// the cache while it is copied.
const transposeTile = 128

// Transpose writes the transpose of the rows × cols matrix src (row-major,
// row stride srcStride) into dst (cols × rows, row stride dstStride):
// dst[j·dstStride + i] = src[i·srcStride + j] for i < rows, j < cols.
// Other entries of dst (a padded stride's) are left as they are. It copies
// square tiles, spread over the cores, so that a tile's rows of both stay
// in the cache whichever way the matrix is long. dst and src must not
// overlap.
func Transpose(dst []float64, dstStride int, src []float64, srcStride, rows, cols int) {
	if rows <= 0 || cols <= 0 {
		return
	}
	// The last entries each side touches, checked once here rather than
	// at every copy.
	_ = src[(rows-1)*srcStride+cols-1]
	_ = dst[(cols-1)*dstStride+rows-1]
	tr := (rows + transposeTile - 1) / transposeTile
	tc := (cols + transposeTile - 1) / transposeTile
	parallel.For(tr*tc, 4, func(lo, hi int) {
		for t := lo; t < hi; t++ {
			i0, j0 := t/tc*transposeTile, t%tc*transposeTile
			i1, j1 := min(i0+transposeTile, rows), min(j0+transposeTile, cols)
			for i := i0; i < i1; i++ {
				for j, v := range src[i*srcStride+j0 : i*srcStride+j1] {
					dst[(j0+j)*dstStride+i] = v
				}
			}
		}
	})
}
