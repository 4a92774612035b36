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
	// points (see Search.Estimate).
	Bias float64 `json:"bias,omitempty"`
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

// newInterval returns the estimate mean − bias (percent) of n held-out
// documents with its 95% Wilson score interval: the interval of a share
// measured on n documents, which keeps inside [0, 100] and stays honest
// where a normal approximation would not (few documents, accuracy near
// 0 or 100).
func newInterval(mean, bias float64, n int) *EstimateInterval {
	p := min(max((mean-bias)/100, 0), 1)
	iv := &EstimateInterval{Accuracy: 100 * p, Bias: bias, N: n, Low: 0, High: 100}
	if n <= 0 {
		return iv
	}
	const z = 1.959963984540054
	nn := float64(n)
	centre := (p + z*z/(2*nn)) / (1 + z*z/nn)
	half := z / (1 + z*z/nn) * math.Sqrt(p*(1-p)/nn+z*z/(4*nn*nn))
	iv.Low, iv.High = 100*max(centre-half, 0), 100*min(centre+half, 1)
	return iv
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
// for the linear SVM, from their folds and the documents scored.
func (s *Search) setEstimates() {
	c := s.ChosenCandidate()
	if !c.Scored() {
		return
	}
	s.Estimate = newInterval(c.Accuracy, selectionBias(s.Candidates, s.Chosen), s.Scored)
	if s.SVM.Scored() {
		s.SVMEstimate = newInterval(s.SVM.Accuracy, 0, s.Scored)
	}
	s.Uncertainty = uncertainty(s.Estimate, s.Labeled, s.Classes)
}
