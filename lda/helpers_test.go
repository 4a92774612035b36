package lda

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/semitopic/semitopic/sparse"
)

// synthetic is a corpus drawn from a known LDA model.
type synthetic struct {
	x     *sparse.CSR
	beta  [][]float64 // planted topic-word distributions, k × terms
	theta [][]float64 // planted document-topic proportions, docs × k
}

// plant draws docs documents of about length words from k topics over
// k·per terms: topic t puts most of its mass on its own block of per terms
// and a little on the rest. θ_d ~ Dir(alpha).
func plant(seed uint64, k, per, docs, length int, alpha float64) synthetic {
	rng := rand.New(rand.NewPCG(seed, 99))
	terms := k * per
	beta := make([][]float64, k)
	for t := range beta {
		row := make([]float64, terms)
		var s float64
		for j := range row {
			v := 0.02 * rng.Float64()
			if j/per == t {
				v = 1 + rng.Float64()
			}
			row[j] = v
			s += v
		}
		for j := range row {
			row[j] /= s
		}
		beta[t] = row
	}
	g := distuv.Gamma{Alpha: alpha, Beta: 1, Src: rand.NewPCG(seed, 7)}
	var ts []sparse.Triplet
	theta := make([][]float64, docs)
	for d := 0; d < docs; d++ {
		th := make([]float64, k)
		var s float64
		for t := range th {
			th[t] = g.Rand() + 1e-12
			s += th[t]
		}
		for t := range th {
			th[t] /= s
		}
		theta[d] = th
		n := length/2 + rng.IntN(length)
		for i := 0; i < n; i++ {
			t := draw(rng, th)
			ts = append(ts, sparse.Triplet{Row: d, Col: draw(rng, beta[t]), Val: 1})
		}
	}
	x, err := sparse.FromTriplets(docs, terms, ts)
	if err != nil {
		panic(err)
	}
	return synthetic{x: x, beta: beta, theta: theta}
}

func draw(rng *rand.Rand, p []float64) int {
	u := rng.Float64()
	for i, v := range p {
		u -= v
		if u < 0 {
			return i
		}
	}
	return len(p) - 1
}

// matchTopics pairs each planted topic with a distinct fitted topic,
// greedily by smallest total-variation distance, and returns the fitted
// index of each planted topic and the distances.
func matchTopics(planted [][]float64, fitted [][]float64) (perm []int, dist []float64) {
	k := len(planted)
	type pair struct {
		p, f int
		d    float64
	}
	var pairs []pair
	for p := range planted {
		for f := range fitted {
			var d float64
			for j := range planted[p] {
				d += math.Abs(planted[p][j] - fitted[f][j])
			}
			pairs = append(pairs, pair{p, f, d / 2})
		}
	}
	perm, dist = make([]int, k), make([]float64, k)
	usedP, usedF := make([]bool, k), make([]bool, len(fitted))
	for n := 0; n < k; n++ {
		best := -1
		for i, pr := range pairs {
			if usedP[pr.p] || usedF[pr.f] {
				continue
			}
			if best < 0 || pr.d < pairs[best].d {
				best = i
			}
		}
		pr := pairs[best]
		usedP[pr.p], usedF[pr.f] = true, true
		perm[pr.p], dist[pr.p] = pr.f, pr.d
	}
	return perm, dist
}

// rows returns the rows of a model's topic-word matrix.
func topicRows(m *Model) [][]float64 {
	tw := m.TopicWord()
	out := make([][]float64, m.Topics())
	for t := range out {
		out[t] = append([]float64(nil), tw.RawRowView(t)...)
	}
	return out
}

func mustCSR(t testing.TB, dense [][]float64) *sparse.CSR {
	t.Helper()
	var ts []sparse.Triplet
	cols := 0
	for i, row := range dense {
		cols = len(row)
		for j, v := range row {
			if v != 0 {
				ts = append(ts, sparse.Triplet{Row: i, Col: j, Val: v})
			}
		}
	}
	x, err := sparse.FromTriplets(len(dense), cols, ts)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func relDiff(a, b float64) float64 {
	return math.Abs(a-b) / math.Max(math.Abs(b), 1e-300)
}
