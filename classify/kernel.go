package classify

import (
	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/sparse"
)

// mulNarrow sets dst = x·b for a dense b of x.Cols rows and k columns
// (row-major, stride k), dst being x.Rows × k (row-major): sparse.MulDense
// on the classifiers' flat buffers, whose gather kernel keeps a row's sums
// in registers however few the columns (classes).
func mulNarrow(dst []float64, x *sparse.CSR, b []float64, k int) {
	if x.Rows == 0 || x.Cols == 0 || k == 0 {
		clear(dst)
		return
	}
	// The shapes agree by construction: MulDense cannot fail here.
	_ = sparse.MulDense(mat.NewDense(x.Rows, k, dst), x, mat.NewDense(x.Cols, k, b))
}
