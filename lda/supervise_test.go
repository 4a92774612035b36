package lda

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/supervision"
)

// testSeeds seed topic t of a corpus planted by plant(…, 5, 30, …) with
// three words of planted topic (t+2) mod 5, one of them weighted twice.
var testSeeds = func() []supervision.Seed {
	var out []supervision.Seed
	for t := 0; t < 5; t++ {
		b := ((t + 2) % 5) * 30
		out = append(out, supervision.Seed{Topic: t, Term: b}, supervision.Seed{Topic: t, Term: b + 1, Strength: 2}, supervision.Seed{Topic: t, Term: b + 2})
	}
	return out
}()

// testExclude forbids term 5 (of planted topic 0) in topics 0 and 1.
var testExclude = []supervision.Exclusion{{Topic: 0, Term: 5}, {Topic: 1, Term: 5}}

// testDocTopics labels every third document of n with topics {d mod 5,
// (d+1) mod 5} and leaves the others unlabeled.
func testDocTopics(n int) [][]int {
	out := make([][]int, n)
	for d := 0; d < n; d += 3 {
		out[d] = []int{d % 5, (d + 1) % 5}
	}
	return out
}

// TestZLabelsForbiddenExact fits z-labels LDA with exclusions, batch and
// online: every forbidden (topic, term) has λ = η exactly (its φ was zero
// in every E-step), the allowed ones do not, and Transform keeps the
// restriction: a document of one seed word only gives every topic but the
// word's own exactly γ = α.
func TestZLabelsForbiddenExact(t *testing.T) {
	syn := plant(3, 5, 30, 200, 40, 0.2)
	ctx := context.Background()
	for _, method := range []Method{Batch, Online} {
		m, err := Fit(ctx, syn.x, Config{K: 5, MaxIter: 5, Seed: 1, Method: method, BatchSize: 50,
			Seeds: supervision.Terms{Seeds: testSeeds, Exclude: testExclude}, ZLabels: true})
		if err != nil {
			t.Fatal(err)
		}
		eta := m.Config().TopicWordPrior
		comp := m.Components()
		tw := m.TopicWord()
		forbidden := 0
		for j := 0; j < m.Terms(); j++ {
			for tp := 0; tp < 5; tp++ {
				v := comp.At(tp, j)
				if m.Forbidden(tp, j) {
					forbidden++
					if p := tw.At(tp, j); p != 0 {
						t.Errorf("%v: forbidden term %d has probability %v in topic %d, want 0", method, j, p, tp)
					}
					if v != eta {
						t.Errorf("%v: forbidden λ of term %d in topic %d = %.17g, want η = %v exactly", method, j, tp, v, eta)
					}
				} else if v == eta {
					t.Errorf("%v: allowed λ of term %d in topic %d is η exactly", method, j, tp)
				}
			}
		}
		if want := 15*4 + 2; forbidden != want {
			t.Errorf("%v: %d forbidden pairs, want %d", method, forbidden, want)
		}
		// A document of seed word 60 (topic 0's) only.
		doc, _ := sparse.FromTriplets(1, m.Terms(), []sparse.Triplet{{Row: 0, Col: 60, Val: 10}})
		th, err := m.Transform(ctx, doc)
		if err != nil {
			t.Fatal(err)
		}
		alpha := m.Config().DocTopicPrior
		if want := (alpha + 10) / (5*alpha + 10); math.Abs(th.At(0, 0)-want) > 1e-12 {
			t.Errorf("%v: θ of a seed-word document in its topic = %v, want %v", method, th.At(0, 0), want)
		}
		for tp := 1; tp < 5; tp++ {
			if want := alpha / (5*alpha + 10); math.Abs(th.At(0, tp)-want) > 1e-12 {
				t.Errorf("%v: θ of a seed-word document in topic %d = %v, want α/Σγ = %v", method, tp, th.At(0, tp), want)
			}
		}
	}
}

