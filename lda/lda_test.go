package lda

import (
	"context"
	"errors"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/mathext"

	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
)

// TestBoundMatchesDirectComputation evaluates the variational bound of a
// tiny model from the textbook formulas, with an explicit φ and gonum's
// digamma, and compares it with bound, Score and Perplexity.
func TestBoundMatchesDirectComputation(t *testing.T) {
	x := mustCSR(t, [][]float64{
		{2, 0, 1, 0, 3},
		{0, 0, 0, 0, 0}, // empty document
		{1, 1, 0, 4, 0},
		{0, 2, 0.5, 0, 1},
	})
	lam := mat.NewDense(2, 5, []float64{
		3.0, 0.2, 1.5, 0.7, 4.0,
		0.4, 2.5, 0.9, 5.0, 0.3,
	})
	const alpha, eta = 0.3, 0.15
	m, err := FromComponents(lam, Config{DocTopicPrior: alpha, TopicWordPrior: eta})
	if err != nil {
		t.Fatal(err)
	}
	gamma := [][]float64{{4.1, 2.2}, {0.3, 0.3}, {1.9, 5.4}, {2.6, 1.2}}

	elog := func(a []float64) []float64 {
		var s float64
		for _, v := range a {
			s += v
		}
		out := make([]float64, len(a))
		for i, v := range a {
			out[i] = mathext.Digamma(v) - mathext.Digamma(s)
		}
		return out
	}
	lg := func(v float64) float64 { r, _ := math.Lgamma(v); return r }
	// E_q[log p(θ|a)] - E_q[log q(θ|g)] for Dirichlets, in the textbook form.
	dirTerm := func(prior float64, g []float64) float64 {
		el := elog(g)
		n := float64(len(g))
		v := lg(n*prior) - n*lg(prior)
		var gs float64
		for i, gi := range g {
			v += (prior - 1) * el[i]
			v += lg(gi)
			v -= (gi - 1) * el[i]
			gs += gi
		}
		return v - lg(gs)
	}
	k, terms := 2, 5
	var want float64
	elogBeta := make([][]float64, k)
	for tp := 0; tp < k; tp++ {
		elogBeta[tp] = elog(mat.Row(nil, tp, lam))
		want += dirTerm(eta, mat.Row(nil, tp, lam))
	}
	for d, g := range gamma {
		elt := elog(g)
		want += dirTerm(alpha, g)
		for j := 0; j < terms; j++ {
			c := x.At(d, j)
			if c == 0 {
				continue
			}
			// Optimal φ_t ∝ exp(E[log θ_t] + E[log β_tj]); the word's term
			// is Σ_t φ_t (E[log θ_t] + E[log β_tj] - log φ_t).
			phi := make([]float64, k)
			var z float64
			for tp := range phi {
				phi[tp] = math.Exp(elt[tp] + elogBeta[tp][j])
				z += phi[tp]
			}
			for tp := range phi {
				p := phi[tp] / z
				want += c * p * (elt[tp] + elogBeta[tp][j] - math.Log(p))
			}
		}
	}

	flat := make([]float64, 0, 8)
	for _, g := range gamma {
		flat = append(flat, g...)
	}
	got, err := m.bound(context.Background(), newWork(m, x.Rows), x, 0, x.Rows, flat)
	if err != nil {
		t.Fatal(err)
	}
	if relDiff(got, want) > 1e-12 {
		t.Fatalf("bound = %.15g, direct computation %.15g", got, want)
	}

	// Score and Perplexity use the γ of an E-step started from 1.
	ctx := context.Background()
	w := newWork(m, x.Rows)
	if _, err := m.eStep(ctx, w, x, 0, x.Rows, false, false); err != nil {
		t.Fatal(err)
	}
	b, _ := m.bound(ctx, w, x, 0, x.Rows, w.gamma)
	score, err := m.Score(ctx, x)
	if err != nil || score != b {
		t.Fatalf("Score = %v, %v; want %v", score, err, b)
	}
	perp, err := m.Perplexity(ctx, x)
	if err != nil {
		t.Fatal(err)
	}
	if want := math.Exp(-b / 15.5); relDiff(perp, want) > 1e-14 {
		t.Fatalf("Perplexity = %v, want exp(-bound/words) = %v", perp, want)
	}
	// The empty document's γ is α.
	if g := w.gamma[2:4]; g[0] != alpha || g[1] != alpha {
		t.Errorf("empty document γ = %v, want α = %v", g, alpha)
	}
}

