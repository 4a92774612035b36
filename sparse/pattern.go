package sparse

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/kernels"
	"github.com/semitopic/semitopic/internal/parallel"
)

// IsBinary reports whether every stored value of m is 1, so that
// MulPattern computes m·b.
func (m *CSR) IsBinary() bool {
	for _, v := range m.Data {
		if v != 1 {
			return false
		}
	}
	return true
}

// MulPattern computes dst = ones(a)·b, where ones(a) is the pattern of a:
// 1 at every stored entry of a, whatever its value, 0 elsewhere. a is
// rows×cols, b is cols×k and dst rows×k: each row of dst is the sum of the
// rows of b that the row of a selects. For a binary a (IsBinary) it is
// MulDense to the bit: both add the gathered rows in the order of the
// stored entries, and a product by 1 is exact.
//
// It is the product of binary data by a dense factor that CorEx computes
// twice an iteration, made for short rows: it does not tile the columns of
// a (MulDense does, for wide b; with a few tens of entries per row the
// tiles leave a few entries per call), and it adds rows of b padded to a
// multiple of four columns into a row-sized buffer (kernels.SumRows: no
// multiplications, and k = 50 in one pass over the entries), so that no
// column is left to a scalar loop. It returns an error on a shape mismatch or a nil
// argument.
func MulPattern(dst *mat.Dense, a *CSR, b *mat.Dense) error {
	if err := checkArgs("MulPattern", dst, a, b); err != nil {
		return err
	}
	k := widthOf(b, dst)
	if !shapeOK(b, a.Cols, k) || !dstOK(dst, a.Rows, k) {
		return fmt.Errorf("sparse: MulPattern: dst (%s) = ones(a) (%d×%d) · b (%s): shape mismatch", dims(dst), a.Rows, a.Cols, dims(b))
	}
	if !prepare(dst, a.Rows, k) {
		return nil
	}
	if b.IsEmpty() { // a has no columns: the product is zero
		dst.Zero()
		return nil
	}
	rb, rd := raw(b), raw(dst)
	kp := kernels.Pad(k)
	// Rows of b up to safe can be read kp values long within b's storage;
	// the rows after it (at most the last few) are added by a scalar
	// loop, after the others, as they come last in every row of a.
	safe := (len(rb.data) - kp) / rb.stride
	if len(rb.data) < kp {
		safe = -1
	}
	parallel.ForWeighted(a.Indptr, minNNZ(k), func(_, lo, hi int) {
		acc := make([]float64, kp)
		for i := lo; i < hi; i++ {
			p0, p1 := a.Indptr[i], a.Indptr[i+1]
			q := p1 // entries [q, p1) lie past safe
			for q > p0 && int(a.Indices[q-1]) > safe {
				q--
			}
			clear(acc)
			if q > p0 {
				kernels.SumRows(acc, a.Indices[p0:q], rb.data, rb.stride)
			}
			for _, j := range a.Indices[q:p1] {
				row := rowOf(rb, int(j))
				for c, v := range row {
					acc[c] += v
				}
			}
			copy(rowOf(rd, i), acc[:k])
		}
	})
	return nil
}

// TMulPattern computes dst = ones(a)ᵀ·b without transposing a: a is
// rows×cols, b is rows×k and dst cols×k; row j of dst is the sum of the
// rows of b whose row of a has an entry in column j, added in row order.
// That is MulPattern(dst, aᵀ, b) to the bit (the transpose's rows list
// their entries in row order), without aᵀ's memory. It scatters instead
// of gathering: the rows of b are read in order and the rows of dst they
// are added to follow the columns of a, which for text (a Zipf law over
// the terms) mostly stay in cache, where MulPattern on aᵀ gathers every
// row of b from memory once per entry. The columns of a are cut into
// tiles as in TMulDense; each worker accumulates a tile in rows padded to
// a multiple of four columns, so that the scatter kernel covers every
// column. It returns an error on a shape mismatch or a nil argument.
func TMulPattern(dst *mat.Dense, a *CSR, b *mat.Dense) error {
	if err := checkArgs("TMulPattern", dst, a, b); err != nil {
		return err
	}
	k := widthOf(b, dst)
	if !shapeOK(b, a.Rows, k) || !dstOK(dst, a.Cols, k) {
		return fmt.Errorf("sparse: TMulPattern: dst (%s) = ones(a)ᵀ (%d×%d) · b (%s): shape mismatch", dims(dst), a.Cols, a.Rows, dims(b))
	}
	if !prepare(dst, a.Cols, k) {
		return nil
	}
	if b.IsEmpty() { // a has no rows: the product is zero
		dst.Zero()
		return nil
	}
	rb, rd := raw(b), raw(dst)
	kp := kernels.Pad(k)
	// ones[:n] stands for the values of n entries: a product by 1 is
	// exact, so the kernel's sums are those of the rows themselves.
	ones := make([]float64, a.MaxRowNNZ())
	for p := range ones {
		ones[p] = 1
	}
	// Rows of b up to safe can be read kp values long within b's storage.
	safe := (len(rb.data) - kp) / rb.stride
	if len(rb.data) < kp {
		safe = -1
	}
	bounds, prefix := tileBounds(a, kp)
	parallel.ForWeighted(prefix, minNNZ(k), func(_, t0, t1 int) {
		cur := tileCursors(a, bounds[t0])
		width := 0
		for t := t0; t < t1; t++ {
			width = max(width, bounds[t+1]-bounds[t])
		}
		acc := make([]float64, width*kp)
		tail := make([]float64, kp)
		for t := t0; t < t1; t++ {
			c0, c1 := bounds[t], bounds[t+1]
			clear(acc[:(c1-c0)*kp])
			sweepTile(a, cur, c1, func(i, p, q int) {
				var row []float64
				if i <= safe {
					row = rb.data[i*rb.stride : i*rb.stride+kp]
				} else {
					copy(tail, rowOf(rb, i))
					row = tail
				}
				kernels.ScatterAdd(acc, kp, a.Indices[p:q], c0, ones[:q-p], row)
			})
			for j := c0; j < c1; j++ {
				copy(rowOf(rd, j), acc[(j-c0)*kp:(j-c0)*kp+k])
			}
		}
	})
	return nil
}
