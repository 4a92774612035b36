package model

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/classify"
	"github.com/semitopic/semitopic/sparse"
)

// The readouts: how a supervised model turns a document into label scores
// (Options.Readout).
const (
	// ReadoutNative is the kind's own rule: TS-NMF's weight of the
	// label's topic, SSNMF's B·s, theme-supervised NMF's theme score,
	// label-anchored CorEx's log p(y = 1 | x) of the label's topic.
	ReadoutNative = "native"
	// ReadoutTopics is a multinomial logistic regression (C = 10) on the
	// document's topic weights, scaled to unit length, trained on the
	// labeled documents' weights as Transform computes them for new
	// documents. It keeps the topics the model learned from every
	// document and only learns how they map to labels.
	ReadoutTopics = "topics"
	// ReadoutTermsTopics is a linear SVM on the document's terms
	// (unit-length rows, idf-weighted unless the input already was) beside
	// its unit-length topic weights, trained on the labeled documents: a
	// linear classifier to which the topics, learned from the unlabeled
	// documents too, add what the few labeled ones cannot show.
	ReadoutTermsTopics = "terms+topics"
)

// Readouts lists the readouts in the order the automatic configuration
// tries them.
func Readouts() []string { return []string{ReadoutNative, ReadoutTopics, ReadoutTermsTopics} }

// readout is a trained non-native readout.
type readout struct {
	kind string
	// idf weighs the terms before their rows are scaled to unit length;
	// nil when the model's input was already weighted and normalised.
	idf []float64
	lin *classify.Linear
}

// readoutHolder gives a supervised model its readout.
type readoutHolder struct{ ro *readout }

func (h *readoutHolder) setReadout(r *readout) { h.ro = r }
func (h *readoutHolder) readout() *readout     { return h.ro }

// withReadout is implemented by the models that can carry a readout.
type withReadout interface {
	Predictor
	setReadout(*readout)
	readout() *readout
}

// readoutTaker returns m as a model that can carry a readout: one that
// predicts labels (AsPredictor).
func readoutTaker(m Model) (withReadout, bool) {
	if _, ok := AsPredictor(m); !ok {
		return nil, false
	}
	wr, ok := m.(withReadout)
	return wr, ok
}

// ReadoutOf returns the readout of a supervised model: ReadoutNative unless
// another was trained.
func ReadoutOf(m Model) string {
	if w, ok := m.(withReadout); ok && w.readout() != nil {
		return w.readout().kind
	}
	return ReadoutNative
}

// unitRows returns m's rows scaled to unit L2 norm as a sparse matrix.
func unitRows(m *mat.Dense) *sparse.CSR {
	n, k := m.Dims()
	var ts []sparse.Triplet
	for i := 0; i < n; i++ {
		row := m.RawRowView(i)
		s := 0.0
		for _, v := range row {
			s += v * v
		}
		if !(s > 0) || math.IsInf(s, 0) {
			continue
		}
		s = 1 / math.Sqrt(s)
		for c, v := range row {
			if v != 0 {
				ts = append(ts, sparse.Triplet{Row: i, Col: c, Val: v * s})
			}
		}
	}
	out, _ := sparse.FromTriplets(n, k, ts)
	return out
}

// termWeights returns the idf weights the terms+topics readout applies to
// x: nil when x's non-empty rows already have unit L2 norm (tf-idf rows of
// the NMF-family pipelines, which must not be weighted twice), else smooth
// idf ln((1+n)/(1+df)) + 1 from x's document frequencies.
func termWeights(x *sparse.CSR) []float64 {
	unit := true
	for i := 0; i < x.Rows && unit; i++ {
		_, vals := x.Row(i)
		if len(vals) == 0 {
			continue
		}
		s := 0.0
		for _, v := range vals {
			s += v * v
		}
		unit = math.Abs(s-1) < 1e-6
	}
	if unit {
		return nil
	}
	df := make([]float64, x.Cols)
	for _, j := range x.Indices {
		df[j]++
	}
	n := float64(x.Rows)
	idf := make([]float64, x.Cols)
	for j := range idf {
		idf[j] = math.Log((1+n)/(1+df[j])) + 1
	}
	return idf
}