// TestLabeledDocuments fits labeled LDA with a third of the documents
// labeled: a labeled document's training γ is zero outside its topics, and
// a term that only labeled documents without topic t contain has λ = η in
// t exactly (its φ was zero there).
func TestLabeledDocuments(t *testing.T) {
	syn := plant(4, 5, 30, 300, 30, 0.2)
	ctx := context.Background()
	// Label nine documents in ten with their main planted topic, and give
	// each label's documents a term of their own (columns 150 to 154), held
	// by no other document.
	labels := make([][]int, syn.x.Rows)
	var ts []sparse.Triplet
	for d := range labels {
		for p := syn.x.Indptr[d]; p < syn.x.Indptr[d+1]; p++ {
			ts = append(ts, sparse.Triplet{Row: d, Col: int(syn.x.Indices[p]), Val: syn.x.Data[p]})
		}
		if d%10 != 0 {
			l := slices.Index(syn.theta[d], slices.Max(syn.theta[d]))
			labels[d] = []int{l}
			ts = append(ts, sparse.Triplet{Row: d, Col: 150 + l, Val: 2})
		}
	}
	x, err := sparse.FromTriplets(syn.x.Rows, 155, ts)
	if err != nil {
		t.Fatal(err)
	}
	syn.x = x
	cfg := Config{K: 5, MaxIter: 5, Seed: 2, DocTopics: labels}
	m, err := Fit(ctx, syn.x, cfg)
	if err != nil {
		t.Fatal(err)
	}
	eta := m.Config().TopicWordPrior
	comp := m.Components()
	checked := 0
	for j := 0; j < m.Terms(); j++ {
		for tp := 0; tp < 5; tp++ {
			allowed := false
			for d := 0; d < syn.x.Rows && !allowed; d++ {
				if _, ok := slices.BinarySearch(syn.x.Indices[syn.x.Indptr[d]:syn.x.Indptr[d+1]], int32(j)); ok {
					allowed = labels[d] == nil || slices.Contains(labels[d], tp)
				}
			}
			if v := comp.At(tp, j); !allowed {
				checked++
				if v != eta {
					t.Errorf("λ of term %d in topic %d = %.17g: only documents without the topic hold the term, want η = %v", j, tp, v, eta)
				}
			} else if v == eta {
				t.Errorf("λ of term %d in topic %d is η exactly, but a document allowed the topic holds it", j, tp)
			}
		}
	}
	if checked != 20 {
		t.Errorf("%d (term, topic) pairs held by labeled documents without the topic only, want the 5 × 4 of the labels' own terms", checked)
	}
	// The training E-step itself: γ is zero outside the labels.
	w := newWork(m, syn.x.Rows)
	w.labels = labels
	if _, err := m.eStep(ctx, w, syn.x, 0, syn.x.Rows, true, true); err != nil {
		t.Fatal(err)
	}
	for d, ls := range labels {
		for tp := 0; tp < 5; tp++ {
			g := w.gamma[d*5+tp]
			if ls != nil && !slices.Contains(ls, tp) && (g != 0 || w.expTheta[d*5+tp] != 0) {
				t.Errorf("document %d labeled %v: γ_%d = %v, exp(E[log θ]) = %v, want 0", d, ls, tp, g, w.expTheta[d*5+tp])
			}
			if (ls == nil || slices.Contains(ls, tp)) && !(g > 0) {
				t.Errorf("document %d labeled %v: γ_%d = %v, want > 0", d, ls, tp, g)
			}
		}
	}
	// TransformTraining reads the training documents so too, normalised;
	// an unlabeled document as Transform reads it.
	tr, err := m.TransformTraining(ctx, syn.x)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := m.Transform(ctx, syn.x)
	if err != nil {
		t.Fatal(err)
	}
	for d, ls := range labels {
		sum := 0.0
		for tp := 0; tp < 5; tp++ {
			v := tr.At(d, tp)
			sum += v
			if ls != nil && !slices.Contains(ls, tp) && v != 0 {
				t.Errorf("TransformTraining: document %d labeled %v has θ_%d = %v", d, ls, tp, v)
			}
			if ls == nil && v != plain.At(d, tp) {
				t.Errorf("TransformTraining: unlabeled document %d has θ_%d = %v, Transform %v", d, tp, v, plain.At(d, tp))
			}
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("TransformTraining: document %d sums to %v", d, sum)
		}
	}
	if _, err := m.TransformTraining(ctx, syn.x.SelectRows([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})); err == nil {
		t.Error("TransformTraining of other documents than the fit's: no error")
	}
}

// topicOf returns the planted topic whose block of per terms holds most of
// the top n words of the fitted topic t.
func topicOf(tw [][]Word, t, per, n int) int {
	votes := map[int]int{}
	for _, w := range tw[t][:n] {
		votes[w.Index/per]++
	}
	best, bv := -1, 0
	for p, v := range votes {
		if v > bv || (v == bv && p < best) {
			best, bv = p, v
		}
	}
	if bv*2 <= n {
		return -1
	}
	return best
}

// rank returns the position of term j in topic t's words, most probable
// first.
func rank(tw [][]Word, t, j int) int {
	return slices.IndexFunc(tw[t], func(w Word) bool { return w.Index == j })
}

