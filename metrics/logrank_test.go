package metrics

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// logRankFixture is the hand-checked example of TestLogRankByHand:
// K = 3 themes, k = 3 topics.
//
//	d0 [0.5 0.3 0.2] theme {0}
//	d1 [0.1 0.6 0.3] theme {0}
//	d2 [0.2 0.2 0.6] theme {1}     (topics 0 and 1 tied)
//	d3 [0.3 0.5 0.2] themes {1, 2}
//	d4 [0.4 0.4 0.2] unlabeled
func logRankFixture() (*mat.Dense, [][]int) {
	W := mat.NewDense(5, 3, []float64{
		0.5, 0.3, 0.2,
		0.1, 0.6, 0.3,
		0.2, 0.2, 0.6,
		0.3, 0.5, 0.2,
		0.4, 0.4, 0.2,
	})
	return W, [][]int{{0}, {0}, {1}, {1, 2}, nil}
}

func TestLogRankByHand(t *testing.T) {
	W, themes := logRankFixture()
	l2, l3 := math.Log(2), math.Log(3)
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-14 {
			t.Errorf("%s = %.16g, want %.16g", what, got, want)
		}
	}
	// Identity mapping (theme j = topic j), pessimistic ranks:
	//   d0: topic 0 rank 1 → log 3 − log 1 = log 3; best log 3 → 1.
	//   d1: topic 0 rank 3 → 0.
	//   d2: topic 1 tied with topic 0 at 0.2, both behind 0.6 → rank 3 → 0.
	//       (numpy's argsort()[::-1] in the reference would say rank 2.)
	//   d3: topic 1 rank 1 → log 3; topic 2 rank 3 → 0. Best for two
	//       themes: (log 3 − log 1) + (log 3 − log 2).
	//   Sum = 2 log 3, Max = 3 log 3 + 2 log 3 − log 2 = 5 log 3 − log 2.
	r, err := LogRankAccuracy(W, themes, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	near("d0", r.Docs[0], 1)
	near("d1", r.Docs[1], 0)
	near("d2", r.Docs[2], 0)
	near("d3", r.Docs[3], l3/(2*l3-l2))
	if !math.IsNaN(r.Docs[4]) || r.Labeled != 4 {
		t.Errorf("unlabeled document: %v, labeled %d", r.Docs[4], r.Labeled)
	}
	near("Sum", r.Sum, 2*l3)
	near("Max", r.Max, 5*l3-l2)
	near("Score", r.Score, 2*l3/(5*l3-l2))

	// Mapping theme 0 → topic 1, 1 → 0, 2 → 2:
	//   d0: topic 1 rank 2 → log 3 − log 2;  d1: topic 1 rank 1 → log 3;
	//   d2: topic 0 rank 3 (tie) → 0;        d3: topic 0 rank 2 → log 3 − log 2, topic 2 → 0.
	r, err = LogRankAccuracy(W, themes, 3, []int{1, 0, 2})
	if err != nil {
		t.Fatal(err)
	}
	near("mapped Sum", r.Sum, 3*l3-2*l2)

	// ThemeTopicScores S[j][t] = Σ_{d with theme j} gain(rank_d(t)):
	//   theme 0 (d0, d1): [log 3,      log 1.5 + log 3, log 1.5]
	//   theme 1 (d2, d3): [log 1.5,    log 3,           log 3  ]
	//   theme 2 (d3):     [log 1.5,    log 3,           0      ]
	S, err := ThemeTopicScores(W, themes, 3)
	if err != nil {
		t.Fatal(err)
	}
	l15 := l3 - l2
	want := []float64{
		l3, l15 + l3, l15,
		l15, l3, l3,
		l15, l3, 0,
	}
	for i, w := range want {
		near("S", S.At(i/3, i%3), w)
	}
	// Of the six mappings, theme 0 → 0, 1 → 2, 2 → 1 scores 3 log 3
	// (the runner-up, 1,2,0, scores 2 log 1.5 + 2 log 3).
	m, err := MapThemesExact(W, themes, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.ThemeToTopic, []int{0, 2, 1}) {
		t.Errorf("exact mapping %v, want [0 2 1]", m.ThemeToTopic)
	}
	near("exact objective", m.Objective, 3*l3)
	near("exact score", m.Score, 3*l3/(5*l3-l2))
	r, _ = LogRankAccuracy(W, themes, 3, m.ThemeToTopic)
	near("exact mapping re-scored", r.Sum, m.Objective)
}

