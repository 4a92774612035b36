package nmf

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/rng"
	"github.com/semitopic/semitopic/sparse"
)

// linOp is a data matrix seen as a linear operator, sparse or dense.
type linOp interface {
	dims() (n, m int)
	// mul sets dst (n × l) = A·b for b m × l.
	mul(dst, b *mat.Dense) error
	// tmul sets dst (m × l) = Aᵀ·b for b n × l.
	tmul(dst, b *mat.Dense) error
}

type sparseOp struct{ a, at *sparse.CSR }

func (o sparseOp) dims() (int, int) { return o.a.Rows, o.a.Cols }
func (o sparseOp) mul(dst, b *mat.Dense) error {
	return sparse.MulDense(dst, o.a, b)
}
func (o sparseOp) tmul(dst, b *mat.Dense) error {
	// Aᵀ·b as a product with the stored transpose reads b by gathering
	// rows, which is faster than scattering into dst.
	return sparse.MulDense(dst, o.at, b)
}

type denseOp struct{ a *mat.Dense }

func (o denseOp) dims() (int, int) { return o.a.Dims() }
func (o denseOp) mul(dst, b *mat.Dense) error {
	dst.Mul(o.a, b)
	return nil
}
func (o denseOp) tmul(dst, b *mat.Dense) error {
	dst.Mul(o.a.T(), b)
	return nil
}

// svdResult is a rank-k truncated SVD A ≈ U diag(S) Vᵀ with U n × k, V m × k.
type svdResult struct {
	U, V *mat.Dense
	S    []float64
}

// Randomized SVD parameters (scikit-learn's randomized_svd defaults).
const (
	rsvdOversamples = 10
)

// rsvdPowerIters returns scikit-learn's automatic number of power
// iterations: 7 when k < 0.1·min(n, m), otherwise 4.
func rsvdPowerIters(k, n, m int) int {
	if float64(k) < 0.1*float64(min(n, m)) {
		return 7
	}
	return 4
}

// randomizedSVD computes a rank-k truncated SVD of A by Halko, Martinsson &
// Tropp's randomized range finder (2011, Algorithm 4.4: subspace iteration
// with a QR re-orthonormalisation after every product) with l = k + 10
// Gaussian test vectors (at most min(n, m)) and q power iterations, then an
// exact SVD of the small l × m matrix QᵀA. The products with A are the only
// work on the size of the data; for a sparse A they are sparse products.
// Signs are normalised as scikit-learn's svd_flip: the entry of largest
// magnitude of each column of U is positive.
func randomizedSVD(ctx context.Context, a linOp, k, q int, rnd *rng.Compat) (*svdResult, error) {
	n, m := a.dims()
	if k < 1 || k > min(n, m) {
		return nil, fmt.Errorf("nmf: randomized SVD of rank %d for a %d×%d matrix", k, n, m)
	}
	l := min(k+rsvdOversamples, min(n, m))
	omega := mat.NewDense(m, l, nil)
	raw := omega.RawMatrix().Data
	for i := range raw {
		raw[i] = rnd.NormFloat64()
	}
	y := mat.NewDense(n, l, nil)
	z := omega // m × l, reused
	qr := newThinQR(l)
	for it := 0; it < q; it++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := a.mul(y, z); err != nil {
			return nil, err
		}
		qr.orthonormalize(y)
		if err := a.tmul(z, y); err != nil {
			return nil, err
		}
		qr.orthonormalize(z)
	}
	if err := a.mul(y, z); err != nil {
		return nil, err
	}
	qr.orthonormalize(y) // Q: n × l, orthonormal basis of the range
	// B = QᵀA is l × m; compute Bᵀ = AᵀQ (m × l) and factor it.
	if err := a.tmul(z, y); err != nil {
		return nil, err
	}
	var svd mat.SVD
	if !svd.Factorize(z.T(), mat.SVDThin) {
		return nil, fmt.Errorf("nmf: SVD of the projected %d×%d matrix did not converge", l, m)
	}
	var ub, vb mat.Dense
	svd.UTo(&ub) // l × l
	svd.VTo(&vb) // m × l
	s := svd.Values(nil)
	u := mat.NewDense(n, l, nil)
	u.Mul(y, &ub)
	res := &svdResult{
		U: mat.DenseCopyOf(u.Slice(0, n, 0, k)),
		V: mat.DenseCopyOf(vb.Slice(0, m, 0, k)),
		S: s[:k],
	}
	flipSigns(res)
	return res, nil
}

// flipSigns makes the entry of largest magnitude of each column of U
// positive, flipping the matching column of V too.
func flipSigns(r *svdResult) {
	n, k := r.U.Dims()
	m, _ := r.V.Dims()
	for t := 0; t < k; t++ {
		best, sign := -1.0, 1.0
		for i := 0; i < n; i++ {
			if v := r.U.At(i, t); math.Abs(v) > best {
				best, sign = math.Abs(v), math.Copysign(1, v)
			}
		}
		if sign < 0 {
			for i := 0; i < n; i++ {
				r.U.Set(i, t, -r.U.At(i, t))
			}
			for j := 0; j < m; j++ {
				r.V.Set(j, t, -r.V.At(j, t))
			}
		}
	}
}

// thinQR replaces a tall matrix by the orthonormal factor of its thin QR
// factorisation, with LAPACK's Householder routines (Dgeqrf, Dorgqr).
type thinQR struct {
	tau, work []float64
}

func newThinQR(cols int) *thinQR {
	// Blocked Householder QR wants cols × block-size of workspace.
	return &thinQR{tau: make([]float64, cols), work: make([]float64, max(1, cols*64))}
}

// orthonormalize overwrites a (r × c, r ≥ c) with Q of a = QR.
func (q *thinQR) orthonormalize(a *mat.Dense) {
	g := a.RawMatrix()
	gen := blas64.General{Rows: g.Rows, Cols: g.Cols, Stride: g.Stride, Data: g.Data}
	lapack64.Geqrf(gen, q.tau[:g.Cols], q.work, len(q.work))
	lapack64.Orgqr(gen, q.tau[:g.Cols], q.work, len(q.work))
}
