package ssnmf

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/nmf"
	"github.com/semitopic/semitopic/sparse"
)

// TransformConfig is how Model.Transform represents new documents
// (Model.Represent).
type TransformConfig struct {
	// Iter is the number of one-sided multiplicative updates that
	// represent a document under an I-divergence reconstruction loss (0:
	// DefaultTransformIter, the reference's 20). The nmf.Frobenius
	// representation is exact and ignores it.
	Iter int
	// Seed seeds the Uniform[0, 1) start of those updates.
	Seed uint64
	// SameStart starts every document from the same random row instead of
	// drawing a row per document, so that a document's representation does
	// not depend on the other documents of the batch or on its position in
	// it (what a server answering requests one by one needs). The
	// reference draws a row per document.
	SameStart bool
}

// Transform returns the representation (documents × K) of the documents X
// (documents × terms, sparse or dense, with the training columns) with the
// topics H fixed — the paper's S_test, transposed. Under a nmf.Frobenius
// reconstruction loss each row is the exact non-negative least-squares
// solution argmin_{s ≥ 0} ‖x − sH‖² (nmf.FixedH.Transform, an active-set solve);
// under the I-divergence it is Represent.Iter multiplicative updates of
// D(x‖sH) from a uniform random start, as the reference's evaluation.py.
// Documents without terms get a zero row.
func (r *Model) Transform(ctx context.Context, x Matrix) (*mat.Dense, error) {
	if r == nil || r.H == nil {
		return nil, fmt.Errorf("ssnmf: Transform: model is not fitted")
	}
	cfg := r.Represent
	k, m := r.H.Dims()
	d, err := checkX(x)
	if err != nil {
		return nil, fmt.Errorf("ssnmf: Transform: %w", err)
	}
	if d.m != m {
		return nil, fmt.Errorf("ssnmf: Transform: X has %d columns but the model has %d terms", d.m, m)
	}
	if cfg.Iter < 0 {
		return nil, fmt.Errorf("ssnmf: Transform: Iter = %d, want ≥ 0", cfg.Iter)
	}
	fixed, err := r.fixedH()
	if err != nil {
		return nil, err
	}
	if r.Losses.Recon == nmf.Frobenius {
		var xm Matrix = d.sp
		if d.sp == nil {
			xm = d.dense
		}
		return fixed.Transform(ctx, xm, nmf.TransformConfig{Loss: nmf.Frobenius})
	}
	iter := cfg.Iter
	if iter == 0 {
		iter = DefaultTransformIter
	}
	eps := r.Epsilon
	if eps == 0 {
		eps = DefaultEpsilon
	}
	var w *mat.Dense
	if cfg.SameStart {
		row := uniform(1, k, cfg.Seed, streamTransform).RawRowView(0)
		w = mat.NewDense(d.n, k, nil)
		for i := 0; i < d.n; i++ {
			copy(w.RawRowView(i), row)
		}
	} else {
		w = uniform(d.n, k, cfg.Seed, streamTransform)
	}
	var xm Matrix = d.dense
	if d.sp != nil {
		xm = d.sp
	}
	return fixed.Transform(ctx, xm, nmf.TransformConfig{Loss: nmf.KullbackLeibler, W0: w, AddEpsilon: eps, MaxIter: iter, Tol: -1})
}

// Scores returns Ŷ = W·Bᵀ (documents × targets) for a representation W
// (documents × K): class scores, label scores or regression predictions.
func (r *Model) Scores(w *mat.Dense) (*mat.Dense, error) {
	if r == nil || r.B == nil {
		return nil, fmt.Errorf("ssnmf: Scores: the model has no targets (unsupervised fit)")
	}
	if w == nil || w.IsEmpty() {
		return nil, fmt.Errorf("ssnmf: Scores: empty representation")
	}
	n, k := w.Dims()
	c, kb := r.B.Dims()
	if k != kb {
		return nil, fmt.Errorf("ssnmf: Scores: representation has %d topics, the model %d", k, kb)
	}
	s := mat.NewDense(n, c, nil)
	s.Mul(w, r.B.T())
	return s, nil
}

