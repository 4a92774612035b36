package sparse

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/kernels"
	"github.com/semitopic/semitopic/internal/parallel"
)

// Shapes in the products: gonum cannot represent a matrix with a zero
// dimension, so an empty *mat.Dense (the zero value, or one after Reset)
// stands for any r×c shape with r == 0 or c == 0. A non-empty destination must
// already have the result's shape; an empty one is allocated with ReuseAs.
// Destinations must not share storage with the dense operands.

// flopGrain is the smallest number of floating-point operations worth a
// goroutine of its own in the products.
const flopGrain = 1 << 16

// minNNZ converts flopGrain into stored entries for products of width k.
func minNNZ(k int) int { return max(1, flopGrain/max(2*k, 1)) }

// shapeOK reports whether d can stand for an r×c matrix.
func shapeOK(d *mat.Dense, r, c int) bool {
	if d.IsEmpty() {
		return r == 0 || c == 0
	}
	dr, dc := d.Dims()
	return dr == r && dc == c
}

// dstOK reports whether dst can receive an r×c result: it is empty (and
// will be allocated) or already r×c.
func dstOK(dst *mat.Dense, r, c int) bool {
	if dst.IsEmpty() {
		return true
	}
	dr, dc := dst.Dims()
	return dr == r && dc == c
}

// dims formats the shape of d for error messages.
func dims(d *mat.Dense) string {
	if d.IsEmpty() {
		return "empty"
	}
	r, c := d.Dims()
	return fmt.Sprintf("%d×%d", r, c)
}

// prepare readies dst to receive an r×c result: an empty dst is allocated
// unless the result has a zero dimension. It reports whether there is
// anything to compute.
func prepare(dst *mat.Dense, r, c int) bool {
	if r == 0 || c == 0 {
		return false
	}
	if dst.IsEmpty() {
		dst.ReuseAs(r, c)
	}
	return true
}

// sharesStorage reports whether two dense matrices are backed by the same
// array (conservatively: views of one array that do not overlap count too).
func sharesStorage(a, b *mat.Dense) bool {
	if a.IsEmpty() || b.IsEmpty() {
		return false
	}
	x, y := a.RawMatrix().Data, b.RawMatrix().Data
	if cap(x) == 0 || cap(y) == 0 {
		return false
	}
	// Slices of one array end at the same last element of capacity.
	return &x[:cap(x)][cap(x)-1] == &y[:cap(y)][cap(y)-1]
}

// rowOf returns row i of a raw matrix, k values long.
func rowOf(r *blasRaw, i int) []float64 {
	return r.data[i*r.stride : i*r.stride+r.cols]
}

// blasRaw is the part of a dense matrix's raw storage the kernels use; it
// is empty for an empty matrix.
type blasRaw struct {
	data         []float64
	stride, cols int
}

func raw(d *mat.Dense) *blasRaw {
	if d.IsEmpty() {
		return &blasRaw{}
	}
	r := d.RawMatrix()
	return &blasRaw{data: r.Data, stride: r.Stride, cols: r.Cols}
}

// checkArgs rejects nil arguments.
func checkArgs(op string, dst *mat.Dense, a *CSR, dense ...*mat.Dense) error {
	if dst == nil {
		return fmt.Errorf("sparse: %s: nil destination", op)
	}
	if a == nil {
		return fmt.Errorf("sparse: %s: nil sparse matrix", op)
	}
	for _, d := range dense {
		if d == nil {
			return fmt.Errorf("sparse: %s: nil dense matrix", op)
		}
		if d == dst || sharesStorage(dst, d) {
			return fmt.Errorf("sparse: %s: destination shares storage with an operand", op)
		}
	}
	return nil
}

// widthOf returns the number of columns of the first non-empty matrix, or 0.
func widthOf(ds ...*mat.Dense) int {
	for _, d := range ds {
		if !d.IsEmpty() {
			_, c := d.Dims()
			return c
		}
	}
	return 0
}

// MulDense computes dst = a·b, where a is rows×cols and b is cols×k, so dst
// is rows×k. It splits the rows of a over the cores, balanced by stored
// entries, and costs 2·nnz·k floating-point operations. When b is larger
// than a core's cache, each worker sweeps its rows once per cache-sized
// block of b's rows. It returns an error on a shape mismatch or a nil
// argument.
func MulDense(dst *mat.Dense, a *CSR, b *mat.Dense) error {
	return mulDense(dst, a, b, 0)
}