// termFeatures returns x's rows weighted by idf (when not nil) and scaled
// to unit L2 norm.
func termFeatures(x *sparse.CSR, idf []float64) *sparse.CSR {
	out := &sparse.CSR{Rows: x.Rows, Cols: x.Cols, Indptr: x.Indptr, Indices: x.Indices, Data: make([]float64, len(x.Data))}
	for i := 0; i < x.Rows; i++ {
		lo, hi := x.Indptr[i], x.Indptr[i+1]
		s := 0.0
		for p := lo; p < hi; p++ {
			v := x.Data[p]
			if idf != nil {
				v *= idf[x.Indices[p]]
			}
			out.Data[p] = v
			s += v * v
		}
		if s > 0 {
			s = 1 / math.Sqrt(s)
			for p := lo; p < hi; p++ {
				out.Data[p] *= s
			}
		}
	}
	return out
}

// hstack joins the columns of a and b, which have the same rows.
func hstack(a, b *sparse.CSR) *sparse.CSR {
	out := &sparse.CSR{Rows: a.Rows, Cols: a.Cols + b.Cols, Indptr: make([]int, a.Rows+1)}
	out.Indices = make([]int32, 0, len(a.Indices)+len(b.Indices))
	out.Data = make([]float64, 0, len(a.Data)+len(b.Data))
	for i := 0; i < a.Rows; i++ {
		cols, vals := a.Row(i)
		out.Indices = append(out.Indices, cols...)
		out.Data = append(out.Data, vals...)
		cols, vals = b.Row(i)
		for p, j := range cols {
			out.Indices = append(out.Indices, j+int32(a.Cols))
			out.Data = append(out.Data, vals[p])
		}
		out.Indptr[i+1] = len(out.Data)
	}
	return out
}

// features returns the readout's features of documents x whose topic
// weights are w.
func (r *readout) features(x *sparse.CSR, w *mat.Dense) *sparse.CSR {
	t := unitRows(w)
	if r.kind == ReadoutTopics {
		return t
	}
	return hstack(termFeatures(x, r.idf), t)
}

// trainReadout trains readout kind on the labeled documents: rows of x
// (the model's input) with topic weights w, labels[i] their label indices
// among numLabels (a document with several labels counts once per label).
// idf is termWeights of every document of the fit. how, when not nil,
// says how the terms+topics readout's SVM is solved (the automatic
// configuration's: warm-started from the terms-only SVM's duals).
func trainReadout(ctx context.Context, kind string, x *sparse.CSR, w *mat.Dense, labels [][]int, numLabels int, idf []float64, seed uint64, how *readoutSVM) (*readout, error) {
	r := &readout{kind: kind}
	switch kind {
	case ReadoutTopics:
	case ReadoutTermsTopics:
		r.idf = idf
	default:
		return nil, fmt.Errorf("model: unknown readout %q (want %s, %s or %s)", kind, ReadoutNative, ReadoutTopics, ReadoutTermsTopics)
	}
	var rows, y []int
	for i, ls := range labels {
		for _, l := range ls {
			rows = append(rows, i)
			y = append(y, l)
		}
	}
	present := make([]bool, numLabels)
	for _, l := range y {
		present[l] = true
	}
	for l, ok := range present {
		if !ok {
			return nil, fmt.Errorf("model: readout: label %d has no labeled document", l)
		}
	}
	if numLabels < 2 {
		return nil, fmt.Errorf("model: readout: %d label, at least 2 are needed", numLabels)
	}
	f := r.features(x, w).SelectRows(rows)
	switch kind {
	case ReadoutTopics:
		lr := &classify.LogisticRegression{C: 10}
		if err := lr.Fit(ctx, f, y); err != nil {
			return nil, fmt.Errorf("model: readout: %w", err)
		}
		r.lin = lr.Linear()
	case ReadoutTermsTopics:
		svm := &classify.LinearSVC{Seed: seed}
		if how != nil {
			svm.Tol = how.tol
		}
		if warm := how.start(); warm != nil {
			svm.Start = warm.duals(rows, y, numLabels)
		}
		svm.KeepDuals = how.keeps()
		if err := svm.Fit(ctx, f, y); err != nil {
			return nil, fmt.Errorf("model: readout: %w", err)
		}
		if svm.KeepDuals {
			how.alpha, how.doc, how.label = svm.Duals(), rows, y
		}
		r.lin = svm.Linear()
	}
	return r, nil
}

