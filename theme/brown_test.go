package theme

import (
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/datasets"
	"github.com/semitopic/semitopic/internal/datadir"
	"github.com/semitopic/semitopic/metrics"
	"github.com/semitopic/semitopic/nmf"
	"github.com/semitopic/semitopic/text"
	"github.com/semitopic/semitopic/vectorize"
)

// TestBrownGenres runs the thesis protocol on four Brown genres: cleaning,
// the "theme" preset, a stratified split at 50% and a semi-supervised
// Separated KL fit whose test documents must rank their genre well.
func TestBrownGenres(t *testing.T) {
	if testing.Short() {
		t.Skip("real-data test")
	}
	p := datadir.Require(t, "brown/brown.zip")
	c, err := corpus.Brown{}.Read(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	keep := map[string]bool{"news": true, "religion": true, "hobbies": true, "romance": true}
	var docs []corpus.Document
	for _, d := range c.Docs {
		if len(d.Labels) == 1 && keep[d.Labels[0]] {
			docs = append(docs, d)
		}
	}
	pl, err := vectorize.PipelinePreset("theme")
	if err != nil {
		t.Fatal(err)
	}
	pl.Text.Clean = text.ThesisClean
	pl.Vectorize.MinTokens = 27
	v, err := pl.New()
	if err != nil {
		t.Fatal(err)
	}
	res, err := v.FitTransform(ctx, docs)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Docs) != len(docs) || len(res.Vocab) != 10000 {
		t.Fatalf("%d of %d documents, %d terms", len(res.Docs), len(docs), len(res.Vocab))
	}
	names, labels := corpus.LabelIndex(res.Docs)
	sp, err := datasets.StratifiedSplit(labels, len(names), 0.5, 1)
	if err != nil {
		t.Fatal(err)
	}
	sup := make([][]int, len(labels))
	for _, i := range sp.Train {
		sup[i] = labels[i]
	}
	m, err := Fit(ctx, res.X, Config{Themes: names, Labels: sup, Loss: nmf.KullbackLeibler, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	s, err := m.TrainingScores()
	if err != nil {
		t.Fatal(err)
	}
	w := mat.NewDense(len(sp.Test), len(names), nil)
	var tl [][]int
	for r, i := range sp.Test {
		w.SetRow(r, s.Theme.RawRowView(i))
		tl = append(tl, labels[i])
	}
	lr, err := metrics.LogRankAccuracy(w, tl, len(names), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d documents, log rank accuracy on the %d test documents %.3f", len(docs), len(sp.Test), lr.Score)
	if lr.Score < 0.8 {
		t.Errorf("log rank accuracy %.3f on four Brown genres, want ≥ 0.8", lr.Score)
	}
}
