package model

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/lda"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/supervision"
)

// KindLDA is the name of the lda kind.
const KindLDA = "lda"

// Seed modes of LDA (Options.SeedMode): how seed words steer their topics.
const (
	// SeedPrior raises the topic-word prior of each topic's seed words
	// (seeded LDA; the default).
	SeedPrior = "prior"
	// SeedZLabels restricts each seed word to its topics (z-labels LDA):
	// its weight in every other topic is exactly zero; no prior boost.
	SeedZLabels = "zlabels"
	// SeedBoth does both.
	SeedBoth = "both"
)

// SeedModes lists the seed modes of LDA.
func SeedModes() []string { return []string{SeedPrior, SeedZLabels, SeedBoth} }

// LDA is a fitted LDA model. Supervised by labels or anchors, its first
// topics are named after them: the labels' topics (labels in sorted
// order), then the anchors' topics that are not labels (those with seed
// words first), then the free topics topic-N.
type LDA struct {
	m *lda.Model
	// TopicNames names each topic (nil in a model without names, whose
	// topics are topic-N).
	TopicNames []string
	// LabelNames are the topics the model predicts, the first ones: the
	// labels and the topics with seed words (none for an unsupervised
	// model or one with exclusion words only).
	LabelNames []string
	Vocab      []string
	weights    []float64
}

// ldaParams are the LDA settings a saved model keeps: Transform needs the
// priors, the E-step bounds and the restriction of the z-labels seed words
// and exclusions; the seed prior keeps the model's bound (lda.Model.Score)
// as fitted.
type ldaParams struct {
	DocTopicPrior, TopicWordPrior float64
	MaxDocUpdateIter              int
	MeanChangeTol                 float64
	Seed                          uint64
	SeedWords                     []ldaSeedWord           `json:",omitempty"`
	SeedPrior                     float64                 `json:",omitempty"`
	ZLabels                       bool                    `json:",omitempty"`
	Exclude                       []supervision.Exclusion `json:",omitempty"`
	TopicNames                    []string                `json:",omitempty"`
	LabelNames                    []string                `json:",omitempty"`
}

// ldaSeedWord is a seed term as a saved model records it: its topic, its
// term, its strength and its count in the training corpus
// (lda.Config.Seeds and SeedCounts).
type ldaSeedWord struct {
	Topic, Term   int
	Weight, Count float64
}

// Kind implements Model.
func (m *LDA) Kind() string { return KindLDA }

// scoreKind says what Predict's scores are.
func (m *LDA) scoreKind() ScoreKind {
	return ScoreKind{"proportion", "the label topic's share θ of the document (0 to 1); the highest is predicted"}
}

// NumTopics implements Model.
func (m *LDA) NumTopics() int { return m.m.Topics() }

// Topics implements Model: words weighted by the topic-word probabilities,
// zero for a word the topic may not use (an excluded word, or a z-labels
// seed word of other topics: its φ in the topic is zero).
func (m *LDA) Topics(n int) ([]Topic, error) {
	tw := m.m.TopicWord()
	out := make([]Topic, m.NumTopics())
	for t := range out {
		out[t] = Topic{Name: fmt.Sprintf("topic-%d", t+1), Words: topicWords(tw.RawRowView(t), m.Vocab, n)}
		if t < len(m.TopicNames) {
			out[t].Name = m.TopicNames[t]
		}
		if t < len(m.LabelNames) {
			out[t].Label = m.LabelNames[t]
		}
		if m.weights != nil {
			out[t].Weight = m.weights[t]
		}
	}
	return markEmpty(out, m.weights != nil), nil
}

// Transform implements Model: the normalised document-topic distribution.
func (m *LDA) Transform(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) {
	return m.m.Transform(ctx, x)
}

// Labels implements Predictor: the names of the topics with labels or
// seed words (none for an unsupervised model).
func (m *LDA) Labels() []string { return m.LabelNames }

// Predict implements Predictor for a model with labels or seed words: a
// label's score is the document's θ in the label's topic; the prediction
// is the label of the largest.
func (m *LDA) Predict(ctx context.Context, x *sparse.CSR) (*Prediction, error) {
	if len(m.LabelNames) == 0 {
		return nil, fmt.Errorf("model: this lda model has no labeled or seeded topics and predicts none")
	}
	th, err := m.Transform(ctx, x)
	if err != nil {
		return nil, err
	}
	return m.predictWeights(x, th)
}