// apply replaces a native prediction's scores and labels by the readout's.
// A nil readout is the native one.
func (r *readout) apply(x *sparse.CSR, p *Prediction, names []string) (*Prediction, error) {
	if r == nil {
		return p, nil
	}
	s, err := r.lin.Scores(r.features(x, p.Weights))
	if err != nil {
		return nil, fmt.Errorf("model: readout: %w", err)
	}
	return newPrediction(x, p.Weights, s, argmaxLabels(s, names)), nil
}

// attachReadout trains and attaches readout kind to m, fitted on x with
// the label indices idx (nil entries: unlabeled documents), its SVM
// warm-started from the folds' duals when given (the automatic
// configuration's final fit).
func attachReadout(ctx context.Context, m Model, kind string, x *sparse.CSR, idx [][]int, seed uint64, folds []*svmDuals) error {
	if kind == "" || kind == ReadoutNative {
		return nil
	}
	wr, ok := readoutTaker(m)
	if !ok {
		return fmt.Errorf("model: a %s model predicts no labels and takes no readout", m.Kind())
	}
	var rows []int
	var labels [][]int
	for i, ls := range idx {
		if len(ls) > 0 {
			rows = append(rows, i)
			labels = append(labels, ls)
		}
	}
	xl := x.SelectRows(rows)
	w, err := m.Transform(ctx, xl)
	if err != nil {
		return err
	}
	r, err := trainReadout(ctx, kind, xl, w, labels, len(wr.Labels()), termWeights(x), seed, &readoutSVM{warm: warmFrom(folds, rows, func(l int) int { return l })})
	if err != nil {
		return err
	}
	wr.setReadout(r)
	return nil
}

// loadReadout attaches a saved readout to m.
func loadReadout(m Model, rm *readoutManifest, mats map[string]*mat.Dense, terms int) error {
	wr, ok := readoutTaker(m)
	if !ok {
		return fmt.Errorf("a %s model takes no readout", m.Kind())
	}
	if name := rm.Readout; name != ReadoutTopics && name != ReadoutTermsTopics {
		return fmt.Errorf("unknown readout %q", name)
	}
	coef, ic := mats["readout_coef"], mats["readout_intercept"]
	if coef == nil || ic == nil {
		return fmt.Errorf("no coefficients")
	}
	if r, _ := ic.Dims(); r != 1 {
		return fmt.Errorf("intercepts are not one row")
	}
	lin, err := classify.NewLinear(coef, ic.RawRowView(0))
	if err != nil {
		return err
	}
	want := m.NumTopics()
	r := &readout{kind: rm.Readout, lin: lin}
	if r.kind == ReadoutTermsTopics {
		want += terms
		if idf := mats["readout_idf"]; idf != nil {
			if _, c := idf.Dims(); c != terms {
				return fmt.Errorf("%d idf weights for %d terms", c, terms)
			}
			r.idf = idf.RawRowView(0)
		}
	}
	if lin.Features() != want {
		return fmt.Errorf("%d features, want %d", lin.Features(), want)
	}
	if lin.NumClasses() != len(wr.Labels()) {
		return fmt.Errorf("%d classes for %d labels", lin.NumClasses(), len(wr.Labels()))
	}
	wr.setReadout(r)
	return nil
}
