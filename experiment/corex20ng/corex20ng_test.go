package corex20ng

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/semitopic/semitopic/corex"
	"github.com/semitopic/semitopic/sparse"
)

func TestNotebookOrder(t *testing.T) {
	// numpy: a = arange(11314); RandomState(0).shuffle(a);
	// b = arange(11314); RandomState(42).shuffle(b); a[b].
	o := notebookOrder(11314)
	if !reflect.DeepEqual(o[:8], []int{4389, 2735, 2753, 559, 8395, 9795, 7610, 1852}) || !reflect.DeepEqual(o[11311:], []int{2171, 634, 4886}) {
		t.Errorf("order %v … %v", o[:8], o[11311:])
	}
}

func TestSelectCols(t *testing.T) {
	a, _ := sparse.FromTriplets(2, 4, []sparse.Triplet{{Row: 0, Col: 0, Val: 1}, {Row: 0, Col: 3, Val: 2}, {Row: 1, Col: 2, Val: 3}})
	s := selectCols(a, []int{3, 2})
	if s.Cols != 2 || s.At(0, 0) != 2 || s.At(1, 1) != 3 || s.NNZ() != 2 {
		t.Errorf("selectCols: %v", s.ToDense())
	}
}

func TestSeedOutcomes(t *testing.T) {
	// Two planted groups of words, each anchored by one of its words.
	var tr []sparse.Triplet
	labels := make([]int, 40)
	for d := range labels {
		labels[d] = d % 2
		for w := 0; w < 3; w++ {
			tr = append(tr, sparse.Triplet{Row: d, Col: 3*labels[d] + w, Val: 1})
		}
	}
	x, err := sparse.FromTriplets(40, 6, tr)
	if err != nil {
		t.Fatal(err)
	}
	vocab := []string{"a0", "a1", "a2", "b0", "b1", "b2"}
	anchors, err := permuteAnchors([]anchor{{Words: []string{"a0"}}, {Words: []string{"b1", "zz"}}}, []int{1, 0})
	if err != nil || anchors[0].Topic != 1 || anchors[1].Topic != 0 {
		t.Fatalf("permuted anchors %+v, %v", anchors, err)
	}
	if _, err := permuteAnchors(anchors, []int{0}); err == nil {
		t.Error("a permutation of the wrong length is accepted")
	}
	seeds, missing := anchorTerms(anchors, vocab)
	if !slices.Equal(missing, []string{"zz"}) {
		t.Errorf("missing anchor words %q, want [zz]", missing)
	}
	m, err := corex.Fit(context.Background(), x, corex.Config{K: 2, Seed: 1, Vocab: vocab, Seeds: seeds})
	if err != nil {
		t.Fatal(err)
	}
	outs, err := seedOutcomes(m, anchors, labels)
	if err != nil {
		t.Fatal(err)
	}
	if len(outs) != 2 || outs[0].Topic != 1 || outs[0].InTop != 1 || outs[1].InTop != 1 || outs[1].Anchors != 1 || outs[0].F1 != 1 || outs[0].Share != 0.5 {
		t.Errorf("outcomes %+v", outs)
	}
	if all, some := seedSummary(outs, false); all != 2 || some != 2 {
		t.Errorf("summary %d all, %d some", all, some)
	}
}
