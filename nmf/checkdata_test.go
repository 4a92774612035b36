package nmf

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/sparse"
)

func TestCheckDataSparseAndDenseAlike(t *testing.T) {
	for name, tc := range map[string]struct {
		v    float64
		want string
	}{
		"NaN":      {math.NaN(), "NaN"},
		"Inf":      {math.Inf(1), "+Inf"},
		"negative": {-2, "negative entry -2"},
	} {
		dense := mat.NewDense(2, 3, []float64{1, 0, 0, 0, 1, tc.v})
		sp := sparse.FromDense(dense)
		for form, x := range map[string]Matrix{"dense": dense, "sparse": sp} {
			_, err := CheckData(x)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "row 1, column 2") {
				t.Errorf("%s %s: error %v, want %q", name, form, err, tc.want)
			}
		}
	}
	d, err := CheckData(sparse.FromDense(mat.NewDense(2, 2, nil)))
	if err != nil || d.Sum != 0 || d.Rows != 2 || d.Sparse == nil {
		t.Errorf("all-zero X: %+v, %v", d, err)
	}
	if _, err := checkData(d.Sparse); err == nil {
		t.Error("the factorization accepted an all-zero X")
	}
}