// Predict represents the documents X with the topics fixed (Transform) and
// returns their scores Ŷ = W·Bᵀ (documents × targets, Scores): class
// scores, label scores or regression predictions. The single-label
// prediction is metrics.ArgmaxRows of them; multi-label predictions keep
// the labels whose score reaches a threshold (metrics.ChooseThreshold).
func (r *Model) Predict(ctx context.Context, x Matrix) (*mat.Dense, error) {
	if r == nil || r.B == nil {
		return nil, fmt.Errorf("ssnmf: Predict: the model has no targets (unsupervised fit)")
	}
	w, err := r.Transform(ctx, x)
	if err != nil {
		return nil, err
	}
	return r.Scores(w)
}

// NormalizedB returns B with each column (topic) divided by its sum: the
// association of each topic with each class, as the paper's Figure 2
// (a column of zeros stays zero).
func (r *Model) NormalizedB() (*mat.Dense, error) {
	if r == nil || r.B == nil {
		return nil, fmt.Errorf("ssnmf: NormalizedB: the model has no targets (unsupervised fit)")
	}
	b := mat.DenseCopyOf(r.B)
	c, k := b.Dims()
	for t := 0; t < k; t++ {
		s := 0.0
		for j := 0; j < c; j++ {
			s += b.At(j, t)
		}
		if s == 0 {
			continue
		}
		for j := 0; j < c; j++ {
			b.Set(j, t, b.At(j, t)/s)
		}
	}
	return b, nil
}

// TopTerms returns the n terms of largest weight of each topic (row of H),
// largest first; vocab names the columns of X.
func (r *Model) TopTerms(vocab []string, n int) ([][]string, error) {
	if r == nil || r.H == nil {
		return nil, fmt.Errorf("ssnmf: TopTerms: model is not fitted")
	}
	return nmf.TopTerms(r.H, vocab, n)
}

// Transductive fits the model on the training and test documents together
// — the paper's transductive variant: the test documents take part in the
// topics' fit (data weight 1) with zero label weight — and returns the fit
// (whose W has the training rows first, then the test rows) and the test
// documents' representation read from it. cfg.Y has one row per training
// document; the weight and starting-factor fields of cfg must be unset
// (they would need one row per stacked document). Both matrices must be of
// the same kind (sparse or dense) and width. Seed terms (cfg.Seeds) guide
// the fit on both sets.
func Transductive(ctx context.Context, train, test Matrix, cfg Config) (*Model, *mat.Dense, error) {
	if cfg.Y == nil {
		return nil, nil, fmt.Errorf("ssnmf: Transductive needs targets Y for the training documents")
	}
	if cfg.DataRowWeights != nil || cfg.DataWeights != nil || cfg.LabelRowWeights != nil || cfg.LabelWeights != nil || cfg.W0 != nil {
		return nil, nil, fmt.Errorf("ssnmf: Transductive sets the weights and W0 itself; leave them unset")
	}
	dtr, err := checkX(train)
	if err != nil {
		return nil, nil, fmt.Errorf("ssnmf: training documents: %w", err)
	}
	dte, err := checkX(test)
	if err != nil {
		return nil, nil, fmt.Errorf("ssnmf: test documents: %w", err)
	}
	if dtr.m != dte.m {
		return nil, nil, fmt.Errorf("ssnmf: training documents have %d terms, test documents %d", dtr.m, dte.m)
	}
	yr, c := cfg.Y.Dims()
	if yr != dtr.n {
		return nil, nil, fmt.Errorf("ssnmf: Y has %d rows for %d training documents", yr, dtr.n)
	}
	var x Matrix
	switch {
	case dtr.sp != nil && dte.sp != nil:
		if x, err = sparse.VStack(dtr.sp, dte.sp); err != nil {
			return nil, nil, fmt.Errorf("ssnmf: %w", err)
		}
	case dtr.dense != nil && dte.dense != nil:
		s := mat.NewDense(dtr.n+dte.n, dtr.m, nil)
		s.Stack(dtr.dense, dte.dense)
		x = s
	default:
		return nil, nil, fmt.Errorf("ssnmf: training and test documents must both be sparse or both dense")
	}
	n := dtr.n + dte.n
	y := mat.NewDense(n, c, nil)
	for i := 0; i < dtr.n; i++ {
		copy(y.RawRowView(i), cfg.Y.RawRowView(i))
	}
	lw := make([]float64, n)
	for i := 0; i < dtr.n; i++ {
		lw[i] = 1
	}
	cfg.Y, cfg.LabelRowWeights = y, lw
	res, err := Fit(ctx, x, cfg)
	if res == nil {
		return nil, nil, err
	}
	wt := mat.DenseCopyOf(res.W.Slice(dtr.n, n, 0, cfg.K))
	return res, wt, err
}
