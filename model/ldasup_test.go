package model

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/demo"
	"github.com/semitopic/semitopic/shard"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/vectorize"
)

// demoAnchors seeds one topic per demo theme with its anchor words, and
// excludes the second theme's first anchor word from the first topic.
func demoAnchors(t *testing.T) ([]Anchor, []string) {
	t.Helper()
	d, err := demo.Load()
	if err != nil {
		t.Fatal(err)
	}
	var as []Anchor
	var names []string
	for _, th := range d.Spec.Themes {
		as = append(as, Anchor{Topic: th.Name, Words: th.Anchors})
		names = append(names, th.Name)
	}
	as[0].Exclude = []string{d.Spec.Themes[1].Anchors[0]}
	return as, names
}

// ldaPipeline is the counts pipeline LDA is fitted with in these tests.
func ldaPipeline() vectorize.Pipeline {
	pl := vectorize.DefaultPipeline()
	pl.Vectorize = vectorize.Options{}
	return pl
}

// TestLDASeededPredictsThemes fits seeded, z-labels and both LDA on the
// demo corpus with the themes' anchor words: the seeded topics carry the
// themes' names, the model predicts them for most test documents, the
// seed words rank high in their topics, and the excluded word has zero
// weight in its topic (λ = η exactly).
func TestLDASeededPredictsThemes(t *testing.T) {
	anchors, names := demoAnchors(t)
	for _, mode := range []string{"", SeedZLabels, SeedBoth} {
		o := Options{Kind: KindLDA, K: len(names) + 2, Seed: 1, SeedMode: mode, Supervision: Supervision{Anchors: anchors}}
		f, err := fitCorpus(context.Background(), demoCorpus(t), ldaPipeline(), o)
		if err != nil {
			t.Fatal(err)
		}
		m := f.Model.(*LDA)
		if got := m.Labels(); !slices.Equal(got, names) {
			t.Errorf("mode %q: labels %q, want the seeded topics %q", mode, got, names)
		}
		topics := mustTopics(t, m, 15)
		if topics[len(names)].Name != "topic-"+string(rune('1'+len(names))) {
			t.Errorf("mode %q: first free topic named %q", mode, topics[len(names)].Name)
		}
		for a, tp := range topics[:len(names)] {
			if tp.Name != names[a] || tp.Label != names[a] {
				t.Errorf("mode %q: topic %d is %q (label %q), want %q", mode, a, tp.Name, tp.Label, names[a])
			}
			for _, w := range anchors[a].Words[:1] {
				if !slices.ContainsFunc(tp.Words, func(x Word) bool { return x.Word == w }) {
					t.Errorf("mode %q: seed word %q not among topic %s's top words %v", mode, w, tp.Name, tp.Words)
				}
			}
		}
		ex := anchors[0].Exclude[0]
		j := slices.Index(f.Vocab, ex)
		if j < 0 {
			t.Fatalf("excluded word %q not in the vocabulary", ex)
		}
		eta := m.m.Config().TopicWordPrior
		if v := m.m.Components().At(0, j); v != eta {
			t.Errorf("mode %q: λ of the excluded %q in topic %s = %.17g, want η = %v exactly", mode, ex, names[0], v, eta)
		}
		for _, w := range mustTopics(t, m, len(f.Vocab))[0].Words {
			if w.Word == ex && w.Weight != 0 {
				t.Errorf("mode %q: the excluded %q weighs %v in topic %s", mode, ex, w.Weight, names[0])
			}
		}
		if mode != "" {
			// z-labels: a seed word is zero in every topic but its own.
			w := anchors[1].Words[1]
			jw := slices.Index(f.Vocab, w)
			for tp := 0; tp < m.NumTopics(); tp++ {
				if v := m.m.Components().At(tp, jw); (tp == 1) == (v == eta) {
					t.Errorf("mode %q: λ of seed word %q in topic %d = %v (η = %v)", mode, w, tp, v, eta)
				}
			}
		}
		acc := predictAccuracy(t, f)
		t.Logf("seed mode %q: LDA predicts the planted theme of %.0f%% of the test documents", mode, 100*acc)
		if acc < 0.5 {
			t.Errorf("seed mode %q: LDA predicts the planted theme of %.0f%% of the test documents, want ≥ 50%%", mode, 100*acc)
		}
	}
}