func TestLogRankMoreTopicsThanThemes(t *testing.T) {
	// K = 2 themes, k = 4 topics; one document of theme 0 with weights
	// [0.1 0.4 0.3 0.2]. Gain log 2 − log r, clipped at 0 below rank 2:
	//   theme 0 → topic 1 (rank 1): log 2, score 1
	//   theme 0 → topic 2 (rank 2): 0
	//   theme 0 → topic 3 (rank 3): log 2 − log 3 < 0 → clipped to 0
	W := mat.NewDense(1, 4, []float64{0.1, 0.4, 0.3, 0.2})
	themes := [][]int{{0}}
	for _, c := range []struct {
		topic int
		want  float64
	}{{1, 1}, {2, 0}, {3, 0}} {
		r, err := LogRankAccuracy(W, themes, 2, []int{c.topic, 0})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(r.Score-c.want) > 1e-15 {
			t.Errorf("theme 0 → topic %d: score %v, want %v", c.topic, r.Score, c.want)
		}
	}
	m, err := MapThemesExact(W, themes, 2)
	if err != nil || m.ThemeToTopic[0] != 1 || m.Score != 1 {
		t.Fatalf("exact: %+v, %v", m, err)
	}
	// The identity needs k ≥ K, and k < K is impossible to map.
	if _, err := LogRankAccuracy(mat.NewDense(1, 2, []float64{1, 2}), [][]int{{2}}, 3, nil); err == nil {
		t.Error("3 themes on 2 topics accepted")
	}
}

