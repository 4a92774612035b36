package contract_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/corex"
	"github.com/semitopic/semitopic/lda"
	"github.com/semitopic/semitopic/nmf"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/ssnmf"
	"github.com/semitopic/semitopic/supervision"
	"github.com/semitopic/semitopic/synth"
	"github.com/semitopic/semitopic/theme"
)

// estimator fits one kind with the given seed and progress function and
// returns the fitted model's Transform.
type estimator struct {
	name string
	fit  func(ctx context.Context, x *sparse.CSR, labels []int, seed uint64, report progress.Func) (transform func(context.Context, *sparse.CSR) (*mat.Dense, error), err error)
}

const topics = 4

func estimators() []estimator {
	return []estimator{
		{"nmf", func(ctx context.Context, x *sparse.CSR, _ []int, seed uint64, report progress.Func) (func(context.Context, *sparse.CSR) (*mat.Dense, error), error) {
			m, err := nmf.Fit(ctx, x, nmf.Config{K: topics, Init: nmf.InitRandom, Seed: seed, MaxIter: 30, Progress: report})
			if m == nil {
				return nil, err
			}
			return func(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) { return m.Transform(ctx, x) }, err
		}},
		{"tsnmf", func(ctx context.Context, x *sparse.CSR, labels []int, seed uint64, report progress.Func) (func(context.Context, *sparse.CSR) (*mat.Dense, error), error) {
			lab := labelLists(labels)
			m, err := nmf.TSNMF(ctx, x, nmf.TSNMFConfig{Config: nmf.Config{K: topics, Labels: lab, Seed: seed, MaxIter: 30, Progress: report}})
			if m == nil {
				return nil, err
			}
			return func(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) { return m.Transform(ctx, x) }, err
		}},
		{"ssnmf", func(ctx context.Context, x *sparse.CSR, labels []int, seed uint64, report progress.Func) (func(context.Context, *sparse.CSR) (*mat.Dense, error), error) {
			y, rowW, err := ssnmf.OneHot(labels, topics)
			if err != nil {
				return nil, err
			}
			m, err := ssnmf.Fit(ctx, x, ssnmf.Config{K: topics, Losses: ssnmf.DF, Y: y, LabelRowWeights: rowW, Lambda: 1, Seed: seed, MaxIter: 30, Progress: report})
			if m == nil {
				return nil, err
			}
			return func(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) { return m.Transform(ctx, x) }, err
		}},
		{"theme", func(ctx context.Context, x *sparse.CSR, labels []int, seed uint64, report progress.Func) (func(context.Context, *sparse.CSR) (*mat.Dense, error), error) {
			lab := labelLists(labels)
			m, err := theme.Fit(ctx, x, theme.Config{Themes: []string{"a", "b", "c", "d"}, Labels: lab, Subtopics: 1, Seed: seed, MaxIter: 30, Progress: report})
			if m == nil {
				return nil, err
			}
			return func(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) { return m.Transform(ctx, x) }, err
		}},
		{"corex", func(ctx context.Context, x *sparse.CSR, _ []int, seed uint64, report progress.Func) (func(context.Context, *sparse.CSR) (*mat.Dense, error), error) {
			m, err := corex.Fit(ctx, x, corex.Config{K: topics, Seed: seed, MaxIter: 30, Progress: report})
			if m == nil {
				return nil, err
			}
			return m.Transform, err
		}},
		{"lda", func(ctx context.Context, x *sparse.CSR, _ []int, seed uint64, report progress.Func) (func(context.Context, *sparse.CSR) (*mat.Dense, error), error) {
			m, err := lda.Fit(ctx, x, lda.Config{K: topics, Seed: seed, MaxIter: 10, Progress: report})
			if m == nil {
				return nil, err
			}
			return m.Transform, err
		}},
		{"labeled lda", func(ctx context.Context, x *sparse.CSR, labels []int, seed uint64, report progress.Func) (func(context.Context, *sparse.CSR) (*mat.Dense, error), error) {
			m, err := lda.Fit(ctx, x, lda.Config{K: topics, Seed: seed, MaxIter: 10, DocTopics: labelLists(labels), Progress: report})
			if m == nil {
				return nil, err
			}
			return m.Transform, err
		}},
		{"guided nmf", func(ctx context.Context, x *sparse.CSR, _ []int, seed uint64, report progress.Func) (func(context.Context, *sparse.CSR) (*mat.Dense, error), error) {
			m, err := nmf.Fit(ctx, x, nmf.Config{K: topics, Loss: nmf.KullbackLeibler, Seed: seed, MaxIter: 30, Seeds: testSeeds, Progress: report})
			if m == nil {
				return nil, err
			}
			return func(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) { return m.Transform(ctx, x) }, err
		}},
		{"guided ssnmf", func(ctx context.Context, x *sparse.CSR, labels []int, seed uint64, report progress.Func) (func(context.Context, *sparse.CSR) (*mat.Dense, error), error) {
			y, rowW, err := ssnmf.OneHot(labels, topics)
			if err != nil {
				return nil, err
			}
			m, err := ssnmf.Fit(ctx, x, ssnmf.Config{K: topics, Losses: ssnmf.DF, Y: y, LabelRowWeights: rowW, Lambda: 1, Seed: seed, MaxIter: 30,
				Seeds: testSeeds, TopicClasses: []int{0, 1, 2, 3}, Progress: report})
			if m == nil {
				return nil, err
			}
			return func(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) { return m.Transform(ctx, x) }, err
		}},
		{"anchored corex", func(ctx context.Context, x *sparse.CSR, _ []int, seed uint64, report progress.Func) (func(context.Context, *sparse.CSR) (*mat.Dense, error), error) {
			m, err := corex.Fit(ctx, x, corex.Config{K: topics, Seed: seed, MaxIter: 30, Seeds: testSeeds, Progress: report})
			if m == nil {
				return nil, err
			}
			return m.Transform, err
		}},
		{"seeded z-labels lda", func(ctx context.Context, x *sparse.CSR, _ []int, seed uint64, report progress.Func) (func(context.Context, *sparse.CSR) (*mat.Dense, error), error) {
			m, err := lda.Fit(ctx, x, lda.Config{K: topics, Seed: seed, MaxIter: 10, Seeds: testSeeds, ZLabels: true, Progress: report})
			if m == nil {
				return nil, err
			}
			return m.Transform, err
		}},
	}
}

