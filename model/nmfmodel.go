package model

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/nmf"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
)

// NMF is a fitted NMF or TS-NMF model: topics H (topics × terms). A TS-NMF
// model's first len(LabelNames) topics stand for its labels.
type NMF struct {
	kind       string
	H          *mat.Dense
	Loss       nmf.Loss
	TopicNames []string
	LabelNames []string // TS-NMF only
	Vocab      []string
	weights    []float64 // topic shares of the training corpus
	// fixed is H prepared for transforms (prepare), so that transforming
	// one document does not redo the work that depends on H alone.
	fixed *nmf.FixedH
	readoutHolder
}

// prepare computes, once, what transforms need from H alone.
func (m *NMF) prepare() error {
	f, err := nmf.NewFixedH(m.H)
	if err != nil {
		return err
	}
	m.fixed = f
	return nil
}

// fixedH returns H prepared for transforms: prepare's, when it is current,
// else prepared for this call.
func (m *NMF) fixedH() (*nmf.FixedH, error) {
	if m.fixed != nil && m.fixed.H() == m.H {
		return m.fixed, nil
	}
	return nmf.NewFixedH(m.H)
}

// Kind implements Model.
func (m *NMF) Kind() string { return m.kind }

// NumTopics implements Model.
func (m *NMF) NumTopics() int { r, _ := m.H.Dims(); return r }

// Topics implements Model: words weighted by the row-normalised H.
func (m *NMF) Topics(n int) ([]Topic, error) {
	hn := normalizedRows(m.H)
	out := make([]Topic, m.NumTopics())
	for t := range out {
		out[t] = Topic{Name: m.TopicNames[t], Words: topicWords(hn.RawRowView(t), m.Vocab, n)}
		if t < len(m.LabelNames) {
			out[t].Label = m.LabelNames[t]
		}
		if m.weights != nil {
			out[t].Weight = m.weights[t]
		}
	}
	return markEmpty(out, m.weights != nil), nil
}

// Transform implements Model: an exact non-negative least-squares solve
// per document for Frobenius models, multiplicative updates for KL; no
// label mask applies to new documents.
func (m *NMF) Transform(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) {
	if _, c := m.H.Dims(); x.Cols != c {
		return nil, fmt.Errorf("model: matrix has %d terms, the model %d", x.Cols, c)
	}
	f, err := m.fixedH()
	if err != nil {
		return nil, err
	}
	return f.Transform(ctx, x, nmf.TransformConfig{Loss: m.Loss})
}

// Labels implements Predictor for TS-NMF models.
func (m *NMF) Labels() []string { return m.LabelNames }

// Predict implements Predictor for TS-NMF models: a label's score is the
// document's weight on the label's topic; the prediction is the label with
// the largest weight.
func (m *NMF) Predict(ctx context.Context, x *sparse.CSR) (*Prediction, error) {
	if len(m.LabelNames) == 0 {
		return nil, fmt.Errorf("model: an unsupervised %s model predicts no labels", m.kind)
	}
	w, err := m.Transform(ctx, x)
	if err != nil {
		return nil, err
	}
	r, _ := w.Dims()
	scores := mat.DenseCopyOf(w.Slice(0, r, 0, len(m.LabelNames)))
	return m.ro.apply(x, newPrediction(x, w, scores, argmaxLabels(scores, m.LabelNames)), m.LabelNames)
}

// topicShares returns each topic's share of Σ W·rowsum(H).
func topicShares(w, h *mat.Dense) []float64 {
	k, _ := h.Dims()
	out := make([]float64, k)
	n, _ := w.Dims()
	total := 0.0
	for t := 0; t < k; t++ {
		hs := mat.Sum(h.RowView(t))
		ws := 0.0
		for i := 0; i < n; i++ {
			ws += w.At(i, t)
		}
		out[t] = ws * hs
		total += out[t]
	}
	if total > 0 {
		for t := range out {
			out[t] /= total
		}
	}
	return out
}

// tsnmfWeighting parses Options.Weighting: "" or "inverse", or "none".
func tsnmfWeighting(name string) (nmf.Weighting, error) {
	switch name {
	case "", "inverse":
		return nmf.InverseSupervisionRate, nil
	case "none":
		return nmf.NoWeighting, nil
	}
	return 0, fmt.Errorf("model: unknown weighting %q (want inverse or none)", name)
}

