package nmf

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/supervision"
)

// guidedX is six documents over five terms: terms 0 and 1, 2 and 3, and 4
// go together.
func guidedX() *sparse.CSR {
	return sparse.FromDense(mat.NewDense(6, 5, []float64{
		3, 1, 0, 0, 1,
		2, 2, 0, 1, 0,
		0, 0, 4, 1, 0,
		0, 1, 3, 2, 0,
		1, 0, 0, 0, 5,
		0, 0, 1, 0, 4,
	}))
}

// The engine's objective on X with the seed pseudo-documents stacked under
// it is the guided objective written out: D(X, W·H) + Σ_r μ_r·D(q_r,
// c_r·h_t(r)), each pseudo-document using its own topic alone; the
// stripped W has the documents' rows only.
func TestGuidedObjectiveWrittenOut(t *testing.T) {
	x := guidedX()
	// Topic 0 is seeded by terms 0 (strength 2) and 1, topic 1 by term 3.
	seeds := supervision.Terms{Seeds: []supervision.Seed{{Topic: 0, Term: 0, Strength: 2}, {Topic: 0, Term: 1}, {Topic: 1, Term: 3}}}
	const k = 3
	docW := []float64{1, 2, 1, 1, 0.5, 1}
	for _, loss := range []Loss{Frobenius, KullbackLeibler} {
		g, notes, err := newGuide(x, k, seeds, docW, loss, 3)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(strings.Join(notes, "|"), "β = 3") {
			t.Errorf("notes %q do not give β", notes)
		}
		// q: topic 0 has 0:2, 1:1; topic 1 3:1.
		if g.q.At(0, 0) != 2 || g.q.At(0, 1) != 1 || g.q.At(1, 3) != 1 || g.q.NNZ() != 3 || !slices.Equal(g.Topics(), []int{0, 1}) {
			t.Fatalf("%v: seed rows %v, topics %v", loss, g.q.ToDense(), g.topics)
		}
		// μ = β·mass(X)/(K·mass(q)) with the documents' weights.
		mass := dataMass(x, docW, loss)
		q0 := 5.0 // 2² + 1²
		if loss == KullbackLeibler {
			q0 = 3
		}
		if want := 3 * mass / (k * q0); math.Abs(g.mu[0]-want) > 1e-12*want {
			t.Errorf("%v: μ_0 = %v, want %v", loss, g.mu[0], want)
		}
		xs, rw, wm, err := g.Stack(x, docW, nil, k)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Fit(context.Background(), xs, Config{K: k, Loss: loss, Seed: 1, Init: InitRandom, MaxIter: 30, Tol: -1, RowWeights: rw, WMask: wm})
		if err != nil {
			t.Fatal(err)
		}
		if r.W.At(6, 1) != 0 || r.W.At(6, 2) != 0 || r.W.At(7, 0) != 0 || r.W.At(7, 2) != 0 {
			t.Errorf("%v: a pseudo-document uses another topic than its own: %v", loss, mat.Formatted(r.W.Slice(6, 8, 0, k)))
		}
		w := g.Strip(r.W)
		if n, _ := w.Dims(); n != x.Rows {
			t.Fatalf("%v: stripped W has %d rows, want %d", loss, n, x.Rows)
		}
		// Written out: the documents' weighted data term plus μ times each
		// seed row's divergence from c·h_t, in the engine's convention
		// (½ squared error for Frobenius).
		div := func(a, b float64) float64 {
			if loss == Frobenius {
				return (a - b) * (a - b) / 2
			}
			if a == 0 {
				return b
			}
			return a*math.Log(a/b) - a + b
		}
		var wh mat.Dense
		wh.Mul(w, r.H)
		want := 0.0
		for i := 0; i < x.Rows; i++ {
			for j := 0; j < x.Cols; j++ {
				want += docW[i] * div(x.At(i, j), wh.At(i, j))
			}
		}
		for s, tp := range g.topics {
			c := r.W.At(x.Rows+s, tp)
			for j := 0; j < x.Cols; j++ {
				want += g.mu[s] * div(g.q.At(s, j), c*r.H.At(tp, j))
			}
		}
		if got := r.FinalObjective(); math.Abs(got-want) > 1e-9*want {
			t.Errorf("%v: engine objective %v, written-out guided objective %v", loss, got, want)
		}
	}
}

