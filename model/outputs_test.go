package model

import (
	"context"
	"testing"
)

// Each kind's scores lie in the range its ScoreKind states, and the
// readouts' are named for what they are.
func TestScoreKindOf(t *testing.T) {
	c := demoCorpus(t)
	cases := []struct {
		o      Options
		name   string
		lo, hi float64
	}{
		{Options{Kind: KindTSNMF}, "weight", 0, 1e300},
		{Options{Kind: KindSSNMF}, "class-score", 0, 1e300},
		{Options{Kind: KindTheme}, "theme-score", 0, 1},
		{Options{Kind: KindCorEx}, "log-prob", -1e300, 0},
		{Options{Kind: KindLDA}, "proportion", 0, 1},
		{Options{Kind: KindTSNMF, Readout: ReadoutTopics}, "logit", -1e300, 1e300},
		{Options{Kind: KindTSNMF, Readout: ReadoutTermsTopics}, "margin", -1e300, 1e300},
	}
	for _, tc := range cases {
		tc.o.Seed = 1
		f := fitDemo(t, tc.o, true)
		sk := ScoreKindOf(f.Model)
		if sk.Name != tc.name || sk.Doc == "" {
			t.Errorf("%s %s: %+v, want %s", tc.o.Kind, tc.o.Readout, sk, tc.name)
			continue
		}
		res, _ := f.Vectorize(context.Background(), c.Docs[:40])
		p, err := f.Model.(Predictor).Predict(context.Background(), res.X)
		if err != nil {
			t.Fatal(err)
		}
		neg := false
		for _, v := range p.Scores.RawMatrix().Data {
			if v < tc.lo || v > tc.hi {
				t.Errorf("%s %s: score %g outside [%g, %g]", tc.o.Kind, tc.o.Readout, v, tc.lo, tc.hi)
				break
			}
			neg = neg || v < 0
		}
		if sk.Name == "margin" && !neg {
			t.Errorf("no negative margin: the terms+topics readout's scores are not margins")
		}
	}
}