// TestLDALabeled fits labeled LDA on the demo corpus's labeled documents:
// one topic per label, named after it, predicted for most test documents;
// a label that is also an anchor topic is one topic with both.
func TestLDALabeled(t *testing.T) {
	f := fitDemo(t, Options{Kind: KindLDA, Seed: 2}, true)
	m := f.Model.(*LDA)
	labels := m.Labels()
	if len(labels) == 0 || m.NumTopics() != len(labels) || !slices.IsSorted(labels) {
		t.Fatalf("labels %q for %d topics, want one sorted label per topic", labels, m.NumTopics())
	}
	acc := predictAccuracy(t, f)
	t.Logf("labeled LDA predicts the planted theme of %.0f%% of the test documents", 100*acc)
	if acc < 0.5 {
		t.Errorf("labeled LDA predicts the planted theme of %.0f%% of the test documents, want ≥ 50%%", 100*acc)
	}
	anchors, _ := demoAnchors(t)
	o := Options{Kind: KindLDA, Seed: 2, K: len(labels) + 1, SeedMode: SeedZLabels,
		Supervision: Supervision{Anchors: []Anchor{{Topic: labels[1], Words: anchors[0].Words[:1]}, {Topic: "extra", Words: anchors[0].Words[1:2]}}}}
	g := fitDemo(t, o, true)
	gm := g.Model.(*LDA)
	if want := append(slices.Clone(labels), "extra"); !slices.Equal(gm.Labels(), want) || !slices.Equal(gm.TopicNames, want) {
		t.Errorf("labels and anchors: labels %q, topics %q, want %q", gm.Labels(), gm.TopicNames, want)
	}
	j := slices.Index(g.Vocab, anchors[0].Words[0])
	for tp := 0; tp < gm.NumTopics(); tp++ {
		if v := gm.m.Components().At(tp, j); (tp == 1) == (v == gm.m.Config().TopicWordPrior) {
			t.Errorf("a label's seed word has λ = %v in topic %d", v, tp)
		}
	}
}

// TestLDASupervisionErrors checks the refusals of supervised LDA.
func TestLDASupervisionErrors(t *testing.T) {
	anchors, _ := demoAnchors(t)
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{Kind: KindLDA, K: 3, SeedMode: "gibbs", Supervision: Supervision{Anchors: anchors}}, "unknown seed mode"},
		{Options{Kind: KindLDA, K: 3, SeedMode: SeedZLabels}, "no"},
		{Options{Kind: KindLDA, K: 3, Beta: 2}, "seed words"},
		{Options{Kind: KindLDA, K: 1, Supervision: Supervision{Anchors: anchors}}, "smaller than"},
		{Options{Kind: KindLDA, SeedMode: SeedZLabels, Beta: 2, Supervision: Supervision{Anchors: anchors}}, "use both"},
		{Options{Kind: KindLDA, SeedMode: SeedZLabels, Supervision: Supervision{Anchors: []Anchor{{Topic: "a", Words: anchors[0].Words, Beta: []float64{3, 0, 0, 0}}}}}, "strengths"},
		{Options{Kind: KindLDA}, "k ≥ 1"},
		{Options{Kind: KindNMF, K: 3, SeedMode: SeedPrior}, "seed-mode"},
	} {
		_, err := fitCorpus(t.Context(), demoCorpus(t), ldaPipeline(), c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error saying %q", c.o, err, c.want)
		}
	}
}