// Fit with Config.Seeds is the stacked fit: the same factors as Fit on X
// with the pseudo-documents under it, their weights and W mask, and the
// seeded start; its W has the documents' rows, its exclusions are exact,
// and it says what it did.
func TestFitSeedsIsTheStackedFit(t *testing.T) {
	x := guidedX()
	seeds := supervision.Terms{
		Seeds:   []supervision.Seed{{Topic: 1, Term: 2}, {Topic: 1, Term: 3, Strength: 2}, {Topic: 0, Term: 4}},
		Exclude: []supervision.Exclusion{{Topic: 0, Term: 0}, {Topic: 2, Term: 4}},
	}
	const k = 3
	for _, loss := range []Loss{Frobenius, KullbackLeibler} {
		got, err := Fit(context.Background(), x, Config{K: k, Loss: loss, Seed: 2, MaxIter: 40, Seeds: seeds, SeedWeight: 0.5})
		if err != nil {
			t.Fatal(err)
		}
		g, _, err := NewGuide(x, k, seeds, nil, loss, 0.5)
		if err != nil {
			t.Fatal(err)
		}
		xs, rw, wm, err := g.Stack(x, nil, nil, k)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Fit(context.Background(), xs, Config{K: k, Loss: loss, Seed: 2, MaxIter: 40, RowWeights: rw, WMask: wm,
			HMask: seeds.Mask(k, x.Cols), Init: InitLabelMean, Labels: g.StartLabels(x)})
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(got.H, want.H) || !mat.Equal(got.W, g.Strip(want.W)) || !slices.Equal(got.Objective, want.Objective) {
			t.Errorf("%v: the seeded fit is not the stacked fit", loss)
		}
		if n, _ := got.W.Dims(); n != x.Rows {
			t.Errorf("%v: W has %d rows, want %d", loss, n, x.Rows)
		}
		if got.H.At(0, 0) != 0 || got.H.At(2, 4) != 0 {
			t.Errorf("%v: excluded entries of H %v %v", loss, got.H.At(0, 0), got.H.At(2, 4))
		}
		if !slices.Equal(got.Seeded, []int{1, 0}) {
			t.Errorf("%v: seeded topics %v, want [1 0]", loss, got.Seeded)
		}
		if notes := strings.Join(got.Notes, "|"); !strings.Contains(notes, "guided NMF: 2 seeded topics") || !strings.Contains(notes, "seeded start") {
			t.Errorf("%v: notes %q", loss, got.Notes)
		}
	}
}

