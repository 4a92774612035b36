package metrics

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestTopicLabelJaccardByHand(t *testing.T) {
	// W (4 documents × 3 topics), max 2, so W/max =
	//   d0 [1    0    0.0005]  labels {0}
	//   d1 [0.5  0.5  0     ]  labels {0, 1}
	//   d2 [0    1    0     ]  labels {1}
	//   d3 [0    0    0     ]  unlabeled
	// numLabels = 3: label 2 has no document.
	// With the default cutoff 0.001, the 0.0005 entry drops to 0.
	// topic 0 a = (1, .5, 0, 0):
	//   label 0 b = (1,1,0,0): Σmin = 1+.5 = 1.5, Σmax = 1+1 = 2     → 0.75
	//   label 1 b = (0,1,1,0): Σmin = .5,       Σmax = 1+1+1 = 3   → 1/6
	// topic 1 a = (0, .5, 1, 0): label 0 → .5/3 = 1/6, label 1 → 1.5/2 = 0.75
	// topic 2 a = 0: similarity 0 with both labels.
	// Matching: label 0 → topic 0, label 1 → topic 1; mean 0.75, 2 resolved.
	W := mat.NewDense(4, 3, []float64{
		2, 0, 0.001,
		1, 1, 0,
		0, 2, 0,
		0, 0, 0,
	})
	labels := [][]int{{0}, {0, 1}, {1}, nil}
	r, err := TopicLabelJaccard(W, labels, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-15 {
			t.Errorf("%s = %.16g, want %.16g", what, got, want)
		}
	}
	want := [][]float64{{0.75, 1.0 / 6, 0}, {1.0 / 6, 0.75, 0}, {0, 0, 0}}
	for l := range want {
		for k := range want[l] {
			near("similarity", r.Similarity.At(l, k), want[l][k])
		}
	}
	if r.Matches[0].Topic != 0 || r.Matches[1].Topic != 1 || r.Matches[2].Topic != -1 {
		t.Errorf("matches %+v", r.Matches)
	}
	near("mean", r.Mean, 0.75)
	near("matched mean", r.MatchedMean, 0.75)
	if r.Resolved != 2 || r.Scored != 2 {
		t.Errorf("resolved %d scored %d", r.Resolved, r.Scored)
	}
	// Without a cutoff the 0.0005 entry stays: topic 2 vs label 0 is
	// Σmin = .0005 over Σmax = 1 + 1 = 2.
	r, err = TopicLabelJaccard(W, labels, 3, &JaccardOptions{Cutoff: 0, Resolved: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	near("no cutoff", r.Similarity.At(0, 2), 0.00025)

	// Fewer topics than labels: one topic a = (1, 1, 0);
	//   label 0 b = (1,0,0): Σmin 1, Σmax 1+1 = 2 → 0.5
	//   label 1 b = (0,1,1): Σmin 1, Σmax 1+1+1 = 3 → 1/3
	// Label 0 wins the topic; label 1 is unmatched and counts 0 in Mean:
	// Mean = (0.5+0)/2, MatchedMean = 0.5 (the reference's figure).
	r, err = TopicLabelJaccard(mat.NewDense(3, 1, []float64{1, 1, 0}), [][]int{{0}, {1}, {1}}, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	near("k<labels mean", r.Mean, 0.25)
	near("k<labels matched mean", r.MatchedMean, 0.5)
	if r.Matches[1].Topic != -1 || r.Resolved != 1 {
		t.Errorf("k<labels: %+v resolved %d", r.Matches, r.Resolved)
	}

	// An all-zero W scores 0 everywhere.
	r, err = TopicLabelJaccard(mat.NewDense(2, 2, nil), [][]int{{0}, {1}}, 2, nil)
	if err != nil || r.Mean != 0 || r.Resolved != 0 {
		t.Errorf("zero W: %+v %v", r, err)
	}
}

// TestTopicLabelJaccardNaive compares the closed form with a direct
// evaluation of Σ min(a, b) / Σ max(a, b) on random matrices.
func TestTopicLabelJaccardNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for rep := 0; rep < 20; rep++ {
		docs, k, L := 30+rng.IntN(50), 2+rng.IntN(6), 1+rng.IntN(6)
		W := mat.NewDense(docs, k, nil)
		for i := 0; i < docs; i++ {
			for j := 0; j < k; j++ {
				if rng.Float64() < 0.6 {
					W.Set(i, j, rng.ExpFloat64())
				}
			}
		}
		labels := make([][]int, docs)
		for d := range labels {
			for l := 0; l < L; l++ {
				if rng.Float64() < 0.3 {
					labels[d] = append(labels[d], l)
				}
			}
		}
		r, err := TopicLabelJaccard(W, labels, L, nil)
		if err != nil {
			t.Fatal(err)
		}
		wmax := mat.Max(W)
		for l := 0; l < L; l++ {
			for j := 0; j < k; j++ {
				var num, den float64
				for d := 0; d < docs; d++ {
					a := W.At(d, j) / wmax
					if a <= 0.001 {
						a = 0
					}
					b := 0.0
					for _, x := range labels[d] {
						if x == l {
							b = 1
						}
					}
					num += math.Min(a, b)
					den += math.Max(a, b)
				}
				want := 0.0
				if den > 0 {
					want = num / den
				}
				if got := r.Similarity.At(l, j); math.Abs(got-want) > 1e-12 {
					t.Fatalf("label %d topic %d: %v, direct %v", l, j, got, want)
				}
			}
		}
	}
}

func TestTopicLabelJaccardErrors(t *testing.T) {
	W := mat.NewDense(2, 2, []float64{1, 0, 0, 1})
	ok := [][]int{{0}, {1}}
	cases := map[string]func() error{
		"negative": func() error {
			_, err := TopicLabelJaccard(mat.NewDense(1, 1, []float64{-1}), [][]int{{0}}, 1, nil)
			return err
		},
		"NaN": func() error {
			_, err := TopicLabelJaccard(mat.NewDense(1, 1, []float64{math.NaN()}), [][]int{{0}}, 1, nil)
			return err
		},
		"rows":         func() error { _, err := TopicLabelJaccard(W, ok[:1], 2, nil); return err },
		"label range":  func() error { _, err := TopicLabelJaccard(W, [][]int{{0}, {2}}, 2, nil); return err },
		"no labels":    func() error { _, err := TopicLabelJaccard(W, [][]int{nil, nil}, 2, nil); return err },
		"bad cutoff":   func() error { _, err := TopicLabelJaccard(W, ok, 2, &JaccardOptions{Cutoff: -1}); return err },
		"zero labels":  func() error { _, err := TopicLabelJaccard(W, ok, 0, nil); return err },
		"nil W":        func() error { _, err := TopicLabelJaccard(nil, ok, 2, nil); return err },
		"label repeat": func() error { _, err := TopicLabelJaccard(W, [][]int{{0, 0}, {1}}, 2, nil); return err },
	}
	for name, f := range cases {
		if f() == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