func TestBatchRecoversPlantedTopics(t *testing.T) {
	syn := plant(1, 4, 12, 400, 80, 0.2)
	m, err := Fit(context.Background(), syn.x, Config{K: 4, MaxIter: 30, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	perm, dist := matchTopics(syn.beta, topicRows(m))
	for p, d := range dist {
		if d > 0.1 {
			t.Errorf("planted topic %d: best fitted topic %d is %.3f away in total variation", p, perm[p], d)
		}
	}
	// The top words of each fitted topic lie in its planted block.
	words, err := m.TopWords(nil, 8)
	if err != nil {
		t.Fatal(err)
	}
	for p, f := range perm {
		for _, w := range words[f] {
			if w.Index/12 != p {
				t.Errorf("fitted topic %d (planted %d): top word %d outside block %d", f, p, w.Index, p)
			}
		}
	}
	if math.IsNaN(m.TrainPerplexity()) || m.Passes() != 30 || len(m.History()) != 30 {
		t.Errorf("perplexity %v, passes %d, history %d", m.TrainPerplexity(), m.Passes(), len(m.History()))
	}
}

func TestOnlineRecoversPlantedTopics(t *testing.T) {
	syn := plant(2, 4, 12, 600, 80, 0.2)
	m, err := Fit(context.Background(), syn.x, Config{K: 4, Method: Online, BatchSize: 50, MaxIter: 10, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	perm, dist := matchTopics(syn.beta, topicRows(m))
	for p, d := range dist {
		if d > 0.15 {
			t.Errorf("planted topic %d: best fitted topic %d is %.3f away in total variation", p, perm[p], d)
		}
	}
	if want := 1 + 10*12; m.Steps() != want {
		t.Errorf("Steps = %d, want %d (12 mini-batches × 10 passes, plus 1)", m.Steps(), want)
	}
}

func TestPerplexityDecreases(t *testing.T) {
	syn := plant(3, 5, 10, 300, 60, 0.3)
	for _, method := range []Method{Batch, Online} {
		m, err := Fit(context.Background(), syn.x, Config{K: 5, MaxIter: 12, EvaluateEvery: 1, Tol: -1, Method: method, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		h := m.History()
		if len(h) != 12 {
			t.Fatalf("%s: %d history entries, want 12", method, len(h))
		}
		for i := 1; i < len(h); i++ {
			if math.IsNaN(h[i].Objective) {
				t.Fatalf("%s: pass %d not evaluated", method, h[i].Iter)
			}
			// The E-step restarts from random γ and stops at a tolerance,
			// so allow a hair of noise.
			if h[i].Objective > h[i-1].Objective*1.001 {
				t.Errorf("%s: perplexity rose from %.3f to %.3f at pass %d", method, h[i-1].Objective, h[i].Objective, h[i].Iter)
			}
		}
		if first, last := h[0].Objective, h[len(h)-1].Objective; !(last < 0.9*first) {
			t.Errorf("%s: perplexity went from %.2f to %.2f only", method, first, last)
		}
		// The final perplexity is the last evaluated one (same λ, same γ start).
		if got, want := m.TrainPerplexity(), h[len(h)-1].Objective; got != want {
			t.Errorf("%s: TrainPerplexity %v, last evaluation %v", method, got, want)
		}
	}
}

func TestPerpTolStopsEarly(t *testing.T) {
	syn := plant(4, 3, 10, 150, 60, 0.3)
	var seen []int
	m, err := Fit(context.Background(), syn.x, Config{
		K: 3, MaxIter: 200, EvaluateEvery: 2, Tol: 0.5, Seed: 2,
		Progress: func(it progress.Step) { seen = append(seen, it.Iter) },
	})
	if err != nil {
		t.Fatal(err)
	}
	h := m.History()
	if len(h) == 200 {
		t.Fatal("Fit did not stop on Tol")
	}
	last := h[len(h)-1]
	prev := h[len(h)-3]
	if math.IsNaN(last.Objective) || math.Abs(last.Objective-prev.Objective) >= 0.5 {
		t.Errorf("stopped at pass %d with perplexity %v after %v", last.Iter, last.Objective, prev.Objective)
	}
	// As in scikit-learn, the stopping pass is not counted in Passes.
	if m.Passes() != len(h)-1 {
		t.Errorf("Passes = %d with %d history entries", m.Passes(), len(h))
	}
	if len(seen) != len(h) {
		t.Errorf("Progress called %d times for %d passes", len(seen), len(h))
	}
	for i, it := range h {
		if it.Iter != i+1 || (!math.IsNaN(it.Objective) != (it.Iter%2 == 0)) {
			t.Errorf("history[%d] = %+v", i, it)
		}
	}
}

func TestTransformMatchesFit(t *testing.T) {
	syn := plant(5, 4, 12, 300, 150, 0.2)
	ctx := context.Background()
	m, err := Fit(ctx, syn.x, Config{K: 4, MaxIter: 25, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	theta, err := m.Transform(ctx, syn.x)
	if err != nil {
		t.Fatal(err)
	}
	// The document-topic distributions of the last training E-step (random
	// start, same λ except for one update) agree with Transform's.
	w := newWork(m, syn.x.Rows)
	if _, err := m.eStep(ctx, w, syn.x, 0, syn.x.Rows, true, false); err != nil {
		t.Fatal(err)
	}
	perm, _ := matchTopics(syn.beta, topicRows(m))
	var l1Fit, l1True float64
	for d := 0; d < syn.x.Rows; d++ {
		row := theta.RawRowView(d)
		var s, gs float64
		for _, v := range row {
			s += v
		}
		if math.Abs(s-1) > 1e-12 {
			t.Fatalf("Transform row %d sums to %v", d, s)
		}
		g := w.gamma[d*4 : d*4+4]
		for _, v := range g {
			gs += v
		}
		for tp := range row {
			l1Fit += math.Abs(row[tp] - g[tp]/gs)
		}
		for p, f := range perm {
			l1True += math.Abs(row[f] - syn.theta[d][p])
		}
	}
	n := float64(syn.x.Rows)
	if l1Fit/n > 0.01 {
		t.Errorf("mean L1 distance between Transform and the fitted γ: %.4f", l1Fit/n)
	}
	if l1True/n > 0.15 {
		t.Errorf("mean L1 distance between Transform and the planted θ: %.4f", l1True/n)
	}
}

// The fit and Transform are the same at any GOMAXPROCS. The vocabulary
// (1550 terms, over 3·minTermsPerBlock) is wide enough that the sufficient
// statistics and the M-step split the terms into blocks run in parallel:
// the race detector's run of this package, which skips the real-data tests
// (-short), meets those goroutines here.
func TestDeterministicAcrossCores(t *testing.T) {
	syn := plant(6, 5, 310, 150, 60, 0.3)
	ctx := context.Background()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, method := range []Method{Batch, Online} {
		opts := Config{K: 5, MaxIter: 4, Method: method, BatchSize: 64, EvaluateEvery: 2, Seed: 11}
		var first *Model
		var firstT *mat.Dense
		for _, procs := range []int{1, 2, 2, 3} {
			runtime.GOMAXPROCS(procs)
			m, err := Fit(ctx, syn.x, opts)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := m.Transform(ctx, syn.x)
			if err != nil {
				t.Fatal(err)
			}
			if first == nil {
				first, firstT = m, tr
				continue
			}
			if !mat.Equal(m.Components(), first.Components()) {
				t.Errorf("%s: λ with GOMAXPROCS=%d differs from GOMAXPROCS=1", method, procs)
			}
			if !mat.Equal(tr, firstT) {
				t.Errorf("%s: Transform with GOMAXPROCS=%d differs", method, procs)
			}
			if m.TrainPerplexity() != first.TrainPerplexity() || m.History()[1].Objective != first.History()[1].Objective {
				t.Errorf("%s: perplexity %v with GOMAXPROCS=%d, %v with 1", method, m.TrainPerplexity(), procs, first.TrainPerplexity())
			}
		}
		// A different seed gives a different model.
		opts.Seed++
		m, err := Fit(ctx, syn.x, opts)
		if err != nil {
			t.Fatal(err)
		}
		if mat.Equal(m.Components(), first.Components()) {
			t.Errorf("%s: seeds %d and %d give the same λ", method, opts.Seed-1, opts.Seed)
		}
	}
}

// TestPartialFitMatchesOnlineFit checks that one online pass of Fit equals
// PartialFit over the same rows scaled to the same corpus size.
func TestPartialFitMatchesOnlineFit(t *testing.T) {
	syn := plant(7, 3, 8, 200, 40, 0.3)
	ctx := context.Background()
	opts := Config{K: 3, Method: Online, MaxIter: 1, BatchSize: 30, Seed: 4}
	fit, err := Fit(ctx, syn.x, opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.TotalSamples = float64(syn.x.Rows)
	m, err := New(syn.x.Cols, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.PartialFit(ctx, syn.x); err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(m.Components(), fit.Components()) || m.Steps() != fit.Steps() {
		t.Errorf("PartialFit differs from one online pass of Fit (steps %d vs %d)", m.Steps(), fit.Steps())
	}
}

func TestEmptyDocuments(t *testing.T) {
	syn := plant(8, 3, 8, 60, 40, 0.3)
	// Insert empty rows between the documents.
	x := syn.x
	var ts []sparse.Triplet
	for i := 0; i < x.Rows; i++ {
		cols, vals := x.Row(i)
		for p, j := range cols {
			ts = append(ts, sparse.Triplet{Row: 2 * i, Col: int(j), Val: vals[p]})
		}
	}
	xe, err := sparse.FromTriplets(2*x.Rows, x.Cols, ts)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	m, err := Fit(ctx, xe, Config{K: 3, MaxIter: 5, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := m.Transform(ctx, xe)
	if err != nil {
		t.Fatal(err)
	}
	for d := 1; d < xe.Rows; d += 2 {
		for _, v := range tr.RawRowView(d) {
			if math.Abs(v-1.0/3) > 1e-15 {
				t.Fatalf("empty document %d: topic distribution %v, want uniform", d, tr.RawRowView(d))
			}
		}
	}
	// Empty documents add nothing to λ: fitting without them, with the
	// same random starts for the others, is another matter (the seeds
	// follow the row index), so only check the perplexity is finite.
	if p := m.TrainPerplexity(); math.IsNaN(p) || math.IsInf(p, 0) {
		t.Errorf("perplexity %v", p)
	}
}

func TestTopWords(t *testing.T) {
	lam := mat.NewDense(2, 4, []float64{
		1, 5, 3, 1,
		2, 2, 2, 4,
	})
	m, err := FromComponents(lam, Config{})
	if err != nil {
		t.Fatal(err)
	}
	words, err := m.TopWords([]string{"a", "b", "c", "d"}, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]Word{
		{{"b", 1, 0.5}, {"c", 2, 0.3}, {"a", 0, 0.1}},
		{{"d", 3, 0.4}, {"a", 0, 0.2}, {"b", 1, 0.2}},
	}
	for tp := range want {
		for i, w := range want[tp] {
			g := words[tp][i]
			if g.Term != w.Term || g.Index != w.Index || math.Abs(g.Weight-w.Weight) > 1e-15 {
				t.Errorf("topic %d word %d = %+v, want %+v", tp, i, g, w)
			}
		}
	}
	if all, _ := m.TopWords(nil, 99); len(all[0]) != 4 || all[0][0].Term != "" {
		t.Errorf("TopWords(nil, 99) = %v", all[0])
	}
	if _, err := m.TopWords([]string{"a"}, 2); err == nil {
		t.Error("TopWords accepted a vocabulary of the wrong length")
	}
	if !mat.Equal(m.Components(), lam) {
		t.Error("Components differs from the λ given")
	}
	if m.Topics() != 2 || m.Terms() != 4 || m.Config().DocTopicPrior != 0.5 {
		t.Errorf("Topics %d, Terms %d, α %v", m.Topics(), m.Terms(), m.Config().DocTopicPrior)
	}
}

func TestCancel(t *testing.T) {
	syn := plant(9, 3, 8, 200, 40, 0.3)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Fit(ctx, syn.x, Config{K: 3}); !errors.Is(err, context.Canceled) {
		t.Fatalf("Fit with a canceled context: %v", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	passes := 0
	part, err := Fit(ctx, syn.x, Config{K: 3, MaxIter: 50, Progress: func(it progress.Step) {
		passes = it.Iter
		if it.Iter == 2 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) || passes != 2 {
		t.Fatalf("canceling after pass 2: %v after %d passes", err, passes)
	}
	if part == nil || part.Passes() != 2 || len(part.History()) != 2 || !math.IsNaN(part.TrainPerplexity()) || part.Convergence().Status != progress.Cancelled {
		t.Fatalf("canceling after pass 2: partial model %+v, want 2 passes and no training perplexity", part)
	}
	m, err := New(syn.x.Cols, Config{K: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Transform(ctx, syn.x); !errors.Is(err, context.Canceled) {
		t.Fatalf("Transform with a canceled context: %v", err)
	}
}

func TestBadInput(t *testing.T) {
	ctx := context.Background()
	good := mustCSR(t, [][]float64{{1, 0, 2}, {0, 3, 0}})
	neg := good.Clone()
	neg.Data[1] = -2
	nan := good.Clone()
	nan.Data[2] = math.NaN()
	broken := good.Clone()
	broken.Indices[0] = 7
	cases := []struct {
		name string
		x    *sparse.CSR
		opts Config
		want string
	}{
		{"negative count", neg, Config{K: 2}, "row 0, column 2: negative count -2"},
		{"NaN", nan, Config{K: 2}, "row 1, column 1"},
		{"invalid CSR", broken, Config{K: 2}, "out of range"},
		{"nil", nil, Config{K: 2}, "nil"},
		{"no rows", sparse.Zeros(0, 3), Config{K: 2}, "0×3"},
		{"no words", sparse.Zeros(4, 3), Config{K: 2}, "all 4 documents are empty"},
		{"no topics", good, Config{}, "K = 0 topics"},
		{"negative prior", good, Config{K: 2, DocTopicPrior: -1}, "DocTopicPrior"},
		{"NaN prior", good, Config{K: 2, TopicWordPrior: math.NaN()}, "TopicWordPrior"},
		{"decay", good, Config{K: 2, LearningDecay: 1.5}, "LearningDecay"},
		{"offset", good, Config{K: 2, LearningOffset: 0.5}, "LearningOffset"},
		{"method", good, Config{K: 2, Method: 7}, "Method"},
		{"max iter", good, Config{K: 2, MaxIter: -1}, "MaxIter"},
		{"batch size", good, Config{K: 2, BatchSize: -3}, "BatchSize"},
		{"tolerance", good, Config{K: 2, MeanChangeTol: math.Inf(1)}, "MeanChangeTol"},
	}
	for _, c := range cases {
		_, err := Fit(ctx, c.x, c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}

	m, err := Fit(ctx, good, Config{K: 2, MaxIter: 2})
	if err != nil {
		t.Fatal(err)
	}
	wide := mustCSR(t, [][]float64{{1, 0, 2, 1}})
	if _, err := m.Transform(ctx, wide); err == nil || !strings.Contains(err.Error(), "4 terms, the model has 3") {
		t.Errorf("Transform with the wrong width: %v", err)
	}
	if _, err := m.Transform(ctx, neg); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Errorf("Transform with a negative count: %v", err)
	}
	if err := m.PartialFit(ctx, wide); err == nil {
		t.Error("PartialFit accepted the wrong width")
	}
	if _, err := m.Perplexity(ctx, sparse.Zeros(2, 3)); err == nil {
		t.Error("Perplexity of a matrix with no words")
	}
	if tr, err := m.Transform(ctx, sparse.Zeros(0, 3)); err != nil || !tr.IsEmpty() {
		t.Errorf("Transform of no rows: %v, %v", tr, err)
	}
	if _, err := FromComponents(mat.NewDense(1, 2, []float64{1, 0}), Config{}); err == nil || !strings.Contains(err.Error(), "(0, 1)") {
		t.Errorf("FromComponents with a zero entry: %v", err)
	}
	if _, err := FromComponents(mat.NewDense(2, 2, []float64{1, 1, 1, 1}), Config{K: 3}); err == nil {
		t.Error("FromComponents accepted Topics ≠ rows")
	}
	if _, err := New(0, Config{K: 2}); err == nil {
		t.Error("New accepted 0 terms")
	}
	if _, err := ParseMethod("gibbs"); err == nil {
		t.Error("ParseMethod accepted gibbs")
	}
}

func TestConfigDefaults(t *testing.T) {
	o, err := Config{K: 4}.resolve()
	if err != nil {
		t.Fatal(err)
	}
	want := Config{K: 4, DocTopicPrior: 0.25, TopicWordPrior: 0.25, LearningDecay: 0.7, LearningOffset: 10,
		MaxIter: 10, BatchSize: 128, TotalSamples: 1e6, Tol: 0.1, MeanChangeTol: 1e-3, MaxDocUpdateIter: 100, SeedPrior: 1}
	if !reflect.DeepEqual(o, want) {
		t.Errorf("defaults %+v, want %+v", o, want)
	}
	// Negative values stand for literal zeros and survive resolving again.
	o, _ = Config{K: 2, Tol: -1, MeanChangeTol: -1, MaxDocUpdateIter: -1}.resolve()
	o2, _ := o.resolve()
	if !reflect.DeepEqual(o2, o) || o.perpTol() != 0 || o.meanChangeTol() != 0 || o.maxDocIter() != 0 {
		t.Errorf("literal zeros: %+v", o2)
	}
}

// Fit starts from a given λ and γ (a warm start): from a fitted model's
// own λ and its documents' γ, a few passes keep its perplexity and need
// fewer E-step iterations per document than a cold pass, and with γ far
// fewer than from λ alone; a row of
// zeros starts its topic as without Lambda0 (all zero: the cold fit bit
// for bit); bad starts are errors naming them.
func TestFitFromStart(t *testing.T) {
	ctx := context.Background()
	syn := plant(1, 4, 12, 400, 80, 0.2)
	cfg := Config{K: 4, MaxIter: 30, Seed: 3}
	cold, err := Fit(ctx, syn.x, cfg)
	if err != nil {
		t.Fatal(err)
	}
	theta, err := cold.Transform(ctx, syn.x)
	if err != nil {
		t.Fatal(err)
	}
	gamma := mat.NewDense(syn.x.Rows, 4, nil)
	for d := 0; d < syn.x.Rows; d++ {
		_, vals := syn.x.Row(d)
		for k := 0; k < 4; k++ {
			gamma.Set(d, k, (4*cold.alpha+sum(vals))*theta.At(d, k))
		}
	}
	warmCfg := cfg
	warmCfg.MaxIter, warmCfg.Lambda0, warmCfg.Gamma0 = 2, cold.Components(), gamma
	warm, err := Fit(ctx, syn.x, warmCfg)
	if err != nil {
		t.Fatal(err)
	}
	if d := math.Abs(warm.TrainPerplexity()-cold.TrainPerplexity()) / cold.TrainPerplexity(); d > 0.01 {
		t.Errorf("warm perplexity %v, cold %v", warm.TrainPerplexity(), cold.TrainPerplexity())
	}
	lambdaOnly := warmCfg
	lambdaOnly.Gamma0 = nil
	fromLambda, err := Fit(ctx, syn.x, lambdaOnly)
	if err != nil {
		t.Fatal(err)
	}
	w, l, c := warm.History()[0].Inner, fromLambda.History()[0].Inner, cold.History()[0].Inner
	if !(w < l/2) || !(l < c) {
		t.Errorf("E-step iterations per document: %v from λ and γ, %v from λ alone, %v cold", w, l, c)
	}
	if warm.Config().Lambda0 != nil || warm.Config().Gamma0 != nil {
		t.Error("the model keeps the starts")
	}
	zeros := cfg
	zeros.Lambda0 = mat.NewDense(4, syn.x.Cols, nil)
	same, err := Fit(ctx, syn.x, zeros)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(same.Components(), cold.Components()) {
		t.Error("a Lambda0 of zeros changes the fit")
	}
	for name, c := range map[string]Config{
		"Lambda0 is 3×48":                          {K: 4, Lambda0: mat.NewDense(3, 48, nil)},
		"Gamma0 is 2×4":                            {K: 4, Gamma0: mat.NewDense(2, 4, nil)},
		"Gamma0 starts the documents of the Batch": {K: 4, Method: Online, Gamma0: gamma},
		"Lambda0 has the entry -1":                 {K: 4, Lambda0: mat.NewDense(4, 48, append([]float64{-1}, make([]float64, 191)...))},
	} {
		if _, err := Fit(ctx, syn.x, c); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