func TestLogRankAllZeroRow(t *testing.T) {
	// An all-zero row carries no information: every topic ties at rank k,
	// so the document earns 0 whatever its theme (numpy's reversed argsort
	// would give the last topic rank 1).
	W := mat.NewDense(2, 3, []float64{0, 0, 0, 0, 0, 1})
	r, err := LogRankAccuracy(W, [][]int{{2}, {2}}, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Docs[0] != 0 || r.Docs[1] != 1 {
		t.Errorf("docs %v, want [0 1]", r.Docs)
	}
}

func TestLogRankErrors(t *testing.T) {
	W, themes := logRankFixture()
	cases := map[string]func() error{
		"one theme": func() error { _, err := LogRankAccuracy(W, [][]int{{0}, {0}, {0}, {0}, nil}, 1, nil); return err },
		"theme out of range": func() error {
			_, err := LogRankAccuracy(W, [][]int{{3}, nil, nil, nil, nil}, 3, nil)
			return err
		},
		"rows mismatch":   func() error { _, err := LogRankAccuracy(W, themes[:3], 3, nil); return err },
		"mapping repeats": func() error { _, err := LogRankAccuracy(W, themes, 3, []int{0, 0, 1}); return err },
		"mapping short":   func() error { _, err := LogRankAccuracy(W, themes, 3, []int{0, 1}); return err },
		"mapping range":   func() error { _, err := LogRankAccuracy(W, themes, 3, []int{0, 1, 3}); return err },
		"no labeled":      func() error { _, err := LogRankAccuracy(W, make([][]int, 5), 3, nil); return err },
		"theme repeated":  func() error { _, err := MapThemesExact(W, [][]int{{0, 0}, nil, nil, nil, nil}, 3); return err },
		"NaN": func() error {
			_, err := ThemeTopicScores(mat.NewDense(1, 2, []float64{math.NaN(), 1}), [][]int{{0}}, 2)
			return err
		},
		"bad GA options": func() error {
			_, err := MapThemesGA(context.Background(), W, themes, 3, &GAOptions{Population: 1})
			return err
		},
		"GA probabilities": func() error {
			_, err := MapThemesGA(context.Background(), W, themes, 3, &GAOptions{Population: 3, Crossover: 2})
			return err
		},
	}
	for name, f := range cases {
		if f() == nil {
			t.Errorf("%s: no error", name)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := MapThemesGA(ctx, W, themes, 3, nil); err == nil {
		t.Error("cancelled context ignored")
	}
}

// bruteThemeMapping returns the best objective over all injective maps of
// themes to topics, by enumeration.
func bruteThemeMapping(S *mat.Dense) float64 {
	K, k := S.Dims()
	best := math.Inf(-1)
	used := make([]bool, k)
	var rec func(j int, sum float64)
	rec = func(j int, sum float64) {
		if j == K {
			best = math.Max(best, sum)
			return
		}
		for t := 0; t < k; t++ {
			if !used[t] {
				used[t] = true
				rec(j+1, sum+S.At(j, t))
				used[t] = false
			}
		}
	}
	rec(0, 0)
	return best
}

// structuredW draws a documents × k matrix in which each document's themes
// are carried, through a hidden permutation, by strong topics, with noise
// and with a confusing second topic in some documents.
func structuredW(rng *rand.Rand, docs, K, k int, confusion float64) (*mat.Dense, [][]int, []int) {
	perm := rng.Perm(k)
	W := mat.NewDense(docs, k, nil)
	themes := make([][]int, docs)
	for d := 0; d < docs; d++ {
		for t := 0; t < k; t++ {
			W.Set(d, t, math.Abs(rng.NormFloat64())*0.3)
		}
		j := rng.IntN(K)
		themes[d] = []int{j}
		if rng.Float64() < 0.1 {
			if j2 := rng.IntN(K); j2 != j {
				themes[d] = append(themes[d], j2)
			}
		}
		for _, j := range themes[d] {
			W.Set(d, perm[j], W.At(d, perm[j])+0.5+rng.Float64())
		}
		if rng.Float64() < confusion {
			t := rng.IntN(k)
			W.Set(d, t, W.At(d, t)+0.5+rng.Float64())
		}
		if rng.Float64() < 0.2 {
			themes[d] = nil // unlabeled
		}
	}
	return W, themes, perm
}

func TestMapThemesExactMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for rep := 0; rep < 20; rep++ {
		K := 2 + rng.IntN(5)
		k := K + rng.IntN(3)
		W, themes, _ := structuredW(rng, 60, K, k, 0.6)
		S, err := ThemeTopicScores(W, themes, K)
		if err != nil {
			t.Fatal(err)
		}
		m, err := MapThemesExact(W, themes, K)
		if err != nil {
			t.Fatal(err)
		}
		if want := bruteThemeMapping(S); math.Abs(m.Objective-want) > 1e-9 {
			t.Fatalf("K=%d k=%d: exact %v, brute force %v", K, k, m.Objective, want)
		}
		r, err := LogRankAccuracy(W, themes, K, m.ThemeToTopic)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(r.Sum-m.Objective) > 1e-9 || math.Abs(r.Score-m.Score) > 1e-12 {
			t.Fatalf("re-scored %v/%v, exact %v/%v", r.Sum, r.Score, m.Objective, m.Score)
		}
	}
}

func TestMapThemesGA(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	ctx := context.Background()
	reached := [2]int{}
	const reps = 30
	for rep := 0; rep < reps; rep++ {
		K := 3 + rng.IntN(4) // 3..6 themes
		k := K + rng.IntN(3) // up to 2 extra topics
		W, themes, _ := structuredW(rng, 80, K, k, 0.7)
		exact, err := MapThemesExact(W, themes, K)
		if err != nil {
			t.Fatal(err)
		}
		for init := 0; init < 2; init++ {
			opts := DefaultGAOptions()
			opts.Seed = uint64(rep)
			opts.RandomInit = init == 1
			ga, err := MapThemesGA(ctx, W, themes, K, &opts)
			if err != nil {
				t.Fatal(err)
			}
			if ga.Objective > exact.Objective+1e-9 {
				t.Fatalf("GA %v beats the exact optimum %v", ga.Objective, exact.Objective)
			}
			r, _ := LogRankAccuracy(W, themes, K, ga.ThemeToTopic)
			if math.Abs(r.Sum-ga.Objective) > 1e-9 {
				t.Fatalf("GA objective %v, mapping re-scored %v", ga.Objective, r.Sum)
			}
			for g := 1; g < len(ga.Best); g++ {
				if ga.Best[g] < ga.Best[g-1]-1e-12 {
					t.Fatalf("elitism violated: best %v after %v", ga.Best[g], ga.Best[g-1])
				}
			}
			if math.Abs(ga.Objective-exact.Objective) <= 1e-9 {
				reached[init]++
			}
		}
	}
	t.Logf("GA (population 3, 100 generations) reached the exact optimum on %d (greedy start) and %d (random start) of %d small problems",
		reached[0], reached[1], reps)
	if reached[0] != reps {
		t.Errorf("GA with the greedy start reached the optimum on only %d of %d small problems", reached[0], reps)
	}
	// The same seed gives the same answer.
	W, themes, _ := structuredW(rand.New(rand.NewPCG(1, 1)), 50, 5, 6, 0.5)
	a, _ := MapThemesGA(ctx, W, themes, 5, nil)
	b, _ := MapThemesGA(ctx, W, themes, 5, nil)
	if !slices.Equal(a.ThemeToTopic, b.ThemeToTopic) || !slices.Equal(a.Best, b.Best) {
		t.Error("same seed, different runs")
	}
}

func TestGAOperatorsKeepPermutations(t *testing.T) {
	ga := &geneticMapper{rng: rand.New(rand.NewPCG(5, 5))}
	for n := 1; n <= 9; n++ {
		for rep := 0; rep < 50; rep++ {
			p0, p1 := ga.rng.Perm(n), ga.rng.Perm(n)
			c := ga.crossover(p0, p1)
			ga.mutate(c)
			sorted := slices.Sorted(slices.Values(c))
			for i, v := range sorted {
				if v != i {
					t.Fatalf("n=%d: %v is not a permutation", n, c)
				}
			}
		}
	}
	// Shift mutation by hand: gene at 3 moves to 1 in [0 1 2 3 4] → [0 3 1 2 4].
	ind := []int{0, 1, 2, 3, 4}
	shift(ind, 1, 3)
	if !slices.Equal(ind, []int{0, 3, 1, 2, 4}) {
		t.Fatalf("shift %v", ind)
	}
	// Order crossover by hand: p0 = [0 1 2 3 4 5], p1 = [5 3 1 4 0 2], cut
	// [2, 5): keep 0 1 _ _ _ 5, fill with p1's genes not kept, in p1's
	// order: 3, 4, 2 → [0 1 3 4 2 5].
	c := orderCrossover([]int{0, 1, 2, 3, 4, 5}, []int{5, 3, 1, 4, 0, 2}, 2, 5)
	if !slices.Equal(c, []int{0, 1, 3, 4, 2, 5}) {
		t.Fatalf("order crossover %v", c)
	}
}

// overlappingW draws a realistic document-topic matrix for K themes and k
// topics: each theme has a primary and a secondary topic drawn at random
// (so several themes may share a topic and some topics belong to no
// theme), documents of a theme load strongly on its primary and weakly on
// its secondary topic, over half-normal noise.
func overlappingW(rng *rand.Rand, docs, K, k int) (*mat.Dense, [][]int) {
	prim, sec := make([]int, K), make([]int, K)
	for j := range prim {
		prim[j], sec[j] = rng.IntN(k), rng.IntN(k)
	}
	W := mat.NewDense(docs, k, nil)
	themes := make([][]int, docs)
	for d := 0; d < docs; d++ {
		for t := 0; t < k; t++ {
			W.Set(d, t, math.Abs(rng.NormFloat64())*0.3)
		}
		j := rng.IntN(K)
		themes[d] = []int{j}
		W.Set(d, prim[j], W.At(d, prim[j])+0.3+0.9*rng.Float64())
		W.Set(d, sec[j], W.At(d, sec[j])+0.9*rng.Float64())
	}
	return W, themes
}

// TestMapThemesGARealistic measures how close the thesis' GA gets to the
// exact mapping on realistic problems: 15 themes and 15 topics (the Brown
// corpus setting), 1500 labeled documents, themes sharing topics.
func TestMapThemesGARealistic(t *testing.T) {
	ctx := context.Background()
	configs := []struct {
		name string
		opts GAOptions
	}{
		{"defaults (pop 3, 100 gen, greedy start)", DefaultGAOptions()},
		{"pop 3, 100 gen, random start", GAOptions{Population: 3, Generations: 100, Crossover: 1, Mutation: 1, RandomInit: true, Seed: 1}},
		{"pop 20, 300 gen, greedy start", GAOptions{Population: 20, Generations: 300, Crossover: 1, Mutation: 1, Seed: 1}},
	}
	const seeds = 8
	var exactSum float64
	gaSum := make([]float64, len(configs))
	worst := make([]float64, len(configs))
	for s := uint64(0); s < seeds; s++ {
		W, themes := overlappingW(rand.New(rand.NewPCG(41+s, 42)), 1500, 15, 15)
		exact, err := MapThemesExact(W, themes, 15)
		if err != nil {
			t.Fatal(err)
		}
		exactSum += exact.Score
		for c, cfg := range configs {
			cfg.opts.Seed = s + 1
			ga, err := MapThemesGA(ctx, W, themes, 15, &cfg.opts)
			if err != nil {
				t.Fatal(err)
			}
			if ga.Objective > exact.Objective+1e-9 {
				t.Fatalf("%s: GA %v beats the exact optimum %v", cfg.name, ga.Objective, exact.Objective)
			}
			gaSum[c] += ga.Score
			worst[c] = math.Max(worst[c], exact.Score-ga.Score)
		}
	}
	for c, cfg := range configs {
		t.Logf("%s: mean log rank accuracy %.2f%% vs exact %.2f%% over %d problems (largest gap %.2f points)",
			cfg.name, 100*gaSum[c]/seeds, 100*exactSum/seeds, seeds, 100*worst[c])
	}
}

func BenchmarkThemeTopicScores(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	W, themes, _ := structuredW(rng, 20000, 20, 50, 0.5)
	for b.Loop() {
		if _, err := ThemeTopicScores(W, themes, 20); err != nil {
			b.Fatal(err)
		}
	}
}
