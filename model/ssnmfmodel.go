package model

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/metrics"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/ssnmf"
)

// KindSSNMF is the name of the ssnmf kind.
const KindSSNMF = "ssnmf"

// SSNMF is a fitted semi-supervised NMF model: topics H (topics × terms)
// and the label matrix B (labels × topics); documents are represented with
// H fixed and labelled by B times their representation.
type SSNMF struct {
	r          *ssnmf.Model
	LabelNames []string
	// TopicNames names the topics when anchors did (seeded topics first,
	// then those with exclusion words only, then topic-N); nil names
	// them topic-1, topic-2, ...
	TopicNames []string
	// MultiLabel models predict every label whose score reaches Threshold
	// (at least the best one); single-label models predict the argmax.
	MultiLabel bool
	Threshold  float64
	Vocab      []string
	weights    []float64
	// train is the training documents' W as the fit left them, until
	// Fit moves it to Fitted.DocTopics.
	train *mat.Dense
	readoutHolder
}

// Kind implements Model.
func (m *SSNMF) Kind() string { return KindSSNMF }

// scoreKind says what Predict's native scores are.
func (m *SSNMF) scoreKind() ScoreKind {
	return ScoreKind{"class-score", "the class score B·w of the document's topic weights w (≥ 0); the highest is predicted (with several labels: those at the model's threshold or above)"}
}

// NumTopics implements Model.
func (m *SSNMF) NumTopics() int { k, _ := m.r.H.Dims(); return k }

// Labels implements Predictor.
func (m *SSNMF) Labels() []string { return m.LabelNames }

// Topics implements Model: words by the row-normalised topics; each topic's
// label is the class its column of the normalised B favours.
func (m *SSNMF) Topics(n int) ([]Topic, error) {
	hn := normalizedRows(m.r.H)
	nb, err := m.r.NormalizedB()
	if err != nil {
		return nil, fmt.Errorf("model: ssnmf topics: %w", err)
	}
	out := make([]Topic, m.NumTopics())
	for t := range out {
		name := fmt.Sprintf("topic-%d", t+1)
		if t < len(m.TopicNames) {
			name = m.TopicNames[t]
		}
		out[t] = Topic{Name: name, Words: topicWords(hn.RawRowView(t), m.Vocab, n)}
		best := metrics.Argmax(mat.Col(nil, t, nb))
		out[t].Label = m.LabelNames[best]
		out[t].Score = nb.At(best, t)
		if m.weights != nil {
			out[t].Weight = m.weights[t]
		}
	}
	return markEmpty(out, m.weights != nil), nil
}

// Transform implements Model: the representation of each document with
// the topics fixed (exact NNLS for a Frobenius reconstruction loss, 20
// multiplicative updates from a start shared by all documents for the
// I-divergence).
func (m *SSNMF) Transform(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) {
	return m.r.Transform(ctx, x)
}

// Predict implements Predictor: scores B·s per document.
func (m *SSNMF) Predict(ctx context.Context, x *sparse.CSR) (*Prediction, error) {
	w, err := m.Transform(ctx, x)
	if err != nil {
		return nil, err
	}
	return m.predictWeights(x, w)
}

// takeTraining implements fitWeights.
func (m *SSNMF) takeTraining() *mat.Dense {
	w := m.train
	m.train = nil
	return w
}

// predictWeights implements fitWeights: the labels of the documents x
// whose topic weights are w.
func (m *SSNMF) predictWeights(x *sparse.CSR, w *mat.Dense) (*Prediction, error) {
	scores, err := m.r.Scores(w)
	if err != nil {
		return nil, err
	}
	if !m.MultiLabel || m.ro != nil {
		return m.ro.apply(x, newPrediction(x, w, scores, argmaxLabels(scores, m.LabelNames)), m.LabelNames)
	}
	var labels [][]string
	for _, idx := range metrics.Threshold(scores, m.Threshold, true) {
		var ls []string
		for _, c := range idx {
			ls = append(ls, m.LabelNames[c])
		}
		labels = append(labels, ls)
	}
	return newPrediction(x, w, scores, labels), nil
}

