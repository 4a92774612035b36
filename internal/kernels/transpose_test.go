package kernels

import (
	"fmt"
	"testing"
)

// TestTranspose checks Transpose against the definition on shapes that
// are one tile, many tiles long either way and not multiples of a tile,
// with padded strides whose padding must be left alone.
func TestTranspose(t *testing.T) {
	for _, c := range []struct{ rows, cols, srcPad, dstPad int }{
		{1, 1, 0, 0}, {3, 5, 1, 2}, {90, 22211 % 1000, 0, 2},
		{transposeTile, transposeTile, 0, 0}, {transposeTile + 1, 2*transposeTile + 3, 3, 1},
		{1000, 7, 1, 0}, {7, 1000, 0, 3},
	} {
		t.Run(fmt.Sprintf("%dx%d", c.rows, c.cols), func(t *testing.T) {
			ss, ds := c.cols+c.srcPad, c.rows+c.dstPad
			src := make([]float64, c.rows*ss)
			for p := range src {
				src[p] = float64(p) + 0.5
			}
			dst := make([]float64, c.cols*ds)
			const pad = -1.0
			for p := range dst {
				dst[p] = pad
			}
			Transpose(dst, ds, src, ss, c.rows, c.cols)
			for j := 0; j < c.cols; j++ {
				for i := 0; i < ds; i++ {
					want := pad
					if i < c.rows {
						want = src[i*ss+j]
					}
					if got := dst[j*ds+i]; got != want {
						t.Fatalf("dst[%d][%d] = %g, want %g", j, i, got, want)
					}
				}
			}
		})
	}
}