// A seed term no document holds guides nothing: the fit is the unseeded
// one, with a note; exclusions alone are Fit with an H mask.
func TestFitSeedsNotInTheDocuments(t *testing.T) {
	// Term 4 is in no document.
	x, err := sparse.FromTriplets(4, 5, []sparse.Triplet{
		{Row: 0, Col: 0, Val: 1}, {Row: 0, Col: 1, Val: 2}, {Row: 1, Col: 0, Val: 2}, {Row: 1, Col: 1, Val: 1},
		{Row: 2, Col: 2, Val: 3}, {Row: 2, Col: 3, Val: 1}, {Row: 3, Col: 2, Val: 1}, {Row: 3, Col: 3, Val: 3},
	})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{K: 2, Seed: 1, MaxIter: 20, Init: InitRandomAcol}
	plain, err := Fit(context.Background(), x, cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Seeds.Seeds = []supervision.Seed{{Topic: 0, Term: 4}}
	got, err := Fit(context.Background(), x, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(got.H, plain.H) || len(got.Seeded) != 0 || !strings.Contains(strings.Join(got.Notes, "|"), "no document holds a seed word") {
		t.Errorf("an absent seed term changed the fit or went unnoted: seeded %v, notes %q", got.Seeded, got.Notes)
	}
	cfg.Seeds = supervision.Terms{Exclude: []supervision.Exclusion{{Topic: 1, Term: 0}}}
	ex, err := Fit(context.Background(), x, cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Seeds, cfg.HMask = supervision.Terms{}, cfg.Seeds.Mask(2, 5)
	masked, err := Fit(context.Background(), x, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(ex.H, masked.H) || ex.H.At(1, 0) != 0 {
		t.Errorf("exclusions are not the H mask")
	}
}

// TS-NMF with seed terms is TS-NMF on the stacked rows: a pseudo-document
// is a labeled document of its topic with weight μ beside the documents'
// weights E.
func TestTSNMFSeeds(t *testing.T) {
	x := guidedX()
	labels := [][]int{{0}, nil, {1}, nil, nil, nil}
	seeds := supervision.Terms{Seeds: []supervision.Seed{{Topic: 2, Term: 4}}, Exclude: []supervision.Exclusion{{Topic: 0, Term: 2}}}
	cfg := TSNMFConfig{Config: Config{K: 4, Labels: labels, Seed: 3, MaxIter: 30, Seeds: seeds}, LabelNames: []string{"a", "b", "c"}}
	got, err := TSNMF(context.Background(), x, cfg)
	if err != nil {
		t.Fatal(err)
	}
	e, _, err := tsnmfWeights(cfg, 2, 6)
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := NewGuide(x, 4, seeds, e, Frobenius, 0)
	if err != nil {
		t.Fatal(err)
	}
	xs, rw, _, err := g.Stack(x, e, nil, 4)
	if err != nil {
		t.Fatal(err)
	}
	want, err := TSNMF(context.Background(), xs, TSNMFConfig{Config: Config{K: 4, Labels: g.labels(labels, 6), Seed: 3, MaxIter: 30,
		HMask: seeds.Mask(4, 5)}, LabelNames: cfg.LabelNames, Weighting: CustomWeighting, DocWeights: rw})
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(got.H, want.H) || !mat.Equal(got.W, g.Strip(want.W)) || got.H.At(0, 2) != 0 {
		t.Error("seeded TS-NMF is not TS-NMF on the stacked rows")
	}
	if got.Labeled != 2 || len(got.DocWeights) != 6 || !slices.Equal(got.Seeded, []int{2}) {
		t.Errorf("labeled %d, %d document weights, seeded %v", got.Labeled, len(got.DocWeights), got.Seeded)
	}
	cfg.Seeds.Seeds[0].Topic = 3
	if _, err := TSNMF(context.Background(), x, cfg); err == nil || !strings.Contains(err.Error(), "not a label's topic") {
		t.Errorf("seeds of an unsupervised topic: %v", err)
	}
}

// Bad seeds are errors naming the seed, its topic and its term.
func TestSeedsErrors(t *testing.T) {
	x := guidedX()
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{K: 2, Seeds: supervision.Terms{Seeds: []supervision.Seed{{Topic: 2, Term: 0}}}}, "nmf: Seeds: seed 0 (topic 2, term 0): topic out of range"},
		{Config{K: 2, Seeds: supervision.Terms{Exclude: []supervision.Exclusion{{Topic: 0, Term: 5}}}}, "term out of range [0, 5)"},
		{Config{K: 2, Seeds: supervision.Terms{Seeds: []supervision.Seed{{Topic: 0, Term: 1, Strength: -2}}}}, "strength -2"},
		{Config{K: 2, SeedWeight: math.NaN()}, "SeedWeight"},
		{Config{K: 2, Seeds: supervision.Terms{Seeds: []supervision.Seed{{Topic: 0, Term: 1}}}, W0: mat.NewDense(6, 2, nil)}, "W0"},
		{Config{K: 2, Seeds: supervision.Terms{Seeds: []supervision.Seed{{Topic: 0, Term: 1}}}, FixH: true, H0: mat.NewDense(2, 5, nil)}, "both factors"},
	} {
		if _, err := Fit(context.Background(), x, c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error saying %q", c.cfg.Seeds, err, c.want)
		}
	}
	if _, err := NewTrainer(6, 5, Config{K: 2, Seeds: supervision.Terms{Seeds: []supervision.Seed{{Topic: 0, Term: 1}}}}); err == nil || !strings.Contains(err.Error(), "out of core") {
		t.Errorf("seed terms out of core: %v", err)
	}
	// Data at the edge of the float64 range and a tiny strength give a
	// weight the fit cannot use: an error naming the topic.
	huge := mat.NewDense(40, 3, nil)
	for i := range huge.RawMatrix().Data {
		huge.RawMatrix().Data[i] = 1e150
	}
	_, err := Fit(context.Background(), huge, Config{K: 2, Seeds: supervision.Terms{Seeds: []supervision.Seed{{Topic: 1, Term: 0, Strength: 1e-6}}}})
	var se *SeedWeightError
	if !errors.As(err, &se) || se.Topic != 1 || !math.IsInf(se.Weight, 1) {
		t.Errorf("an overflowing seed weight: %v", err)
	}
}

// weighByShare scales μ by the odds of the share the seed terms hold in
// the documents holding them, for either loss; a topic whose seed terms
// no document holds takes the smallest share, and no seed term in any
// document drops the guide.
func TestWeighByShare(t *testing.T) {
	// Documents: 0 holds seed 0 (1) and term 1 (3); 1 holds term 2 only;
	// 2 nothing of the seeds. Topic 0 is seeded by term 0, topic 1 by
	// term 3 (no document).
	x, err := sparse.FromTriplets(3, 4, []sparse.Triplet{{Row: 0, Col: 0, Val: 1}, {Row: 0, Col: 1, Val: 3}, {Row: 1, Col: 2, Val: 2}, {Row: 2, Col: 1, Val: 1}})
	if err != nil {
		t.Fatal(err)
	}
	seeds := supervision.Terms{Seeds: []supervision.Seed{{Topic: 0, Term: 0}, {Topic: 1, Term: 3}}}
	for _, c := range []struct {
		loss  Loss
		share float64
	}{{KullbackLeibler, 1.0 / 4}, {Frobenius, 1.0 / 10}} {
		g, _, err := newGuide(x, 2, seeds, nil, c.loss, 0)
		if err != nil {
			t.Fatal(err)
		}
		before := slices.Clone(g.mu)
		if got := g.seedShares(x, nil, c.loss); math.Abs(got[0]-c.share) > 1e-12 || got[1] != -1 {
			t.Errorf("loss %v: shares %v, want [%v -1]", c.loss, got, c.share)
		}
		g, note := g.weighByShare(x, nil, c.loss)
		odds := c.share / (1 - c.share)
		for r := range before {
			if math.Abs(g.mu[r]-before[r]*odds) > 1e-9*before[r] {
				t.Errorf("loss %v: μ[%d] %v, want %v·%v", c.loss, r, g.mu[r], before[r], odds)
			}
		}
		if !strings.Contains(note, "odds") {
			t.Errorf("note %q", note)
		}
	}
	g, notes, err := NewGuide(x, 2, supervision.Terms{Seeds: seeds.Seeds[1:]}, nil, KullbackLeibler, 0)
	if err != nil || g != nil || !strings.Contains(strings.Join(notes, "|"), "no document holds a seed word") {
		t.Errorf("no document holds a seed term: guide %v, notes %q, %v", g, notes, err)
	}
}

// A seeded fit starts from given factors (a warm start): the
// pseudo-documents' rows of W start at their best weight for H0
// (Guide.StackW), so that a fit from a converged seeded fit's factors
// starts at that fit's objective and moves little; exclusions stay
// exactly zero. TSNMF starts so too.
func TestGuidedFromFactors(t *testing.T) {
	x := guidedX()
	ctx := context.Background()
	seeds := supervision.Terms{Seeds: []supervision.Seed{{Topic: 0, Term: 0}, {Topic: 1, Term: 2}}, Exclude: []supervision.Exclusion{{Topic: 2, Term: 4}}}
	for _, loss := range []Loss{Frobenius, KullbackLeibler} {
		cfg := Config{K: 3, Loss: loss, Seed: 2, MaxIter: 500, Tol: 1e-9, Seeds: seeds}
		cold, err := Fit(ctx, x, cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg.W0, cfg.H0 = cold.W, cold.H
		warm, err := Fit(ctx, x, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := warm.W.Dims(); n != x.Rows || !slices.Equal(warm.Seeded, []int{0, 1}) || warm.Init != InitCustom {
			t.Fatalf("%v: W has %d rows, seeded %v, init %v", loss, n, warm.Seeded, warm.Init)
		}
		if d := math.Abs(warm.Objective[0]-cold.FinalObjective()) / cold.FinalObjective(); d > 1e-3 {
			t.Errorf("%v: the start's objective %v is not the fit's %v (relative %g)", loss, warm.Objective[0], cold.FinalObjective(), d)
		}
		if warm.Iterations >= cold.Iterations {
			t.Errorf("%v: the warm start ran %d iterations, the cold fit %d", loss, warm.Iterations, cold.Iterations)
		}
		if warm.H.At(2, 4) != 0 {
			t.Errorf("%v: excluded entry %v", loss, warm.H.At(2, 4))
		}
		// TSNMF: the seeded topics are labels' topics.
		tcfg := TSNMFConfig{Config: Config{K: 3, Loss: loss, Seed: 2, MaxIter: 500, Tol: 1e-9, Seeds: seeds, Labels: [][]int{{0}, nil, {1}, nil, nil, nil}}, LabelNames: []string{"a", "b"}}
		tcold, err := TSNMF(ctx, x, tcfg)
		if err != nil {
			t.Fatal(err)
		}
		tcfg.W0, tcfg.H0 = tcold.W, tcold.H
		twarm, err := TSNMF(ctx, x, tcfg)
		if err != nil {
			t.Fatal(err)
		}
		if d := math.Abs(twarm.Objective[0]-tcold.FinalObjective()) / tcold.FinalObjective(); d > 1e-3 || twarm.Iterations >= tcold.Iterations || twarm.H.At(2, 4) != 0 {
			t.Errorf("%v: TSNMF from its own factors: objective %v from %v, %d iterations from %d, excluded %v", loss,
				twarm.Objective[0], tcold.FinalObjective(), twarm.Iterations, tcold.Iterations, twarm.H.At(2, 4))
		}
	}
	if _, err := Fit(ctx, x, Config{K: 3, Seeds: seeds, W0: mat.NewDense(6, 3, nil)}); err == nil || !strings.Contains(err.Error(), "H0") {
		t.Errorf("W0 without H0: %v", err)
	}
}
