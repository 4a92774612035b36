package theme

import (
	"context"
	"fmt"
	"math"
	"sort"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/parallel"
	"github.com/semitopic/semitopic/nmf"
	"github.com/semitopic/semitopic/sparse"
)

// ThemeScore is the thesis' normalised subtopic score w / (w + wBackground)
// of a document with weight w for a subtopic and wBackground for the
// background topic of the same model: 100/(100+5) ≈ 0.95. It is 0 when
// both are 0.
func ThemeScore(w, wBackground float64) float64 {
	if w+wBackground == 0 {
		return 0
	}
	return w / (w + wBackground)
}

// DocScores are the theme scores of a set of documents.
type DocScores struct {
	// Theme is documents × themes: each theme's score, the largest of its
	// subtopics' scores.
	Theme *mat.Dense
	// Subtopic is documents × (themes·s): column j·s+q is the score of
	// theme j's subtopic q.
	Subtopic *mat.Dense
	// New is documents × NewTopics, the new topics' scores (nil without
	// new topics).
	New *mat.Dense
}

// Rank returns document i's themes ordered by decreasing score (ties by
// theme index).
func (s *DocScores) Rank(i int) []int {
	return RankThemes(s.Theme.RawRowView(i))
}

// RankThemes returns the indices of scores ordered by decreasing score,
// ties by index.
func RankThemes(scores []float64) []int {
	idx := make([]int, len(scores))
	for j := range idx {
		idx[j] = j
	}
	sort.SliceStable(idx, func(a, b int) bool { return scores[idx[a]] > scores[idx[b]] })
	return idx
}

// TrainingScores returns the theme scores of the training documents (from
// the fitted W): in semi-supervised training, the unlabeled documents'
// scores are the model's prediction for them.
func (m *Model) TrainingScores() (*DocScores, error) {
	if err := m.check(); err != nil {
		return nil, err
	}
	ws := make([]*mat.Dense, len(m.Parts))
	for i, p := range m.Parts {
		ws[i] = p.W
	}
	return m.ScoresOf(ws)
}

// ScoresOf computes theme scores from one document-topic matrix per part
// (as Transform returns, or the parts' W). It is an error if m's parts are
// not laid out as Fit lays them out or ws does not match them.
func (m *Model) ScoresOf(ws []*mat.Dense) (*DocScores, error) {
	if err := m.check(); err != nil {
		return nil, err
	}
	if len(ws) != len(m.Parts) {
		return nil, fmt.Errorf("theme: %d document-topic matrices for %d model parts", len(ws), len(m.Parts))
	}
	n := -1
	for i, w := range ws {
		if w == nil || w.IsEmpty() {
			return nil, fmt.Errorf("theme: document-topic matrix %d is empty", i)
		}
		r, c := w.Dims()
		if c != len(m.Parts[i].Topics) {
			return nil, fmt.Errorf("theme: document-topic matrix %d has %d columns, part has %d topics", i, c, len(m.Parts[i].Topics))
		}
		if n >= 0 && r != n {
			return nil, fmt.Errorf("theme: document-topic matrices have %d and %d rows", n, r)
		}
		n = r
	}
	k, s := len(m.Themes), m.Subtopics
	out := &DocScores{Theme: mat.NewDense(n, k, nil), Subtopic: mat.NewDense(n, k*s, nil)}
	partIndex := map[*Part]int{}
	for i, p := range m.Parts {
		partIndex[p] = i
	}
	for j := 0; j < k; j++ {
		p, cols := m.subtopicColumns(j)
		w := ws[partIndex[p]]
		for i := 0; i < n; i++ {
			row := w.RawRowView(i)
			bg := row[p.Background]
			best := 0.0
			for q, c := range cols {
				v := ThemeScore(row[c], bg)
				out.Subtopic.Set(i, j*s+q, v)
				if v > best {
					best = v
				}
			}
			out.Theme.Set(i, j, best)
		}
	}
	if p, cols := m.newTopicColumns(); p != nil {
		w := ws[partIndex[p]]
		out.New = mat.NewDense(n, len(cols), nil)
		for i := 0; i < n; i++ {
			row := w.RawRowView(i)
			for q, c := range cols {
				out.New.Set(i, q, ThemeScore(row[c], row[p.Background]))
			}
		}
	}
	return out, nil
}

// TransformOptions configures Transform.
type TransformOptions struct {
	// Labels, if set, restricts each labeled new document (non-empty
	// entry) to the topics it could use in training; nil entries and a nil
	// Labels leave every topic allowed (the reference's behaviour).
	Labels [][]int
	// PerDocument transforms each document alone under the KL loss (see
	// nmf.TransformConfig.PerDocument): its weights do not depend on the
	// documents transformed with it. Without it the KL updates run on the
	// whole batch, as the reference's transform does.
	PerDocument bool
}