// testSeeds are the seed terms and exclusions of the estimators that take
// them: terms 0 to 2 seed topics 0 to 2 (term 2 twice as strongly), and
// topic 3 may not use term 3.
var testSeeds = supervision.Terms{
	Seeds:   []supervision.Seed{{Topic: 0, Term: 0}, {Topic: 1, Term: 1}, {Topic: 2, Term: 2, Strength: 2}},
	Exclude: []supervision.Exclusion{{Topic: 3, Term: 3}},
}

// labelLists turns one label per document (−1: none) into label lists.
func labelLists(labels []int) [][]int {
	lab := make([][]int, len(labels))
	for i, l := range labels {
		if l >= 0 {
			lab[i] = []int{l}
		}
	}
	return lab
}

// corpus draws a small corpus with planted topics and labels.
func corpus(t *testing.T) (*sparse.CSR, []int) {
	t.Helper()
	g, err := synth.New(synth.Config{Docs: 120, Terms: 200, Topics: topics, Labeled: 0.5, MeanLength: 60, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	b, err := sparse.NewBuilder(120, 200, 0)
	if err != nil {
		t.Fatal(err)
	}
	var labels []int
	if err := g.Each(context.Background(), func(i int, d *synth.Doc) error {
		labels = append(labels, d.Label)
		for p, j := range d.Terms {
			if err := b.Add(i, int(j), d.Counts[p]); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	x, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return x, labels
}

func TestContract(t *testing.T) {
	x, labels := corpus(t)
	n, _ := x.Dims()
	for _, e := range estimators() {
		t.Run(e.name, func(t *testing.T) {
			ctx := context.Background()
			var steps []progress.Step
			transform, err := e.fit(ctx, x, labels, 1, func(s progress.Step) { steps = append(steps, s) })
			if err != nil {
				t.Fatal(err)
			}
			if len(steps) == 0 || steps[0].Iter != 1 {
				t.Errorf("progress: %d steps, first %+v; want steps from Iter 1", len(steps), steps)
			}
			for i := 1; i < len(steps); i++ {
				if steps[i].Run == steps[i-1].Run && steps[i].Iter <= steps[i-1].Iter && e.name != "theme" {
					t.Errorf("progress: step %d has Iter %d after %d", i, steps[i].Iter, steps[i-1].Iter)
				}
			}
			w, err := transform(ctx, x)
			if err != nil {
				t.Fatal(err)
			}
			if r, _ := w.Dims(); r != n {
				t.Fatalf("Transform: %d rows for %d documents", r, n)
			}
			for _, v := range w.RawMatrix().Data {
				if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("Transform: weight %v", v)
				}
			}
			// The same seed gives the same model.
			again, err := e.fit(ctx, x, labels, 1, nil)
			if err != nil {
				t.Fatal(err)
			}
			w2, err := again(ctx, x)
			if err != nil {
				t.Fatal(err)
			}
			if !mat.Equal(w, w2) {
				t.Error("the same seed gave another model")
			}
			// Cancelled from Progress after the first step: the model that
			// step left, with the context's error.
			cctx, cancel := context.WithCancel(ctx)
			defer cancel()
			part, err := e.fit(cctx, x, labels, 1, func(progress.Step) { cancel() })
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("cancelled fit: err %v, want context.Canceled", err)
			}
			if part == nil {
				t.Fatal("cancelled fit: no model")
			}
			if _, err := part(ctx, x); err != nil {
				t.Errorf("the partial model does not transform: %v", err)
			}
		})
	}
}
