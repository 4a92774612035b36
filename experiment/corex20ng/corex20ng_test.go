package corex20ng

import (
	"context"
	"os"
	"reflect"
	"strconv"
	"testing"

	"github.com/semitopic/semitopic/corex"
	"github.com/semitopic/semitopic/experiment/lab"
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

// TestFigure3SeededLDA runs the z-labels and seeded LDA rows of Figure 3
// alone (SEMITOPIC_LONG=1; 20 Newsgroups in ../shared/data or
// SEMITOPIC_DATA), with the anchors of the anchored CorEx row, and logs
// their scores. SEMITOPIC_SEEDS sets the number of seeds (default 1).
func TestFigure3SeededLDA(t *testing.T) {
	if os.Getenv("SEMITOPIC_LONG") == "" {
		t.Skip("SEMITOPIC_LONG=1 runs it (20 Newsgroups, minutes)")
	}
	data := os.Getenv("SEMITOPIC_DATA")
	if data == "" {
		data = "/work/shared/data"
	}
	env := &lab.Env{Data: data, Log: os.Stderr}
	ctx := context.Background()
	d, err := loadCorex20NG(ctx, env)
	if err != nil {
		t.Skipf("20 Newsgroups: %v", err)
	}
	sug, err := corex.SuggestAnchors(d.bin, labelSets(d.labels), len(d.names), 5, true)
	if err != nil {
		t.Fatal(err)
	}
	seeds := 1
	if s, err := strconv.Atoi(os.Getenv("SEMITOPIC_SEEDS")); err == nil && s > 0 {
		seeds = s
	}
	zl, sp, err := figure3SeededLDA(ctx, env, d, corex.LabelAnchors(sug, d.vocab), seeds)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct {
		name string
		s    []cxScores
	}{{"z-labels LDA", zl}, {"seeded LDA", sp}} {
		t.Logf("%s: homogeneity %s, AMI %s, UMass %s, seconds %s", r.name, lab.PM(field(r.s, hom), 3), lab.PM(field(r.s, amiOf), 3), lab.PM(field(r.s, umass), 1), lab.PM(field(r.s, secs), 1))
	}
}
