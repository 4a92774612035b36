package model

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/demo"
	"github.com/semitopic/semitopic/vectorize"
)

func demoCorpus(t testing.TB) *corpus.Corpus {
	t.Helper()
	d, err := demo.Load()
	if err != nil {
		t.Fatal(err)
	}
	return d.Corpus
}

func fitDemo(t testing.TB, o Options, labels bool) *Fitted {
	t.Helper()
	pl := vectorize.DefaultPipeline()
	if o.Kind == KindLDA {
		pl.Vectorize = vectorize.Options{}
	}
	o.LabelsFromCorpus = labels
	f, err := fitCorpus(context.Background(), demoCorpus(t), pl, o)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestSaveLoadTransformIdentical(t *testing.T) {
	seeds, _ := demoSeeds(t)
	seedsExcl := append(append([]Anchor(nil), seeds...), Anchor{Topic: "topic-5", Exclude: []string{"goal"}})
	cases := []struct {
		o      Options
		labels bool
	}{
		{Options{Kind: KindNMF, K: 8, Seed: 1}, false},
		{Options{Kind: KindNMF, K: 8, Seed: 1, Loss: "kl"}, false},
		{Options{Kind: KindTSNMF, Seed: 2}, true},
		{Options{Kind: KindNMF, K: 8, Seed: 1, Supervision: Supervision{Anchors: seeds}}, false},
		{Options{Kind: KindTSNMF, K: 9, Seed: 2, Supervision: Supervision{Anchors: append(seeds, Anchor{Topic: "extra", Words: []string{"goal"}})}}, true},
		{Options{Kind: KindSSNMF, Seed: 4, K: 8, MaxIter: 30, Supervision: Supervision{Anchors: seedsExcl}}, true},
		{Options{Kind: KindLDA, K: 8, Seed: 3, MaxIter: 5}, false},
		{Options{Kind: KindLDA, Seed: 3, MaxIter: 5}, true},
		{Options{Kind: KindLDA, K: 6, Seed: 3, MaxIter: 5, SeedMode: SeedZLabels, Supervision: Supervision{Anchors: []Anchor{
			{Topic: "space", Words: []string{"rocket", "orbit"}, Exclude: []string{"recipe"}}}}}, false},
		{Options{Kind: KindSSNMF, Seed: 4}, true},
		{Options{Kind: KindSSNMF, Seed: 4, Loss: "F,F", K: 10}, true},
		{Options{Kind: KindTheme, Seed: 5}, true},
		{Options{Kind: KindTheme, Seed: 5, NoThemeBackground: true, Init: "random"}, true},
		{Options{Kind: KindTheme, Seed: 5, Mode: "combined", Loss: "frobenius", Subtopics: 2, NewTopics: 2}, true},
		{Options{Kind: KindCorEx, Seed: 6, K: 8}, false},
		{Options{Kind: KindCorEx, Seed: 6}, true},
	}
	c := demoCorpus(t)
	for _, tc := range cases {
		f := fitDemo(t, tc.o, tc.labels)
		var buf bytes.Buffer
		if err := Save(&buf, f); err != nil {
			t.Fatalf("%s: %v", tc.o.Kind, err)
		}
		g, err := Load(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("%s: %v", tc.o.Kind, err)
		}
		if g.Model.Kind() != tc.o.Kind || !reflect.DeepEqual(g.Vocab, f.Vocab) || !reflect.DeepEqual(g.Info.Params, f.Info.Params) {
			t.Errorf("%s: loaded kind %s, params %+v", tc.o.Kind, g.Model.Kind(), g.Info.Params)
		}
		ctx := context.Background()
		docs := c.Docs[:40]
		x1, err := f.Vectorize(ctx, docs)
		if err != nil {
			t.Fatal(err)
		}
		x2, err := g.Vectorize(ctx, docs)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(x1.X, x2.X) {
			t.Fatalf("%s: loaded vectorizer differs", tc.o.Kind)
		}
		w1, err := f.Model.Transform(ctx, x1.X)
		if err != nil {
			t.Fatal(err)
		}
		w2, err := g.Model.Transform(ctx, x2.X)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(w1, w2) {
			t.Errorf("%s: transform after load differs", tc.o.Kind)
		}
		if !reflect.DeepEqual(mustTopics(t, f.Model, 5), mustTopics(t, g.Model, 5)) {
			t.Errorf("%s: topics after load differ", tc.o.Kind)
		}
		if p, ok := AsPredictor(f.Model); ok {
			q, ok := AsPredictor(g.Model)
			if !ok || !reflect.DeepEqual(p.Labels(), q.Labels()) {
				t.Errorf("%s: labels after load differ", tc.o.Kind)
			}
		}
	}
}

func TestTSNMFPredictsDemoThemes(t *testing.T) {
	f := fitDemo(t, Options{Kind: KindTSNMF, Seed: 1}, true)
	p, ok := f.Model.(Predictor)
	if !ok {
		t.Fatal("TS-NMF is not a Predictor")
	}
	d, _ := demo.Load()
	var test []corpus.Document
	var truth [][]string
	for i, doc := range d.Corpus.Docs {
		if doc.Split == corpus.SplitTest {
			test = append(test, doc)
			truth = append(truth, d.Truth[i])
		}
	}
	x, err := f.Vectorize(context.Background(), test)
	if err != nil {
		t.Fatal(err)
	}
	pred, err := p.Predict(context.Background(), x.X)
	if err != nil {
		t.Fatal(err)
	}
	hits := 0
	for i, l := range pred.Labels {
		for _, tr := range truth[i] {
			if len(l) == 1 && l[0] == tr {
				hits++
			}
		}
	}
	if acc := float64(hits) / float64(len(test)); acc < 0.9 {
		t.Errorf("predicted a planted theme for %.0f%% of test documents, want ≥ 90%%", 100*acc)
	}
	tops := mustTopics(t, f.Model, 3)
	if tops[0].Label == "" || len(tops[0].Words) != 3 {
		t.Errorf("topics %+v", tops[0])
	}
}

func TestLoadRejectsBadFiles(t *testing.T) {
	f := fitDemo(t, Options{Kind: KindNMF, K: 4, Seed: 1, MaxIter: 5}, false)
	var buf bytes.Buffer
	if err := Save(&buf, f); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	newer := append([]byte("semitopic-model v99\n"), good[len("semitopic-model v1\n"):]...)
	flipped := bytes.Clone(good)
	flipped[len(flipped)/2] ^= 0x40
	cases := map[string]struct {
		b       []byte
		want    string
		corrupt bool
	}{
		"newer":     {newer, "newer than this semitopic", false},
		"truncated": {good[:len(good)-100], "checksum", true},
		"tiny":      {good[:25], "truncated", true},
		"flipped":   {flipped, "checksum", true},
		"not model": {[]byte("hello\nworld"), "not a semitopic model", false},
		"empty":     {nil, "not a semitopic model", false},
	}
	for name, c := range cases {
		_, err := Load(bytes.NewReader(c.b))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", name, err, c.want)
		}
		if c.corrupt && !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: error does not wrap ErrCorrupt", name)
		}
	}
}