// Inits lists the initialisation names (Options.Init) a kind accepts, in
// the order to show them; nil for kinds without a choice of start.
func Inits(kind string) []string {
	switch kind {
	case KindNMF:
		return []string{"auto", "random", "random-acol", "nndsvd", "nndsvda", "nndsvdar"}
	case KindTSNMF:
		return []string{"auto", "random", "random-acol", "nndsvd", "nndsvda", "nndsvdar", "label-mean"}
	case KindTheme:
		return []string{"bcool", "random"}
	}
	return nil
}

// checkInit rejects an initialisation name the kind does not accept.
func checkInit(kind, init string) error {
	if init == "" {
		return nil
	}
	names := Inits(kind)
	for _, n := range names {
		if strings.EqualFold(strings.TrimSpace(init), n) || (n == "random-acol" && strings.EqualFold(init, "acol")) {
			return nil
		}
	}
	if names == nil {
		return fmt.Errorf("model: %s models take no initialisation", kind)
	}
	return fmt.Errorf("model: %s models do not take the initialisation %q (want %s)", kind, init, strings.Join(names, ", "))
}

func nmfOptions(o Options) (nmf.Loss, nmf.Init, error) {
	if err := checkInit(o.Kind, o.Init); err != nil {
		return 0, 0, err
	}
	loss := nmf.Frobenius
	var err error
	if o.Loss != "" {
		if loss, err = nmf.ParseLoss(o.Loss); err != nil {
			return 0, 0, err
		}
	}
	init := nmf.InitAuto
	if o.Init != "" {
		if init, err = nmf.ParseInit(o.Init); err != nil {
			return 0, 0, err
		}
	}
	return loss, init, nil
}

func rejectUnused(o Options, kind string, fields map[string]bool) error {
	check := []struct {
		name string
		set  bool
	}{
		{"weighting", o.Weighting != ""}, {"method", o.Method != ""}, {"subtopics", o.Subtopics != 0},
		{"mode", o.Mode != ""}, {"no-theme-background", o.NoThemeBackground}, {"new-topics", o.NewTopics != 0}, {"lambda", o.Lambda != 0},
		{"beta", o.Beta != 0}, {"restarts", o.Restarts != 0}, {"loss", o.Loss != ""}, {"init", o.Init != ""},
		{"seed-mode", o.SeedMode != ""},
	}
	for _, c := range check {
		if c.set && !fields[c.name] {
			return fmt.Errorf("model: option %s does not apply to %s models", c.name, kind)
		}
	}
	return nil
}

func fitNMF(ctx context.Context, x *sparse.CSR, vocab []string, sup Supervision, o Options, report progress.Func) (Model, Info, error) {
	if err := rejectUnused(o, KindNMF, map[string]bool{"loss": true, "init": true, "beta": seeded(sup.Anchors)}); err != nil {
		return nil, Info{}, err
	}
	if sup.labeled() {
		return nil, Info{}, fmt.Errorf("model: plain NMF is unsupervised; use tsnmf for labels")
	}
	if o.K < 1 {
		return nil, Info{}, fmt.Errorf("model: nmf needs k ≥ 1 topics")
	}
	loss, init, err := nmfOptions(o)
	if err != nil {
		return nil, Info{}, err
	}
	names, seededNames, err := anchorTopicNames(KindNMF, sup.Anchors, vocab, o.K)
	if err != nil {
		return nil, Info{}, err
	}
	seeds, notes, err := anchorTerms(KindNMF, sup.Anchors, names, vocab)
	if err != nil {
		return nil, Info{}, err
	}
	r, err := nmf.Fit(ctx, x, nmf.Config{K: o.K, Loss: loss, Init: init, Seed: o.Seed, MaxIter: o.MaxIter, Tol: o.Tol,
		Seeds: seeds, SeedWeight: o.Beta, Progress: report})
	if err != nil {
		return nil, Info{}, seedError(err, names)
	}
	if len(r.Seeded) == 0 {
		seededNames = nil // no document holds a seed word: nothing steers the topics
	}
	m := &NMF{kind: KindNMF, H: r.H, Loss: loss, TopicNames: unseededNames(names, sup.Anchors, nil, vocab), LabelNames: seededNames, Vocab: vocab, weights: topicShares(r.W, r.H)}
	if err := m.prepare(); err != nil {
		return nil, Info{}, err
	}
	return m, Info{Objective: r.FinalObjective(), Iterations: r.Iterations, Convergence: r.Convergence, Notes: append(notes, r.Notes...)}, nil
}

