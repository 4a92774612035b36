package model

import (
	"context"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/supervision"
	"github.com/semitopic/semitopic/vectorize"
)

// demoMatrix returns the demo corpus vectorized as a kind's fit reads it
// (counts for lda), with its documents' labels.
func demoMatrix(t *testing.T, kind string) (*sparse.CSR, []string, [][]string) {
	t.Helper()
	pl := vectorize.DefaultPipeline()
	if kind == KindLDA {
		pl.Vectorize = vectorize.Options{}
	}
	_, res, err := pl.FitTransform(context.Background(), demoCorpus(t).Docs)
	if err != nil {
		t.Fatal(err)
	}
	return res.X, res.Vocab, corpus.DocLabels(res.Docs)
}

// overlap returns the most top words any topic of b shares with a.
func overlap(a Topic, b []Topic) int {
	best := 0
	for _, tb := range b {
		n := 0
		for _, w := range a.Words {
			if slices.ContainsFunc(tb.Words, func(v Word) bool { return v.Word == w.Word }) {
				n++
			}
		}
		best = max(best, n)
	}
	return best
}

// A warm start of every kind that has one: refitting an unchanged state
// from its own model keeps its topics (each shares most of its top words
// with one of the model's) in fewer iterations than the cold fit (or the
// NMF family's least), and an exclusion added takes effect exactly.
func TestWarmStartKinds(t *testing.T) {
	ctx := context.Background()
	seeds, _ := demoSeeds(t)
	for _, c := range []struct {
		o      Options
		labels bool
	}{
		{Options{Kind: KindNMF, K: 6, Seed: 1, Supervision: Supervision{Anchors: seeds}}, false},
		{Options{Kind: KindTSNMF, Seed: 1, Supervision: Supervision{Anchors: seeds}}, true},
		{Options{Kind: KindSSNMF, Seed: 1}, true},
		{Options{Kind: KindCorEx, K: 6, Seed: 1, Supervision: Supervision{Anchors: seeds}}, false},
		{Options{Kind: KindLDA, K: 6, Seed: 1, Supervision: Supervision{Anchors: seeds}}, false},
	} {
		kind := c.o.Kind
		x, vocab, labels := demoMatrix(t, kind)
		o := c.o
		if c.labels {
			o.Labels = labels
		}
		cold, err := Fit(ctx, Matrix(x, vocab), o)
		if err != nil {
			t.Fatal(err)
		}
		warmO := o
		warmO.Warm = &WarmStart{From: cold}
		warm, err := Fit(ctx, Matrix(x, vocab), warmO)
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		if !warm.Info.Warm || !strings.Contains(strings.Join(warm.Info.Notes, "|"), "warm start: 6 of 6") && kind != KindTSNMF && kind != KindSSNMF {
			t.Errorf("%s: warm %v, notes %q", kind, warm.Info.Warm, warm.Info.Notes)
		}
		// (The NMF family runs at least warmMinIter iterations warm,
		// which a cold fit of this small corpus may not need.)
		if warm.Info.Iterations >= max(cold.Info.Iterations, warmMinIter+1) {
			t.Errorf("%s: %d iterations warm, %d cold", kind, warm.Info.Iterations, cold.Info.Iterations)
		}
		ct, wt := mustTopics(t, cold.Model, 5), mustTopics(t, warm.Model, 5)
		for _, tp := range wt {
			if n := overlap(tp, ct); n < 3 && !tp.Empty {
				t.Errorf("%s: topic %q %v shares %d of its top 5 words with the cold fit's topics", kind, tp.Name, tp.Words, n)
			}
		}
		if warm.Info.Params.Kind != kind || warm.Info.Params.Warm != nil {
			t.Errorf("%s: recorded %+v", kind, warm.Info.Params)
		}
		// An exclusion added: the topic's word weighs exactly zero.
		topic := ct[0]
		word := ""
		for _, w := range topic.Words {
			if !slices.ContainsFunc(o.Anchors, func(a Anchor) bool { return a.Topic == topic.Name && slices.Contains(a.Words, w.Word) }) {
				word = w.Word
				break
			}
		}
		ex := warmO
		ex.Anchors = append(slices.Clone(o.Anchors), Anchor{Topic: topic.Name, Exclude: []string{word}})
		after, err := Fit(ctx, Matrix(x, vocab), ex)
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		all := mustTopics(t, after.Model, 0)
		i := slices.IndexFunc(all, func(tp Topic) bool { return tp.Name == topic.Name })
		if i < 0 {
			t.Fatalf("%s: no topic %q after the exclusion", kind, topic.Name)
		}
		if slices.ContainsFunc(all[i].Words, func(w Word) bool { return w.Word == word }) {
			t.Errorf("%s: the excluded %q has a weight in %q after a warm refit", kind, word, topic.Name)
		}
	}
}

