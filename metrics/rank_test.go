package metrics

import (
	"math"
	"slices"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/rng"
)

func TestArgmax(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		row  []float64
		want int
	}{
		{nil, -1},
		{[]float64{0, 0, 0}, 0},
		{[]float64{1, 3, 3}, 1},
		{[]float64{nan, 2, 5, 5}, 2},
		{[]float64{nan, nan}, 0},
		{[]float64{-3, -1, -2}, 1},
	} {
		if got := Argmax(c.row); got != c.want {
			t.Errorf("Argmax(%v) = %d, want %d", c.row, got, c.want)
		}
	}
	if got := Argmax([]int{2, 7, 7, 1}); got != 1 {
		t.Errorf("Argmax of ints = %d, want 1", got)
	}
	s := mat.NewDense(3, 2, []float64{0.1, 0.9, 0.5, 0.5, 2, -1})
	if got := ArgmaxRows(s); !slices.Equal(got, []int{1, 0, 0}) {
		t.Errorf("ArgmaxRows = %v, want [1 0 0]", got)
	}
	if ArgmaxRows(&mat.Dense{}) != nil {
		t.Error("ArgmaxRows of an empty matrix is not nil")
	}
}

func TestTopIndices(t *testing.T) {
	row := []float64{0.5, 0, 2, math.NaN(), 0.5, -1, 3}
	for n, want := range map[int][]int{
		1:  {6},
		3:  {6, 2, 0},
		4:  {6, 2, 0, 4},
		10: {6, 2, 0, 4},
		0:  {6, 2, 0, 4},
	} {
		if got := TopIndices(row, n); !slices.Equal(got, want) {
			t.Errorf("TopIndices(n=%d) = %v, want %v", n, got, want)
		}
	}
	if got := TopIndices([]float64{0, 0}, 3); len(got) != 0 {
		t.Errorf("an all-zero row gives %v", got)
	}
}

// TestTopIndicesSelect checks the partial selection of TopIndices for a
// few top positions of a long row against the sort of every positive
// value: rows with many ties, zeros, negatives and NaNs.
func TestTopIndicesSelect(t *testing.T) {
	r := rng.NewCompat(7, 0)
	for trial := 0; trial < 50; trial++ {
		m := 200 + r.IntN(800)
		row := make([]float64, m)
		for j := range row {
			switch r.IntN(6) {
			case 0:
				row[j] = 0
			case 1:
				row[j] = -r.Float64()
			case 2:
				row[j] = math.NaN()
			case 3:
				row[j] = float64(r.IntN(4)) // ties
			default:
				row[j] = r.Float64()
			}
		}
		var all []int
		for j, v := range row {
			if v > 0 {
				all = append(all, j)
			}
		}
		sort.SliceStable(all, func(a, b int) bool { return row[all[a]] > row[all[b]] })
		for _, n := range []int{1, 2, 10, 24} {
			want := all[:min(n, len(all))]
			if got := TopIndices(row, n); !slices.Equal(got, want) {
				t.Fatalf("trial %d, n %d: TopIndices = %v, want %v", trial, n, got, want)
			}
		}
	}
}

func TestChooseThreshold(t *testing.T) {
	s := mat.NewDense(3, 2, []float64{
		0.9, 0.2,
		0.6, 0.7,
		0.1, 0.4,
	})
	truth := [][]int{{0}, {0, 1}, {}}
	th, f1, err := ChooseThreshold(s, truth)
	if err != nil {
		t.Fatal(err)
	}
	// Cut after 0.6: predicted {0.9, 0.7, 0.6}, all true: F1 = 1.
	if f1 != 1 || !(th > 0.4 && th < 0.6) {
		t.Errorf("threshold %g, F1 %g; want in (0.4, 0.6) and 1", th, f1)
	}
	got := Threshold(s, th, false)
	if len(got[2]) != 0 || len(got[1]) != 2 {
		t.Errorf("Threshold gives %v", got)
	}
	if got := Threshold(s, 0.95, true); got[0][0] != 0 || got[1][0] != 1 || got[2][0] != 1 {
		t.Errorf("Threshold atLeastOne gives %v, want the arg maxes", got)
	}
	if _, _, err := ChooseThreshold(s, [][]int{{0}, {5}, {}}); err == nil {
		t.Error("a label out of range should be an error")
	}
	if _, _, err := ChooseThreshold(s, [][]int{{}, {}, {}}); err == nil {
		t.Error("no true labels should be an error")
	}
}