// ClassTopicMatrix returns the column-normalised B (labels × topics), the
// paper's Figure 2.
func (m *SSNMF) ClassTopicMatrix() ([]string, *mat.Dense) {
	nb, err := m.r.NormalizedB()
	if err != nil {
		return nil, nil
	}
	return m.LabelNames, nb
}

type ssnmfParams struct {
	Model         string    `json:"model"`
	Lambda        float64   `json:"lambda"`
	Epsilon       float64   `json:"epsilon"`
	LabelNames    []string  `json:"label_names"`
	TopicNames    []string  `json:"topic_names,omitempty"`
	MultiLabel    bool      `json:"multi_label,omitempty"`
	Threshold     float64   `json:"threshold,omitempty"`
	TransformIter int       `json:"transform_iter"`
	TransformSeed uint64    `json:"transform_seed"`
	Weights       []float64 `json:"topic_weights,omitempty"`
}

func (m *SSNMF) save() (any, map[string]*mat.Dense, error) {
	return ssnmfParams{Model: m.r.Losses.String(), Lambda: m.r.Lambda, Epsilon: m.r.Epsilon, LabelNames: m.LabelNames, TopicNames: m.TopicNames,
			MultiLabel: m.MultiLabel, Threshold: m.Threshold, TransformIter: m.r.Represent.Iter, TransformSeed: m.r.Represent.Seed, Weights: m.weights},
		map[string]*mat.Dense{"H": m.r.H, "B": m.r.B}, nil
}

func loadSSNMF(raw json.RawMessage, mats map[string]*mat.Dense, vocab []string) (Model, error) {
	var p ssnmfParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, err
	}
	mod, err := ssnmf.ParseModel(p.Model)
	if err != nil {
		return nil, err
	}
	h, b := mats["H"], mats["B"]
	if h == nil || b == nil {
		return nil, fmt.Errorf("missing H or B")
	}
	k, terms := h.Dims()
	c, kb := b.Dims()
	if terms != len(vocab) || kb != k || c != len(p.LabelNames) || (p.Weights != nil && len(p.Weights) != k) || (p.TopicNames != nil && len(p.TopicNames) != k) {
		return nil, fmt.Errorf("inconsistent shapes: H %d×%d, B %d×%d, %d labels, %d terms", k, terms, c, kb, len(p.LabelNames), len(vocab))
	}
	r := &ssnmf.Model{Losses: mod, Lambda: p.Lambda, Epsilon: p.Epsilon, H: h, B: b,
		Represent: ssnmf.TransformConfig{Iter: p.TransformIter, Seed: p.TransformSeed, SameStart: true}}
	if err := r.Prepare(); err != nil {
		return nil, err
	}
	return &SSNMF{r: r, LabelNames: p.LabelNames, TopicNames: p.TopicNames, MultiLabel: p.MultiLabel, Threshold: p.Threshold, Vocab: vocab,
		weights: p.Weights}, nil
}

// DefaultLambda is SSNMF's λ with every document labeled (the paper's 100);
// by default an SSNMF model takes DefaultLambda times the share of its
// documents that are labeled.
const DefaultLambda = 100

