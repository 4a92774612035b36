package metrics

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/sparse"
)

// coherenceCorpus is the binary corpus of the hand-checked examples:
//
//	d0: w0 w1
//	d1: w0 w1 w2
//	d2: w0 w2
//	d3: w3
//
// so D(w0) = 3, D(w1) = D(w2) = 2, D(w3) = 1, D(w4) = 0 (w4 never occurs),
// D(w0,w1) = D(w0,w2) = 2, D(w1,w2) = 1, and w3 co-occurs with nothing.
func coherenceCorpus() *sparse.CSR {
	return sparse.FromDense(mat.NewDense(4, 5, []float64{
		1, 1, 0, 0, 0,
		1, 1, 1, 0, 0,
		1, 0, 1, 0, 0,
		0, 0, 0, 1, 0,
	}))
}

func TestCoherenceByHand(t *testing.T) {
	X := coherenceCorpus()
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%s = %.16g, want %.16g", what, got, want)
		}
	}
	l2 := math.Log(2)
	topics := [][]int{
		{1, 2, 3}, // B
		{2, 0},    // C
		{3},       // one word: no pairs
		{4, 1},    // w4 occurs nowhere
	}
	// UMass (Mimno), conditioning on the earlier word:
	//   B: (w2|w1) log((1+1)/2) = 0; (w3|w1) log((0+1)/2); (w3|w2) log(1/2) → -2 log 2
	//   C: (w0|w2) log((2+1)/2) = log 1.5
	//   {w4, w1}: (w1|w4) has D(w4) = 0 → contributes 0
	u, err := UMass(X, topics)
	if err != nil {
		t.Fatal(err)
	}
	near("UMass B", u.PerTopic[0], -2*l2)
	near("UMass C", u.PerTopic[1], math.Log(1.5))
	if !math.IsNaN(u.PerTopic[2]) {
		t.Errorf("UMass of a one-word topic = %v, want NaN", u.PerTopic[2])
	}
	near("UMass unseen conditioning word", u.PerTopic[3], 0)
	near("UMass mean", u.Mean, (-2*l2+math.Log(1.5)+0)/3)
	if u.Scored != 3 {
		t.Errorf("scored %d", u.Scored)
	}
	// gensim's u_mass: mean of log((D(w',w*)/N + 1e-12)/(D(w*)/N)), N = 4:
	//   B: [log((1/4+ε)/(2/4)) + 2 log(ε/(2/4))] / 3
	g, err := UMassGensim(X, topics)
	if err != nil {
		t.Fatal(err)
	}
	eps := 1e-12
	near("gensim B", g.PerTopic[0], (math.Log((0.25+eps)/0.5)+2*math.Log(eps/0.5))/3)
	near("gensim C", g.PerTopic[1], math.Log((0.5+eps)/0.5))
	// NPMI: B: (w1,w2) p = 1/4, p1 = p2 = 1/2 → log(1)/… = 0; (w1,w3), (w2,w3)
	// never co-occur → −1 each; mean −2/3.
	//   C: p(w2,w0) = 1/2, p(w2) = 1/2, p(w0) = 3/4 → log(4/3)/log 2.
	n, err := NPMI(X, topics)
	if err != nil {
		t.Fatal(err)
	}
	near("NPMI B", n.PerTopic[0], -2.0/3)
	near("NPMI C", n.PerTopic[1], math.Log(4.0/3)/l2)
	near("NPMI unseen word", n.PerTopic[3], -1)
	// Two words in every document: NPMI takes its limit 1.
	all := sparse.FromDense(mat.NewDense(2, 2, []float64{1, 1, 1, 1}))
	n, err = NPMI(all, [][]int{{0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	near("NPMI always together", n.PerTopic[0], 1)
}

// TestCoherenceNaive compares the sparse pair counts with a dense count on
// random corpora, through UMass, which exposes every count.
func TestCoherenceNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	docs, terms := 3000, 40 // enough non-zeros to split the pass over the cores
	var ts []sparse.Triplet
	dense := make([][]bool, docs)
	for d := range dense {
		dense[d] = make([]bool, terms)
		for w := 0; w < terms; w++ {
			if rng.Float64() < 0.25 {
				dense[d][w] = true
				ts = append(ts, sparse.Triplet{Row: d, Col: w, Val: float64(1 + rng.IntN(3))})
			}
		}
	}
	X, err := sparse.FromTriplets(docs, terms, ts)
	if err != nil {
		t.Fatal(err)
	}
	topics := make([][]int, 12)
	for i := range topics {
		topics[i] = rng.Perm(terms)[:8]
	}
	u, err := UMass(X, topics)
	if err != nil {
		t.Fatal(err)
	}
	count := func(a, b int) (n int) {
		for d := range dense {
			if dense[d][a] && dense[d][b] {
				n++
			}
		}
		return n
	}
	for i, tw := range topics {
		var want float64
		for m := 1; m < len(tw); m++ {
			for l := 0; l < m; l++ {
				want += math.Log(float64(count(tw[m], tw[l])+1) / float64(count(tw[l], tw[l])))
			}
		}
		if math.Abs(u.PerTopic[i]-want) > 1e-9 {
			t.Fatalf("topic %d: UMass %v, dense count %v", i, u.PerTopic[i], want)
		}
	}
}

func TestTopWordsDiversityOverlap(t *testing.T) {
	// Topic 0: weights .1 .5 .5 0 → 1, 2 (tie: lower index first), 0.
	// Topic 1: all zero → empty.
	H := mat.NewDense(2, 4, []float64{0.1, 0.5, 0.5, 0, 0, 0, 0, 0})
	top, err := TopWords(H, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(top[0], []int{1, 2, 0}) || len(top[1]) != 0 {
		t.Errorf("top words %v", top)
	}
	// Diversity of {0 1 2} and {2 3 4}: 5 distinct of 6 words.
	d, err := TopicDiversity([][]int{{0, 1, 2}, {2, 3, 4}}, 3)
	if err != nil || d != 5.0/6 {
		t.Errorf("diversity %v %v", d, err)
	}
	// With n = 2: {0 1} and {2 3} → 4 of 4.
	if d, _ := TopicDiversity([][]int{{0, 1, 2}, {2, 3, 4}}, 2); d != 1 {
		t.Errorf("diversity n=2: %v", d)
	}
	// An empty topic contributes no words: {0 1} and {} → 2 of 2.
	if d, _ := TopicDiversity([][]int{{0, 1}, {}}, 10); d != 1 {
		t.Errorf("diversity with an empty topic: %v", d)
	}
	// Overlap: |{2}| / |{0..4}| = 1/5 for the one pair.
	o, err := TopicOverlap([][]int{{0, 1, 2}, {2, 3, 4}}, 3)
	if err != nil || math.Abs(o-0.2) > 1e-15 {
		t.Errorf("overlap %v %v", o, err)
	}
	// Three topics {0 1}, {0 1}, {2 3}: pairs 1, 0, 0 → 1/3; an empty topic
	// overlaps nothing.
	if o, _ := TopicOverlap([][]int{{0, 1}, {1, 0}, {2, 3}}, 0); math.Abs(o-1.0/3) > 1e-15 {
		t.Errorf("overlap of three %v", o)
	}
	if o, _ := TopicOverlap([][]int{{}, {}}, 0); o != 0 {
		t.Errorf("overlap of empty topics %v", o)
	}
}

func TestCoherenceErrors(t *testing.T) {
	X := coherenceCorpus()
	cases := map[string]func() error{
		"nil X":         func() error { _, err := UMass(nil, [][]int{{0, 1}}); return err },
		"no topics":     func() error { _, err := NPMI(X, nil); return err },
		"word range":    func() error { _, err := NPMI(X, [][]int{{0, 9}}); return err },
		"repeated word": func() error { _, err := UMass(X, [][]int{{0, 0}}); return err },
		"negative value": func() error {
			_, err := UMass(sparse.FromDense(mat.NewDense(1, 2, []float64{-1, 1})), [][]int{{0, 1}})
			return err
		},
		"no docs":        func() error { _, err := UMass(sparse.Zeros(0, 3), [][]int{{0, 1}}); return err },
		"top words n":    func() error { _, err := TopWords(mat.NewDense(1, 1, []float64{1}), 0); return err },
		"diversity none": func() error { _, err := TopicDiversity([][]int{{}, {}}, 3); return err },
		"overlap one":    func() error { _, err := TopicOverlap([][]int{{1}}, 3); return err },
		"diversity dup":  func() error { _, err := TopicDiversity([][]int{{1, 1}}, 3); return err },
	}
	for name, f := range cases {
		if f() == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func BenchmarkNPMI(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	docs, terms := 20000, 5000
	var ts []sparse.Triplet
	for d := 0; d < docs; d++ {
		for k := 0; k < 60; k++ {
			ts = append(ts, sparse.Triplet{Row: d, Col: int(float64(terms) * math.Pow(rng.Float64(), 2)), Val: 1})
		}
	}
	X, err := sparse.FromTriplets(docs, terms, ts)
	if err != nil {
		b.Fatal(err)
	}
	topics := make([][]int, 50)
	for i := range topics {
		topics[i] = rng.Perm(terms / 4)[:20]
	}
	for b.Loop() {
		if _, err := NPMI(X, topics); err != nil {
			b.Fatal(err)
		}
	}
}
