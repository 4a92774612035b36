package nmf

import (
	"context"
	"fmt"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/metrics"
	"github.com/semitopic/semitopic/sparse"
)

// Weighting selects TS-NMF's error weighting E (per-document weights on
// the squared error).
type Weighting int

// The error weightings.
const (
	// InverseSupervisionRate weights each labeled document's error by
	// n / (number of labeled documents) and unlabeled ones by 1, as in the
	// paper's experiments and its reference code (ws_nmf.py). Without
	// labeled documents it is NoWeighting.
	InverseSupervisionRate Weighting = iota
	// NoWeighting weights all documents equally.
	NoWeighting
	// CustomWeighting uses TSNMFConfig.DocWeights.
	CustomWeighting
)

// TSNMFConfig configures TSNMF. The embedded Config holds the engine's
// settings; its Labels are the supervision: Labels[i] lists the label
// indices (into LabelNames) of document i, nil or empty for an unlabeled
// document. Label t is topic t. Config.WMask and Config.RowWeights must
// be unset (TS-NMF derives them from the labels); Config.Init = InitAuto
// means InitLabelMean, the reference code's initialisation.
type TSNMFConfig struct {
	Config
	// LabelNames names the labels; its length is the number of supervised
	// topics (K may be larger: the extra topics are unsupervised). If nil,
	// the labels are numbered by the largest index used.
	LabelNames []string
	// Weighting is the error weighting E; DocWeights gives one weight per
	// document for CustomWeighting.
	Weighting  Weighting
	DocWeights []float64
	// Vocab names the columns of X, for the result's top terms; TopN is
	// the number of top terms per topic (default 10).
	Vocab []string
	TopN  int
}

// TSNMFModel is a fitted TS-NMF model.
type TSNMFModel struct {
	Model
	// TopicNames names each topic: its label's name, or "topic-t" for an
	// unsupervised topic t.
	TopicNames []string
	// Supervised[t] reports whether topic t is a label's topic; the others
	// are allowed in the unlabeled documents only.
	Supervised []bool
	// TopTerms lists each topic's highest-weighted terms (nil without
	// Vocab).
	TopTerms [][]string
	// DocWeights is the error weighting E used (nil for none).
	DocWeights []float64
	// Labeled is the number of labeled documents.
	Labeled int
}