// predictWeights implements fitWeights: the labels of the documents x
// whose θ is th.
func (m *LDA) predictWeights(x *sparse.CSR, th *mat.Dense) (*Prediction, error) {
	if len(m.LabelNames) == 0 {
		return nil, fmt.Errorf("model: this lda model has no labeled or seeded topics and predicts none")
	}
	r, _ := th.Dims()
	scores := mat.DenseCopyOf(th.Slice(0, r, 0, len(m.LabelNames)))
	return newPrediction(x, th, scores, argmaxLabels(scores, m.LabelNames)), nil
}

// takeTraining implements fitWeights: an LDA fit keeps no θ (its
// training documents are read on demand, readTraining).
func (m *LDA) takeTraining() *mat.Dense { return nil }

// readTraining implements trainingReader: the training documents x as the
// training E-steps read them, each labeled document in its labels' topics
// (lda.Model.TransformTraining); false for a model loaded from a file,
// which no longer knows its documents' labels.
func (m *LDA) readTraining(ctx context.Context, x *sparse.CSR) (*mat.Dense, bool, error) {
	if len(m.m.Config().DocTopics) != x.Rows {
		return nil, false, nil
	}
	th, err := m.m.TransformTraining(ctx, x)
	return th, err == nil, err
}

func (m *LDA) params() ldaParams {
	o := m.m.Config()
	p := ldaParams{DocTopicPrior: o.DocTopicPrior, TopicWordPrior: o.TopicWordPrior, MaxDocUpdateIter: o.MaxDocUpdateIter,
		MeanChangeTol: o.MeanChangeTol, Seed: o.Seed, ZLabels: o.ZLabels, Exclude: o.Seeds.Exclude, TopicNames: m.TopicNames, LabelNames: m.LabelNames}
	for i, s := range o.Seeds.Seeds {
		w := ldaSeedWord{Topic: s.Topic, Term: s.Term, Weight: s.Strength}
		if o.SeedCounts != nil {
			w.Count = o.SeedCounts[i]
		}
		p.SeedWords = append(p.SeedWords, w)
	}
	if len(p.SeedWords) > 0 {
		p.SeedPrior = o.SeedPrior
	}
	return p
}

// config is the lda configuration of saved parameters.
func (p ldaParams) config() lda.Config {
	c := lda.Config{DocTopicPrior: p.DocTopicPrior, TopicWordPrior: p.TopicWordPrior,
		MaxDocUpdateIter: p.MaxDocUpdateIter, MeanChangeTol: p.MeanChangeTol, Seed: p.Seed,
		Seeds: supervision.Terms{Exclude: p.Exclude}, SeedPrior: p.SeedPrior, ZLabels: p.ZLabels}
	counted := false
	for _, w := range p.SeedWords {
		c.Seeds.Seeds = append(c.Seeds.Seeds, supervision.Seed{Topic: w.Topic, Term: w.Term, Strength: w.Weight})
		c.SeedCounts = append(c.SeedCounts, w.Count)
		counted = counted || w.Count != 0
	}
	if !counted {
		c.SeedCounts = nil
	}
	return c
}

// fitLDA fits an lda model, started from warm when it is set.
func fitLDA(ctx context.Context, x *sparse.CSR, vocab []string, sup Supervision, o Options, report progress.Func, warm *WarmStart) (Model, Info, error) {
	lo, sv, err := ldaSetup(o, sup, vocab, x.Rows, report)
	if err != nil {
		return nil, Info{}, err
	}
	var note string
	if warm != nil {
		if note, err = warmLDA(ctx, &lo, x, vocab, sup, sv, o, warm); err != nil {
			return nil, Info{}, err
		}
	}
	lm, err := lda.Fit(ctx, x, lo)
	if err != nil {
		return nil, Info{}, err
	}
	m, info := ldaModel(lm, vocab, sv)
	if note != "" {
		info.Notes = append(info.Notes, note)
	}
	return m, info, nil
}

// The passes of a warm-started lda fit, when Options.MaxIter leaves them
// to the kind (a cold fit runs 10).
const ldaWarmMaxIter = 3