// TestSeededRecoversPlanted seeds topic t with three words of planted
// topic (t+2) mod 5: with the seed prior, with z-labels alone, batch and
// online, fitted topic t is planted topic (t+2) mod 5 (most of its top 10
// words are in that topic's block), and the seed prior ranks the seed
// words higher than the unsupervised fit does.
func TestSeededRecoversPlanted(t *testing.T) {
	syn := plant(5, 5, 30, 300, 40, 0.2)
	ctx := context.Background()
	base := Config{K: 5, MaxIter: 10, Seed: 3, BatchSize: 60}
	plain, err := Fit(ctx, syn.x, base)
	if err != nil {
		t.Fatal(err)
	}
	ptw, _ := plain.TopWords(nil, 150)
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"seed prior, batch", Config{Seeds: supervision.Terms{Seeds: testSeeds}}},
		{"seed prior, online", Config{Seeds: supervision.Terms{Seeds: testSeeds}, Method: Online}},
		{"z-labels only, batch", Config{Seeds: supervision.Terms{Seeds: testSeeds}, ZLabels: true, SeedPrior: -1}},
		{"z-labels only, online", Config{Seeds: supervision.Terms{Seeds: testSeeds}, ZLabels: true, SeedPrior: -1, Method: Online}},
	} {
		cfg := c.cfg
		cfg.K, cfg.MaxIter, cfg.Seed, cfg.BatchSize = base.K, base.MaxIter, base.Seed, base.BatchSize
		m, err := Fit(ctx, syn.x, cfg)
		if err != nil {
			t.Fatal(err)
		}
		tw, _ := m.TopWords(nil, 150)
		for tp := 0; tp < 5; tp++ {
			if got, want := topicOf(tw, tp, 30, 10), (tp+2)%5; got != want {
				t.Errorf("%s: fitted topic %d is planted topic %d, want %d (the one its seed words come from)", c.name, tp, got, want)
			}
		}
		if cfg.SeedPrior < 0 {
			continue
		}
		seededRanks, plainRanks := 0, 0
		for _, s := range testSeeds {
			r := rank(tw, s.Topic, s.Term)
			if r > 3 {
				t.Errorf("%s: seed word %d ranks %d in topic %d, want among the first 3 seed words", c.name, s.Term, r, s.Topic)
			}
			seededRanks += r
			plainRanks += rank(ptw, s.Topic, s.Term)
		}
		if seededRanks >= plainRanks {
			t.Errorf("%s: the seed words' ranks add up to %d, %d unseeded: the prior does not raise them", c.name, seededRanks, plainRanks)
		}
		// The seed prior adds Strength × the word's count to its topic.
		counts := make([]float64, syn.x.Cols)
		for p, j := range syn.x.Indices {
			counts[j] += syn.x.Data[p]
		}
		want := make([]float64, 5)
		for tp := range want {
			want[tp] = float64(m.Terms()) * m.Config().TopicWordPrior
		}
		for i, s := range testSeeds {
			w := max(s.Strength, 1)
			want[s.Topic] += w * counts[s.Term]
			if got := m.Config().SeedCounts[i]; got != counts[s.Term] {
				t.Errorf("%s: seed word %d counted %v times, want %v", c.name, s.Term, got, counts[s.Term])
			}
		}
		for tp, v := range m.TopicPrior() {
			if math.Abs(v-want[tp]) > 1e-9*want[tp] {
				t.Errorf("%s: topic %d's prior mass %v, want %v", c.name, tp, v, want[tp])
			}
		}
	}
}

