package nmf

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/rng"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/supervision"
)

// rankOf returns term j's rank (from 1) in row t of h, ties by lower term.
func rankOf(h *mat.Dense, t, j int) int {
	row := h.RawRowView(t)
	r := 1
	for i, v := range row {
		if v > row[j] || (v == row[j] && i < j) {
			r++
		}
	}
	return r
}

// TestSeedRank checks that SeedRank holds every seed term among its
// topic's heaviest terms, sparse and dense, for both losses, where the
// seeds' pseudo-documents alone leave some far down; and that it changes
// nothing without seeds.
func TestSeedRank(t *testing.T) {
	// Three blocks of 12 terms, 30 documents each drawing from one block
	// (and a little from the others); topic 0 is seeded with a term of
	// its own block and one of another's, which its documents hardly use.
	r := rng.New(3, 0, 0)
	var ts []sparse.Triplet
	for i := 0; i < 90; i++ {
		b := i / 30
		for j := 0; j < 36; j++ {
			p := 0.05
			if j/12 == b {
				p = 0.6
			}
			if r.Float64() < p {
				ts = append(ts, sparse.Triplet{Row: i, Col: j, Val: float64(1 + r.Intn(4))})
			}
		}
	}
	x, err := sparse.FromTriplets(90, 36, ts)
	if err != nil {
		t.Fatal(err)
	}
	seeds := []supervision.Seed{{Topic: 0, Term: 1}, {Topic: 0, Term: 20}, {Topic: 1, Term: 30}}
	const rank = 2
	for _, loss := range []Loss{Frobenius, KullbackLeibler} {
		for _, dense := range []bool{false, true} {
			var in Matrix = x
			if dense {
				in = x.ToDense()
			}
			cfg := Config{K: 3, Loss: loss, Seed: 1, MaxIter: 200, Seeds: supervision.Terms{Seeds: seeds}}
			free, err := Fit(context.Background(), in, cfg)
			if err != nil {
				t.Fatal(err)
			}
			missed := 0
			for _, s := range seeds {
				if rankOf(free.H, s.Topic, s.Term) > rank {
					missed++
				}
			}
			if missed == 0 {
				t.Fatalf("loss %v dense %v: every seed is in its topic's top %d without SeedRank: the test shows nothing", loss, dense, rank)
			}
			cfg.SeedRank = rank
			held, err := Fit(context.Background(), in, cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range seeds {
				if r := rankOf(held.H, s.Topic, s.Term); r > rank {
					t.Errorf("loss %v dense %v: seed term %d ranks %d in topic %d, want ≤ %d", loss, dense, s.Term, r, s.Topic, rank)
				}
			}
			for _, v := range held.Objective {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("loss %v dense %v: objective %v", loss, dense, v)
				}
			}
			if r, _ := held.W.Dims(); r != x.Rows {
				t.Errorf("W has %d rows, want the %d documents'", r, x.Rows)
			}
			if !slices.ContainsFunc(held.Notes, func(n string) bool { return strings.Contains(n, "SeedRank") }) {
				t.Errorf("no note of the hold: %q", held.Notes)
			}
		}
	}
	// Without seeds SeedRank changes nothing.
	a, err := Fit(context.Background(), x, Config{K: 3, Seed: 1, MaxIter: 50})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Fit(context.Background(), x, Config{K: 3, Seed: 1, MaxIter: 50, SeedRank: 10})
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(a.H, b.H) || !mat.Equal(a.W, b.W) {
		t.Error("SeedRank without seeds changed the fit")
	}
	if _, err := Fit(context.Background(), x, Config{K: 3, SeedRank: -1}); err == nil || !strings.Contains(err.Error(), "SeedRank") {
		t.Errorf("SeedRank -1: %v", err)
	}
}
