package model

import (
	"math"
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
		iv := newInterval(c.mean, 0, c.n)
		if math.Abs(iv.Low-c.lo) > 0.01 || math.Abs(iv.High-c.hi) > 0.01 || iv.Accuracy != c.accuracy {
			t.Errorf("%v%% of %d: %+v, want %.3f–%.3f", c.mean, c.n, *iv, c.lo, c.hi)
		}
	}
	iv := newInterval(64.7, 3.2, 55)
	if math.Abs(iv.Accuracy-61.5) > 1e-9 || iv.Bias != 3.2 {
		t.Errorf("bias taken off: %+v", *iv)
	}
	if s := uncertainty(iv, 55, 16); !strings.Contains(s, "55 labeled documents in 16 classes") || !strings.Contains(s, "±12 points") {
		t.Errorf("uncertainty: %q", s)
	}
	if s := uncertainty(newInterval(90, 0, 5000), 5000, 4); s != "" {
		t.Errorf("a narrow estimate said %q", s)
	}
}