// TSNMF fits topic-supervised NMF (MacMillan & Wilson, "Topic Supervised
// Non-negative Matrix Factorization", 2017): min ‖(X − (W∘L)H)‖² weighted
// by E per document, where L (documents × topics) has a row of ones for an
// unlabeled document and, for a labeled one, ones only on its labels'
// topics. The error weighting E defaults to the inverse supervision rate.
// Drawing which documents are labeled (the supervision rate) is the
// caller's choice: pass nil labels for the others.
//
// Config.Seeds guides the labels' topics by seed terms as Fit guides its
// topics (Guided NMF): a seeded topic's pseudo-document is one more
// labeled document of that topic, with its weight μ beside the documents'
// weights E. A seeded topic must be a label's.
//
// It is an error if K is smaller than the number of labels, if a label
// index is out of range, or if WMask or RowWeights are set. With no labels
// (L all ones, no weights) the result is bit-for-bit that of Fit with the
// same Config; note that TSNMF's InitAuto is InitLabelMean, which without
// labels draws exactly what InitRandomAcol draws.
func TSNMF(ctx context.Context, x Matrix, cfg TSNMFConfig) (*TSNMFModel, error) {
	t0 := time.Now()
	d, err := checkData(x)
	if err != nil {
		return nil, err
	}
	if cfg.WMask != nil || cfg.RowWeights != nil {
		return nil, fmt.Errorf("nmf: TSNMF derives WMask and RowWeights from the labels; leave them unset")
	}
	n, k := d.n, cfg.K
	if cfg.Labels != nil && len(cfg.Labels) != n {
		return nil, fmt.Errorf("nmf: TSNMF: %d label lists for %d documents", len(cfg.Labels), n)
	}
	nl := len(cfg.LabelNames)
	if cfg.LabelNames == nil {
		for _, ls := range cfg.Labels {
			for _, l := range ls {
				nl = max(nl, l+1)
			}
		}
	}
	if k < nl {
		return nil, fmt.Errorf("nmf: TSNMF: K = %d is smaller than the number of labels %d", k, nl)
	}
	labeled := 0
	for i, ls := range cfg.Labels {
		if len(ls) > 0 {
			labeled++
		}
		for _, l := range ls {
			if l < 0 || l >= nl {
				return nil, fmt.Errorf("nmf: TSNMF: document %d has label %d, out of range [0,%d)", i, l, nl)
			}
		}
	}
	if cfg.Vocab != nil && len(cfg.Vocab) != d.m {
		return nil, fmt.Errorf("nmf: TSNMF: vocabulary of %d terms for %d columns", len(cfg.Vocab), d.m)
	}
	ec := cfg.Config
	if ec.Init == InitAuto {
		ec.Init = InitLabelMean
	}
	weights, notes, err := tsnmfWeights(cfg, labeled, n)
	if err != nil {
		return nil, err
	}
	// Seed terms: each seeded topic's pseudo-document is a labeled
	// document of its topic, weighing μ (TS-NMF's documents keep their
	// weights).
	if ec, err = checkSeeds(ec, d.m); err != nil {
		return nil, err
	}
	var g *Guide
	if len(ec.Seeds.Seeds) > 0 && k >= 1 {
		for _, t := range ec.Seeds.SeededTopics() {
			if t >= nl {
				return nil, fmt.Errorf("nmf: TSNMF: topic %d has seed terms but is not a label's topic (labels 0 to %d): a seeded topic is supervised, so give it a label", t, nl-1)
			}
		}
		xs := d.sp
		if xs == nil {
			xs = sparse.FromDense(d.dense)
		}
		var gnotes []string
		if g, gnotes, err = NewGuide(xs, k, ec.Seeds, weights, ec.Loss, ec.SeedWeight); err != nil {
			return nil, err
		}
		notes = append(notes, gnotes...)
		if g != nil {
			stacked, rw, _, err := g.Stack(xs, weights, nil, k)
			if err != nil {
				return nil, err
			}
			if d, err = checkData(stacked); err != nil {
				return nil, err
			}
			ec.Labels, weights = g.labels(cfg.Labels, n), rw
			if ec.W0 != nil {
				if err := checkFactor("W0", ec.W0, n, k); err != nil {
					return nil, err
				}
				if ec.H0 == nil {
					return nil, fmt.Errorf("nmf: TSNMF: seed terms with W0 need H0 too: the pseudo-documents' rows of W start from H0")
				}
				if err := checkFactor("H0", ec.H0, k, d.m); err != nil {
					return nil, err
				}
				ec.W0 = g.StackW(ec.W0, ec.H0, ec.Loss)
			}
		}
	}
	if note := holdSeeds(&ec); note != "" {
		notes = append(notes, note)
	}
	ec.Seeds.Seeds = nil
	// The stacked rows: the documents, then the pseudo-documents.
	rows, labeledRows := d.n, labeled+g.rows()
	if labeledRows > 0 {
		mask := mat.NewDense(rows, k, nil)
		for i := 0; i < rows; i++ {
			row := mask.RawRowView(i)
			if len(ec.Labels[i]) == 0 {
				for t := range row {
					row[t] = 1
				}
				continue
			}
			for _, l := range ec.Labels[i] {
				row[l] = 1
			}
		}
		ec.WMask = mask
	}
	ec.RowWeights = weights
	ec, err = checkConfig(ec, d)
	if err != nil {
		return nil, err
	}
	res, err := fitChecked(ctx, t0, d, ec)
	if res == nil {
		return nil, err
	}
	g.finish(res)
	out := tsnmfModel(res, cfg, nl, labeledRows, rows, notes)
	out.Labeled = labeled
	out.DocWeights = ec.RowWeights
	if g != nil {
		out.DocWeights = out.DocWeights[:n]
	}
	return out, err
}

// tsnmfWeights returns the error weights E of the n documents under cfg's
// weighting (nil for equal weights), labeled of them labeled, with a note
// saying what they are.
func tsnmfWeights(cfg TSNMFConfig, labeled, n int) ([]float64, []string, error) {
	switch cfg.Weighting {
	case InverseSupervisionRate:
		if labeled == 0 || labeled == n {
			return nil, nil, nil
		}
		wl := float64(n) / float64(labeled)
		w := make([]float64, n)
		for i := range w {
			w[i] = 1
			if len(cfg.Labels[i]) > 0 {
				w[i] = wl
			}
		}
		return w, []string{inverseRateNote(labeled, n)}, nil
	case NoWeighting:
		return nil, nil, nil
	case CustomWeighting:
		if len(cfg.DocWeights) != n {
			return nil, nil, fmt.Errorf("nmf: TSNMF: %d document weights for %d documents", len(cfg.DocWeights), n)
		}
		return append([]float64(nil), cfg.DocWeights...), []string{"error weighting E: custom document weights"}, nil
	}
	return nil, nil, fmt.Errorf("nmf: TSNMF: unknown weighting %d", cfg.Weighting)
}

// freeEmpty warns, when every one of the n documents is labeled, that the
// unsupervised topics can only stay empty ("" otherwise).
func freeEmpty(labeled, n int, subject string) string {
	if labeled < n {
		return ""
	}
	return fmt.Sprintf("; every document is labeled, so %s empty", subject)
}

