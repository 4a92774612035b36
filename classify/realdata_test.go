package classify_test

import (
	"context"
	"testing"

	"github.com/semitopic/semitopic/classify"
	"github.com/semitopic/semitopic/datasets"
	"github.com/semitopic/semitopic/internal/datadir"
)

// TestSSNMF20NewsBaselines trains the baselines on the SSNMF paper's 20
// Newsgroups protocol. The paper reports 82.28% for multinomial naive Bayes
// and 80.70% for the SVM; its code gives 82.28% and 82.50% (LinearSVC).
// bench/sklearn/classifycmp compares with scikit-learn on the same split.
func TestSSNMF20NewsBaselines(t *testing.T) {
	if testing.Short() {
		t.Skip("reads all of 20 Newsgroups")
	}
	path := datadir.Require(t, "20news-bydate/20news-bydate.tar.gz")
	ctx := context.Background()
	ds, err := datasets.SSNMF20News(ctx, path, datasets.SSNMF20NewsOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		c    classify.Classifier
	}{
		{"multinomial naive Bayes", &classify.MultinomialNB{}},
		{"linear SVM", &classify.LinearSVC{Seed: 1}},
		{"logistic regression", &classify.LogisticRegression{}},
	} {
		if err := c.c.Fit(ctx, ds.Train.X, ds.Train.Class); err != nil {
			t.Fatal(err)
		}
		pred, err := c.c.Predict(ds.Test.X)
		if err != nil {
			t.Fatal(err)
		}
		right := 0
		for i, p := range pred {
			if p == ds.Test.Class[i] {
				right++
			}
		}
		acc := float64(right) / float64(len(pred))
		t.Logf("%s: test accuracy %.2f%%", c.name, 100*acc)
		// Seed 1 gives 83.4%, 83.2% and 83.6%; other seeds vary by about
		// a point.
		if acc < 0.80 {
			t.Errorf("%s: test accuracy %.2f%%, want at least 80%%", c.name, 100*acc)
		}
	}
}
