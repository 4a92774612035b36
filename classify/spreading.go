package classify

import (
	"context"
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/parallel"
	"github.com/semitopic/semitopic/metrics"
	"github.com/semitopic/semitopic/sparse"
)

// KNNGraph returns the k-nearest-neighbour graph of the rows of x under the
// euclidean distance: a rows × rows 0/1 matrix whose row i marks the k rows
// nearest to row i, row i itself first (distance 0), further ties broken by
// row index. It is scikit-learn's NearestNeighbors(n_neighbors=k).fit(X)
// .kneighbors_graph(X, k, mode="connectivity") (up to the order of exact
// ties). Distances come from dot products, ‖a‖² + ‖b‖² − 2a·b, computed
// sparsely through the columns of x, on all cores.
func KNNGraph(ctx context.Context, x *sparse.CSR, k int) (*sparse.CSR, error) {
	nbrs, err := kNearest(ctx, x, x, k, true)
	if err != nil {
		return nil, err
	}
	n := x.Rows
	g := &sparse.CSR{Rows: n, Cols: n, Indptr: make([]int, n+1), Indices: make([]int32, 0, n*len(nbrs[0])), Data: make([]float64, 0, n*len(nbrs[0]))}
	for i, nb := range nbrs {
		cols := append([]int32(nil), nb...)
		sort.Slice(cols, func(a, b int) bool { return cols[a] < cols[b] })
		for _, j := range cols {
			g.Indices = append(g.Indices, j)
			g.Data = append(g.Data, 1)
		}
		g.Indptr[i+1] = len(g.Indices)
	}
	return g, nil
}

