package model

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/nmf"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
)

// KindNMF is the name of the nmf kind.
const KindNMF = "nmf"

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
	// train is the training documents' W as the fit left them, until
	// Fit moves it to Fitted.DocTopics (in-memory fits only).
	train *mat.Dense
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

// scoreKind says what Predict's native scores are.
func (m *NMF) scoreKind() ScoreKind {
	return ScoreKind{"weight", "the document's weight on the label's topic (≥ 0, not normalised); the highest is predicted"}
}

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
// per document for Frobenius models, multiplicative updates for KL, each
// document alone (its weights do not depend on the documents transformed
// with it); no label mask applies to new documents.
func (m *NMF) Transform(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) {
	if _, c := m.H.Dims(); x.Cols != c {
		return nil, fmt.Errorf("model: matrix has %d terms, the model %d", x.Cols, c)
	}
	f, err := m.fixedH()
	if err != nil {
		return nil, err
	}
	return f.Transform(ctx, x, nmf.TransformConfig{Loss: m.Loss, PerDocument: true})
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
	return m.predictWeights(x, w)
}

// predictWeights implements fitWeights: the labels of the documents x
// whose topic weights are w.
func (m *NMF) predictWeights(x *sparse.CSR, w *mat.Dense) (*Prediction, error) {
	if len(m.LabelNames) == 0 {
		return nil, fmt.Errorf("model: an unsupervised %s model predicts no labels", m.kind)
	}
	r, _ := w.Dims()
	scores := mat.DenseCopyOf(w.Slice(0, r, 0, len(m.LabelNames)))
	return m.ro.apply(x, newPrediction(x, w, scores, argmaxLabels(scores, m.LabelNames)), m.LabelNames)
}

