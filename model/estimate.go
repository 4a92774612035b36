package model

import (
	"fmt"
	"math"
)

// EstimateInterval is an accuracy estimate with its 95% interval, in percent, as
// fit reports it for a configuration chosen by cross-validation.
type EstimateInterval struct {
	// Accuracy is the estimate, Low and High the ends of its interval.
	Accuracy float64 `json:"accuracy"`
	Low      float64 `json:"low"`
	High     float64 `json:"high"`
	// Bias is the selection bias taken off the cross-validated mean, in
	// points, and Gain what the learning curve adds for the labels the
	// kept model learns from beyond a fold model's (see Search.Estimate).
	Bias float64 `json:"bias,omitempty"`
	Gain float64 `json:"gain,omitempty"`
	// Shift is what weighting the labels by their estimated shares of
	// the corpus adds, in points, beside weighting them as the labeled
	// documents are (see Predictions.Estimate).
	Shift float64 `json:"shift,omitempty"`
	// N is the number of held-out documents the estimate rests on.
	N int `json:"n"`
}

// HalfWidth is half the interval's width, in points.
func (iv EstimateInterval) HalfWidth() float64 { return (iv.High - iv.Low) / 2 }

// selectionBias estimates, in points, how much choosing cands[chosen]
// among cands on the same folds flatters its cross-validated mean
// (Tibshirani and Tibshirani, "A bias correction for the minimum error
// rate in cross-validation", Annals of Applied Statistics 3(2), 2009):
// the mean over the folds of the best candidate's accuracy in the fold
// less the chosen one's. With a handful of documents per fold that
// estimate is itself noisy, and no larger than the chosen candidate's
// lead over the candidates' mean accuracy can the flattery be, which is
// what choosing among candidates of equal worth would give: the bias is
// at most that lead. It is 0 with one candidate, and never negative.
func selectionBias(cands []Candidate, chosen int) float64 {
	c := cands[chosen].Folds
	if len(c) == 0 {
		return 0
	}
	bias, avg, n := 0.0, 0.0, 0
	for f, v := range c {
		best := v
		for _, o := range cands {
			if len(o.Folds) == len(c) {
				best = max(best, o.Folds[f])
			}
		}
		bias += best - v
	}
	for _, o := range cands {
		if len(o.Folds) == len(c) {
			avg += o.Accuracy
			n++
		}
	}
	lead := cands[chosen].Accuracy - avg/float64(n)
	return max(min(bias/float64(len(c)), lead), 0)
}

// newIntervalN returns the estimate acc (percent) with its 95% interval:
// the Wilson score interval of a share measured on n documents, which
// keeps inside [0, 100] and stays honest where a normal approximation
// would not (few documents, accuracy near 0 or 100), widened on each
// side by extra (a standard error, as a share) added in quadrature.
func newIntervalN(acc, n, extra float64) *EstimateInterval {
	p := min(max(acc/100, 0), 1)
	iv := &EstimateInterval{Accuracy: 100 * p, Low: 0, High: 100}
	if !(n > 0) {
		return iv
	}
	const z = 1.959963984540054
	centre := (p + z*z/(2*n)) / (1 + z*z/n)
	half := z / (1 + z*z/n) * math.Sqrt(p*(1-p)/n+z*z/(4*n*n))
	lo, hi := max(centre-half, 0), min(centre+half, 1)
	iv.Low = 100 * max(p-math.Hypot(p-lo, z*extra), 0)
	iv.High = 100 * min(p+math.Hypot(hi-p, z*extra), 1)
	return iv
}

// curveExponent is the shape assumed for the learning curve: accuracy
// a − b·m^(−1/2) in the number m of labeled documents, the rate at which
// a classifier's error falls with its training set in the usual bounds,
// fixed in advance rather than fitted (two points cannot fit three
// parameters). classCurves writes m^(−1/2) as 1/√m: a change here must
// change it there.
const curveExponent = 0.5

// curveGain extrapolates along the learning curve: given the accuracy
// (percent) of models that learn from (k−1)/k of the labeled documents
// (full, the folds' own) and from 1/k of them (small), measured on n and
// ns held-out documents, it returns how many points a model that learns
// from all of them gains over full, and that gain's standard error. The
// curve does not fall: a small above full (noise) gives no gain.
func curveGain(full, small float64, n, ns, k int) (gain, se float64) {
	if k < 3 || n <= 0 || ns <= 0 {
		return 0, 0
	}
	m1, m2 := 1/float64(k), float64(k-1)/float64(k)
	g := (math.Pow(m2, -curveExponent) - 1) / (math.Pow(m1, -curveExponent) - math.Pow(m2, -curveExponent))
	pf, ps := full/100, small/100
	se = 100 * g * math.Sqrt(pf*(1-pf)/float64(n)+ps*(1-ps)/float64(ns))
	return max(g*(full-small), 0), se
}

// uncertainty says in a sentence how uncertain an estimate of labeled
// documents in classes classes is, when it is by more than 5 points
// either way ("" otherwise).
func uncertainty(iv *EstimateInterval, labeled, classes int) string {
	if iv.HalfWidth() <= 5 {
		return ""
	}
	return fmt.Sprintf("%d labeled documents in %d classes: the estimate is uncertain by about ±%.0f points; more labels narrow it", labeled, classes, iv.HalfWidth())
}

// setEstimates sets the estimates s reports for its chosen candidate and
// for the linear SVM from the folds' predictions (Predictions.Estimate),
// the chosen candidate's less the selection bias of choosing it.
func (s *Search) setEstimates() {
	c, p := s.ChosenCandidate(), s.Predictions
	if !c.Scored() || p == nil {
		return
	}
	for f := range p.Folds {
		if f < len(c.pred) {
			p.Folds[f].Model = c.pred[f]
		}
	}
	s.Estimate = p.Estimate(EstimateModel, selectionBias(s.Candidates, s.Chosen))
	if s.SVM.Scored() {
		s.SVMEstimate = p.Estimate(EstimateSVM, 0)
	}
	s.Uncertainty = uncertainty(s.Estimate, s.Labeled, s.Classes)
}