// tsnmfModel adds TS-NMF's names and notes to a fitted model; notes holds
// the weighting's.
func tsnmfModel(res *Model, cfg TSNMFConfig, nl, labeled, n int, notes []string) *TSNMFModel {
	k := cfg.K
	out := &TSNMFModel{Model: *res, Labeled: labeled}
	out.TopicNames = make([]string, k)
	out.Supervised = make([]bool, k)
	for t := 0; t < k; t++ {
		if t < nl {
			out.Supervised[t] = true
			if cfg.LabelNames != nil {
				out.TopicNames[t] = cfg.LabelNames[t]
			} else {
				out.TopicNames[t] = fmt.Sprintf("label-%d", t)
			}
		} else {
			out.TopicNames[t] = fmt.Sprintf("topic-%d", t)
		}
	}
	switch {
	case k == nl+1:
		notes = append([]string{fmt.Sprintf("topic %d (1 of %d) is unsupervised: allowed in the unlabeled documents only%s", nl, k, freeEmpty(labeled, n, "it stays"))}, notes...)
	case k > nl:
		notes = append([]string{fmt.Sprintf("topics %d to %d (%d of %d) are unsupervised: allowed in the unlabeled documents only%s", nl, k-1, k-nl, k, freeEmpty(labeled, n, "they stay"))}, notes...)
	}
	if labeled == 0 {
		notes = append(notes, "no labeled documents: plain NMF")
	}
	out.Notes = notes
	if cfg.Vocab != nil {
		top := cfg.TopN
		if top <= 0 {
			top = 10
		}
		out.TopTerms, _ = TopTerms(res.H, cfg.Vocab, top)
	}
	return out
}

// inverseRateNote describes the inverse supervision rate weighting.
func inverseRateNote(labeled, n int) string {
	return fmt.Sprintf("error weighting E: the %d labeled documents weigh %.6g (= %d/%d), the others 1", labeled, float64(n)/float64(labeled), n, labeled)
}

// Transform returns the document-topic weights of new documents X under
// the fitted topics, every topic allowed (see FixedH.Transform).
func (r *TSNMFModel) Transform(ctx context.Context, x Matrix) (*mat.Dense, error) {
	return r.TransformLabeled(ctx, x, nil)
}

// TransformLabeled returns the document-topic weights of new documents X
// under the fitted topics, as Transform does, with each labeled document
// restricted to its labels' topics as in training (nil or empty entries of
// labels are unrestricted; labels nil is Transform). KL fits use the
// default iteration limits.
func (r *TSNMFModel) TransformLabeled(ctx context.Context, x Matrix, labels [][]int) (*mat.Dense, error) {
	if r == nil || r.H == nil || r.H.IsEmpty() {
		return nil, fmt.Errorf("nmf: Transform: the TS-NMF model has no topics (not fitted)")
	}
	if c, ok := x.(*sparse.CSR); x == nil || ok && c == nil {
		return nil, fmt.Errorf("nmf: Transform: data matrix X is nil")
	}
	k, _ := r.H.Dims()
	rows, _ := x.Dims()
	var mask *mat.Dense
	if labels != nil {
		if len(labels) != rows {
			return nil, fmt.Errorf("nmf: Transform: %d label lists for %d documents", len(labels), rows)
		}
		mask = mat.NewDense(rows, k, nil)
		for i, ls := range labels {
			row := mask.RawRowView(i)
			if len(ls) == 0 {
				for t := range row {
					row[t] = 1
				}
				continue
			}
			for _, l := range ls {
				if l < 0 || l >= k || !r.Supervised[l] {
					return nil, fmt.Errorf("nmf: Transform: document %d has label %d, not a supervised topic", i, l)
				}
				row[l] = 1
			}
		}
	}
	f, err := NewFixedH(r.H)
	if err != nil {
		return nil, err
	}
	return f.Transform(ctx, x, TransformConfig{Loss: r.Loss, Mask: mask})
}

// TopTerms returns, for each row (topic) of h (k × terms), the n terms of
// vocab with the largest weights, largest first (ties by column order);
// terms of zero weight are left out. It is an error if h is empty, vocab
// does not name its columns, or n is negative (n = 0 gives empty lists).
func TopTerms(h *mat.Dense, vocab []string, n int) ([][]string, error) {
	if h == nil || h.IsEmpty() {
		return nil, fmt.Errorf("nmf: TopTerms: H is empty")
	}
	if n < 0 {
		return nil, fmt.Errorf("nmf: TopTerms: n = %d terms per topic, want ≥ 0", n)
	}
	k, m := h.Dims()
	if len(vocab) != m {
		return nil, fmt.Errorf("nmf: TopTerms: vocabulary of %d terms for %d columns", len(vocab), m)
	}
	out := make([][]string, k)
	if n == 0 {
		return out, nil
	}
	for t := range out {
		for _, j := range metrics.TopIndices(h.RawRowView(t), n) {
			out[t] = append(out[t], vocab[j])
		}
	}
	return out, nil
}
