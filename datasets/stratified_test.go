package datasets

import (
	"math"
	"reflect"
	"testing"
)

func TestStratifiedSplit(t *testing.T) {
	var labels [][]int
	for i := 0; i < 120; i++ {
		labels = append(labels, []int{i % 6})
		if i%7 == 0 {
			labels[i] = append(labels[i], (i+1)%6) // a few multi-label documents
		}
	}
	labels = append(labels, []int{5, 2}, []int{4}, nil, nil)
	for _, frac := range []float64{0.1, 0.3, 0.5, 0.9} {
		sp, err := StratifiedSplit(labels, 6, frac, 7)
		if err != nil {
			t.Fatal(err)
		}
		if len(sp.Train)+len(sp.Test) != len(labels) || len(sp.Missing) != 0 {
			t.Fatalf("frac %v: %d + %d documents, missing %v", frac, len(sp.Train), len(sp.Test), sp.Missing)
		}
		for _, set := range [][]int{sp.Train, sp.Test} {
			seen := map[int]bool{}
			for _, i := range set {
				for _, j := range labels[i] {
					seen[j] = true
				}
			}
			if len(seen) != 6 {
				t.Errorf("frac %v: a set holds only labels %v", frac, seen)
			}
		}
		if got := float64(len(sp.Train)) / float64(len(labels)); math.Abs(got-frac) > 0.05 {
			t.Errorf("frac %v: training share %.3f", frac, got)
		}
		sp2, _ := StratifiedSplit(labels, 6, frac, 7)
		if !reflect.DeepEqual(sp, sp2) {
			t.Error("split not deterministic")
		}
	}
	// A label with one document cannot be in both sets.
	sp, err := StratifiedSplit([][]int{{0}, {0}, {1}, {0}}, 2, 0.5, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(sp.Missing, []int{1}) {
		t.Errorf("missing %v, want [1]", sp.Missing)
	}
	if _, err := StratifiedSplit(labels, 6, 1, 0); err == nil {
		t.Error("fraction 1 accepted")
	}
	if _, err := StratifiedSplit([][]int{{0}, {7}}, 2, 0.5, 0); err == nil {
		t.Error("label out of range accepted")
	}
	if _, err := StratifiedSplit([][]int{{0, 0}, {1}}, 2, 0.5, 0); err == nil {
		t.Error("a label listed twice accepted")
	}
}
