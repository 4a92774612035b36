package model

import (
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/vectorize"
)

func TestSeedCount(t *testing.T) {
	vocab := []string{"rocket", "orbit", "guitar", "melody", "the"}
	x := sparse.FromDense(mat.NewDense(6, 5, []float64{
		1, 1, 1, 0, 0, // two space seeds, one music seed: space
		0, 0, 1, 1, 1, // music
		1, 0, 2, 0, 0, // one each: the heavier (guitar) wins
		0, 0, 0, 0, 1, // no seed: the commonest
		1, 0, 1, 0, 0, // one each, equal weight: prior, else the first
		0, 0, 0, 1, 0, // music
	}))
	anchors := []Anchor{
		{Topic: "space", Words: []string{"rocket", "orbit", "lunar"}},
		{Topic: "nothing", Words: []string{"absent"}},
		{Topic: "music", Words: []string{"guitar", "melody"}},
		{Topic: "excluded only", Exclude: []string{"the"}},
	}
	names, pred, err := SeedCount(x, vocab, anchors, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(names, []string{"space", "music"}) {
		t.Fatalf("names %q, want the seeded topics with a word in the vocabulary", names)
	}
	// Without a prior, music (3 documents with seeds) is the commonest.
	if want := []int{0, 1, 1, 1, 0, 1}; !slices.Equal(pred, want) {
		t.Errorf("pred %v, want %v", pred, want)
	}
	_, pred, err = SeedCount(x, vocab, anchors, []float64{5, 1})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 1, 1, 0, 0, 1}; !slices.Equal(pred, want) {
		t.Errorf("with a prior favouring space: pred %v, want %v", pred, want)
	}
	// A strength counts: orbit at 3 outweighs guitar and melody.
	anchors[0].Beta = []float64{0, 3, 0}
	if _, pred, _ = SeedCount(x, vocab, anchors[:3], nil); pred[0] != 0 || pred[2] != 1 {
		t.Errorf("with strengths: pred %v", pred)
	}
	for _, c := range []struct {
		anchors []Anchor
		prior   []float64
		want    string
	}{
		{[]Anchor{{Topic: "a", Words: []string{"absent"}}}, nil, "none is in the vocabulary"},
		{anchors, []float64{1}, "1 prior weights for 2"},
	} {
		if _, _, err := SeedCount(x, vocab, c.anchors, c.prior); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error saying %q", c.anchors, err, c.want)
		}
	}
}

// Seed words label the documents they single out, and TS-NMF and SSNMF
// given seed words alone learn from those labels.
func TestSeedLabels(t *testing.T) {
	vocab := []string{"rocket", "orbit", "guitar", "melody", "the"}
	x := sparse.FromDense(mat.NewDense(5, 5, []float64{
		1, 1, 0, 0, 1, // space only
		1, 0, 1, 0, 0, // one each: no majority, unlabeled
		0, 0, 0, 2, 1, // music only
		0, 0, 0, 0, 1, // none
		1, 1, 1, 0, 0, // two space seeds, one music: space
	}))
	anchors := []Anchor{{Topic: "space", Words: []string{"rocket", "orbit"}}, {Topic: "music", Words: []string{"guitar", "melody"}}}
	labels, n, err := SeedLabels(x, vocab, anchors)
	if err != nil {
		t.Fatal(err)
	}
	if n != 3 || !slices.Equal(labels[0], []string{"space"}) || labels[1] != nil || !slices.Equal(labels[2], []string{"music"}) || labels[3] != nil ||
		!slices.Equal(labels[4], []string{"space"}) {
		t.Errorf("labels %q (%d), want space, none, music, none, space", labels, n)
	}
	// A strength counts: guitar at 3 outweighs rocket and orbit.
	anchors[1].Beta = []float64{3, 0}
	if labels, _, _ = SeedLabels(x, vocab, anchors); !slices.Equal(labels[4], []string{"music"}) {
		t.Errorf("with guitar's strength 3: %q, want music", labels[4])
	}

	// On the demo corpus, the planted themes' first words as seeds.
	seeds := []Anchor{
		{Topic: "space", Words: []string{"rocket", "orbit"}}, {Topic: "music", Words: []string{"guitar", "melody"}},
		{Topic: "cooking", Words: []string{"recipe", "oven"}}, {Topic: "finance", Words: []string{"bank", "investor"}},
	}
	for _, kind := range []string{KindTSNMF, KindSSNMF} {
		f := fitDemo(t, Options{Kind: kind, Seed: 1, Supervision: Supervision{Anchors: seeds}}, false)
		if !strings.Contains(strings.Join(f.Info.Notes, "|"), "the seed words label the") {
			t.Errorf("%s: no note on the documents the seed words label: %q", kind, f.Info.Notes)
		}
		p, ok := f.Model.(Predictor)
		if !ok {
			t.Fatalf("%s: does not predict", kind)
		}
		for _, name := range []string{"space", "music", "cooking", "finance"} {
			if !slices.Contains(p.Labels(), name) {
				t.Errorf("%s: predicts %q, without the seed topic %q", kind, p.Labels(), name)
			}
		}
	}
	_, err = fitCorpus(t.Context(), demoCorpus(t), vectorize.DefaultPipeline(), Options{Kind: KindTSNMF, Supervision: Supervision{Anchors: []Anchor{{Topic: "x", Words: []string{"nosuchword"}}}}})
	if err == nil || !strings.Contains(err.Error(), "none is in the vocabulary") {
		t.Errorf("seed words none of which is in the vocabulary: %v", err)
	}
}

