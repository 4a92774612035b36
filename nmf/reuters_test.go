package nmf

import (
	"context"
	"testing"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/internal/datadir"
	"github.com/semitopic/semitopic/vectorize"
)

// TestTSNMFReuters is a smoke test on the paper's corpus: NLTK Reuters
// (ApteMod) vectorized with the tsnmf preset, one document in five labeled,
// K = 90 topics (one per category), 30 iterations as in the reference
// code. The supervised topics must explain the unlabeled documents well
// above what the most frequent category alone would.
func TestTSNMFReuters(t *testing.T) {
	if testing.Short() {
		t.Skip("real-data test")
	}
	path := datadir.Require(t, "reuters21578-nltk-apte/reuters.tar.gz")
	ctx := context.Background()
	rd, err := corpus.NewReader("reuters-nltk")
	if err != nil {
		t.Fatal(err)
	}
	c, err := rd.Read(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := vectorize.PipelinePreset("tsnmf")
	if err != nil {
		t.Fatal(err)
	}
	v, err := pl.New()
	if err != nil {
		t.Fatal(err)
	}
	vr, err := v.FitTransform(ctx, c.Docs)
	if err != nil {
		t.Fatal(err)
	}
	names, idx := corpus.LabelIndex(vr.Docs)
	labels := make([][]int, len(idx))
	for i := range idx {
		if i%5 == 0 {
			labels[i] = idx[i]
		}
	}
	res, err := TSNMF(ctx, vr.X, TSNMFConfig{
		Config:     Config{K: len(names), Labels: labels, MaxIter: 30},
		LabelNames: names, Vocab: vr.Vocab,
	})
	if err != nil {
		t.Fatal(err)
	}
	checkMonotone(t, "reuters", res.Objective)
	hits, total, freq := 0, 0, map[int]int{}
	for i := range idx {
		for _, l := range idx[i] {
			freq[l]++
		}
	}
	top := 0
	for l, f := range freq {
		if f > freq[top] {
			top = l
		}
	}
	baseline := 0
	for i := range idx {
		if labels[i] != nil || len(idx[i]) == 0 {
			continue
		}
		total++
		row := res.W.RawRowView(i)
		best := 0
		for tp, v := range row {
			if v > row[best] {
				best = tp
			}
		}
		for _, l := range idx[i] {
			if l == best {
				hits++
			}
			if l == top {
				baseline++
			}
		}
	}
	acc, base := float64(hits)/float64(total), float64(baseline)/float64(total)
	t.Logf("%d×%d, %d labeled; unlabeled documents whose strongest topic is one of their categories: %.3f (most frequent category %q: %.3f); %d iterations in %v",
		vr.X.Rows, vr.X.Cols, res.Labeled, acc, names[top], base, res.Iterations, res.Elapsed)
	t.Logf("top terms of %s: %v", res.TopicNames[top], res.TopTerms[top])
	if acc < base+0.05 {
		t.Errorf("strongest-topic accuracy %.3f is not clearly above the majority baseline %.3f", acc, base)
	}
}