// takeTraining implements fitWeights.
func (m *NMF) takeTraining() *mat.Dense {
	w := m.train
	m.train = nil
	return w
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

// nmfInits are the initialisations of nmf models (nmf.ParseInit's
// names); tsnmf adds label-mean.
func nmfInits() []string {
	return []string{"auto", "random", "random-acol", "nndsvd", "nndsvda", "nndsvdar"}
}

// nmfLossParam declares the loss of the NMF family's kinds.
func nmfLossParam(def string) Param {
	return Param{Name: "loss", Choices: []string{"frobenius", "kl"}, Default: def,
		Doc:    "the divergence minimised: frobenius, the squared error; kl, the generalized Kullback-Leibler divergence (I-divergence)",
		accept: func(s string) error { _, err := nmf.ParseLoss(s); return err }}
}

// nmfGathersParam declares the precision of the rows that the Frobenius
// updates of nmf and tsnmf gather (nmf.Config.Gathers).
func nmfGathersParam() Param {
	return Param{Name: "gathers", Choices: []string{"auto", "float64", "float32"}, Default: "auto",
		Doc:    "precision of the factor rows the Frobenius updates read once per stored entry, products and sums staying float64: float64 follows scikit-learn to rounding at any size; float32 reads half the bytes and moves the objective by about 1e-9 of its value; auto is float32 from 2^23 stored entries on (of the whole corpus, in memory and out of core)",
		accept: func(s string) error { _, err := nmf.ParseGathers(s); return err }}
}

// nmfInitParam declares the initialisation of nmf and tsnmf, among inits.
func nmfInitParam(inits []string, doc string) Param {
	return Param{Name: "init", Choices: inits, Default: "auto", Doc: doc,
		accept: func(s string) error {
			s = strings.TrimSpace(s)
			if strings.EqualFold(s, "acol") || slices.ContainsFunc(inits, func(n string) bool { return strings.EqualFold(s, n) }) {
				return nil
			}
			return fmt.Errorf("unknown initialisation %q", s)
		}}
}

// nmfGathers parses the gathers precision of o (unset: auto).
func nmfGathers(o Options) (nmf.Gathers, error) {
	if o.Gathers == "" {
		return nmf.GathersAuto, nil
	}
	return nmf.ParseGathers(o.Gathers)
}

// nmfOptions parses the loss and initialisation of o, validated.
func nmfOptions(o Options) (nmf.Loss, nmf.Init, error) {
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

// fitNMF fits an nmf model, started from warm when it is set.
func fitNMF(ctx context.Context, x *sparse.CSR, vocab []string, sup Supervision, o Options, report progress.Func, warm *WarmStart) (Model, Info, error) {
	loss, init, err := nmfOptions(o)
	if err != nil {
		return nil, Info{}, err
	}
	gathers, err := nmfGathers(o)
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
	cfg := nmf.Config{K: o.K, Loss: loss, Init: init, Gathers: gathers, Seed: o.Seed, MaxIter: o.MaxIter, Tol: o.Tol,
		Seeds: seeds, SeedWeight: o.Beta, SeedRank: o.SeedRank, Progress: report}
	if warm != nil {
		note, err := warmNMF(ctx, &cfg, x, vocab, sup, names, o, warm)
		if err != nil {
			return nil, Info{}, err
		}
		notes = append(notes, note)
	}
	r, err := nmf.Fit(ctx, x, cfg)
	if err != nil {
		return nil, Info{}, seedError(err, names)
	}
	if len(r.Seeded) == 0 {
		seededNames = nil // no document holds a seed word: nothing steers the topics
	}
	m := &NMF{kind: KindNMF, H: r.H, Loss: loss, TopicNames: unseededNames(names, sup.Anchors, nil, vocab), LabelNames: seededNames, Vocab: vocab, weights: topicShares(r.W, r.H), train: r.W}
	if err := m.prepare(); err != nil {
		return nil, Info{}, err
	}
	return m, Info{Objective: r.FinalObjective(), Iterations: r.Iterations, Convergence: r.Convergence, Notes: append(notes, r.Notes...)}, nil
}

// The bounds of a warm-started fit of the NMF family (nmf, tsnmf and
// ssnmf), when Options.MaxIter leaves them to the kind: from a previous
// optimum the objective falls by less than the tolerance from the first
// iteration on, so the rule may stop the fit only after warmMinIter
// iterations, which let a seed word added reach its topic's top words
// (on 20 Newsgroups, 20 nmf topics, a seed word added to a topic stood
// at rank 9 after 5 iterations, 6 after 10, 4 after 20), and
// warmMaxIter bounds it (a cold fit's objective, reached from its own
// start in 19 to 36 iterations there, is passed in 10).
const (
	warmMinIter = 10
	warmMaxIter = 30
)

// warmNMF sets the starting factors of the nmf or tsnmf fit cfg of the
// documents x (columns vocab), whose topics are named names, from warm,
// and its bounds (warmLimits); it returns the note saying so.
func warmNMF(ctx context.Context, cfg *nmf.Config, x *sparse.CSR, vocab []string, sup Supervision, names []string, o Options, warm *WarmStart) (string, error) {
	prev, ok := warm.From.Model.(*NMF)
	if !ok {
		return "", fmt.Errorf("model: warm start: a %s model is no NMF model", warm.From.Model.Kind())
	}
	src, err := warm.topicSources(names, sup)
	if err != nil {
		return "", err
	}
	if cfg.W0, cfg.H0, err = warm.warmFactors(ctx, x, vocab, prev.H, src, cfg.Seeds, o.Seed); err != nil {
		return "", err
	}
	cfg.Init = nmf.InitCustom
	cfg.MaxIter, cfg.MinIter = warmLimits(o, warmMaxIter, warmMinIter)
	return warmNote(prev.kind, src, iterLimits(cfg.MaxIter, cfg.MinIter)), nil
}

// warmLimits returns the iteration bound of a warm-started fit and the
// iterations before its rule may stop it: o's bound when set, else the
// kind's warm maxIter; minIter at most the bound.
func warmLimits(o Options, maxIter, minIter int) (int, int) {
	if o.MaxIter > 0 {
		maxIter = o.MaxIter
	}
	return maxIter, min(minIter, maxIter)
}

// nmfParams is the JSON part of a saved nmf or tsnmf model; H is its
// matrix.
type nmfParams struct {
	Loss       string    `json:"loss"`
	TopicNames []string  `json:"topic_names"`
	LabelNames []string  `json:"label_names,omitempty"`
	Weights    []float64 `json:"topic_weights,omitempty"`
}

// saveNMF is the codec of the NMF type, which serves nmf and tsnmf.
func saveNMF(m Model) (any, map[string]*mat.Dense, error) {
	x := m.(*NMF)
	return nmfParams{Loss: x.Loss.String(), TopicNames: x.TopicNames, LabelNames: x.LabelNames, Weights: x.weights},
		map[string]*mat.Dense{"H": x.H}, nil
}

// loadNMF loads a model saved by saveNMF as one of kind.
func loadNMF(kind string, raw json.RawMessage, mats map[string]*mat.Dense, vocab []string) (Model, error) {
	var p nmfParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, err
	}
	h := mats["H"]
	if h == nil {
		return nil, fmt.Errorf("no H matrix")
	}
	loss, err := nmf.ParseLoss(p.Loss)
	if err != nil {
		return nil, err
	}
	k, m := h.Dims()
	if len(p.TopicNames) != k || m != len(vocab) || len(p.LabelNames) > k || (p.Weights != nil && len(p.Weights) != k) {
		return nil, fmt.Errorf("inconsistent shapes: H %d×%d, %d topic names, %d terms", k, m, len(p.TopicNames), len(vocab))
	}
	nm := &NMF{kind: kind, H: h, Loss: loss, TopicNames: p.TopicNames, LabelNames: p.LabelNames, Vocab: vocab, weights: p.Weights}
	if err := nm.prepare(); err != nil {
		return nil, err
	}
	return nm, nil
}

// nmfKind is plain NMF, unsupervised or steered by seed words (Guided NMF).
type nmfKind struct{}

func (nmfKind) Name() string   { return KindNMF }
func (nmfKind) Preset() string { return "default" }
func (nmfKind) Doc() string {
	return "Non-negative matrix factorization (scikit-learn's NMF): k topics, unsupervised, or steered by seed words as in Guided NMF (Vendrow et al. 2021)."
}
func (nmfKind) Params() []Param {
	return []Param{
		{Name: "topics", Required: true, Range: atLeast(1), Default: "none: required",
			Doc: "the number of topics: the seeded ones first, named after their anchors, then topic-N"},
		seedParam(),
		maxIterParam("iterations of the solver", nmf.DefaultMaxIter),
		tolParam("stops the fit when an iteration decreases the objective by less than this share of it", nmf.DefaultTol),
		nmfLossParam("frobenius"),
		nmfGathersParam(),
		nmfInitParam(nmfInits(), "the start: auto is nndsvda when k ≤ min(documents, terms), else random (scikit-learn's); random-acol averages random documents; with seed words a seeded topic starts from the documents holding them"),
		{Name: "beta", SeedWords: true, Range: strengths(), Default: "1",
			Doc: "multiplies the weight of each seeded topic's pseudo-document of seed words (Guided NMF), by default an average topic's share of the corpus scaled by the odds of the share its seed words hold where they occur"},
		seedRankParam(),
		readoutParam(),
	}
}

func (nmfKind) Takes() Takes {
	return Takes{Seeds: true, Exclusions: true,
		How: "seed words: each seeded topic also fits a pseudo-document of its seed words (Guided NMF), which --beta weighs; exclusion words weigh exactly zero in their topic"}
}
func (nmfKind) fit(ctx context.Context, d *data, o Options) (Model, Info, error) {
	return fitNMF(ctx, d.x, d.vocab, d.sup, o, d.report, nil)
}
func (nmfKind) fitWarm(ctx context.Context, d *data, o Options, w *WarmStart) (Model, Info, error) {
	return fitNMF(ctx, d.x, d.vocab, d.sup, o, d.report, w)
}
func (nmfKind) save(m Model) (any, map[string]*mat.Dense, error) { return saveNMF(m) }
func (nmfKind) load(raw json.RawMessage, mats map[string]*mat.Dense, vocab []string) (Model, error) {
	return loadNMF(KindNMF, raw, mats, vocab)
}

func (nmfKind) newLimitsOnResume() bool { return true }

func (nmfKind) fitShards(ctx context.Context, d *shardData, o Options) (*Fitted, error) {
	src, st, vocab, anchors, report := d.src, d.store, d.vocab, d.anchors, d.report
	loss, init, err := nmfOptions(o)
	if err != nil {
		return nil, err
	}
	gathers, err := nmfGathers(o)
	if err != nil {
		return nil, err
	}
	if seeded(anchors) {
		return nil, errSeedsOutOfCore(KindNMF)
	}
	names, _, err := anchorTopicNames(KindNMF, anchors, vocab, o.K)
	if err != nil {
		return nil, err
	}
	seeds, notes, err := anchorTerms(KindNMF, anchors, names, vocab)
	if err != nil {
		return nil, err
	}
	r, err := nmf.FitBlocks(ctx, src, st, nmf.Config{K: o.K, Loss: loss, Init: init, Gathers: gathers, Seed: o.Seed, MaxIter: o.MaxIter, Tol: o.Tol, Seeds: seeds, Progress: report})
	if err != nil {
		return nil, err
	}
	shares, err := blockShares(src, st, r)
	if err != nil {
		return nil, err
	}
	m := &NMF{kind: KindNMF, H: r.H, Loss: loss, TopicNames: names, Vocab: vocab, weights: shares}
	if err := m.prepare(); err != nil {
		return nil, err
	}
	return &Fitted{Model: m, Vocab: vocab, Info: Info{Objective: r.FinalObjective(), Iterations: r.Iterations, Convergence: r.Convergence,
		Notes: append(notes, "out of core, NMF starts from random-acol (Langville et al.): NNDSVD would need an SVD of the whole matrix")}}, nil
}

// errSeedsOutOfCore refuses seed words in an out-of-core NMF-family fit.
func errSeedsOutOfCore(kind string) error {
	return fmt.Errorf("model: out of core, %s models take exclusion words (topic: -word) but not seed words; fit the corpus in memory for seed words (guided NMF)", kind)
}
