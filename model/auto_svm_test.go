package model

import (
	"context"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/vectorize"
)

// warmFrom takes the duals of the fold fitted on the same documents alone,
// else the mean over the folds that have the row, in the search's labels.
func TestWarmFrom(t *testing.T) {
	// Fold a: document 1 with label 0, document 2 with labels 1 and 2.
	a := newSVMDuals([]int{1, 2}, []int{1, 2, 2}, []int{0, 1, 2}, []int{0, 1, 2}, [][]float64{{1, 0, 0}, {0, 2, 0}, {0, 0, 3}})
	// Fold b: two labels, one problem.
	b := newSVMDuals([]int{2, 3}, []int{2, 3}, []int{1, 0}, []int{0, 1}, [][]float64{{4, 5}})
	if got, ok := a.dual(2, 1, 2); !ok || got != 0 {
		t.Errorf("a zero dual: %g, %v, want 0, true", got, ok)
	}
	if _, ok := a.dual(3, 1, 1); ok {
		t.Error("a row fold a lacks has a dual")
	}
	same := warmFrom([]*svmDuals{b, a}, []int{1, 2}, func(l int) int { return l })
	if got := same.at(1, 1, 1); got != 2 {
		t.Errorf("same documents: dual %g, want fold a's 2 alone", got)
	}
	// Readout labels 0 and 1 are the search's 1 and 0.
	swap := func(l int) int { return 1 - l }
	mean := warmFrom([]*svmDuals{a, b}, []int{2, 3, 4}, swap)
	for _, c := range []struct {
		i, l, k int
		want    float64
	}{
		{0, 0, 0, (2 + 4) / 2.0}, // document 2, label 1, problem 1: both folds
		{1, 1, 0, 5},             // document 3, label 0: fold b only, its single problem
		{2, 0, 0, 0},             // document 4: no fold has it
	} {
		if got := mean.at(c.i, c.l, c.k); got != c.want {
			t.Errorf("warm(%d, %d, %d) = %g, want %g", c.i, c.l, c.k, got, c.want)
		}
	}
	if warmFrom(nil, []int{1}, swap) != nil {
		t.Error("no folds: a start")
	}
	// duals lays at out as LinearSVC.Start takes it, to the bit: rows
	// of documents 2, 3 and 4 (readout indices 0, 1 and 2) with their
	// readout labels, over three labels (three problems) and two (label
	// 1's problem alone).
	doc, y := []int{0, 0, 1, 2}, []int{0, 1, 1, 0}
	for _, labels := range []int{3, 2} {
		checkDuals(t, mean, doc, y, labels)
	}
}

// checkDuals checks that w.duals(doc, y, labels) holds w.at for every row
// and problem, to the bit.
func checkDuals(t *testing.T, w *readoutWarm, doc, y []int, labels int) {
	t.Helper()
	start := w.duals(doc, y, labels)
	want := labels
	if labels == 2 {
		want = 1
	}
	if len(start) != want {
		t.Fatalf("%d labels: %d problems, want %d", labels, len(start), want)
	}
	for k, a := range start {
		pos := k
		if labels == 2 {
			pos = 1
		}
		if len(a) != len(doc) {
			t.Fatalf("%d labels, problem %d: %d duals for %d rows", labels, k, len(a), len(doc))
		}
		for r, v := range a {
			if at := w.at(doc[r], y[r], pos); math.Float64bits(v) != math.Float64bits(at) {
				t.Errorf("%d labels, problem %d, row %d: %g, at gives %g", labels, k, r, v, at)
			}
		}
	}
}