// TestLDAAnchorsOutOfCore fits z-labels LDA with exclusions out of core
// (model.FitShards) and in memory: the models are the same.
func TestLDAAnchorsOutOfCore(t *testing.T) {
	anchors, names := demoAnchors(t)
	ctx := context.Background()
	f := fitDemo(t, Options{Kind: KindLDA, K: 2, Seed: 1, MaxIter: 1}, false) // the demo's counts and vocabulary
	res, err := f.Vectorize(ctx, demoCorpus(t).Docs)
	if err != nil {
		t.Fatal(err)
	}
	x := res.X
	dir := filepath.Join(t.TempDir(), "demo.shards")
	w, err := shard.Create(dir, x.Cols, shard.Options{RowsPerShard: 70, Vocab: f.Vocab})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < x.Rows; i++ {
		p0, p1 := x.Indptr[i], x.Indptr[i+1]
		if err := w.Add(x.Indices[p0:p1], x.Data[p0:p1], nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	src, err := shard.OpenSource(dir)
	if err != nil {
		t.Fatal(err)
	}
	if src.NumBlocks() < 2 {
		t.Fatalf("%d shards", src.NumBlocks())
	}
	for _, mode := range []string{SeedPrior, SeedZLabels} {
		o := Options{Kind: KindLDA, K: len(names) + 1, Seed: 4, MaxIter: 4, SeedMode: mode, Supervision: Supervision{Anchors: anchors}}
		ooc, err := fitOutOfCore(ctx, src, t.TempDir(), o)
		if err != nil {
			t.Fatal(err)
		}
		mem, _, err := fitMatrix(ctx, x, f.Vocab, o)
		if err != nil {
			t.Fatal(err)
		}
		a, b := ooc.Model.(*LDA), mem.(*LDA)
		if !mat.Equal(a.m.Components(), b.m.Components()) || !slices.Equal(a.Labels(), names) || !slices.Equal(a.TopicNames, b.TopicNames) {
			t.Errorf("mode %s: out of core λ or names differ from in memory (labels %q)", mode, a.Labels())
		}
	}
	if _, err := fitOutOfCore(ctx, src, t.TempDir(), Options{Kind: KindLDA, K: 3, LabelsFromCorpus: true}); err == nil || !strings.Contains(err.Error(), "labels") {
		t.Errorf("labeled LDA out of core: %v, want a refusal", err)
	}
}

// TestLDASupervisedSaveLoad saves seeded z-labels and labeled LDA models
// and loads them back: names, labels, the restriction and predictions are
// kept.
func TestLDASupervisedSaveLoad(t *testing.T) {
	anchors, _ := demoAnchors(t)
	c := demoCorpus(t)
	for _, tc := range []struct {
		o      Options
		labels bool
	}{
		{Options{Kind: KindLDA, Seed: 3, MaxIter: 5, SeedMode: SeedBoth, Supervision: Supervision{Anchors: anchors}}, false},
		{Options{Kind: KindLDA, Seed: 3, MaxIter: 5}, true},
	} {
		f := fitDemo(t, tc.o, tc.labels)
		var buf bytes.Buffer
		if err := Save(&buf, f); err != nil {
			t.Fatal(err)
		}
		g, err := Load(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		a, b := f.Model.(*LDA), g.Model.(*LDA)
		if !slices.Equal(a.TopicNames, b.TopicNames) || !slices.Equal(a.Labels(), b.Labels()) || len(b.Labels()) == 0 ||
			!slices.Equal(a.m.Config().Seeds.Seeds, b.m.Config().Seeds.Seeds) || !slices.Equal(a.m.Config().SeedCounts, b.m.Config().SeedCounts) ||
			!slices.Equal(a.m.Config().Seeds.Exclude, b.m.Config().Seeds.Exclude) || a.m.Config().ZLabels != b.m.Config().ZLabels {
			t.Errorf("loaded names %q, labels %q, config %+v", b.TopicNames, b.Labels(), b.m.Config())
		}
		x, err := g.Vectorize(context.Background(), c.Docs[:40])
		if err != nil {
			t.Fatal(err)
		}
		p1, err1 := a.Predict(context.Background(), x.X)
		p2, err2 := b.Predict(context.Background(), x.X)
		if err1 != nil || err2 != nil || !mat.Equal(p1.Scores, p2.Scores) || !slices.EqualFunc(p1.Labels, p2.Labels, slices.Equal) {
			t.Errorf("predictions differ after load (%v, %v)", err1, err2)
		}
		// A document of one z-labels seed word only: every topic but its
		// own gets θ = α/Σγ after loading too.
		if tc.o.SeedMode == SeedBoth {
			j := slices.Index(g.Vocab, anchors[2].Words[0])
			th, err := b.Transform(context.Background(), oneWordDoc(len(g.Vocab), j))
			if err != nil {
				t.Fatal(err)
			}
			for tp := 0; tp < b.NumTopics(); tp++ {
				if tp != 2 && th.At(0, tp) >= th.At(0, 2)/10 {
					t.Errorf("a document of seed word %q: θ %v in topic %d", anchors[2].Words[0], th.At(0, tp), tp)
				}
			}
		}
	}
}

// oneWordDoc returns a document of term j only, ten times.
func oneWordDoc(terms, j int) *sparse.CSR {
	x, err := sparse.FromTriplets(1, terms, []sparse.Triplet{{Row: 0, Col: j, Val: 10}})
	if err != nil {
		panic(err)
	}
	return x
}
