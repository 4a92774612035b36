package model

import (
	"math"
	"slices"
)

// Which model's predictions an estimate scores.
const (
	// EstimateModel scores the kept candidate's predictions.
	EstimateModel = "model"
	// EstimateSVM scores the linear SVM's.
	EstimateSVM = "svm"
)

// classCurve is what the folds say of one model, label by label: the
// recall each label would have in a model that learns from all its
// labeled documents, and how many held-out documents of it were scored.
type classCurve struct {
	// Recall is each label's recall at its number of labeled
	// documents, in [0, 1]; Held the label's scored held-out documents
	// (0 for a label whose every held-out document was unseen: the only
	// labeled document of its label, say). Slope is b of the curve
	// a − b·m^(−1/2) the labels share.
	Recall []float64
	Held   []int
	Slope  float64
	// Labeled counts each label's labeled documents.
	Labeled []int
}

// classCurves fits, from the folds' predictions of one model (which is
// EstimateModel or EstimateSVM), each label's learning curve: recall
// a_c − b·m^(−1/2) in the m labeled documents of label c a model learns
// from, the intercept a_c the label's own and the slope b shared by every
// label, fitted by least squares within labels (so that labels that are
// easy because they are large do not pass for a steep curve). The folds
// measure each label at about two thirds of its labeled documents, the
// learning curve's turned folds at one third; the recall at all of them
// is read off the label's curve, from the folds' recall. A label measured
// in no fold (every held-out document of it unseen: its only labeled
// document held out) gets the recall at one labeled document of every
// scored document, each moved along the curve, with one pseudo-document
// per label at chance: the kept model does learn such a label, from its
// one or few documents, and counting its held-out documents as misses
// (the cross-validated mean) made the estimate 34 points low on a corpus
// of many classes with a few labels each. Each held-out document counts
// toward its first label.
func (p *Predictions) classCurves(which string) classCurve {
	k := len(p.Labels)
	truth, labels := make(map[int]int, len(p.Rows)), make(map[int][]int, len(p.Rows))
	cc := classCurve{Recall: make([]float64, k), Held: make([]int, k), Labeled: make([]int, k)}
	for j, i := range p.Rows {
		truth[i], labels[i] = p.Truth[j][0], p.Truth[j]
		cc.Labeled[p.Truth[j][0]]++
	}
	type obs struct {
		label  int
		x      float64 // m^(−1/2)
		hit    float64
		turned bool
	}
	var obsv []obs
	turnedSeen := false
	add := func(folds []FoldPredictions, turned bool) {
		for f, fold := range folds {
			pred := fold.Model
			if which == EstimateSVM {
				pred = fold.SVM
			}
			if len(pred) != len(fold.Test) {
				continue
			}
			// The labeled documents of each label the fold's model
			// learned from.
			train := make([]int, k)
			if turned {
				for _, i := range p.Folds[f].Test {
					train[truth[i]]++
				}
			} else {
				copy(train, cc.Labeled)
				for _, i := range fold.Test {
					train[truth[i]]--
				}
			}
			for j, i := range fold.Test {
				c := truth[i]
				if train[c] < 1 {
					continue
				}
				if !turned {
					cc.Held[c]++
				}
				hit := 0.0
				if slices.Contains(labels[i], pred[j]) {
					hit = 1
				}
				obsv = append(obsv, obs{c, 1 / math.Sqrt(float64(train[c])), hit, turned})
				turnedSeen = turnedSeen || turned
			}
		}
	}
	add(p.Folds, false)
	// The turned folds count when the learning curve was measured: for
	// the kept model and the SVM alike. When it was not (flatCurve), the
	// SVM's turned folds, scored to decide that, are left out too, so
	// that neither estimate fits a slope and the two compare like for
	// like (the SVM's alone carried its curve's gain, and fit said it did
	// better by that much when their cross-validated accuracies were the
	// same).
	if len(p.Turned) == len(p.Folds) && p.curveMeasured() {
		add(p.Turned, true)
	}
	sx, sy, n := make([]float64, k), make([]float64, k), make([]float64, k)
	fx, fy, fn := make([]float64, k), make([]float64, k), make([]float64, k)
	for _, o := range obsv {
		sx[o.label] += o.x
		sy[o.label] += o.hit
		n[o.label]++
		if !o.turned {
			fx[o.label] += o.x
			fy[o.label] += o.hit
			fn[o.label]++
		}
	}
	var num, den float64
	for _, o := range obsv {
		dx := o.x - sx[o.label]/n[o.label]
		num += dx * (o.hit - sy[o.label]/n[o.label])
		den += dx * dx
	}
	// The curve does not fall: a slope of the wrong sign (noise) is 0.
	// Without the turned folds (the learning curve not measured: the
	// labels are many and the SVM's curve flat) the folds alone measure
	// each label at sizes a document or two apart, whose differences are
	// noise: no slope then.
	if den > 1e-12 && turnedSeen {
		cc.Slope = max(-num/den, 0)
	}
	clamp := func(v float64) float64 { return min(max(v, 0), 1) }
	// The recall at one labeled document: every scored document's hit
	// moved along its label's curve to one document, with one
	// pseudo-document per label at chance (1/k), so that a handful of
	// scored documents (Brown at 3% of its labels: 4 of them, in 2 of
	// 15 labels) cannot make it 100%.
	one, ones := 1.0, float64(k)
	for _, o := range obsv {
		one += clamp(o.hit - cc.Slope*(1-o.x))
		ones++
	}
	for c := range k {
		switch {
		case fn[c] > 0:
			x, y := fx[c]/fn[c], fy[c]/fn[c]
			cc.Recall[c] = clamp(y + cc.Slope*(x-1/math.Sqrt(float64(cc.Labeled[c]))))
		case cc.Labeled[c] > 0:
			// Measured in no fold (every held-out document of the
			// label unseen): its recall at one labeled document.
			cc.Recall[c] = one / ones
		}
	}
	return cc
}