// mulDense is MulDense with an explicit block size (0: the default).
func mulDense(dst *mat.Dense, a *CSR, b *mat.Dense, minBlock int) error {
	if err := checkArgs("MulDense", dst, a, b); err != nil {
		return err
	}
	k := widthOf(b, dst)
	if !shapeOK(b, a.Cols, k) || !dstOK(dst, a.Rows, k) {
		return fmt.Errorf("sparse: MulDense: dst (%s) = a (%d×%d) · b (%s): shape mismatch", dims(dst), a.Rows, a.Cols, dims(b))
	}
	if !prepare(dst, a.Rows, k) {
		return nil
	}
	if minBlock == 0 {
		minBlock = minNNZ(k)
	}
	rb, rd := raw(b), raw(dst)
	tc := tileCols(k)
	parallel.ForWeighted(a.Indptr, minBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			clear(rowOf(rd, i))
		}
		forColumnTiles(a, lo, hi, tc, func(i, p0, p1 int) {
			gatherRow(rowOf(rd, i), a.Data[p0:p1], a.Indices[p0:p1], rb)
		})
	})
	return nil
}

// TMulDense computes dst = aᵀ·b, where a is rows×cols and b is rows×k, so
// dst is cols×k. It returns an error on a shape mismatch or a nil argument.
//
// It does not transpose a: the columns of a are cut into tiles whose block
// of dst fits in cache, workers take runs of tiles balanced by stored
// entries, and each sweeps the rows of a for its tiles, reading b in row
// order. This measured faster than transposing a and calling MulDense, and
// than per-worker cols×k accumulators summed at the end.
func TMulDense(dst *mat.Dense, a *CSR, b *mat.Dense) error {
	return tmulDense(dst, a, b, 0)
}

func tmulDense(dst *mat.Dense, a *CSR, b *mat.Dense, minBlock int) error {
	if err := checkArgs("TMulDense", dst, a, b); err != nil {
		return err
	}
	k := widthOf(b, dst)
	if !shapeOK(b, a.Rows, k) || !dstOK(dst, a.Cols, k) {
		return fmt.Errorf("sparse: TMulDense: dst (%s) = aᵀ (%d×%d) · b (%s): shape mismatch", dims(dst), a.Cols, a.Rows, dims(b))
	}
	if !prepare(dst, a.Cols, k) {
		return nil
	}
	if b.IsEmpty() { // a has no rows: the product is zero
		dst.Zero()
		return nil
	}
	if minBlock == 0 {
		minBlock = minNNZ(k)
	}
	tmulTiled(raw(dst), false, false, a, nil, raw(b), k, minBlock)
	return nil
}

// TMulDenseAdd adds aᵀ·diag(scale)·b to dst, which must be cols×k
// already: for each column j of a, its entries' products
// (a[i,j]·scale[i])·b[i,:], each rounded, are added to row j of dst in the
// order of the rows i, as TMulDense sums them, without building aᵀ (an
// out-of-core pass adds each block's share to a running total so). A nil
// scale stands for ones (a[i,j]·b[i,:]); otherwise it has one value per
// row of a, and a[i,j]·scale[i] is rounded as if a's values had been
// scaled first, without a scaled copy of a. It returns an error on a
// shape mismatch or a nil argument.
func TMulDenseAdd(dst *mat.Dense, a *CSR, scale []float64, b *mat.Dense) error {
	if err := checkArgs("TMulDenseAdd", dst, a, b); err != nil {
		return err
	}
	r, k := dst.Dims()
	if dst.IsEmpty() || r != a.Cols || !shapeOK(b, a.Rows, k) {
		return fmt.Errorf("sparse: TMulDenseAdd: dst (%s) += aᵀ (%d×%d) · b (%s): shape mismatch", dims(dst), a.Cols, a.Rows, dims(b))
	}
	if scale != nil && len(scale) != a.Rows {
		return fmt.Errorf("sparse: TMulDenseAdd: %d row scales for %d rows", len(scale), a.Rows)
	}
	if a.Rows == 0 || k == 0 {
		return nil
	}
	tmulTiled(raw(dst), false, true, a, scale, raw(b), k, minNNZ(k))
	return nil
}

// DenseTMul computes dst = wᵀ·a, where w is rows×k and a is rows×cols, so
// dst is k×cols: for a documents × terms matrix and document weights w, the
// topic × term products that multiplicative NMF updates need. It returns an
// error on a shape mismatch or a nil argument.
//
// It works like TMulDense, each tile's block of the result being
// accumulated as cols×k in a per-worker buffer and then stored transposed.
func DenseTMul(dst *mat.Dense, w *mat.Dense, a *CSR) error {
	return denseTMul(dst, w, a, 0)
}