func TestFitErrors(t *testing.T) {
	c := demoCorpus(t)
	pl := vectorize.DefaultPipeline()
	cases := map[string]struct {
		o      Options
		labels bool
	}{
		"unknown kind":     {Options{Kind: "bert"}, false},
		"nmf without k":    {Options{Kind: KindNMF}, false},
		"nmf with labels":  {Options{Kind: KindNMF, K: 3}, true},
		"tsnmf no labels":  {Options{Kind: KindTSNMF}, false},
		"tsnmf small k":    {Options{Kind: KindTSNMF, K: 2}, true},
		"bad loss":         {Options{Kind: KindNMF, K: 3, Loss: "hinge"}, false},
		"unused option":    {Options{Kind: KindNMF, K: 3, Lambda: 10}, false},
		"lda bad method":   {Options{Kind: KindLDA, K: 3, Method: "gibbs"}, false},
		"tsnmf bad weight": {Options{Kind: KindTSNMF, Weighting: "double"}, true},
		"theme with k":     {Options{Kind: KindTheme, K: 4}, true},
		"theme no labels":  {Options{Kind: KindTheme}, false},
		"theme bad mode":   {Options{Kind: KindTheme, Mode: "mixed"}, true},
		"corex without k":  {Options{Kind: KindCorEx}, false},
		"corex huge k":     {Options{Kind: KindCorEx, K: 1 << 20}, false},
		"corex beta < 0":   {Options{Kind: KindCorEx, K: 3, Beta: -1}, false},
		"corex loss":       {Options{Kind: KindCorEx, K: 3, Loss: "kl"}, false},
	}
	for name, tc := range cases {
		o := tc.o
		o.LabelsFromCorpus = tc.labels
		if _, err := fitCorpus(context.Background(), c, pl, o); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestAlign(t *testing.T) {
	f := &Fitted{Vocab: []string{"a", "b", "c"}}
	x, err := corpusMatrix([]string{"c", "z", "a"}, [][]float64{{1, 2, 3}, {0, 5, 0}})
	if err != nil {
		t.Fatal(err)
	}
	y, unknown, err := f.Align(x, []string{"c", "z", "a"})
	if err != nil {
		t.Fatal(err)
	}
	if unknown != 1 || y.Cols != 3 || y.At(0, 0) != 3 || y.At(0, 2) != 1 || y.At(1, 1) != 0 || y.NNZ() != 2 {
		t.Errorf("aligned %v, unknown %d", y.ToDense(), unknown)
	}
}

// TestAsPredictor checks that only models fitted with labels are
// predictors, whatever their Go type.
func TestAsPredictor(t *testing.T) {
	for _, c := range []struct {
		o      Options
		labels bool
		want   bool
	}{
		{Options{Kind: KindNMF, K: 4, Seed: 1, MaxIter: 5}, false, false},
		{Options{Kind: KindTSNMF, Seed: 1, MaxIter: 5}, true, true},
		{Options{Kind: KindCorEx, K: 4, Seed: 1, MaxIter: 5}, false, false},
		{Options{Kind: KindCorEx, Seed: 1, MaxIter: 5}, true, true},
		{Options{Kind: KindLDA, K: 4, Seed: 1, MaxIter: 2}, false, false},
		{Options{Kind: KindLDA, Seed: 1, MaxIter: 2}, true, true},
		{Options{Kind: KindLDA, K: 4, Seed: 1, MaxIter: 2, Supervision: Supervision{Anchors: []Anchor{{Topic: "a", Exclude: []string{"rocket"}}}}}, false, false},
		{Options{Kind: KindLDA, K: 4, Seed: 1, MaxIter: 2, Supervision: Supervision{Anchors: []Anchor{{Topic: "a", Words: []string{"rocket"}}}}}, false, true},
	} {
		f := fitDemo(t, c.o, c.labels)
		p, ok := AsPredictor(f.Model)
		if ok != c.want || (ok && len(p.Labels()) == 0) {
			t.Errorf("%s (labels %v): AsPredictor %v, want %v", c.o.Kind, c.labels, ok, c.want)
		}
	}
}

func TestPredictionAccuracy(t *testing.T) {
	p := &Prediction{Labels: [][]string{{"a"}, {"a", "b"}, {"b"}, nil, {"a"}, {"c"}}}
	truth := [][]string{{"a"}, {"a"}, {"a", "b"}, {"a"}, nil, {"a"}}
	right, labeled, empty, err := p.Accuracy(truth)
	if err != nil {
		t.Fatal(err)
	}
	// Right: 0 ({a} ⊆ {a}) and 2 ({b} ⊆ {a, b}); wrong: 1 (b is not a
	// label of it), 3 (no prediction), 5; 4 is unlabeled.
	if right != 2 || labeled != 5 || empty != 1 {
		t.Errorf("right %d, labeled %d, empty %d; want 2, 5, 1", right, labeled, empty)
	}
	if _, _, _, err := p.Accuracy(truth[:3]); err == nil {
		t.Error("3 label lists for 6 predictions accepted")
	}
}

// A TS-NMF model's free topics are allowed in the unlabeled documents
// only: with every document labeled they stay empty, Topics marks them
// Empty (and no other), and the fit's note says why.
func TestEmptyTopics(t *testing.T) {
	vocab := []string{"apple", "pear", "goal", "team", "bank", "loan"}
	var rows [][]float64
	var labels [][]string
	for i := 0; i < 12; i++ {
		r := make([]float64, 6)
		r[2*(i%3)], r[2*(i%3)+1] = 2, 1+float64(i%2)
		rows = append(rows, r)
		labels = append(labels, []string{[]string{"fruit", "sport", "money"}[i%3]})
	}
	x, _ := corpusMatrix(vocab, rows)
	m, info, err := fitMatrix(t.Context(), x, vocab, Options{Kind: KindTSNMF, K: 5, Supervision: Supervision{Labels: labels}})
	if err != nil {
		t.Fatal(err)
	}
	topics := mustTopics(t, m, 3)
	for i, tp := range topics {
		if want := i >= 3; tp.Empty != want {
			t.Errorf("topic %d %q: empty %v (weight %g, %d words), want %v", i, tp.Name, tp.Empty, tp.Weight, len(tp.Words), want)
		}
	}
	if n := len(EmptyTopics(topics)); n != 2 {
		t.Errorf("%d empty topics, want 2", n)
	}
	if !strings.Contains(strings.Join(info.Notes, "|"), "every document is labeled, so they stay empty") {
		t.Errorf("notes %q do not say why the free topics are empty", info.Notes)
	}
	// With unlabeled documents, a topic is marked empty only when its
	// share is nil.
	labels[0], labels[1] = nil, nil
	m, _, err = fitMatrix(t.Context(), x, vocab, Options{Kind: KindTSNMF, K: 4, Supervision: Supervision{Labels: labels}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tp := range mustTopics(t, m, 3) {
		if tp.Empty && tp.Weight > EmptyShare {
			t.Errorf("topic %q of weight %g marked empty", tp.Name, tp.Weight)
		}
	}
}
