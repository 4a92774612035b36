package metrics

import (
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestClusterScoresByHand(t *testing.T) {
	// S (documents × 3 topics; topic 2 is empty), subgroups over 3 groups
	// (group 2 has no document):
	//   d0 [0.9 0.1 0] g0
	//   d1 [0.6 0.4 0] g0
	//   d2 [0.2 0.8 0] g1
	//   d3 [0   0   0] g1   all zero: no topic when hard
	//   d4 [0.5 0.5 0] g1   tie: the first topic (0) when hard
	//   d5 [0.3 0.7 0] none
	S := mat.NewDense(6, 3, []float64{
		0.9, 0.1, 0,
		0.6, 0.4, 0,
		0.2, 0.8, 0,
		0, 0, 0,
		0.5, 0.5, 0,
		0.3, 0.7, 0,
	})
	groups := []int{0, 0, 1, 1, 1, -1}
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-15 {
			t.Errorf("%s = %.16g, want %.16g", what, got, want)
		}
	}
	// Hard: d0, d1, d4 → topic 0; d2 → topic 1.
	//   topic 0: g0 (1+1)/2 = 1, g1 (0+0+1)/3 = 1/3 → 1 (g0)
	//   topic 1: g0 0/2,         g1 (1+0+0)/3 = 1/3 → 1/3 (g1)
	//   topic 2: 0 everywhere → 0, no best subgroup
	//   mean (1 + 1/3 + 0)/3 = 4/9
	r, err := ClusterScores(S, groups, 3, false)
	if err != nil {
		t.Fatal(err)
	}
	near("hard topic 0", r.Topic[0], 1)
	near("hard topic 1", r.Topic[1], 1.0/3)
	near("hard mean", r.Mean, 4.0/9)
	if !slices.Equal(r.Best, []int{0, 1, -1}) {
		t.Errorf("hard best %v", r.Best)
	}
	// Soft: rows already sum to 1 (d3 stays 0).
	//   topic 0: g0 (.9+.6)/2 = .75, g1 (.2+0+.5)/3 = .7/3 → .75 (g0)
	//   topic 1: g0 (.1+.4)/2 = .25, g1 (.8+0+.5)/3 = 1.3/3 → 1.3/3 (g1)
	//   mean (.75 + 1.3/3 + 0)/3
	r, err = ClusterScores(S, groups, 3, true)
	if err != nil {
		t.Fatal(err)
	}
	near("soft topic 0", r.Topic[0], 0.75)
	near("soft topic 1", r.Topic[1], 1.3/3)
	near("soft mean", r.Mean, (0.75+1.3/3)/3)
	if !slices.Equal(r.Best, []int{0, 1, -1}) {
		t.Errorf("soft best %v", r.Best)
	}
	// Soft normalizes each document: scaling a row changes nothing.
	S2 := mat.DenseCopyOf(S)
	S2.Set(0, 0, 9)
	S2.Set(0, 1, 1)
	r2, _ := ClusterScores(S2, groups, 3, true)
	near("soft scale invariance", r2.Mean, r.Mean)
}

func TestClusterScoresErrors(t *testing.T) {
	S := mat.NewDense(2, 2, []float64{1, 0, 0, 1})
	if _, err := ClusterScores(S, []int{0}, 2, false); err == nil {
		t.Error("length mismatch accepted")
	}
	if _, err := ClusterScores(S, []int{0, 2}, 2, false); err == nil {
		t.Error("group out of range accepted")
	}
	if _, err := ClusterScores(mat.NewDense(1, 1, []float64{-1}), []int{0}, 1, true); err == nil {
		t.Error("negative entry accepted")
	}
	if _, err := ClusterScores(S, []int{0, 1}, 0, true); err == nil {
		t.Error("zero groups accepted")
	}
}