// With seed words alone, a readout learns from the documents the seed
// words label.
func TestSeedWordsReadout(t *testing.T) {
	seeds := []Anchor{
		{Topic: "space", Words: []string{"rocket", "orbit"}}, {Topic: "music", Words: []string{"guitar", "melody"}},
		{Topic: "cooking", Words: []string{"recipe", "oven"}}, {Topic: "finance", Words: []string{"bank", "investor"}},
	}
	for _, kind := range []string{KindCorEx, KindNMF, KindTSNMF} {
		o := Options{Kind: kind, K: 8, Seed: 1, Readout: ReadoutTermsTopics, Supervision: Supervision{Anchors: seeds}}
		f := fitDemo(t, o, false)
		if got := ReadoutOf(f.Model); got != ReadoutTermsTopics {
			t.Errorf("%s: readout %s", kind, got)
		}
		if !strings.Contains(strings.Join(f.Info.Notes, "|"), "the documents the seed words label") {
			t.Errorf("%s: notes %q", kind, f.Info.Notes)
		}
	}
	o := Options{Kind: KindNMF, K: 3, Readout: ReadoutTopics}
	if _, err := fitCorpus(t.Context(), demoCorpus(t), vectorize.DefaultPipeline(), o); err == nil || !strings.Contains(err.Error(), "labeled documents or seed words") {
		t.Errorf("a readout without labels or seed words: %v", err)
	}
}

// A readout learning from seed-labeled documents names the seed topic
// that labels none.
func TestSeedReadoutTopicWithoutDocuments(t *testing.T) {
	vocab := []string{"rocket", "orbit", "guitar", "x", "y"}
	x := sparse.FromDense(mat.NewDense(6, 5, []float64{
		1, 1, 0, 1, 0, // space
		1, 1, 1, 0, 1, // space outnumbers music
		1, 1, 0, 0, 1,
		0, 1, 0, 1, 1,
		1, 0, 0, 1, 1,
		1, 1, 1, 1, 0, // space again: music never has the majority
	}))
	o := Options{Kind: KindNMF, K: 2, Seed: 1, Readout: ReadoutTopics, Supervision: Supervision{Anchors: []Anchor{
		{Topic: "space", Words: []string{"rocket", "orbit"}}, {Topic: "music", Words: []string{"guitar"}},
	}}}
	_, _, err := fitMatrix(t.Context(), x, vocab, o)
	if err == nil || !strings.Contains(err.Error(), `seed words of "music" single out no document`) {
		t.Errorf("err %v, want one naming music", err)
	}
}

// A seeded topic none of whose seed words is known steers nothing, so an
// NMF model does not predict its name.
func TestUnknownSeedsPredictNothing(t *testing.T) {
	vocab := []string{"rocket", "orbit", "guitar", "x", "y"}
	x := sparse.FromDense(mat.NewDense(4, 5, []float64{
		1, 1, 0, 1, 0,
		0, 0, 1, 1, 1,
		1, 0, 0, 0, 1,
		0, 1, 1, 1, 0,
	}))
	o := Options{Kind: KindNMF, K: 2, Seed: 1, Supervision: Supervision{Anchors: []Anchor{{Topic: "lost", Words: []string{"zz"}}}}}
	m, _, err := fitMatrix(t.Context(), x, vocab, o)
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := AsPredictor(m); ok {
		t.Errorf("an NMF model with no known seed word predicts %q", p.Labels())
	}
	o.Supervision.Anchors = append(o.Supervision.Anchors, Anchor{Topic: "space", Words: []string{"rocket"}})
	if m, _, err = fitMatrix(t.Context(), x, vocab, o); err != nil {
		t.Fatal(err)
	}
	if p, ok := AsPredictor(m); !ok || !slices.Equal(p.Labels(), []string{"space"}) {
		t.Errorf("labels %v, want the one seeded topic, space", m)
	}
}

// A CorEx topic none of whose seed words is known is not predicted, and a
// model with no known seed word predicts nothing.
func TestCorExUnknownSeedsPredictNothing(t *testing.T) {
	o := Options{Kind: KindCorEx, K: 3, Seed: 1, MaxIter: 20, Supervision: Supervision{Anchors: []Anchor{
		{Topic: "lost", Words: []string{"nosuchword"}}, {Topic: "space", Words: []string{"rocket"}},
	}}}
	p, ok := AsPredictor(fitDemo(t, o, false).Model)
	if !ok || !slices.Equal(p.Labels(), []string{"space"}) {
		t.Errorf("predicts %v, want space only", p)
	}
	o.Supervision.Anchors = o.Supervision.Anchors[:1]
	if p, ok := AsPredictor(fitDemo(t, o, false).Model); ok {
		t.Errorf("a model with no known seed word predicts %q", p.Labels())
	}
}