// curveMeasured reports whether the turned folds hold the kept model's
// predictions (the learning curve was measured), not the SVM's alone.
func (p *Predictions) curveMeasured() bool {
	for _, fold := range p.Turned {
		if len(fold.Model) != len(fold.Test) {
			return false
		}
	}
	return len(p.Turned) > 0
}

// Estimate is which model's (EstimateModel or EstimateSVM) accuracy on
// the corpus as the folds estimate it, less bias points (the selection
// bias of choosing it, see selectionBias): each label's recall at its
// number of labeled documents (classCurves), weighted by the label's
// estimated share of the corpus (shares). Drawing labeled documents by
// class, as users do (a few of each), makes small labels far more common
// among them than in the corpus: weighted as the labeled documents are,
// an estimate on a corpus of many small classes fell 24 points below the
// test accuracy even with each label's recall right.
//
// Its interval is the Wilson score interval of a share measured on as
// many documents as the labels' recalls are worth together (each
// label's weighted binomial variance on its scored held-out documents,
// with one hit and one miss added, and at least one document), widened
// on each side by half of each correction — the curve's and the
// shares' — taken as its standard error: neither is measured where it
// applies. Gain is what the curves add over the folds' mean (every
// held-out document weighted alike, the unseen ones as misses), Shift
// what weighting by the shares adds to that.
func (p *Predictions) Estimate(which string, bias float64) *EstimateInterval {
	cc := p.classCurves(which)
	k := len(p.Labels)
	labeled := make([]float64, k)
	for c, n := range cc.Labeled {
		labeled[c] = float64(n)
	}
	weights := p.shares(labeled)
	mean, scored := p.foldMean(which)
	atLabeled := 100 * weightedMean(cc.Recall, labeled)
	est := 100 * weightedMean(cc.Recall, weights)
	// The interval's variance.
	tw := sum(weights)
	v := 0.0
	for c, w := range weights {
		if w == 0 {
			continue
		}
		h := float64(cc.Held[c])
		r := (cc.Recall[c]*h + 1) / (h + 2)
		v += (w / tw) * (w / tw) * r * (1 - r) / max(h, 1)
	}
	p0 := min(max(est/100, 0.02), 0.98)
	n := p0 * (1 - p0) / v
	iv := newIntervalN(est-bias, n, math.Hypot(atLabeled-mean, est-atLabeled)/200)
	iv.Bias, iv.Gain, iv.Shift, iv.N = bias, atLabeled-mean, est-atLabeled, scored
	return iv
}

// foldMean is which model's share of hits over every held-out document
// of the folds (percent; the unseen ones count as misses) and the number
// of those documents.
func (p *Predictions) foldMean(which string) (float64, int) {
	labels := make(map[int][]int, len(p.Rows))
	for j, i := range p.Rows {
		labels[i] = p.Truth[j]
	}
	hits, n := 0, 0
	for _, fold := range p.Folds {
		pred := fold.Model
		if which == EstimateSVM {
			pred = fold.SVM
		}
		for j, i := range fold.Test {
			n++
			if j < len(pred) && slices.Contains(labels[i], pred[j]) {
				hits++
			}
		}
	}
	if n == 0 {
		return 0, 0
	}
	return 100 * float64(hits) / float64(n), n
}

func sum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

// weightedMean is the mean of xs weighted by ws (0 without weight).
func weightedMean(xs, ws []float64) float64 {
	t := sum(ws)
	if t == 0 {
		return 0
	}
	s := 0.0
	for i, x := range xs {
		s += ws[i] * x
	}
	return s / t
}

// shares estimates the labels' shares of the corpus from their numbers
// of labeled documents: each label's share of the labeled documents
// times how much more often the kept model predicts it for the documents
// without labels (Shares) than the folds' models did for the held-out
// ones, each count given one more document so that a label never or
// seldom predicted does not divide by 0. Where the labeled documents
// were drawn from the corpus at random, the two rates agree and the
// shares are the labeled documents'; where a label was given more of
// them than its share (small classes drawn with at least one labeled
// document each), the model finds it less often in the corpus, and the
// share falls (the first step of the EM prior adjustment of Saerens,
// Latinne and Decaestecker, Neural Computation 14(1), 2002, on counts).
// The model's predicted shares alone are not used: it predicts most often
// the labels it over-predicts, which are those it finds best (weighted so,
// estimates overshot 20 Newsgroups by 10 points and Brown by 18). The
// ratio errs where the folds' models, which learn from two thirds of the
// labels, seldom predict a label the kept model predicts often (Reuters
// at 1%: a label of 3 labeled documents got 28% of the weight for its
// 4.5% of the test documents). Without Shares, the labeled documents'
// shares are returned.
func (p *Predictions) shares(labeled []float64) []float64 {
	k := len(p.Labels)
	if len(p.Shares) != k {
		return labeled
	}
	held := make([]float64, k)
	var nh, nu float64
	for _, fold := range p.Folds {
		for j := range fold.Test {
			nh++
			if j < len(fold.Model) && fold.Model[j] >= 0 {
				held[fold.Model[j]]++
			}
		}
	}
	for _, n := range p.Shares {
		nu += float64(n)
	}
	if nh == 0 || nu == 0 {
		return labeled
	}
	w := make([]float64, k)
	for c := range w {
		corpus := (float64(p.Shares[c]) + 1) / (nu + float64(k))
		folds := (held[c] + 1) / (nh + float64(k))
		w[c] = labeled[c] * corpus / folds
	}
	return w
}
