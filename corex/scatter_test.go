package corex

import (
	"context"
	"math"
	"testing"

	"github.com/semitopic/semitopic/internal/rng"
	"github.com/semitopic/semitopic/sparse"
)

// TestScatterMatchesGathers checks that a fit whose per-word product is
// scattered over X (data.scatter, taken for large corpora) follows the fit
// that gathers it over Xᵀ bit for bit: every iteration's TC and the final
// p(y|x), on a random binary corpus, with K = 7 (padded to 8 by the
// scatter) and 12.
func TestScatterMatchesGathers(t *testing.T) {
	const n, nv = 400, 150
	r := rng.NewCompat(11, 2)
	var ts []sparse.Triplet
	for i := 0; i < n; i++ {
		for j := 0; j < nv; j++ {
			// Lower terms more frequent, as in text.
			if r.Float64() < 0.3/float64(1+j/10) {
				ts = append(ts, sparse.Triplet{Row: i, Col: j, Val: 1})
			}
		}
	}
	x, err := sparse.FromTriplets(n, nv, ts)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{7, 12} {
		fit := func(scatter bool) *fitState {
			d := newData(x, nil, k)
			if d.scatter {
				t.Fatalf("a %d × %d corpus is scattered", n, nv)
			}
			if scatter {
				d.scatter, d.xt = true, nil
			}
			s := newFitState(d, k, nil, make([][]int, k))
			s.initialize(5, false)
			if err := s.run(context.Background(), Config{MaxIter: 25, Tol: -1}, 5, 0); err != nil {
				t.Fatal(err)
			}
			return s
		}
		gathered, scattered := fit(false), fit(true)
		if len(gathered.history) != 25 || len(scattered.history) != 25 {
			t.Fatalf("K %d: %d and %d iterations, want 25", k, len(gathered.history), len(scattered.history))
		}
		for it, tc := range gathered.history {
			if math.Float64bits(scattered.history[it]) != math.Float64bits(tc) {
				t.Fatalf("K %d, iteration %d: TC %v scattered, %v gathered", k, it+1, scattered.history[it], tc)
			}
		}
		g, s := gathered.p.RawMatrix().Data, scattered.p.RawMatrix().Data
		for q := range g {
			if math.Float64bits(g[q]) != math.Float64bits(s[q]) {
				t.Fatalf("K %d: p(y|x) entry %d = %v scattered, %v gathered", k, q, s[q], g[q])
			}
		}
	}
}