// warmLDA sets the start of the lda fit lo of the documents x (columns
// vocab) from warm: a topic from the previous model's topics starts from
// their λ (summed, a split topic's shared; a term new to the model at the
// prior), a new topic as a cold fit starts it, and with the batch method
// each document's γ from its previous topic proportions (times Kα plus
// its length, the mass of γ); and its passes (ldaWarmMaxIter unless o sets
// them). It returns the note saying so.
func warmLDA(ctx context.Context, lo *lda.Config, x *sparse.CSR, vocab []string, sup Supervision, sv ldaSupervised, o Options, warm *WarmStart) (string, error) {
	prev, ok := warm.From.Model.(*LDA)
	if !ok {
		return "", fmt.Errorf("model: warm start: a %s model is no LDA model", warm.From.Model.Kind())
	}
	names := make([]string, lo.K)
	for t := range names {
		names[t] = fmt.Sprintf("topic-%d", t+1)
		if t < len(sv.names) {
			names[t] = sv.names[t]
		}
	}
	src, err := warm.topicSources(names, sup)
	if err != nil {
		return "", err
	}
	comp := prev.m.Components()
	kp, _ := comp.Dims()
	c := shares(src, kp)
	cols := warm.termMap(vocab)
	lambda := mat.NewDense(lo.K, len(vocab), nil)
	for t, from := range src {
		row := lambda.RawRowView(t)
		for _, q := range from {
			prow := comp.RawRowView(q)
			for j, col := range cols {
				if col >= 0 {
					row[j] += prow[col] / c[q]
				}
			}
		}
	}
	lo.Lambda0 = lambda
	if lo.Method == lda.Batch {
		dt, err := warm.docTopics(ctx, x, vocab)
		if err != nil {
			return "", err
		}
		theta := docColumns(dt, src)
		alpha := lo.DocTopicPrior
		if alpha == 0 {
			alpha = 1 / float64(lo.K)
		}
		for i := 0; i < x.Rows; i++ {
			_, vals := x.Row(i)
			mass := float64(lo.K)*alpha + floatsSum(vals)
			row := theta.RawRowView(i)
			for t := range row {
				row[t] = max(row[t]*mass, alpha) // γ ≥ α
			}
		}
		lo.Gamma0 = theta
	}
	lo.MaxIter, _ = warmLimits(o, ldaWarmMaxIter, 0)
	return warmNote(KindLDA, src, fmt.Sprintf("%d passes", lo.MaxIter)), nil
}

// ldaSetup checks the options of an LDA fit over docs documents and
// returns its configuration with the supervision.
func ldaSetup(o Options, sup Supervision, vocab []string, docs int, report progress.Func) (lda.Config, ldaSupervised, error) {
	lo, err := ldaConfig(o, report)
	if err != nil {
		return lda.Config{}, ldaSupervised{}, err
	}
	sv, err := ldaSupervision(&lo, sup, vocab, o)
	if err != nil {
		return lda.Config{}, ldaSupervised{}, err
	}
	if lo.K < 1 {
		return lda.Config{}, ldaSupervised{}, fmt.Errorf("model: lda needs k ≥ 1 topics (or anchors or labels to name them)")
	}
	if lo.K > docs || lo.K > len(vocab) {
		return lda.Config{}, ldaSupervised{}, checkTopics("k", lo.K, docs, len(vocab))
	}
	return lo, sv, nil
}

// ldaSupervised is what an LDA fit's supervision names: its topics, the
// ones it predicts, and notes on words missing from the vocabulary.
type ldaSupervised struct {
	names, labelNames, notes []string
}