// TransformParts returns, for each part, the document-topic weights of
// the new documents X (documents × the model's terms) with the part's H
// fixed. For the Frobenius loss each row is the exact non-negative least
// squares solution (nmf.FixedH.Transform); for KL, W starts at the constant
// √(mean(X)/k) and follows multiplicative updates with the model's
// stopping rule and iteration limit, as scikit-learn's transform does.
// Separated parts run concurrently.
func (m *Model) TransformParts(ctx context.Context, x nmf.Matrix, opts TransformOptions) ([]*mat.Dense, error) {
	X, err := toCSR(x)
	if err != nil {
		return nil, err
	}
	n, terms := X.Dims()
	if terms != m.Terms {
		return nil, fmt.Errorf("theme: Transform: X has %d columns, the model %d terms", terms, m.Terms)
	}
	if opts.Labels != nil {
		if _, err := checkLabels(opts.Labels, n, len(m.Themes)); err != nil {
			return nil, err
		}
	}
	if err := m.check(); err != nil {
		return nil, err
	}
	if opts.PerDocument && m.Loss != nmf.Frobenius && n > 1 {
		return m.transformEach(ctx, X, opts)
	}
	fixed, err := m.fixedParts()
	if err != nil {
		return nil, err
	}
	sum := 0.0
	for _, v := range X.Data {
		sum += v
	}
	out := make([]*mat.Dense, len(m.Parts))
	jobs := make([]func() error, len(m.Parts))
	for pi, p := range m.Parts {
		pi, p := pi, p
		jobs[pi] = func() error {
			var mask *mat.Dense
			if opts.Labels != nil {
				mask = m.trainingMask(p, opts.Labels)
			}
			k := len(p.Topics)
			if m.Loss == nmf.Frobenius || sum == 0 {
				w, err := fixed[pi].Transform(ctx, X, nmf.TransformConfig{Loss: m.Loss, Mask: mask})
				if err != nil {
					return fmt.Errorf("theme: Transform: %w", err)
				}
				out[pi] = w
				return nil
			}
			w0 := mat.NewDense(n, k, nil)
			raw := w0.RawMatrix().Data
			avg := math.Sqrt(sum / (float64(n) * float64(m.Terms)) / float64(k))
			for i := range raw {
				raw[i] = avg
			}
			maxIter := m.MaxIter
			if maxIter == 0 {
				maxIter = DefaultMaxIter
			}
			res, err := nmf.Fit(ctx, X, nmf.Config{K: k, Loss: m.Loss, W0: w0, Fixed: fixed[pi], WMask: mask, MaxIter: maxIter, Stop: engineStop(m.Stop, m.Tol)})
			if err != nil {
				return fmt.Errorf("theme: Transform: %w", err)
			}
			w := res.W
			out[pi] = w
			return nil
		}
	}
	if err := runJobs(ctx, jobs, nil, time.Time{}); err != nil {
		return nil, err
	}
	return out, nil
}

// ThemeScores returns the theme scores of new documents X (see
// TransformParts).
func (m *Model) ThemeScores(ctx context.Context, x nmf.Matrix, opts TransformOptions) (*DocScores, error) {
	ws, err := m.TransformParts(ctx, x, opts)
	if err != nil {
		return nil, err
	}
	return m.ScoresOf(ws)
}

// Transform returns the document-topic weights of new documents X
// (documents × the model's terms): every part's weights with its H fixed
// and no mask (TransformParts), side by side in the order of the parts'
// topics.
func (m *Model) Transform(ctx context.Context, x nmf.Matrix) (*mat.Dense, error) {
	ws, err := m.TransformParts(ctx, x, TransformOptions{})
	if err != nil {
		return nil, err
	}
	rows, _ := x.Dims()
	return ConcatParts(rows, ws), nil
}

// ConcatParts puts the parts' document-topic weights (each documents ×
// the part's topics) side by side.
func ConcatParts(rows int, ws []*mat.Dense) *mat.Dense {
	total := 0
	for _, w := range ws {
		_, c := w.Dims()
		total += c
	}
	out := mat.NewDense(rows, total, nil)
	off := 0
	for _, w := range ws {
		_, c := w.Dims()
		for i := 0; i < rows; i++ {
			copy(out.RawRowView(i)[off:off+c], w.RawRowView(i))
		}
		off += c
	}
	return out
}

// transformEach runs TransformParts on each document of X alone
// (TransformOptions.PerDocument), the documents spread over the cores.
func (m *Model) transformEach(ctx context.Context, X *sparse.CSR, opts TransformOptions) ([]*mat.Dense, error) {
	n := X.Rows
	out := make([]*mat.Dense, len(m.Parts))
	for pi, p := range m.Parts {
		out[pi] = mat.NewDense(n, len(p.Topics), nil)
	}
	errs := make([]error, n)
	parallel.For(n, 4, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if ctx.Err() != nil {
				errs[i] = ctx.Err()
				return
			}
			one := TransformOptions{}
			if opts.Labels != nil {
				one.Labels = [][]int{opts.Labels[i]}
			}
			ws, err := m.TransformParts(ctx, X.SelectRows([]int{i}), one)
			if err != nil {
				errs[i] = err
				return
			}
			for pi, w := range ws {
				copy(out[pi].RawRowView(i), w.RawRowView(0))
			}
		}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