// A kind without a warm start (theme) fits cold and says so; the options
// refuse a warm start from another kind, with the automatic
// configuration, or with rows that do not fit.
func TestWarmStartRefused(t *testing.T) {
	ctx := context.Background()
	x, vocab, labels := demoMatrix(t, KindNMF)
	o := Options{Kind: KindTheme, Seed: 1, Subtopics: 2, MaxIter: 20}
	o.Labels = labels
	cold, err := Fit(ctx, Matrix(x, vocab), o)
	if err != nil {
		t.Fatal(err)
	}
	o.Warm = &WarmStart{From: cold}
	again, err := Fit(ctx, Matrix(x, vocab), o)
	if err != nil {
		t.Fatal(err)
	}
	if again.Info.Warm || !strings.Contains(strings.Join(again.Info.Notes, "|"), "cold fit") {
		t.Errorf("theme: warm %v, notes %q", again.Info.Warm, again.Info.Notes)
	}
	nmfFit, err := Fit(ctx, Matrix(x, vocab), Options{Kind: KindNMF, K: 4, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for want, o := range map[string]Options{
		"from a nmf model":       {Kind: KindLDA, K: 4, Warm: &WarmStart{From: nmfFit}},
		"no model":               {Kind: KindNMF, K: 4, Warm: &WarmStart{}},
		"automatic":              {Kind: KindNMF, K: 4, Auto: true, Warm: &WarmStart{From: nmfFit}},
		"starts from topic 7":    {Kind: KindNMF, K: 4, Warm: &WarmStart{From: nmfFit, Topics: map[string][]int{"topic-1": {7}}}},
		"Rows has 2 entries":     {Kind: KindNMF, K: 4, Warm: &WarmStart{From: nmfFit, Rows: []int{0, 1}}},
		"DocTopics has 1 column": {Kind: KindNMF, K: 4, Warm: &WarmStart{From: nmfFit, DocTopics: mat.NewDense(3, 1, nil)}},
	} {
		if _, err := Fit(ctx, Matrix(x, vocab), o); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", want, err)
		}
	}
}

// The lineage of a warm start maps topics and terms: a kept topic keeps
// its row of H, merged topics start from the mean of theirs and add their
// documents' weights, the halves of a split topic share its row and its
// weights, a created seeded topic starts from the documents holding its
// seed words, a free topic takes a free topic of the previous model that
// no name claims, and the previous model's other topics are dropped;
// terms are matched by name, a new term starts near zero, and a new
// document starts from the previous model's transform of it.
func TestWarmLineage(t *testing.T) {
	ctx := context.Background()
	oldVocab := []string{"w0", "w1", "w2", "w3", "w4", "w5"}
	h := mat.NewDense(5, 6, []float64{
		1, 0, 0, 0, 0, 0,
		0, 2, 0, 0, 0, 0,
		0, 0, 3, 0, 0, 0,
		0, 0, 0, 4, 0, 0,
		0, 0, 0, 0, 5, 6,
	})
	prev := &NMF{kind: KindNMF, H: h, TopicNames: []string{"a", "b1", "b2", "c", "old"}, Vocab: oldVocab}
	if err := prev.prepare(); err != nil {
		t.Fatal(err)
	}
	from := &Fitted{Model: prev, Vocab: oldVocab}
	// The new vocabulary drops w2 and w3, reorders the others and adds
	// "new".
	vocab := []string{"w1", "w0", "w4", "w5", "new"}
	x := sparse.FromDense(mat.NewDense(3, 5, []float64{
		1, 1, 0, 0, 0,
		0, 3, 0, 0, 2,
		0, 0, 1, 1, 1,
	}))
	dt := mat.NewDense(4, 5, []float64{
		1, 2, 3, 4, 5,
		6, 7, 8, 9, 10,
		11, 12, 13, 14, 15,
		16, 17, 18, 19, 20,
	})
	w := &WarmStart{From: from, DocTopics: dt, Rows: []int{2, -1, 0},
		Topics: map[string][]int{"a": {0}, "b": {1, 2}, "c": {3}, "c2": {3}, "fresh": nil, "kept-free": {4}}}
	names := []string{"a", "b", "c", "c2", "fresh", "topic-6"}
	sup := Supervision{Anchors: []Anchor{{Topic: "a", Words: []string{"w0"}}, {Topic: "b", Words: []string{"w1"}},
		{Topic: "c", Words: []string{"w4"}}, {Topic: "c2", Words: []string{"w5"}}, {Topic: "fresh", Words: []string{"new"}}}}
	src, err := w.topicSources(names, sup)
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]int{{0}, {1, 2}, {3}, {3}, nil, {4}}; !slices.EqualFunc(src, want, slices.Equal) {
		t.Fatalf("sources %v, want %v", src, want)
	}
	seeds := supervision.Terms{Seeds: []supervision.Seed{{Topic: 4, Term: 4}}}
	w0, h0, err := w.warmFactors(ctx, x, vocab, h, src, seeds, 1)
	if err != nil {
		t.Fatal(err)
	}
	tiny := func(v float64) bool { return v > 0 && v < 1e-3 }
	// Rows of H over the new vocabulary (w1, w0, w4, w5, new).
	if h0.At(0, 1) != 1 || !tiny(h0.At(0, 0)) || !tiny(h0.At(0, 4)) {
		t.Errorf("kept topic a: %v", h0.RawRowView(0))
	}
	if h0.At(1, 0) != 1 || !tiny(h0.At(1, 1)) { // the mean of b1 (w1: 2) and b2 (w2, dropped)
		t.Errorf("merged topic b: %v", h0.RawRowView(1))
	}
	if !slices.Equal(h0.RawRowView(2), h0.RawRowView(3)) {
		t.Errorf("split topic c: %v and %v", h0.RawRowView(2), h0.RawRowView(3))
	}
	if h0.At(5, 2) != 5 || h0.At(5, 3) != 6 {
		t.Errorf("free topic: %v", h0.RawRowView(5))
	}
	// The created topic: the documents holding "new" (rows 1 and 2).
	if r := h0.RawRowView(4); !(r[4] > r[0] && r[1] > 0 && r[3] > 0) {
		t.Errorf("created topic: %v", r)
	}
	// W: row 0 is the previous row 2, row 2 the previous row 0.
	if w0.At(0, 0) != 11 || w0.At(0, 1) != 12+13 || w0.At(0, 2) != 14.0/2 || w0.At(0, 3) != 14.0/2 || w0.At(0, 5) != 15 {
		t.Errorf("document 0: %v", w0.RawRowView(0))
	}
	if w0.At(2, 0) != 1 || w0.At(2, 1) != 5 {
		t.Errorf("document 2: %v", w0.RawRowView(2))
	}
	// Row 1, a new document, is the previous model's transform of it.
	aligned, _, err := from.Align(x.SelectRows([]int{1}), vocab)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := prev.Transform(ctx, aligned)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := w0.At(1, 1), tr.At(0, 1)+tr.At(0, 2); got != want && !(want == 0 && tiny(got)) {
		t.Errorf("new document: merged weight %v, transform %v", got, tr.RawRowView(0))
	}
	// The nil lineage: every topic to the topic of its name, the others
	// in order to the free topics.
	w.Topics = nil
	src, err = w.topicSources([]string{"c", "a", "topic-3", "topic-4"}, Supervision{})
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]int{{3}, {0}, {1}, {2}}; !slices.EqualFunc(src, want, slices.Equal) {
		t.Errorf("sources by name %v, want %v", src, want)
	}
}