// TestSupervisionErrors checks that bad supervision fields are refused
// with a message naming them.
func TestSupervisionErrors(t *testing.T) {
	x := plant(6, 2, 5, 20, 10, 0.5).x
	ctx := context.Background()
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{K: 2, ZLabels: true}, "no seed terms"},
		{Config{K: 2, Seeds: supervision.Terms{Seeds: []supervision.Seed{{Topic: 2, Term: 0}}}}, "lda: Seeds: seed 0 (topic 2, term 0): topic out of range"},
		{Config{K: 2, Seeds: supervision.Terms{Seeds: []supervision.Seed{{Topic: 0, Term: 10}}}}, "term 10"},
		{Config{K: 2, Seeds: supervision.Terms{Seeds: []supervision.Seed{{Topic: 0, Term: 1, Strength: -1}}}}, "strength -1"},
		{Config{K: 2, Seeds: supervision.Terms{Seeds: []supervision.Seed{{Topic: 0, Term: 1}}, Exclude: []supervision.Exclusion{{Topic: 0, Term: 1}}}}, "the term is seed 0 of the same topic"},
		{Config{K: 2, Seeds: supervision.Terms{Exclude: []supervision.Exclusion{{Topic: 0, Term: 3}, {Topic: 1, Term: 3}}}}, "excluded from every topic"},
		{Config{K: 2, Seeds: supervision.Terms{Seeds: []supervision.Seed{{Topic: 0, Term: 3}}, Exclude: []supervision.Exclusion{{Topic: 0, Term: 4}, {Topic: 1, Term: 4}}}, ZLabels: true}, "term 4"},
		{Config{K: 2, DocTopics: [][]int{{0}}}, "DocTopics has 1 entries"},
		{Config{K: 2, DocTopics: make([][]int, 20)[:19]}, "DocTopics"},
		{Config{K: 2, DocTopics: append(make([][]int, 19), []int{2})}, "topic 2"},
		{Config{K: 2, Seeds: supervision.Terms{Seeds: []supervision.Seed{{Topic: 0, Term: 1}}}, SeedCounts: []float64{-1}}, "seed 0 (topic 0, term 1): count -1"},
		{Config{K: 2, Seeds: supervision.Terms{Seeds: []supervision.Seed{{Topic: 0, Term: 1}}}, SeedCounts: []float64{1, 2}}, "2 SeedCounts for 1 seed terms"},
	} {
		_, err := Fit(ctx, x, c.cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one containing %q", c.cfg, err, c.want)
		}
	}
}

// TestFewLabelsRecoverPlanted labels 2% of a planted corpus's documents
// (two per topic, with the planted topic that holds most of the
// document): labeled LDA's arg-max θ (Transform) is the planted main topic
// of at least 80% of the other documents, batch and online (92–94% over
// 4 planted corpora × 3 fit seeds). The same fit without the labeled
// start of λ (Config.DocTopics), with only the E-steps restricted, ties
// its topics to the labels by chance (1.6–58.6% over the same 12 pairs:
// with 5 topics its correspondence is close to a random permutation),
// which the test requires to be at least 25 points worse.
func TestFewLabelsRecoverPlanted(t *testing.T) {
	const k, docs, threshold = 5, 500, 0.8
	syn := plant(11, k, 30, docs, 40, 0.2)
	ctx := context.Background()
	main := make([]int, docs)
	for d, th := range syn.theta {
		main[d] = slices.Index(th, slices.Max(th))
	}
	labels := make([][]int, docs)
	per := make([]int, k)
	nl := 0
	for d := 0; d < docs; d++ {
		if p := main[d]; per[p] < 2 && syn.theta[d][p] > 0.5 {
			per[p]++
			labels[d] = []int{p}
			nl++
		}
	}
	if nl != 2*k {
		t.Fatalf("%d labeled documents, want %d", nl, 2*k)
	}
	accuracy := func(m *Model) float64 {
		th, err := m.Transform(ctx, syn.x)
		if err != nil {
			t.Fatal(err)
		}
		right, n := 0, 0
		for d := 0; d < docs; d++ {
			if labels[d] != nil {
				continue
			}
			row := th.RawRowView(d)
			if slices.Index(row, slices.Max(row)) == main[d] {
				right++
			}
			n++
		}
		return float64(right) / float64(n)
	}
	for _, method := range []Method{Batch, Online} {
		cfg := Config{K: k, MaxIter: 10, Seed: 4, Method: method, BatchSize: 100, DocTopics: labels}
		m, err := Fit(ctx, syn.x, cfg)
		if err != nil {
			t.Fatal(err)
		}
		acc := accuracy(m)
		if acc < threshold {
			t.Errorf("%v: arg-max θ is the planted topic of %.1f%% of the unlabeled documents, want at least %.0f%%", method, 100*acc, 100*threshold)
		}
		// Fit's loop without the labeled start.
		bare, err := New(syn.x.Cols, cfg)
		if err != nil {
			t.Fatal(err)
		}
		w := newWork(bare, docs)
		w.labels = labels
		for i := 0; i < cfg.MaxIter; i++ {
			if method == Batch {
				_, err = bare.emStep(ctx, w, syn.x, 0, docs, true, docs)
			} else {
				for lo := 0; lo < docs && err == nil; lo += cfg.BatchSize {
					_, err = bare.emStep(ctx, w, syn.x, lo, min(lo+cfg.BatchSize, docs), false, docs)
				}
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		bareAcc := accuracy(bare)
		t.Logf("%v: %.1f%% of the unlabeled documents right, %.1f%% without the labeled start", method, 100*acc, 100*bareAcc)
		if bareAcc > acc-0.25 {
			t.Errorf("%v: without the labeled start, arg-max θ is the planted topic of %.1f%% of the documents, with it %.1f%%: the test no longer shows what the start is for", method, 100*bareAcc, 100*acc)
		}
	}
}