func denseTMul(dst *mat.Dense, w *mat.Dense, a *CSR, minBlock int) error {
	if err := checkArgs("DenseTMul", dst, a, w); err != nil {
		return err
	}
	k := widthOf(w)
	if w.IsEmpty() && !dst.IsEmpty() {
		k, _ = dst.Dims()
	}
	if !shapeOK(w, a.Rows, k) || !dstOK(dst, k, a.Cols) {
		return fmt.Errorf("sparse: DenseTMul: dst (%s) = wᵀ (%s, transposed) · a (%d×%d): shape mismatch", dims(dst), dims(w), a.Rows, a.Cols)
	}
	if !prepare(dst, k, a.Cols) {
		return nil
	}
	if w.IsEmpty() { // a has no rows: the product is zero
		dst.Zero()
		return nil
	}
	if minBlock == 0 {
		minBlock = minNNZ(k)
	}
	tmulTiled(raw(dst), true, false, a, nil, raw(w), k, minBlock)
	return nil
}

// SampledDot evaluates the product w·htᵀ at the stored entries of x: for the
// p-th stored entry of x, at (i, j), dst[p] = Σ_t w[i,t]·ht[j,t]. w is
// rows×k and ht = hᵀ is cols×k (so that both operands are read along
// contiguous rows). This is W·H at the non-zeros of X, the quantity every
// Kullback–Leibler update divides by, computed in 2·nnz·k operations without
// forming the dense product. len(dst) must equal x.NNZ(). The rows of x are
// split over the cores, and like MulDense visit ht a cache-sized block at a
// time. It returns an error on a shape mismatch or a nil argument.
func SampledDot(dst []float64, x *CSR, w, ht *mat.Dense) error {
	return sampledDot(dst, x, w, ht, 0)
}

func sampledDot(dst []float64, x *CSR, w, ht *mat.Dense, minBlock int) error {
	if x == nil || w == nil || ht == nil {
		return fmt.Errorf("sparse: SampledDot: nil argument")
	}
	if len(dst) != x.NNZ() {
		return fmt.Errorf("sparse: SampledDot: len(dst) = %d, want nnz = %d", len(dst), x.NNZ())
	}
	k := widthOf(w, ht)
	if !shapeOK(w, x.Rows, k) || !shapeOK(ht, x.Cols, k) {
		return fmt.Errorf("sparse: SampledDot: x is %d×%d, w is %s and ht is %s; want %d×k and %d×k", x.Rows, x.Cols, dims(w), dims(ht), x.Rows, x.Cols)
	}
	if k == 0 {
		clear(dst)
		return nil
	}
	if minBlock == 0 {
		minBlock = minNNZ(k)
	}
	rw, rh := raw(w), raw(ht)
	tc := tileCols(k)
	parallel.ForWeighted(x.Indptr, minBlock, func(_, lo, hi int) {
		forColumnTiles(x, lo, hi, tc, func(i, p0, p1 int) {
			dotsRow(dst[p0:p1], rowOf(rw, i), x.Indices[p0:p1], rh)
		})
	})
	return nil
}

// gatherRow adds Σ_p vals[p]·b[idx[p]] to out (len(out) = b.cols): the
// gather kernel over the columns up to a multiple of 4, a scalar loop over
// the rest (at most 3 columns, summed side by side in one pass over the
// row, each in the order of p as a loop per column would).
func gatherRow(out, vals []float64, idx []int32, b *blasRaw) {
	k4 := len(out) &^ 3
	if k4 > 0 {
		kernels.GatherSum(out[:k4], vals, idx, b.data, b.stride, true)
	}
	switch tail := out[k4:]; len(tail) {
	case 1:
		s := tail[0]
		for p, v := range vals {
			s += v * b.data[int(idx[p])*b.stride+k4]
		}
		tail[0] = s
	case 2:
		s0, s1 := tail[0], tail[1]
		for p, v := range vals {
			r := b.data[int(idx[p])*b.stride+k4:]
			s0 += v * r[0]
			s1 += v * r[1]
		}
		tail[0], tail[1] = s0, s1
	case 3:
		s0, s1, s2 := tail[0], tail[1], tail[2]
		for p, v := range vals {
			r := b.data[int(idx[p])*b.stride+k4:]
			s0 += v * r[0]
			s1 += v * r[1]
			s2 += v * r[2]
		}
		tail[0], tail[1], tail[2] = s0, s1, s2
	}
}

// dotsRow sets out[p] = ⟨a, b[idx[p]]⟩ (len(a) = b.cols): the dot kernel
// over the columns up to a multiple of 4, a scalar loop over the rest.
func dotsRow(out, a []float64, idx []int32, b *blasRaw) {
	k4 := len(a) &^ 3
	if k4 > 0 {
		kernels.DotsGather(out, a[:k4], idx, b.data, b.stride)
	} else {
		clear(out)
	}
	if k4 == len(a) {
		return
	}
	for p, j := range idx {
		row := b.data[int(j)*b.stride:]
		s := out[p]
		for c := k4; c < len(a); c++ {
			s += a[c] * row[c]
		}
		out[p] = s
	}
}
