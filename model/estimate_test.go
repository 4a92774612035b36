package model

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestSelectionBias(t *testing.T) {
	c := func(folds ...float64) Candidate { return Candidate{Estimate: newEstimate(folds)} }
	cands := []Candidate{c(80, 70, 90), c(90, 60, 80), c(70, 75, 85)}
	// The first has the best mean (80); the folds' best are 90, 75, 90:
	// the bias is ((90−80) + (75−70) + (90−90)) / 3 = 5, below its lead
	// over the mean, 80 − 233.3/3 = 2.2: 2.2.
	if got := selectionBias(cands, 0); math.Abs(got-(80-700.0/9)) > 1e-9 {
		t.Errorf("selectionBias = %v, want the lead %v", got, 80-700.0/9)
	}
	cands = []Candidate{c(80, 70, 90), c(50, 60, 40), c(60, 75, 45)}
	// Means 80, 50, 60: lead 16.7; the folds' best 80, 75, 90: bias 5/3.
	if got := selectionBias(cands, 0); math.Abs(got-5.0/3) > 1e-9 {
		t.Errorf("selectionBias = %v, want 5/3", got)
	}
	if got := selectionBias(cands[:1], 0); got != 0 {
		t.Errorf("one candidate: bias %v, want 0", got)
	}
}

func TestWilsonInterval(t *testing.T) {
	// Values of statsmodels' proportion_confint(method="wilson").
	for _, c := range []struct {
		mean     float64
		n        int
		lo, hi   float64
		accuracy float64
	}{
		{50, 100, 40.383, 59.617, 50},
		{90, 20, 69.897, 97.215, 90},
		{100, 10, 72.246, 100, 100},
	} {
		iv := newIntervalN(c.mean, float64(c.n), 0)
		if math.Abs(iv.Low-c.lo) > 0.01 || math.Abs(iv.High-c.hi) > 0.01 || iv.Accuracy != c.accuracy {
			t.Errorf("%v%% of %d: %+v, want %.3f–%.3f", c.mean, c.n, *iv, c.lo, c.hi)
		}
	}
	iv := newIntervalN(61.5, 55, 0)
	if s := uncertainty(iv, 55, 16); !strings.Contains(s, "55 labeled documents in 16 classes") || !strings.Contains(s, "±12 points") {
		t.Errorf("uncertainty: %q", s)
	}
	if s := uncertainty(newIntervalN(90, 5000, 0), 5000, 4); s != "" {
		t.Errorf("a narrow estimate said %q", s)
	}
}

func TestCurveGain(t *testing.T) {
	// With 3 folds the fold models learn from 2/3 of the labels and the
	// turned ones from 1/3: on a − b·m^(−1/2) the step from 2/3 to 1 is
	// (√1.5 − 1)/(√3 − √1.5) ≈ 0.443 of the step from 1/3 to 2/3.
	g, se := curveGain(70, 60, 100, 200, 3)
	want := 10 * (math.Sqrt(1.5) - 1) / (math.Sqrt(3) - math.Sqrt(1.5))
	if math.Abs(g-want) > 1e-9 {
		t.Errorf("gain %v, want %v", g, want)
	}
	wantSE := 100 * want / 10 * math.Sqrt(0.7*0.3/100+0.6*0.4/200)
	if math.Abs(se-wantSE) > 1e-9 {
		t.Errorf("standard error %v, want %v", se, wantSE)
	}
	// A curve that would fall is noise: no gain, and none without folds.
	if g, _ := curveGain(60, 70, 100, 200, 3); g != 0 {
		t.Errorf("falling curve: gain %v, want 0", g)
	}
	if g, se := curveGain(70, 60, 100, 200, 2); g != 0 || se != 0 {
		t.Errorf("2 folds: gain %v ± %v, want none", g, se)
	}
	// An extra standard error widens the interval.
	plain := newIntervalN(70, 100, 0)
	wide := newIntervalN(70, 100, 0.03)
	if wide.Accuracy != 70 || wide.HalfWidth() <= plain.HalfWidth() {
		t.Errorf("the extra uncertainty did not widen the interval: %+v against %+v", *wide, *plain)
	}
}

func TestSmallFolds(t *testing.T) {
	// Six documents, labels 0 0 1 1 2 and an unlabeled one; two folds.
	idx := [][]int{{0}, {0}, {1}, {1}, {2}, nil}
	cv := []cvFold{{train: []int{1, 3, 4}, test: []int{0, 2}}, {train: []int{0, 2}, test: []int{1, 3, 4}}}
	small := smallFolds(idx, cv)
	if len(small) != 2 {
		t.Fatalf("%d turned folds, want 2", len(small))
	}
	if !slices.Equal(small[0].train, []int{0, 2}) || !slices.Equal(small[0].test, []int{1, 3, 4}) || small[0].unseen != 1 {
		t.Errorf("first turned fold %+v: want train [0 2], test [1 3 4], 1 unseen (label 2)", small[0])
	}
	if small[1].unseen != 0 {
		t.Errorf("second turned fold %+v: want no unseen document", small[1])
	}
	// A fold whose documents hold one label cannot be turned.
	if got := smallFolds(idx, []cvFold{{train: []int{2, 3, 4}, test: []int{0, 1}}}); got != nil {
		t.Errorf("one-label fold turned: %+v", got)
	}
}