// The terms+topics readout warm-started from the terms-only SVM's duals on
// the same fold learns the model a cold start does, to the solver's
// tolerance, from a start that is not zero.
func TestReadoutWarmStart(t *testing.T) {
	ctx := context.Background()
	d := demoFolds(t)
	x, names, idx, cv, idf, duals := d.res.X, d.names, d.idx, d.cv, d.idf, d.duals
	if len(duals) != len(cv) {
		t.Fatalf("%d folds' duals for %d folds", len(duals), len(cv))
	}
	fold := cv[0]
	xl := x.SelectRows(fold.train)
	// Topic-like weights: each document's share of a few terms per label.
	w := mat.NewDense(xl.Rows, len(names), nil)
	for i := 0; i < xl.Rows; i++ {
		cols, vals := xl.Row(i)
		for q, j := range cols {
			w.Set(i, int(j)%len(names), w.At(i, int(j)%len(names))+vals[q])
		}
	}
	var tl [][]int
	present := map[int]bool{}
	for _, i := range fold.train {
		tl = append(tl, idx[i])
		for _, l := range idx[i] {
			present[l] = true
		}
	}
	if len(present) != len(names) {
		t.Skipf("fold 1 lacks %d of the %d labels", len(names)-len(present), len(names))
	}
	warm := warmFrom(duals, fold.train, func(l int) int { return l })
	nonzero := 0
	for i, ls := range tl {
		for _, l := range ls {
			if warm.at(i, l, l) > 0 {
				nonzero++
			}
		}
	}
	if nonzero == 0 {
		t.Fatal("the warm start is zero")
	}
	var doc, y []int
	for i, ls := range tl {
		for _, l := range ls {
			doc, y = append(doc, i), append(y, l)
		}
	}
	checkDuals(t, warm, doc, y, len(names))
	// The mean over the folds, as the learning curve's and the final
	// readouts start, where no fold has the same documents.
	var doc1, y1 []int
	for r, i := range doc {
		if i > 0 {
			doc1, y1 = append(doc1, i-1), append(y1, y[r])
		}
	}
	checkDuals(t, warmFrom(duals, fold.train[1:], func(l int) int { return l }), doc1, y1, len(names))
	cold, err := trainReadout(ctx, ReadoutTermsTopics, xl, w, tl, len(names), idf, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	hot, err := trainReadout(ctx, ReadoutTermsTopics, xl, w, tl, len(names), idf, 5, &readoutSVM{warm: warm})
	if err != nil {
		t.Fatal(err)
	}
	r, k := cold.lin.Coef.Dims()
	worst := 0.0
	for i := range r {
		for j := range k {
			worst = max(worst, math.Abs(cold.lin.Coef.At(i, j)-hot.lin.Coef.At(i, j)))
		}
	}
	if worst > 0.02 {
		t.Errorf("warm and cold readouts' coefficients differ by up to %g", worst)
	}
	t.Logf("%d of the rows start above zero; coefficients within %.2g", nonzero, worst)
}

// The learning curve's terms-only SVM, started from the search's folds'
// duals, predicts what a cold start does: the start moves the solver's
// iterations, not (beyond its tolerance) its optimum.
func TestCurveSVMWarmStart(t *testing.T) {
	ctx := context.Background()
	d := demoFolds(t)
	idx, cv, duals := d.idx, d.cv, d.duals
	terms := termFeatures(d.res.X, d.idf)
	small := smallFolds(idx, cv)
	if len(small) == 0 {
		t.Fatal("the demo corpus's folds cannot be turned")
	}
	_, cold, _, err := svmFolds(ctx, terms, idx, small, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, hot, hotDuals, err := svmFolds(ctx, terms, idx, small, 5, duals)
	if err != nil {
		t.Fatal(err)
	}
	n, differ := 0, 0
	for f := range cold {
		for j := range cold[f] {
			n++
			if cold[f][j] != hot[f][j] {
				differ++
			}
		}
	}
	if float64(differ) > 0.02*float64(n) {
		t.Errorf("warm and cold starts predict differently for %d of %d documents", differ, n)
	}
	if len(hotDuals) != len(small) {
		t.Errorf("%d turned folds' duals for %d folds", len(hotDuals), len(small))
	}
	t.Logf("%d of %d predictions differ", differ, n)
}

// A fold's terms+topics readout keeps its duals when asked, laid out by
// document and label as the terms-only SVM's are, so that they can start
// the kept model's readout (Candidate.duals).
func TestFoldReadoutDuals(t *testing.T) {
	ctx := context.Background()
	d := demoFolds(t)
	x, res, sup, idx, cv, idf, duals := d.res.X, d.res, d.sup, d.idx, d.cv, d.idf, d.duals
	o := Options{Kind: KindTSNMF, Seed: 5, MaxIter: 20}
	ro := []string{ReadoutTermsTopics}
	_, _, _, _, none, err := foldAccuracies(ctx, x, res.Vocab, sup, idx, cv[0], o, ro, idf, duals, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if none != nil {
		t.Error("duals kept unasked")
	}
	_, _, _, _, kept, err := foldAccuracies(ctx, x, res.Vocab, sup, idx, cv[0], o, ro, idf, duals, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if kept == nil {
		t.Fatal("no duals kept")
	}
	rows, positive := 0, 0
	for _, i := range cv[0].train {
		for _, l := range idx[i] {
			a, ok := kept.dual(i, l, l)
			if !ok {
				t.Fatalf("no dual for document %d, label %d", i, l)
			}
			rows++
			if a > 0 {
				positive++
			}
		}
	}
	if rows != len(kept.row) || positive == 0 {
		t.Errorf("%d rows of which %d positive in their own label's problem, the duals have %d rows", rows, positive, len(kept.row))
	}
}

// demoSearch is the demo corpus's labeled documents in the search's folds,
// with the terms-only SVM's duals on them (svmFolds).
type demoSearch struct {
	res   *vectorize.Result
	sup   Supervision
	names []string
	idx   [][]int
	cv    []cvFold
	idf   []float64
	duals []*svmDuals
}

// demoFolds prepares what the warm-start tests share: the demo corpus
// vectorized, 3 stratified folds of seed 5 and the terms-only SVM on each.
func demoFolds(t *testing.T) demoSearch {
	t.Helper()
	ctx := context.Background()
	c := demoCorpus(t)
	_, res, err := vectorize.DefaultPipeline().FitTransform(ctx, c.Docs)
	if err != nil {
		t.Fatal(err)
	}
	d := demoSearch{res: res, sup: Supervision{Labels: corpus.DocLabels(res.Docs)}}
	d.names, d.idx = d.sup.labelIndex()
	d.cv = searchFolds(t, d.idx, 5)
	d.idf = termWeights(res.X)
	if _, _, d.duals, err = svmFolds(ctx, termFeatures(res.X, d.idf), d.idx, d.cv, 5, nil); err != nil {
		t.Fatal(err)
	}
	return d
}

// searchFolds returns the automatic configuration's folds of the labeled
// documents idx (labelIndex's), as autoFit makes them with seed.
func searchFolds(tb testing.TB, idx [][]int, seed uint64) []cvFold {
	tb.Helper()
	first := make([]int, len(idx))
	for i, ls := range idx {
		first[i] = -1
		if len(ls) > 0 {
			first[i] = ls[0]
		}
	}
	assign, err := StratifiedFolds(first, AutoFolds, seed)
	if err != nil {
		tb.Fatal(err)
	}
	return makeFolds(idx, assign, AutoFolds)
}

// dual (a reference for the tests) returns the dual variable of document doc's row of label in the
// binary problem of label problem, and whether d has one.
func (d *svmDuals) dual(doc, label, problem int) (float64, bool) {
	r, ok := d.row[[2]int{doc, label}]
	if !ok {
		return 0, false
	}
	k, ok := d.problem[problem]
	if !ok {
		return 0, false
	}
	j, found := slices.BinarySearch(d.nz[k], int32(r))
	if !found {
		return 0, true
	}
	return d.alpha[k][j], true
}

// at (a reference for the tests: readoutWarm.duals must give its
// values to the bit) returns the start of the i-th document's row of label l in the
// binary problem of label k: the mean of the duals of the folds that have
// that row and problem, 0 when none has.
func (w *readoutWarm) at(i, l, k int) float64 {
	sum, n := 0.0, 0
	for _, f := range w.use {
		if a, ok := f.dual(w.docs[i], w.label(l), w.label(k)); ok {
			sum += a
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}