// ldaSupervision sets lo's number of topics and supervision from the
// labels and anchors (see LDA for the order of the topics; a topic both
// labeled and anchored is one topic) and the seed mode.
func ldaSupervision(lo *lda.Config, sup Supervision, vocab []string, o Options) (ldaSupervised, error) {
	var sv ldaSupervised
	var idx [][]int
	if sup.labeled() {
		sv.labelNames, idx = sup.labelIndex()
		sv.names = append([]string(nil), sv.labelNames...)
	}
	labels := slices.Clone(sv.names)
	if len(sup.Anchors) > 0 {
		names, nSeeded, err := anchorNames(sup.Anchors, vocab)
		if err != nil {
			return sv, err
		}
		// The anchors' topics after the labels' topics.
		for i, n := range names {
			if slices.Contains(sv.names, n) {
				continue
			}
			sv.names = append(sv.names, n)
			if i < nSeeded {
				sv.labelNames = append(sv.labelNames, n)
			}
		}
	}
	if lo.K == 0 {
		lo.K = len(sv.names)
	}
	if lo.K < len(sv.names) {
		return sv, fmt.Errorf("model: k = %d is smaller than the %d named topics (labels and anchors: %s)", lo.K, len(sv.names), strings.Join(sv.names, ", "))
	}
	if len(sv.names) == 0 {
		return sv, nil
	}
	for t := len(sv.names); t < lo.K; t++ {
		sv.names = append(sv.names, fmt.Sprintf("topic-%d", t+1))
	}
	var err error
	if lo.Seeds, sv.notes, err = anchorTerms(KindLDA, sup.Anchors, sv.names, vocab); err != nil {
		return sv, err
	}
	// A topic that is not a label and none of whose seed words is in the
	// vocabulary says so in its name (its label keeps the anchors' name).
	sv.names = unseededNames(sv.names, sup.Anchors, labels, vocab)
	if len(lo.Seeds.Seeds) > 0 {
		switch o.SeedMode {
		case SeedZLabels:
			if o.Beta != 0 {
				return sv, fmt.Errorf("model: beta is the strength of lda's seed prior, which seed mode %s does not add (use %s)", SeedZLabels, SeedBoth)
			}
			for _, a := range sup.Anchors {
				for _, b := range a.Beta {
					if b != 0 {
						return sv, fmt.Errorf("model: seed word strengths (word:3) scale lda's seed prior, which seed mode %s does not add (use %s)", SeedZLabels, SeedBoth)
					}
				}
			}
			lo.ZLabels, lo.SeedPrior = true, -1
		case SeedBoth:
			lo.ZLabels, lo.SeedPrior = true, o.Beta
		default:
			lo.SeedPrior = o.Beta
		}
	}
	if idx != nil {
		lo.DocTopics = idx
	}
	return sv, nil
}

// ldaConfig is the LDA configuration of the options.
func ldaConfig(o Options, report progress.Func) (lda.Config, error) {
	method := lda.Batch
	if o.Method != "" {
		var err error
		if method, err = lda.ParseMethod(o.Method); err != nil {
			return lda.Config{}, err
		}
	}
	lo := lda.Config{K: o.K, Method: method, MaxIter: o.MaxIter, Seed: o.Seed}
	lo.Progress = report
	return lo, nil
}

// ldaModel wraps a fitted LDA model with its names, notes and topic
// shares: the fitted λ's row sums minus the prior.
func ldaModel(lm *lda.Model, vocab []string, sv ldaSupervised) (*LDA, Info) {
	m := &LDA{m: lm, Vocab: vocab, TopicNames: sv.names, LabelNames: sv.labelNames}
	comp := lm.Components()
	k, _ := comp.Dims()
	m.weights = make([]float64, k)
	total := 0.0
	prior := lm.TopicPrior()
	for t := 0; t < k; t++ {
		s := mat.Sum(comp.RowView(t)) - prior[t]
		if s < 0 {
			s = 0
		}
		m.weights[t] = s
		total += s
	}
	if total > 0 {
		for t := range m.weights {
			m.weights[t] /= total
		}
	}
	info := Info{Objective: lm.TrainPerplexity(), Iterations: lm.Passes(), Convergence: lm.Convergence(), Notes: []string{"objective: training perplexity"}}
	info.Notes = append(info.Notes, sv.notes...)
	return m, info
}

// ldaSaved is the JSON part of a saved LDA model.
type ldaSaved struct {
	ldaParams
	Weights []float64
}

// ldaKind is latent Dirichlet allocation with scikit-learn's variational
// Bayes, seeded, z-labels and labeled.
type ldaKind struct{}

