package corex20ng

import (
	"reflect"
	"testing"

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
