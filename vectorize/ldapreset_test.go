package vectorize

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/internal/datadir"
)

// The lda preset's vocabulary on the 20 Newsgroups training documents is
// scikit-learn 1.2.1's CountVectorizer(min_df=2, max_features=20000,
// stop_words='english') vocabulary exactly: SHA-256 of the sorted terms
// joined by newlines, computed with scikit-learn (the training files read
// as Latin-1, as fetch_20newsgroups does). Without scikit-learn's tie order
// 175 of the 20,000 terms differ.
func TestLDAPresetEqualsScikitLearn(t *testing.T) {
	if testing.Short() {
		t.Skip("real-data test")
	}
	p := datadir.Require(t, "20news-bydate/20news-bydate.tar.gz")
	c, err := corpus.Newsgroups{Subset: "train"}.Read(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := PipelinePreset("lda")
	if err != nil {
		t.Fatal(err)
	}
	_, res, err := pl.FitTransform(context.Background(), c.Docs)
	if err != nil {
		t.Fatal(err)
	}
	vocab := append([]string(nil), res.Vocab...)
	sort.Strings(vocab)
	sum := sha256.Sum256([]byte(strings.Join(vocab, "\n")))
	const sklearn = "d9744eb5c6f30e287a122f8712a7ddc3f8b0a0d34854e6174113d3cc0c2ed99a"
	if got := hex.EncodeToString(sum[:]); got != sklearn || len(vocab) != 20000 {
		t.Errorf("%d terms, SHA-256 %s, want scikit-learn's 20000 terms %s", len(vocab), got, sklearn)
	}
}