func (ldaKind) Name() string   { return KindLDA }
func (ldaKind) Preset() string { return "lda" }
func (ldaKind) Doc() string {
	return "Latent Dirichlet allocation (variational Bayes, scikit-learn's semantics), batch or online; seeded LDA, z-labels LDA and labeled LDA when supervised."
}
func (ldaKind) Params() []Param {
	return []Param{
		{Name: "topics", Range: atLeast(1), Default: "one per named topic (labels and anchors)",
			Doc: "the number of topics: the labels' first, then the anchors', then topic-N"},
		seedParam(),
		maxIterParam("passes over the documents", 10),
		{Name: "method", Choices: []string{"batch", "online"}, Default: "batch",
			Doc: "the learning method: batch, one update per pass (out of core too); online, one per mini-batch of documents"},
		{Name: "beta", SeedWords: true, Range: strengths(), Default: "1",
			Doc: "the seed prior's strength (seed modes prior and both): a seed word gets this times its count in the corpus as extra prior pseudo-counts in its topic"},
		{Name: "seed-mode", SeedWords: true, Choices: SeedModes(), Default: SeedPrior,
			Doc: "how seed words steer their topics: prior, a larger prior (seeded LDA); zlabels, a weight exactly zero outside their topics (z-labels LDA); both"},
	}
}

func (ldaKind) Takes() Takes {
	return Takes{Labels: true, Seeds: true, Exclusions: true,
		How: "labels (labeled LDA: a labeled document uses its labels' topics only), seed words (--seed-mode prior: a larger prior; zlabels: exactly zero outside their topics; both) or both; exclusion words weigh exactly zero in their topic"}
}
func (ldaKind) fit(ctx context.Context, d *data, o Options) (Model, Info, error) {
	return fitLDA(ctx, d.x, d.vocab, d.sup, o, d.report, nil)
}
func (ldaKind) fitWarm(ctx context.Context, d *data, o Options, w *WarmStart) (Model, Info, error) {
	return fitLDA(ctx, d.x, d.vocab, d.sup, o, d.report, w)
}
func (ldaKind) save(m Model) (any, map[string]*mat.Dense, error) {
	x := m.(*LDA)
	return ldaSaved{x.params(), x.weights}, map[string]*mat.Dense{"lambda": mat.DenseCopyOf(x.m.Components())}, nil
}
func (ldaKind) load(raw json.RawMessage, mats map[string]*mat.Dense, vocab []string) (Model, error) {
	var p ldaSaved
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, err
	}
	lam := mats["lambda"]
	if lam == nil {
		return nil, fmt.Errorf("no lambda matrix")
	}
	if _, c := lam.Dims(); c != len(vocab) {
		return nil, fmt.Errorf("lambda has %d columns for %d terms", c, len(vocab))
	}
	lm, err := lda.FromComponents(lam, p.config())
	if err != nil {
		return nil, err
	}
	if k, _ := lam.Dims(); (p.TopicNames != nil && len(p.TopicNames) != k) || len(p.LabelNames) > k {
		return nil, fmt.Errorf("%d topic names and %d label names for %d topics", len(p.TopicNames), len(p.LabelNames), k)
	}
	return &LDA{m: lm, Vocab: vocab, TopicNames: p.TopicNames, LabelNames: p.LabelNames, weights: p.Weights}, nil
}

func (ldaKind) newLimitsOnResume() bool { return false }

func (ldaKind) fitShards(ctx context.Context, d *shardData, o Options) (*Fitted, error) {
	src, st, vocab, anchors, report := d.src, d.store, d.vocab, d.anchors, d.report
	if o.LabelsFromCorpus {
		return nil, fmt.Errorf("model: out of core, LDA takes anchor words but no labels (labeled LDA is trained in memory)")
	}
	docs, _ := src.Dims()
	lo, sv, err := ldaSetup(o, Supervision{Anchors: anchors}, vocab, docs, report)
	if err != nil {
		return nil, err
	}
	if lo.Method == lda.Online && src.NumBlocks() > 1 {
		// lda.FitBlocks runs it, but every mini-batch is a pass that reads
		// every shard.
		return nil, fmt.Errorf("model: online LDA out of core would read all %d shards for each mini-batch of documents; use the batch method (the default)", src.NumBlocks())
	}
	lm, err := lda.FitBlocks(ctx, src, st, lo)
	if err != nil {
		return nil, err
	}
	m, info := ldaModel(lm, vocab, sv)
	return &Fitted{Model: m, Vocab: vocab, Info: info}, nil
}