// kNearest returns, for each row of q, the indices of its k nearest rows
// of x, nearest first (ties by index). With self, q is x and each row is
// its own nearest neighbour at distance exactly 0.
func kNearest(ctx context.Context, q, x *sparse.CSR, k int, self bool) ([][]int32, error) {
	if x == nil || q == nil || x.Rows == 0 {
		return nil, fmt.Errorf("classify: nearest neighbours of an empty matrix")
	}
	if q.Cols != x.Cols {
		return nil, fmt.Errorf("classify: nearest neighbours: %d features for a fit on %d", q.Cols, x.Cols)
	}
	if k < 1 || k > x.Rows {
		return nil, fmt.Errorf("classify: %d neighbours among %d rows", k, x.Rows)
	}
	if err := x.Validate(); err != nil {
		return nil, fmt.Errorf("classify: nearest neighbours: %w", err)
	}
	xt := x.T()
	norm := rowSquares(x)
	qnorm := norm
	if !self {
		qnorm = rowSquares(q)
	}
	out := make([][]int32, q.Rows)
	type cand struct {
		d float64
		j int32
	}
	parallel.For(q.Rows, 16, func(lo, hi int) {
		dot := make([]float64, x.Rows)
		cands := make([]cand, x.Rows)
		for i := lo; i < hi; i++ {
			if ctx.Err() != nil {
				return
			}
			clear(dot)
			cols, vals := q.Row(i)
			for p, t := range cols {
				v := vals[p]
				rows, us := xt.Row(int(t))
				for r, j := range rows {
					dot[j] += v * us[r]
				}
			}
			for j := range cands {
				d := qnorm[i] + norm[j] - 2*dot[j]
				if d < 0 {
					d = 0
				}
				cands[j] = cand{d, int32(j)}
			}
			if self {
				cands[i].d = 0
			}
			// Partial selection of the k smallest, then their order.
			sel := cands
			if k < len(cands) {
				nthSmallest(sel, k, func(a, b cand) bool { return a.d < b.d || a.d == b.d && a.j < b.j })
				sel = cands[:k]
			}
			sort.Slice(sel, func(a, b int) bool { return sel[a].d < sel[b].d || sel[a].d == sel[b].d && sel[a].j < sel[b].j })
			if self {
				// The row itself comes first even when another row is at
				// distance 0 too.
				for p, c := range sel {
					if c.j == int32(i) {
						copy(sel[1:p+1], sel[:p])
						sel[0] = c
						break
					}
				}
			}
			nb := make([]int32, len(sel))
			for p, c := range sel {
				nb[p] = c.j
			}
			out[i] = nb
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// nthSmallest reorders a so that its k smallest elements under less come
// first (in no particular order): quickselect with a middle pivot.
func nthSmallest[T any](a []T, k int, less func(x, y T) bool) {
	lo, hi := 0, len(a)-1
	for lo < hi {
		p := a[lo+(hi-lo)/2]
		i, j := lo, hi
		for i <= j {
			for less(a[i], p) {
				i++
			}
			for less(p, a[j]) {
				j--
			}
			if i <= j {
				a[i], a[j] = a[j], a[i]
				i++
				j--
			}
		}
		switch {
		case k-1 <= j:
			hi = j
		case k-1 >= i:
			lo = i
		default:
			return
		}
	}
}

// rowSquares returns the squared L2 norm of every row.
func rowSquares(x *sparse.CSR) []float64 {
	out := make([]float64, x.Rows)
	for i := range out {
		_, vals := x.Row(i)
		for _, v := range vals {
			out[i] += v * v
		}
	}
	return out
}

// LabelSpreading is scikit-learn's LabelSpreading with the k-nearest-
// neighbour kernel (Zhou et al., "Learning with local and global
// consistency", 2004): the labels of the labeled documents spread over the
// graph of nearest neighbours of all the documents, labeled or not. With
// the graph's affinity A (A_ij = 1 when j is among the k nearest of i) and
// S = D^{-1/2} A D^{-1/2} with a zero diagonal, D holding each document's
// in-degree without itself, the label distributions follow
// F ← αSF + (1 − α)Y from F = Y (one-hot rows of the labeled documents, zero
// rows elsewhere) until the entries change by less than Tol in total, or
// MaxIter times; each row is then normalised and its largest entry is the
// document's label (Transduction). It is the semi-supervised baseline of
// the label-efficiency benchmark.
//
// The zero value is ready to use with scikit-learn's defaults.
type LabelSpreading struct {
	// Neighbors is k; 0 means 7.
	Neighbors int
	// Alpha is the clamping factor α in (0, 1); 0 means 0.2.
	Alpha float64
	// MaxIter bounds the iterations; 0 means 30.
	MaxIter int
	// Tol stops the iterations; 0 means 1e-3.
	Tol float64

	x       *sparse.CSR // the documents of Fit (nil after FitGraph)
	classes []int
	dist    *mat.Dense // documents × classes
	iter    int
}

func (ls *LabelSpreading) params() (k int, alpha float64, maxIter int, tol float64, err error) {
	k, alpha, maxIter, tol = ls.Neighbors, ls.Alpha, ls.MaxIter, ls.Tol
	if k == 0 {
		k = 7
	}
	if alpha == 0 {
		alpha = 0.2
	}
	if maxIter == 0 {
		maxIter = 30
	}
	if tol == 0 {
		tol = 1e-3
	}
	if k < 1 || !(alpha > 0 && alpha < 1) || maxIter < 1 || !(tol > 0) {
		return 0, 0, 0, 0, fmt.Errorf("classify: label spreading: want Neighbors ≥ 1, 0 < Alpha < 1, MaxIter ≥ 1, Tol > 0; have %d, %v, %d, %v", ls.Neighbors, ls.Alpha, ls.MaxIter, ls.Tol)
	}
	return k, alpha, maxIter, tol, nil
}

// Fit spreads the labels y (a class ≥ 0 per document, −1 for unlabeled
// ones) over the nearest-neighbour graph of the rows of x.
func (ls *LabelSpreading) Fit(ctx context.Context, x *sparse.CSR, y []int) error {
	k, _, _, _, err := ls.params()
	if err != nil {
		return err
	}
	if x == nil || x.Rows == 0 {
		return fmt.Errorf("classify: label spreading: no documents")
	}
	g, err := KNNGraph(ctx, x, min(k, x.Rows))
	if err != nil {
		return err
	}
	if err := ls.FitGraph(ctx, g, y); err != nil {
		return err
	}
	ls.x = x
	return nil
}

// FitGraph is Fit on a graph made by KNNGraph, which several label sets
// can share. A model fitted so has no documents to find the neighbours of
// new ones among: it gives Transduction, not Predict.
func (ls *LabelSpreading) FitGraph(ctx context.Context, g *sparse.CSR, y []int) error {
	_, alpha, maxIter, tol, err := ls.params()
	if err != nil {
		return err
	}
	if g == nil || g.Rows != g.Cols || g.Rows == 0 {
		return fmt.Errorf("classify: label spreading: the graph is not a non-empty square matrix")
	}
	n := g.Rows
	if len(y) != n {
		return fmt.Errorf("classify: label spreading: %d labels for %d documents", len(y), n)
	}
	seen := map[int]bool{}
	for i, c := range y {
		if c < -1 {
			return fmt.Errorf("classify: label spreading: document %d has class %d (want ≥ 0, or −1 for unlabeled)", i, c)
		}
		if c >= 0 {
			seen[c] = true
		}
	}
	if len(seen) == 0 {
		return fmt.Errorf("classify: label spreading: no labeled document")
	}
	ls.x = nil
	ls.classes = ls.classes[:0]
	for c := range seen {
		ls.classes = append(ls.classes, c)
	}
	sort.Ints(ls.classes)
	col := map[int]int{}
	for j, c := range ls.classes {
		col[c] = j
	}
	nc := len(ls.classes)
	// w: in-degree without the diagonal; S = A / (√w_i √w_j), diagonal 0.
	w := make([]float64, n)
	for i := 0; i < n; i++ {
		cols, vals := g.Row(i)
		for p, j := range cols {
			if int(j) != i {
				w[j] += vals[p]
			}
		}
	}
	for j := range w {
		if w[j] == 0 {
			w[j] = 1
		} else {
			w[j] = math.Sqrt(w[j])
		}
	}
	s := &sparse.CSR{Rows: n, Cols: n, Indptr: make([]int, n+1)}
	for i := 0; i < n; i++ {
		cols, vals := g.Row(i)
		for p, j := range cols {
			if int(j) == i {
				continue
			}
			s.Indices = append(s.Indices, j)
			s.Data = append(s.Data, vals[p]/(w[i]*w[j]))
		}
		s.Indptr[i+1] = len(s.Indices)
	}
	f := mat.NewDense(n, nc, nil)
	static := mat.NewDense(n, nc, nil)
	for i, c := range y {
		if c >= 0 {
			f.Set(i, col[c], 1)
			static.Set(i, col[c], 1-alpha)
		}
	}
	prev := mat.NewDense(n, nc, nil)
	next := mat.NewDense(n, nc, nil)
	ls.iter = 0
	for ; ls.iter < maxIter; ls.iter++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		change := 0.0
		fr, pr := f.RawMatrix().Data, prev.RawMatrix().Data
		for i := range fr {
			change += math.Abs(fr[i] - pr[i])
		}
		if change < tol {
			break
		}
		prev.Copy(f)
		if err := sparse.MulDense(next, s, f); err != nil {
			return err
		}
		next.Scale(alpha, next)
		next.Add(next, static)
		f, next = next, f
	}
	for i := 0; i < n; i++ {
		row := f.RawRowView(i)
		sum := 0.0
		for _, v := range row {
			sum += v
		}
		if sum == 0 {
			continue
		}
		for j := range row {
			row[j] /= sum
		}
	}
	ls.dist = f
	return nil
}

// Classes returns the classes of the labeled documents, the columns of
// LabelDistributions.
func (ls *LabelSpreading) Classes() []int { return append([]int(nil), ls.classes...) }

// Iterations returns the number of spreading steps of the last fit.
func (ls *LabelSpreading) Iterations() int { return ls.iter }

// LabelDistributions returns the documents × classes label distributions
// of the fitted documents (rows summing to 1, or 0 for a document the
// labels did not reach).
func (ls *LabelSpreading) LabelDistributions() *mat.Dense { return denseCopy(ls.dist) }

// Transduction returns the label of every fitted document: the class of
// its largest label distribution (the first on ties).
func (ls *LabelSpreading) Transduction() []int {
	out := metrics.ArgmaxRows(ls.dist)
	for i, j := range out {
		out[i] = ls.classes[j]
	}
	return out
}

// PredictProba returns, for new documents, the normalised sum of the label
// distributions of their k nearest fitted documents (scikit-learn's
// predict_proba with the knn kernel).
func (ls *LabelSpreading) PredictProba(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) {
	if ls.x == nil {
		return nil, fmt.Errorf("classify: label spreading: fitted on a graph, or not fitted: no documents to find neighbours among")
	}
	k, _, _, _, _ := ls.params()
	nbrs, err := kNearest(ctx, x, ls.x, min(k, ls.x.Rows), false)
	if err != nil {
		return nil, err
	}
	_, nc := ls.dist.Dims()
	p := mat.NewDense(x.Rows, nc, nil)
	for i, nb := range nbrs {
		row := p.RawRowView(i)
		for _, j := range nb {
			for c, v := range ls.dist.RawRowView(int(j)) {
				row[c] += v
			}
		}
		s := 0.0
		for _, v := range row {
			s += v
		}
		if s > 0 {
			for c := range row {
				row[c] /= s
			}
		}
	}
	return p, nil
}

// Predict returns the class of the largest PredictProba of each new
// document.
func (ls *LabelSpreading) Predict(ctx context.Context, x *sparse.CSR) ([]int, error) {
	p, err := ls.PredictProba(ctx, x)
	if err != nil {
		return nil, err
	}
	out := metrics.ArgmaxRows(p)
	for i, j := range out {
		out[i] = ls.classes[j]
	}
	return out, nil
}
