package classify_test

import (
	"context"
	"math"
	"sync"
	"testing"

	"github.com/semitopic/semitopic/classify"
	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/internal/datadir"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/vectorize"
)

// reutersFold is the shape of one fold of the automatic configuration on
// Reuters' training set: two thirds of its 7,769 documents, each counted
// once per label (90 labels), as unit-length tf-idf term rows, and as 90
// dense topic-like features (each document's cosine to each label's
// centroid, clipped at zero and scaled to unit length), alone and beside
// the terms.
type reutersFold struct {
	terms, topics, both *sparse.CSR
	y                   []int
}

var (
	reutersOnce sync.Once
	reutersData *reutersFold
	reutersErr  error
)

func loadReutersFold(b *testing.B) *reutersFold {
	path := datadir.Require(b, "reuters21578-nltk-apte/reuters.tar.gz")
	reutersOnce.Do(func() { reutersData, reutersErr = buildReutersFold(path) })
	if reutersErr != nil {
		b.Fatal(reutersErr)
	}
	return reutersData
}

func buildReutersFold(path string) (*reutersFold, error) {
	ctx := context.Background()
	c, err := corpus.ReutersNLTK{}.Read(ctx, path)
	if err != nil {
		return nil, err
	}
	c = c.Subset(corpus.SplitTrain)
	names, _ := c.Labels()
	label := map[string]int{}
	for i, n := range names {
		label[n] = i
	}
	pl, err := vectorize.PipelinePreset("default")
	if err != nil {
		return nil, err
	}
	v, err := pl.New()
	if err != nil {
		return nil, err
	}
	res, err := v.FitTransform(ctx, c.Docs)
	if err != nil {
		return nil, err
	}
	var rows, y []int
	for i, d := range res.Docs {
		if i%3 == 0 {
			continue
		}
		for _, l := range d.Labels {
			rows = append(rows, i)
			y = append(y, label[l])
		}
	}
	// Labels absent from the fold are left out, as the automatic
	// configuration does.
	remap := map[int]int{}
	for j, l := range y {
		q, ok := remap[l]
		if !ok {
			q = len(remap)
			remap[l] = q
		}
		y[j] = q
	}
	x := res.X.SelectRows(rows)
	unitRowsInPlace(x)
	k := len(remap)
	cent := make([]float64, x.Cols*k)
	for i := 0; i < x.Rows; i++ {
		cols, vals := x.Row(i)
		for p, j := range cols {
			cent[int(j)*k+y[i]] += vals[p]
		}
	}
	norm := make([]float64, k)
	for j := 0; j < x.Cols; j++ {
		for l := 0; l < k; l++ {
			norm[l] += cent[j*k+l] * cent[j*k+l]
		}
	}
	var ts []sparse.Triplet
	row := make([]float64, k)
	for i := 0; i < x.Rows; i++ {
		clear(row)
		cols, vals := x.Row(i)
		for p, j := range cols {
			for l := 0; l < k; l++ {
				row[l] += vals[p] * cent[int(j)*k+l]
			}
		}
		for l, v := range row {
			if v > 0 && norm[l] > 0 {
				ts = append(ts, sparse.Triplet{Row: i, Col: l, Val: v / math.Sqrt(norm[l])})
			}
		}
	}
	topics, err := sparse.FromTriplets(x.Rows, k, ts)
	if err != nil {
		return nil, err
	}
	unitRowsInPlace(topics)
	both := &sparse.CSR{Rows: x.Rows, Cols: x.Cols + k, Indptr: make([]int, x.Rows+1)}
	for i := 0; i < x.Rows; i++ {
		cols, vals := x.Row(i)
		both.Indices = append(both.Indices, cols...)
		both.Data = append(both.Data, vals...)
		cols, vals = topics.Row(i)
		for p, j := range cols {
			both.Indices = append(both.Indices, j+int32(x.Cols))
			both.Data = append(both.Data, vals[p])
		}
		both.Indptr[i+1] = len(both.Data)
	}
	return &reutersFold{terms: x, topics: topics, both: both, y: y}, nil
}

func unitRowsInPlace(x *sparse.CSR) {
	for i := 0; i < x.Rows; i++ {
		_, vals := x.Row(i)
		s := 0.0
		for _, v := range vals {
			s += v * v
		}
		if s > 0 {
			s = 1 / math.Sqrt(s)
			for p := range vals {
				vals[p] *= s
			}
		}
	}
}

// The Reuters benchmarks time the classifiers of the automatic
// configuration (the linear SVM baseline and the topics and terms+topics
// readouts) on one fold of Reuters' training set; they skip without the
// corpus. They report the outer iterations summed over the binary problems
// (svm) or the L-BFGS iterations (logistic).
func BenchmarkReutersLinearSVCTerms(b *testing.B) {
	d := loadReutersFold(b)
	benchReutersSVC(b, d.terms, d.y)
}

func BenchmarkReutersLinearSVCTermsTopics(b *testing.B) {
	d := loadReutersFold(b)
	benchReutersSVC(b, d.both, d.y)
}

// BenchmarkReutersLinearSVCTermsTopicsWarm is the terms+topics SVM
// warm-started from the terms SVM's dual variables on the same rows
// (LinearSVC.Start), as the automatic configuration fits it; the terms SVM
// is fitted before the timer starts.
func BenchmarkReutersLinearSVCTermsTopicsWarm(b *testing.B) {
	d := loadReutersFold(b)
	terms := &classify.LinearSVC{Seed: 1, KeepDuals: true}
	if err := terms.Fit(context.Background(), d.terms, d.y); err != nil {
		b.Fatal(err)
	}
	benchReutersSVCFrom(b, d.both, d.y, terms.Duals())
}

// The CV benchmarks time the same SVMs at LIBLINEAR's tolerance of 0.1,
// as the automatic configuration's folds solve them (model's cvSVMTol).
func BenchmarkReutersLinearSVCTermsCV(b *testing.B) {
	d := loadReutersFold(b)
	benchReutersSVCTol(b, d.terms, d.y, nil, 0.1)
}

func BenchmarkReutersLinearSVCTermsTopicsWarmCV(b *testing.B) {
	d := loadReutersFold(b)
	terms := &classify.LinearSVC{Seed: 1, Tol: 0.1, KeepDuals: true}
	if err := terms.Fit(context.Background(), d.terms, d.y); err != nil {
		b.Fatal(err)
	}
	benchReutersSVCTol(b, d.both, d.y, terms.Duals(), 0.1)
}

func BenchmarkReutersLogisticTopics(b *testing.B) {
	d := loadReutersFold(b)
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		lr := &classify.LogisticRegression{C: 10}
		if err := lr.Fit(ctx, d.topics, d.y); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(lr.Convergence().Iterations[0]), "iters")
	}
}

func benchReutersSVC(b *testing.B, x *sparse.CSR, y []int) { benchReutersSVCFrom(b, x, y, nil) }

func benchReutersSVCFrom(b *testing.B, x *sparse.CSR, y []int, start [][]float64) {
	benchReutersSVCTol(b, x, y, start, 0)
}

func benchReutersSVCTol(b *testing.B, x *sparse.CSR, y []int, start [][]float64, tol float64) {
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := &classify.LinearSVC{Seed: 1, Start: start, Tol: tol}
		if err := s.Fit(ctx, x, y); err != nil {
			b.Fatal(err)
		}
		n := 0
		for _, it := range s.Convergence().Iterations {
			n += it
		}
		b.ReportMetric(float64(n), "iters")
	}
}