func fitTSNMF(ctx context.Context, x *sparse.CSR, vocab []string, sup Supervision, o Options, report progress.Func) (Model, Info, error) {
	if err := rejectUnused(o, KindTSNMF, map[string]bool{"loss": true, "init": true, "weighting": true, "beta": seeded(sup.Anchors)}); err != nil {
		return nil, Info{}, err
	}
	sup, seedNotes, err := labelBySeeds(KindTSNMF, x, vocab, sup)
	if err != nil {
		return nil, Info{}, err
	}
	if !sup.labeled() {
		return nil, Info{}, fmt.Errorf("model: tsnmf needs labeled documents (for example --labels-from-corpus) or seed words")
	}
	names, idx := sup.labelIndex()
	// A seed topic named like a label is that label's topic; the others
	// with a seed word in the vocabulary are further supervised topics
	// after the labels, whose only labeled document is their
	// pseudo-document.
	// A seed topic none of whose seed words is in the vocabulary steers
	// nothing: it is a free topic, named after it (and saying so).
	col := termIndex(vocab)
	var lost []string
	for _, a := range sup.Anchors {
		switch {
		case len(a.Words) == 0 || slices.Contains(names, a.Topic):
		case anyTerm(col, a.Words):
			names = append(names, a.Topic)
		case !slices.Contains(lost, a.Topic):
			lost = append(lost, a.Topic)
		}
	}
	k := o.K
	if k == 0 {
		k = len(names) + len(lost)
	}
	if k < len(names) {
		return nil, Info{}, fmt.Errorf("model: k = %d is smaller than the %d labels", k, len(names))
	}
	if err := checkTopics("k (one topic per label)", k, x.Rows, x.Cols); err != nil {
		return nil, Info{}, err
	}
	loss, init, err := nmfOptions(o)
	if err != nil {
		return nil, Info{}, err
	}
	weighting, err := tsnmfWeighting(o.Weighting)
	if err != nil {
		return nil, Info{}, err
	}
	topicNames := tsnmfTopicNames(names, k)
	copy(topicNames[len(names):], lost)
	seeds, notes, err := anchorTerms(KindTSNMF, sup.Anchors, topicNames, vocab)
	if err != nil {
		return nil, Info{}, err
	}
	r, err := nmf.TSNMF(ctx, x, nmf.TSNMFConfig{
		Config: nmf.Config{K: k, Loss: loss, Init: init, Seed: o.Seed, Labels: idx, MaxIter: o.MaxIter, Tol: o.Tol,
			Seeds: seeds, SeedWeight: o.Beta, Progress: report},
		LabelNames: names,
		Weighting:  weighting,
	})
	if err != nil {
		return nil, Info{}, seedError(err, topicNames)
	}
	labelNames, _ := sup.labelIndex()
	m := &NMF{kind: KindTSNMF, H: r.H, Loss: loss, TopicNames: unseededNames(topicNames, sup.Anchors, labelNames, vocab), LabelNames: names, Vocab: vocab, weights: topicShares(r.W, r.H)}
	if err := m.prepare(); err != nil {
		return nil, Info{}, err
	}
	return m, Info{Objective: r.FinalObjective(), Iterations: r.Iterations, Convergence: r.Convergence, Notes: append(append(seedNotes, notes...), r.Notes...)}, nil
}

// tsnmfTopicNames names a TS-NMF model's k topics as nmf.TSNMF does: the
// labels, then topic-t for the unsupervised ones.
func tsnmfTopicNames(labels []string, k int) []string {
	names := append([]string(nil), labels...)
	for t := len(labels); t < k; t++ {
		names = append(names, fmt.Sprintf("topic-%d", t))
	}
	return names
}