// fitSSNMF fits an ssnmf model, started from warm when it is set.
func fitSSNMF(ctx context.Context, x *sparse.CSR, vocab []string, sup Supervision, o Options, report progress.Func, warm *WarmStart) (Model, Info, error) {
	seedsAlone := !sup.labeled() && seeded(sup.Anchors)
	sup, seedNotes, err := labelBySeeds(KindSSNMF, x, vocab, sup)
	if err != nil {
		return nil, Info{}, err
	}
	if !sup.labeled() {
		return nil, Info{}, fmt.Errorf("model: ssnmf needs labeled documents (for example --labels-from-corpus) or seed words")
	}

	loss := o.Loss
	if loss == "" {
		loss = "D,F"
	}
	mod, err := ssnmf.ParseModel(loss)
	if err != nil {
		return nil, Info{}, err
	}
	names, idx := sup.labelIndex()
	// With seed words alone the classes are the seeded topics, also those
	// whose seed words single out no document (each document holding them
	// holds another topic's too): their pseudo-documents, labeled below,
	// are their only examples. On Brown with ten seed words a class the
	// seed words label 2 of the 500 documents; SSNMF then knew 2 of its 15
	// classes and predicted 7–13% (majority 16%), and with every seeded
	// class 24–39%.
	if seedsAlone {
		seededNames, _, err := seedColumns(x, vocab, sup.Anchors)
		if err != nil {
			return nil, Info{}, err
		}
		for _, n := range seededNames {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	k := o.K
	if k == 0 {
		// One topic per label, and one per other topic the anchors name
		// (such as a seeded topic none of whose seed words is in the
		// vocabulary, which then says so in its name).
		k = len(names)
		seen := map[string]bool{}
		for _, a := range sup.Anchors {
			if !slices.Contains(names, a.Topic) && !seen[a.Topic] {
				seen[a.Topic] = true
				k++
			}
		}
	}
	if err := checkTopics("k (one topic per label)", k, x.Rows, x.Cols); err != nil {
		return nil, Info{}, err
	}
	multi := false
	for _, l := range idx {
		multi = multi || len(l) > 1
	}
	y, err := ssnmf.MultiHot(idx, len(names))
	if err != nil {
		return nil, Info{}, err
	}
	rowW := make([]float64, len(idx))
	labeled := 0
	for i, l := range idx {
		if len(l) > 0 {
			rowW[i] = 1
			labeled++
		}
	}
	// λ weighs each labeled document's label error against its
	// reconstruction error. The paper's 100 was tuned with every training
	// document labeled; with few labeled documents so heavy a weight lets
	// their labels alone set their representation, which the topics
	// learned from the unlabeled majority no longer explain, and B then
	// maps topics to the wrong labels (docs/results/label-efficiency.md).
	// The default scales it by the share of labeled documents.
	lambda := o.Lambda
	if lambda == 0 {
		lambda = DefaultLambda * float64(labeled) / float64(len(idx))
	}
	cfg := ssnmf.Config{K: k, Losses: mod, Y: y, Lambda: lambda, LabelRowWeights: rowW, Seed: o.Seed,
		MaxIter: o.MaxIter, Tol: o.Tol, Progress: report}
	// Anchors: seeded topics first, named (Guided SSNMF, the GSSNMF of Li
	// et al., 2022: the pseudo-documents of the seed words weigh μ in the
	// data term and nothing in the label term), then the topics with
	// exclusion words only. μ is Guided NMF's, scaled by the odds of the
	// share the seed words hold in the documents holding them
	// (nmf.NewGuide): at Guided NMF's weight the seed words took nearly
	// all of their topics' mass, and B, read from topics that no longer
	// describe the documents, predicted below the labels alone. A seeded
	// fit starts where the seed words point: B maps each topic named like
	// a label to it (ssnmf.Config.TopicClasses).
	var topicNames, notes []string
	if len(sup.Anchors) > 0 {
		if topicNames, _, err = anchorTopicNames(KindSSNMF, sup.Anchors, vocab, k); err != nil {
			return nil, Info{}, err
		}
		if cfg.Seeds, notes, err = anchorTerms(KindSSNMF, sup.Anchors, topicNames, vocab); err != nil {
			return nil, Info{}, err
		}
		cfg.SeedWeight = o.Beta
		cfg.TopicClasses = make([]int, k)
		for t := range cfg.TopicClasses {
			cfg.TopicClasses[t] = slices.Index(names, topicNames[t])
		}
		// With seed words alone a pseudo-document is a document of its
		// seeded topic's class, with the label weight of a labeled
		// document.
		cfg.SeedLabels = seedsAlone
	}
	if warm != nil {
		note, err := warmSSNMF(ctx, &cfg, x, vocab, sup, topicNames, names, o, warm)
		if err != nil {
			return nil, Info{}, err
		}
		notes = append(notes, note)
	}
	if o.HoldLabels && warm != nil {
		// The previous model says which topics serve which label: the
		// labeled documents are held from the start.
		cfg.W0, cfg.WMask = holdMask(x, idx, cfg.W0, cfg.B0)
	}
	r, err := ssnmf.Fit(ctx, x, cfg)
	if err != nil {
		return nil, Info{}, seedError(err, topicNames)
	}
	notes = append(notes, r.Notes...)
	r.Represent = ssnmf.TransformConfig{Seed: o.Seed, SameStart: true}
	m := &SSNMF{r: r, LabelNames: names, TopicNames: unseededNames(topicNames, sup.Anchors, names, vocab), MultiLabel: multi, Vocab: vocab}
	if multi {
		m.Threshold = 0.5
	}
	if o.HoldLabels {
		note, err := m.holdLabels(ctx, x, cfg, idx, sup.Labels)
		if err != nil {
			return nil, Info{}, seedError(err, topicNames)
		}
		notes = append(notes, note)
		r = m.r
	}
	m.weights = topicShares(r.W, r.H)
	info := Info{Objective: r.FinalObjective(), Iterations: r.Iterations, Convergence: r.Convergence,
		Notes: append(append(seedNotes, fmt.Sprintf("%s-SSNMF, λ = %.4g: %d of %d documents labeled (the others have zero label weight)", mod, lambda, labeled, len(idx))), notes...)}
	if multi {
		info.Notes = append(info.Notes, "multi-label: a document gets every label scoring at least 0.5, and at least its best")
	}
	m.train, r.W = r.W, nil // Fit moves it to Fitted.DocTopics
	return m, info, nil
}

// The label hold of ssnmf (Options.HoldLabels): at most holdRounds fits
// after the first, each from the last one's factors with at most
// holdIter iterations.
const (
	holdRounds = 3
	holdIter   = 30
)

// holdLabels refits m (fitted with cfg on the documents x, labeled idx)
// holding each labeled document to the topics that serve its labels, as
// TS-NMF does: a topic serves the class of its column of B's largest
// entry (a class no topic serves, the topic of its row of the
// column-normalised B's largest entry), so that a document using only
// its labels' topics scores its labels highest. B moves with the refit,
// and with it which topics serve which class: the refits go on until
// every labeled document holding a term is predicted with its labels
// (truth, by name), or holdRounds. It returns the note saying what it did.
func (m *SSNMF) holdLabels(ctx context.Context, x *sparse.CSR, cfg ssnmf.Config, idx [][]int, truth [][]string) (string, error) {
	from := "without the hold"
	if cfg.WMask != nil {
		from = "held by the previous model's B"
	}
	cfg.MaxIter = holdIter
	round, first := 0, -1
	for ; ; round++ {
		p, err := m.predictWeights(x, m.r.W)
		if err != nil {
			return "", err
		}
		// A labeled document without a term gets no label (Empty): no
		// hold can change that, and it is not counted.
		right, labeled, empty, err := p.Accuracy(truth)
		if err != nil {
			return "", err
		}
		miss := labeled - right - empty
		if first < 0 {
			first = miss
		}
		if miss == 0 || round == holdRounds {
			return fmt.Sprintf("labels held: each labeled document uses only the topics serving its labels (by B); %d predicted without them after the fit (%s), %d after %d refits of at most %d iterations", first, from, miss, round, holdIter), nil
		}
		w0, mask := holdMask(x, idx, m.r.W, m.r.B)
		cfg.W0, cfg.H0, cfg.B0, cfg.WMask = w0, m.r.H, m.r.B, mask
		r, err := ssnmf.Fit(ctx, x, cfg)
		if err != nil {
			return "", err
		}
		r.Represent, r.Notes = m.r.Represent, m.r.Notes
		r.Iterations += m.r.Iterations
		m.r = r
	}
}

// holdMask returns the W mask that holds each labeled document of x
// (labels idx) to the topics serving its labels under b (servingClasses),
// and w with each held row's weights outside them zeroed and those inside
// lifted off zero, where a multiplicative update would leave them.
func holdMask(x *sparse.CSR, idx [][]int, w, b *mat.Dense) (*mat.Dense, *mat.Dense) {
	n, k := w.Dims()
	serve := servingClasses(b)
	mask := mat.NewDense(n, k, nil)
	w0 := mat.DenseCopyOf(w)
	for i := 0; i < n; i++ {
		row := mask.RawRowView(i)
		if len(idx[i]) == 0 || x.Indptr[i+1] == x.Indptr[i] {
			for t := range row {
				row[t] = 1
			}
			continue
		}
		wr := w0.RawRowView(i)
		top := 0.0
		for _, v := range wr {
			top = max(top, v)
		}
		for t, c := range serve {
			if slices.Contains(idx[i], c) {
				row[t] = 1
				wr[t] = max(wr[t], 1e-3*top, 1e-9)
			} else {
				wr[t] = 0
			}
		}
	}
	return w0, mask
}

// servingClasses returns the class each topic serves for B (classes ×
// topics): the class of the column's largest entry; a class that is the
// largest of no column takes the topic where it weighs most against the
// column's sum, unless that topic is the only one of its own class.
func servingClasses(b *mat.Dense) []int {
	c, k := b.Dims()
	serve := make([]int, k)
	count := make([]int, c)
	for t := 0; t < k; t++ {
		best := 0
		for cl := 1; cl < c; cl++ {
			if b.At(cl, t) > b.At(best, t) {
				best = cl
			}
		}
		serve[t] = best
		count[best]++
	}
	for cl := 0; cl < c; cl++ {
		if count[cl] > 0 {
			continue
		}
		bt, bs := -1, -1.0
		for t := 0; t < k; t++ {
			sum := 0.0
			for o := 0; o < c; o++ {
				sum += b.At(o, t)
			}
			if sum > 0 && count[serve[t]] > 1 && b.At(cl, t)/sum > bs {
				bt, bs = t, b.At(cl, t)/sum
			}
		}
		if bt >= 0 {
			count[serve[bt]]--
			serve[bt] = cl
			count[cl]++
		}
	}
	return serve
}

// warmSSNMF sets the starting factors of the ssnmf fit cfg of the
// documents x (columns vocab) from warm — W and H as nmf's (warmFactors),
// B from the previous model's B, its classes matched by name, a new
// class or topic starting at the mean entry of B — and its bounds
// (warmLimits); it returns the note saying so. topicNames names the topics when anchors do (nil:
// topic-N), classes are the fit's classes.
func warmSSNMF(ctx context.Context, cfg *ssnmf.Config, x *sparse.CSR, vocab []string, sup Supervision, topicNames, classes []string, o Options, warm *WarmStart) (string, error) {
	prev, ok := warm.From.Model.(*SSNMF)
	if !ok {
		return "", fmt.Errorf("model: warm start: a %s model is no SSNMF model", warm.From.Model.Kind())
	}
	names := topicNames
	if names == nil {
		names = make([]string, cfg.K)
		for t := range names {
			names[t] = fmt.Sprintf("topic-%d", t+1)
		}
	}
	src, err := warm.topicSources(names, sup)
	if err != nil {
		return "", err
	}
	if cfg.W0, cfg.H0, err = warm.warmFactors(ctx, x, vocab, prev.r.H, src, cfg.Seeds, o.Seed); err != nil {
		return "", err
	}
	b := prev.r.B
	pc, _ := b.Dims()
	mean, n := 0.0, 0
	for c := 0; c < pc; c++ {
		for _, v := range b.RawRowView(c) {
			if v > 0 {
				mean += v
				n++
			}
		}
	}
	if n > 0 {
		mean /= float64(n)
	} else {
		mean = 1
	}
	b0 := mat.NewDense(len(classes), cfg.K, nil)
	for c, name := range classes {
		pcl := slices.Index(prev.LabelNames, name)
		row := b0.RawRowView(c)
		for t, from := range src {
			if pcl < 0 || len(from) == 0 {
				row[t] = mean
				if cfg.TopicClasses != nil && cfg.TopicClasses[t] == c {
					row[t] = mat.Max(b)
				}
				continue
			}
			for _, q := range from {
				row[t] += b.At(pcl, q) / float64(len(from))
			}
		}
	}
	liftZeros(b0)
	cfg.B0 = b0
	cfg.MaxIter, cfg.MinIter = warmLimits(o, warmMaxIter, warmMinIter)
	return warmNote(KindSSNMF, src, iterLimits(cfg.MaxIter, cfg.MinIter)), nil
}

// ssnmfKind is semi-supervised NMF (Lee, Yoo & Choi 2010; Haddock,
// Kassab et al. 2021): the documents and their labels factorized jointly.
type ssnmfKind struct{}

func (ssnmfKind) Name() string   { return KindSSNMF }
func (ssnmfKind) Preset() string { return "ssnmf" }
func (ssnmfKind) Doc() string {
	return "Semi-supervised NMF (Haddock, Kassab et al. 2021, the four Frobenius / I-divergence models): the documents and their labels factorized jointly, X ≈ AS and Y ≈ BS, giving topics and a classifier at once."
}
func (ssnmfKind) Params() []Param {
	return []Param{
		{Name: "topics", Range: atLeast(1), Default: "one per label and per other topic the anchors name",
			Doc: "the number of topics, which B maps to the labels"},
		seedParam(),
		maxIterParam("iterations of the multiplicative updates", ssnmf.DefaultMaxIter),
		tolParam("stops the fit when an iteration decreases the objective by less than this share of it", ssnmf.DefaultTol),
		{Name: "loss", Choices: []string{"F,F", "F,D", "D,F", "D,D"}, Default: "D,F",
			Doc:    "the losses of the reconstruction and of the label terms: F, Frobenius; D, I-divergence (the paper's four models)",
			accept: func(s string) error { _, err := ssnmf.ParseModel(s); return err }},
		{Name: "lambda", Range: positive(), Default: fmt.Sprintf("%d × the labeled share of the documents", DefaultLambda),
			Doc: "the weight of the label term against the reconstruction"},
		{Name: "beta", SeedWords: true, Range: strengths(), Default: "1",
			Doc: "multiplies the weight of each seeded topic's pseudo-document of seed words, as in nmf"},
		holdLabelsParam("the fit goes on from where it was with each labeled document using only the topics that serve its labels (a topic serves the label it weighs most in B), until every labeled document is predicted with its labels or 3 refits"),
		readoutParam(),
		autoParam(),
	}
}

func (ssnmfKind) Takes() Takes {
	return Takes{Labels: true, Seeds: true, Exclusions: true,
		How: "labels, seed words or both; seed words alone label the documents most of whose seed words are one topic's, and each seeded topic fits a pseudo-document of its seed words (GSSNMF, Li et al. 2022)"}
}
func (ssnmfKind) fit(ctx context.Context, d *data, o Options) (Model, Info, error) {
	return fitSSNMF(ctx, d.x, d.vocab, d.sup, o, d.report, nil)
}
func (ssnmfKind) fitWarm(ctx context.Context, d *data, o Options, w *WarmStart) (Model, Info, error) {
	return fitSSNMF(ctx, d.x, d.vocab, d.sup, o, d.report, w)
}
func (ssnmfKind) save(m Model) (any, map[string]*mat.Dense, error) { return m.(*SSNMF).save() }
func (ssnmfKind) load(raw json.RawMessage, mats map[string]*mat.Dense, vocab []string) (Model, error) {
	return loadSSNMF(raw, mats, vocab)
}

// grid tries the default λ (DefaultLambda times the labeled share, given
// explicitly so that the folds, with fewer labels, fit the same λ as the
// final fit), a tenth of it (the labels weigh less than the data), and
// with it room for the structure of the unlabeled documents.
func (ssnmfKind) grid(o Options, g gridInfo) []Options {
	def, tenth := o, o
	setFloatIf(&def.Lambda, o.Lambda, DefaultLambda*g.share)
	setFloatIf(&tenth.Lambda, o.Lambda, DefaultLambda*g.share/10)
	wide := tenth
	setIntIf(&wide.K, o.K, 2*g.labels)
	return []Options{def, tenth, wide}
}

func (ssnmfKind) describe(o Options) []string {
	var parts []string
	if o.K > 0 {
		parts = append(parts, fmt.Sprintf("k %d", o.K))
	}
	if o.Lambda > 0 {
		parts = append(parts, fmt.Sprintf("λ %.3g", o.Lambda))
	}
	if o.Loss != "" {
		parts = append(parts, "losses "+o.Loss)
	}
	return parts
}

func (ssnmfKind) fallbackReadout() string { return ReadoutTopics }
